"""The task input at the top of the main screen."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding

from routelens.routing.matching import MAX_TASK_CHARS
from routelens.tui.widgets.line_input import LineInput

__all__ = ["TaskInput"]


class TaskInput(LineInput):
    """Single-line task entry. ``↓``/``↑`` move between the decision's hits
    (the main screen's ``next_hit``/``prev_hit`` actions); Escape clears the task.

    It holds at most :data:`MAX_TASK_CHARS` characters (10,000: what
    matching reads of a task, docs/formats.md §6.8): a flood of typed keys
    beyond it is dropped instead of re-laying out an ever longer value at
    each key (tens of thousands of keys froze the UI), and a longer paste is
    cut there, with a notice. A paste of several lines becomes one line, its
    lines joined by spaces (Textual's ``Input`` kept only the first line, so
    the UI routed another task than ``routelens route`` would). Focusing
    the input (ctrl+l, Tab) leaves the text unselected, so typing goes on
    at the cursor instead of replacing the task."""

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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("select_on_focus", False)
        kwargs.setdefault("max_length", MAX_TASK_CHARS)
        super().__init__(*args, **kwargs)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # not Input's own handler too (it pastes the first line)
        text = " ".join(event.text.splitlines())
        if not text:
            return
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start))
        if len(text) > room:
            text = text[:max(room, 0)]
            self.notify(f"The task holds at most {MAX_TASK_CHARS:,} characters (what routing reads of a task): "
                        "the paste was cut there. Route a longer text with `routelens route`.",
                        severity="warning", timeout=6, markup=False)
        if text:
            self.replace(text, start, end)

    def action_clear_task(self) -> None:
        self.value = ""
