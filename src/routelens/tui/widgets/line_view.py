"""A line-API code view for very large documents (the toolong pattern).

A :class:`~textual.scroll_view.ScrollView` whose ``render_line(y)`` paints
only the visible rows, with a per-line regex highlighter and an LRU cache
of strips. The document is kept as one string plus an array of line start
offsets (8 bytes a line, no string per line), so a 300,000-line catalog
costs its own text and 2.4 MB. Mounting and scrolling cost is independent
of the document size, which a TextArea's is not (it does work in
proportion to the whole document for every rendered line). Same
interface as :class:`~routelens.tui.widgets.source_view.SourceView`:
:meth:`show`, :meth:`set_bands`, :attr:`bands`, :meth:`reveal`,
:attr:`line_count`.
"""

from __future__ import annotations

from array import array

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from routelens.tui.code_colors import token_styles
from routelens.tui.highlight import Band, band_at, highlight_line
from routelens.tui.model import DISPLAY_MARKS, LineIndex, line_starts
from routelens.tui.widgets.banded import BandedMixin

__all__ = ["LineView"]

_MARKS = DISPLAY_MARKS


class LineView(BandedMixin, ScrollView, can_focus=True):
    """Read-only view of many lines with line numbers and bands."""

    COMPONENT_CLASSES = {
        "line-view--mark",
        "line-view--hit",
        "line-view--current",
        "line-view--error",
        "line-view--hit-gutter",
        "line-view--current-gutter",
        "line-view--error-gutter",
    }

    BINDINGS = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
        Binding("left", "scroll_left", "Left", show=False),
        Binding("right", "scroll_right", "Right", show=False),
    ]

    DEFAULT_CSS = """
    LineView {
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
        & > .line-view--mark { color: $warning; text-style: bold reverse; }
        & > .line-view--hit { background: $primary 22%; }
        & > .line-view--current { background: $accent 28%; }
        & > .line-view--error { background: $error 40%; }
        & > .line-view--hit-gutter { color: $text; background: $primary 45%; }
        & > .line-view--current-gutter { color: $text; background: $accent 80%; text-style: bold; }
        & > .line-view--error-gutter { color: $text; background: $error 80%; text-style: bold; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = ""
        self._starts: array | LineIndex = array("q", [0])
        self._language: str | None = None
        self._bands: tuple[Band, ...] = ()
        self._cache: LRUCache[tuple, Strip] = LRUCache(1024)
        self._gutter = 3
        self.cursor_row = 0
        self._token_styles: dict[str, Style] | None = None

    # ------------------------------------------------------------------ content
    def show(self, text: str, language: str | None, *, keep_scroll: bool = False,
             starts: tuple[array, int] | None = None) -> None:
        """Replace the document (``text`` split on LF only; not copied).
        ``keep_scroll``: stay at the same scroll offset (clamped to the new
        text) instead of going back to the top. ``starts``: the text's
        :func:`~routelens.tui.model.line_starts`, when a worker computed
        them (not the UI thread: 0.5 s for 95 MB of files)."""
        x, y = (self.scroll_x, self.scroll_y) if keep_scroll else (0, 0)
        self._text = text
        self._starts, widest = starts if starts is not None else line_starts(text)
        self._language = language
        self._bands = ()
        self.forget_reveal()
        self._cache.clear()
        n = len(self._starts)
        self._gutter = len(str(n)) + 2
        self.virtual_size = Size(self._gutter + widest, n)
        self.scroll_to(x, y, animate=False, immediate=True)
        self.refresh()

    def update_starts(self, starts: tuple) -> None:
        """``(starts, widest)`` of the text shown, computed again (an array
        in place of a :class:`~routelens.tui.model.LineIndex`, with the
        exact widest line): the same lines, so the scroll position, the
        bands and the cached strips stay; only the horizontal extent may
        grow. Ignored when the line count differs (another text)."""
        new, widest = starts
        if new is self._starts or len(new) != len(self._starts):
            return
        self._starts = new
        self.virtual_size = Size(self._gutter + widest, len(new))

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def on_resize(self) -> None:
        self.keep_revealed()

    @property
    def text(self) -> str:
        return self._text

    @property
    def gutter_width(self) -> int:
        return self._gutter

    def get_line_text(self, row: int) -> str:
        """The displayed text of a 0-based row."""
        start = self._starts[row]
        end = self._starts[row + 1] - 1 if row + 1 < len(self._starts) else len(self._text)
        return self._text[start:end]

    # ------------------------------------------------------------------ bands
    def _clear_render_cache(self) -> None:
        self._cache.clear()

    def _place_cursor(self, row: int) -> None:
        self.cursor_row = row

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._token_styles = None

    # ------------------------------------------------------------------ painting
    def _styles(self) -> dict[str, Style]:
        """The token styles: the code panes' readable colours for the app's
        theme (:mod:`routelens.tui.code_colors`, as in the TextArea view),
        and the mark of substituted line breaks."""
        if self._token_styles is None:
            tokens = token_styles(self.app.theme_variables, self.background_colors[1])
            self._token_styles = {
                "key": tokens["yaml.field"], "string": tokens["string"], "comment": tokens["comment"],
                "number": tokens["number"], "punct": tokens["punctuation.delimiter"], "gutter": tokens["gutter"],
                "text": tokens["text"],
                "mark": self.get_component_rich_style("line-view--mark", partial=True),
            }
        return self._token_styles

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        key = (row, scroll_x, width, self._bands)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        base = self.rich_style
        if row >= self.line_count:
            strip = Strip.blank(width, base)
        else:
            styles = self._styles()
            line = self.get_line_text(row)
            text = highlight_line(line, self._language, styles)
            text.style = styles["text"]
            if any(c in _MARKS for c in line):
                for i, c in enumerate(line):
                    if c in _MARKS:
                        text.stylize(styles["mark"], i, i + 1)
            text.expand_tabs(4)
            body = Strip(text.render(self.app.console), text.cell_len)
            body = body.crop(scroll_x, scroll_x + max(width - self._gutter, 0))
            body = body.extend_cell_length(max(width - self._gutter, 0))
            gutter_style = styles["gutter"]
            band = band_at(self._bands, row)
            if band is not None:
                bg = self.get_component_rich_style(f"line-view--{band.kind}", partial=False)
                gutter_style = self.get_component_rich_style(f"line-view--{band.kind}-gutter", partial=False)
                body = Strip(Segment.apply_style(list(body), post_style=Style(bgcolor=bg.bgcolor)), body.cell_length)
            number = f"{row + 1:>{self._gutter - 2}}  "
            gutter = Strip([Segment(number, gutter_style)], self._gutter)
            strip = Strip.join([gutter, body]).apply_style(base)
        self._cache[key] = strip
        return strip
