"""The registry-errors panel: every diagnostic as ``file:line:col:
key.path: message``, and whether the view below is the last good one."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from routelens.registry import Diagnostic
from routelens.text.visible import pictured
from routelens.tui.words import count

__all__ = ["ErrorPanel"]


class ErrorPanel(VerticalScroll):
    """Hidden while the registry is valid; ``show_errors`` lists the
    diagnostics, ``clear_errors`` hides it."""

    DEFAULT_CSS = """
    ErrorPanel {
        height: auto;
        max-height: 9;
        display: none;
        border: round $error;
        border-title-color: $text;
        border-title-background: $error;
        border-title-style: bold;
        background: $error 12%;
        padding: 0 1;
        &.-shown { display: block; }
        & > .diag { height: auto; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.diagnostics: list[Diagnostic] = []

    def show_errors(self, diagnostics: list[Diagnostic], last_good: bool) -> None:
        """List ``diagnostics``; ``last_good`` says the panes still show
        the last valid registry."""
        self.diagnostics = list(diagnostics)
        n = len(diagnostics)
        self.border_title = f" ✗ the registry has {count(n, 'error')} "
        self.border_subtitle = (
            "showing the last good version · fix the file and it reloads"
            if last_good else "nothing routed · fix the file and it reloads"
        )
        self.remove_children()
        rows = []
        for d in diagnostics:
            where = f"{d.file}:{d.line}:{d.column}: "
            key = f"{d.key_path}: " if d.key_path else ""
            rows.append(Static(Content.assemble((pictured(where), "bold"), (pictured(key), "$accent"),
                                                pictured(d.message)), classes="diag"))
        self.mount_all(rows)
        self.add_class("-shown")

    def clear_errors(self) -> None:
        """Hide the panel."""
        self.diagnostics = []
        self.remove_class("-shown")
        self.remove_children()
