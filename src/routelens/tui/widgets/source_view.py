"""Read-only, syntax-highlighted text with line numbers and row bands.

A :class:`~textual.widgets.TextArea` subclass for documents up to
:data:`MAX_TEXTAREA_LINES` lines (above that the app uses
:class:`~routelens.tui.widgets.line_view.LineView`). Bands (hits, the
current hit, error lines) are painted over the whole row — text and line
number — in :meth:`render_line`, so syntax colours stay on top; the
substituted line-break symbols (see :func:`routelens.tui.model.
display_text`) are styled in :meth:`get_line`.

The text given to :meth:`show` must already be display text: TextArea
splits lines with ``str.splitlines()``, which breaks on U+2028 and the
like, so the caller replaces those first and row ``n`` stays canonical
line ``n + 1``.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widgets import TextArea

from routelens.tui.code_colors import text_area_theme
from routelens.tui.highlight import Band, band_at
from routelens.tui.model import DISPLAY_MARKS
from routelens.tui.widgets.banded import BandedMixin

__all__ = ["SourceView", "MAX_TEXTAREA_LINES"]

#: Above this many lines the app uses LineView: a TextArea gets slow
#: above ~20,000 lines (each rendered line costs work in proportion to the
#: whole document: ~67 ms a scroll step at 10,000 lines) and keeps ~0.7 KB a line in its document
#: and wrap tables, where LineView keeps 8 bytes a line.
MAX_TEXTAREA_LINES = 5_000
#: Above this many lines a TextArea shows no syntax highlighting (tree-sitter cost).
MAX_HIGHLIGHT_LINES = 8_000

_MARKS = DISPLAY_MARKS


class SourceView(BandedMixin, TextArea):
    """Read-only code view with bands. ``language`` is ``"yaml"``,
    ``"json"`` or None; bands are 0-based inclusive rows."""

    COMPONENT_CLASSES = {
        "source-view--hit",
        "source-view--current",
        "source-view--error",
        "source-view--hit-gutter",
        "source-view--current-gutter",
        "source-view--error-gutter",
        "source-view--mark",
    }

    DEFAULT_CSS = """
    SourceView {
        border: none;
        padding: 0;
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
        &:focus { border: none; }
        & > .source-view--hit { background: $primary 22%; }
        & > .source-view--current { background: $accent 28%; }
        & > .source-view--error { background: $error 40%; }
        & > .source-view--hit-gutter { color: $text; background: $primary 45%; }
        & > .source-view--current-gutter { color: $text; background: $accent 80%; text-style: bold; }
        & > .source-view--error-gutter { color: $text; background: $error 80%; text-style: bold; }
        & > .source-view--mark { color: $warning; text-style: bold reverse; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            "",
            read_only=True,
            show_line_numbers=True,
            highlight_cursor_line=False,
            soft_wrap=False,
            show_cursor=True,
            id=id,
            classes=classes,
        )
        self.cursor_blink = False
        self.match_cursor_bracket = False
        self._bands: tuple[Band, ...] = ()
        self._band_styles: dict[str, tuple[Style, Style]] = {}

    # ------------------------------------------------------------------ colours
    def on_mount(self) -> None:
        self.apply_code_colors()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.call_after_refresh(self.apply_code_colors))

    def apply_code_colors(self) -> None:
        """Colour the tokens from the app's theme, readable on this view's
        background (:mod:`routelens.tui.code_colors`)."""
        background = self.background_colors[1]
        name = f"routelens-{self.app.theme}"
        self.register_theme(text_area_theme(name, self.app.theme_variables, background))
        if self.theme == name:
            self._set_theme(name)  # re-registered for a new background: apply it again
        else:
            self.theme = name
        self._line_cache.clear()
        self.refresh()

    # ------------------------------------------------------------------ content
    def show(self, text: str, language: str | None) -> None:
        """Replace the document. ``language`` is dropped above
        :data:`MAX_HIGHLIGHT_LINES` lines (tree-sitter cost)."""
        lines = text.count("\n") + 1
        lang = language if lines <= MAX_HIGHLIGHT_LINES else None
        if self.language != lang:
            # switching grammar rebuilds the document: do it while it is empty
            if self.document.line_count > 1 or self.document.get_line(0):
                self.load_text("")
            self.language = lang
        self.load_text(text)
        self._bands = ()
        self.forget_reveal()
        self._line_cache.clear()

    @property
    def line_count(self) -> int:
        """Rows of the document."""
        return self.document.line_count

    def find_matching_bracket(self, bracket: str, search_from: tuple[int, int]) -> tuple[int, int] | None:
        """No bracket matching: TextArea scans the whole document for the
        partner of a bracket under the cursor on every cursor move, which
        costs ~0.1 s on a 10,000-line index; a read-only view needs none."""
        return None

    # ------------------------------------------------------------------ bands
    def _clear_render_cache(self) -> None:
        self._line_cache.clear()

    def _place_cursor(self, row: int) -> None:
        self.move_cursor((row, 0))

    def on_resize(self) -> None:
        self._band_styles.clear()
        self.keep_revealed()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._band_styles = {}
        self._line_cache.clear()

    def _styles_for(self, kind: str) -> tuple[Style, Style]:
        got = self._band_styles.get(kind)
        if got is None:
            body = self.get_component_rich_style(f"source-view--{kind}", partial=False)
            gutter = self.get_component_rich_style(f"source-view--{kind}-gutter", partial=False)
            got = self._band_styles[kind] = (Style(bgcolor=body.bgcolor), gutter)
        return got

    # ------------------------------------------------------------------ painting
    def get_line(self, line_index: int) -> Text:
        text = super().get_line(line_index)
        plain = text.plain
        if any(c in _MARKS for c in plain):
            mark = self.get_component_rich_style("source-view--mark", partial=True)
            for i, c in enumerate(plain):
                if c in _MARKS:
                    text.stylize(mark, i, i + 1)
        return text

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if not self._bands:
            return strip
        row = self.scroll_offset.y + y
        band = band_at(self._bands, row)
        if band is None or row >= self.document.line_count:
            return strip
        body, gutter_style = self._styles_for(band.kind)
        g = self.gutter_width if self.show_line_numbers else 0
        left = strip.crop(0, g)
        right = strip.crop(g, strip.cell_length)
        left = Strip(Segment.apply_style(list(left), post_style=gutter_style), left.cell_length) if g else left
        right = Strip(Segment.apply_style(list(right), post_style=body), right.cell_length)
        return Strip.join([left, right]) if g else right
