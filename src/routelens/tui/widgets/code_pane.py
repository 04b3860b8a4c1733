"""One titled pane of the main screen: registry, index or catalog.

Holds a notice line (why the pane is empty, stale or damaged) and a code
view — a :class:`SourceView` (TextArea, tree-sitter highlighting) up to
:data:`MAX_TEXTAREA_LINES` lines, a :class:`LineView` above that — and
forwards :meth:`show`, :meth:`set_bands` and :meth:`reveal` to it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from routelens.text.visible import pictured
from routelens.tui.highlight import Band
from routelens.tui.widgets.line_view import LineView
from routelens.tui.widgets.source_view import MAX_TEXTAREA_LINES, SourceView

__all__ = ["CodePane"]


class CodePane(Vertical):
    """A bordered pane with a title, an optional notice and a code view.

    ``max_textarea_lines`` chooses the view: documents with more lines go
    to the line-API view (tests lower it to exercise both).
    """

    DEFAULT_CSS = """
    CodePane {
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
        background: $surface;
        height: 1fr;
        width: 1fr;
        &:focus-within { border: round $accent; }
        & > .pane-notice {
            height: auto;
            max-height: 4;
            padding: 0 1;
            display: none;
        }
        & > .pane-notice.-shown { display: block; }
        & > .pane-notice.-warning { background: $warning 25%; color: $text; }
        & > .pane-notice.-error { background: $error 30%; color: $text; }
        & > .pane-notice.-info { background: $boost; color: $text-muted; }
    }
    """

    def __init__(self, title: str, *, id: str | None = None, max_textarea_lines: int = MAX_TEXTAREA_LINES) -> None:
        super().__init__(id=id)
        self.border_title = title
        self.max_textarea_lines = max_textarea_lines
        self._language: str | None = None

    # compose-time references
    notice_line: Static
    source_view: SourceView
    line_view: LineView

    def compose(self) -> ComposeResult:
        self.notice_line = Static("", classes="pane-notice", markup=False)
        self.source_view = SourceView(classes="code")
        self.line_view = LineView(classes="code")
        yield self.notice_line
        yield self.source_view
        yield self.line_view

    def on_mount(self) -> None:
        self.line_view.display = False

    @property
    def view(self) -> SourceView | LineView:
        """The view in use now (the TextArea one for an empty pane)."""
        return self.line_view if self.line_view.display else self.source_view

    def show(self, text: str, language: str | None, *, big: bool | None = None, keep_scroll: bool = False,
             starts: tuple | None = None) -> None:
        """Show ``text`` (display text: line breaks already made visible):
        in the line view when ``big`` (default: more lines than
        ``max_textarea_lines``), else in the TextArea. ``keep_scroll``: the
        line view keeps its scroll position (the whole text replacing its
        first lines). ``starts``: the text's line starts
        (:func:`~routelens.tui.model.line_starts`), if a worker computed them."""
        if big is None:
            big = (len(starts[0]) if starts is not None else text.count("\n") + 1) > self.max_textarea_lines
        sv, lv = self.source_view, self.line_view
        if big:
            sv.show("", None)
            lv.show(text, language, keep_scroll=keep_scroll and lv.display, starts=starts)
        else:
            lv.show("", None)
            sv.show(text, language)
        empty = text == ""
        sv.display, lv.display = not big and not empty, big and not empty

    def update_starts(self, starts: tuple) -> None:
        """The line starts of the text shown, computed again (exact where
        :func:`~routelens.tui.model.pane_lines` gave a lazy index): only the
        line view keeps them."""
        if self.line_view.display:
            self.line_view.update_starts(starts)

    def on_resize(self) -> None:
        """The notice takes at most a third of the pane's rows (1 to 4), so
        the code (and a hit's highlighted range) stays in view: at 80x24 a
        four-line warning filled the registry pane."""
        cap = max(1, min(4, (self.size.height - 2) // 3))
        styles = self.notice_line.styles
        if styles.max_height is None or styles.max_height.value != cap:  # no layout pass for an unchanged cap
            styles.max_height = cap

    def set_notice(self, text: str | None, level: str = "info") -> None:
        """A line above the code (``info``, ``warning`` or ``error``), or none."""
        notice = self.notice_line
        notice.set_classes(["pane-notice"] + (["-shown", f"-{level}"] if text else []))
        notice.update(pictured(text or ""))

    @property
    def notice(self) -> str:
        """The notice shown now ("" when none)."""
        notice = self.notice_line
        return str(notice.content) if notice.has_class("-shown") else ""

    def set_bands(self, bands: list[Band]) -> None:
        self.view.set_bands(bands)

    @property
    def bands(self) -> tuple[Band, ...]:
        return self.view.bands

    def reveal(self, start: int, end: int) -> None:
        self.view.reveal(start, end)

    def highlighted_rows(self, kind: str | None = None) -> list[int]:
        """0-based rows covered by bands (of ``kind`` when given), sorted."""
        rows: set[int] = set()
        for b in self.view.bands:
            if kind is None or b.kind == kind:
                rows.update(range(b.start, b.end + 1))
        return sorted(rows)
