"""A one-line question for a file path (the palette's "Labelled cases…"
and "Decision log…" when no file was given on the command line)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from routelens.tui.widgets.line_input import LineInput

__all__ = ["PathPrompt"]


class PathPrompt(ModalScreen[str | None]):
    """Asks for a path; dismisses with the text typed (Enter) or None (Esc)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    PathPrompt { align: center middle; background: $background 60%; }
    PathPrompt > #box { width: 80; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    PathPrompt #question { height: auto; margin-bottom: 1; }
    """

    def __init__(self, question: str, value: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(self.question, id="question")
            yield LineInput(value=self.value, placeholder="path/to/file", id="path")

    def on_mount(self) -> None:
        field = self.query_one("#path", Input)
        field.cursor_blink = False
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
