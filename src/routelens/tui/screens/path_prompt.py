"""A one-line question for a file path (the palette's "Labelled cases…"
and "Decision log…" when no file was given on the command line)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from routelens.tui.widgets.line_input import LineInput

__all__ = ["PathPrompt"]


class PathPrompt(ModalScreen[str | None]):
    """Asks for a path; dismisses with the text typed (Enter) or None (Esc).
    A path that names no file (relative to the working folder) keeps the
    prompt open and says so: a newcomer's typo ("nope.yaml") opened an empty
    screen whose keys then read the next words typed as shortcuts."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    PathPrompt { align: center middle; background: $background 60%; }
    PathPrompt > #box { width: 80; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    PathPrompt #question { height: auto; margin-bottom: 1; }
    PathPrompt #problem { height: auto; color: $error; }
    """

    def __init__(self, question: str, value: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(self.question, id="question")
            yield LineInput(value=self.value, placeholder="path/to/file", id="path")
            yield Static("", id="problem")

    def on_mount(self) -> None:
        field = self.query_one("#path", Input)
        field.cursor_blink = False
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        path = Path(text).expanduser()
        problem = ("" if path.is_file() else f"{text} is a folder, not a file" if path.is_dir()
                   else f"no file {text} (from {Path.cwd()}); Esc cancels")
        if problem:
            self.query_one("#problem", Static).update(problem)
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
