"""The task input at the top of the main screen."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding

from routelens.routing.matching import MAX_TASK_CHARS
from routelens.tui.paste_guard import unguard
from routelens.tui.widgets.line_input import LineInput

__all__ = ["LINE_BREAK", "TaskInput", "routed_task", "shown_task"]

#: how the one-line input shows a line break of the task (the decision panel's symbol too)
LINE_BREAK = "↵"
_BREAKS = str.maketrans({c: LINE_BREAK for c in "\n\r\u2028\u2029\x85\x0b\x0c"})


def shown_task(text: str) -> str:
    """``text`` as the input shows it: one line, each line break (CRLF
    once) as :data:`LINE_BREAK`, so the characters line up one for one
    with the routed task."""
    return text.replace("\r\n", "\n").translate(_BREAKS)


def routed_task(value: str) -> str:
    """The task the input's ``value`` stands for: each :data:`LINE_BREAK`
    is a line break (a steering line starts a line; two requests on two
    lines are two asks, docs/formats.md §6.3, §6.11)."""
    return value.replace(LINE_BREAK, "\n")


class TaskInput(LineInput):
    """Single-line task entry. ``↓``/``↑`` move between the decision's hits
    (the main screen's ``next_hit``/``prev_hit`` actions); Escape clears the task.

    It holds at most :data:`MAX_TASK_CHARS` characters (10,000: what
    matching reads of a task, docs/formats.md §6.8): a flood of typed keys
    beyond it is dropped instead of re-laying out an ever longer value at
    each key (tens of thousands of keys froze the UI), and a longer paste is
    cut there, with a notice. A paste of several lines keeps them, each
    break shown as :data:`LINE_BREAK` and routed as a line break
    (:func:`routed_task`): Textual's ``Input`` kept only the first line, and
    lines joined by spaces routed another task than ``routelens route`` and
    the MCP server do (a ``SYSTEM:`` line mid-paste was no longer at a line
    start; two requests on two lines became one). Focusing
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
        text = shown_task(unguard(event.text).rstrip("\r\n"))  # (an ESC kept as text while pasted is ESC again)
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
