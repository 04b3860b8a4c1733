"""The task input at the top of the main screen."""

from __future__ import annotations

from textual.binding import Binding

from routelens.tui.widgets.line_input import LineInput

__all__ = ["TaskInput"]


class TaskInput(LineInput):
    """Single-line task entry. ``↓``/``↑`` move between the decision's hits
    (the main screen's ``next_hit``/``prev_hit`` actions); Escape clears the task."""

    BINDINGS = [
        Binding("down", "screen.next_hit", "Next hit", id="next-hit"),
        Binding("up", "screen.prev_hit", "Prev hit", id="prev-hit"),
        Binding("escape", "clear_task", "Clear", show=False, id="clear-task"),
    ]

    DEFAULT_CSS = """
    TaskInput {
        border: tall $accent;
        background: $surface;
        height: 3;
        &:focus { border: tall $accent; }
    }
    """

    def action_clear_task(self) -> None:
        self.value = ""
