"""Shows a JSON text (the decision) read-only, with highlighting."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from routelens.tui.widgets.footer import FittingFooter
from routelens.text.visible import pictured
from routelens.tui.widgets.code_pane import CodePane

__all__ = ["JsonScreen"]


class JsonScreen(ModalScreen[None]):
    """A titled read-only JSON view; Escape or q closes it."""

    BINDINGS = [
        Binding("escape,q", "close", "Close"),
        # priority: the focused JSON view is a TextArea, whose own F6 selects a line
        Binding("f6", "copy", "Copy again", priority=True),
    ]

    DEFAULT_CSS = """
    JsonScreen { align: center middle; background: $background 60%; }
    JsonScreen > #box { width: 90%; height: 90%; }
    JsonScreen #note { height: 1; color: $success; padding: 0 1; }
    """

    def __init__(self, text: str, title: str) -> None:
        super().__init__()
        self.text = text
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield CodePane(self.title_text, id="json-pane")
            yield Static("", id="note")
        yield FittingFooter()

    def on_mount(self) -> None:
        pane = self.query_one(CodePane)
        pane.show(pictured(self.text), "json")  # JSON escapes C0 itself; C1 and bidi controls are pictured
        pane.border_subtitle = f"{len(self.text):,} chars"
        pane.view.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.query_one("#note", Static).update("Copied to the clipboard again.")
