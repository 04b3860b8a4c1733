"""The band protocol shared by the two code viewers (:class:`SourceView`,
a TextArea, and :class:`LineView`, a line-API view for large documents):
hold the hit bands, repaint when they change, scroll a range into view."""

from __future__ import annotations

from routelens.tui.highlight import Band


class BandedMixin:
    """Mixed into a scrollable code viewer that defines ``line_count``,
    ``scrollable_content_region``, ``scroll_to`` and ``refresh``, sets
    ``self._bands = ()`` when it loads a document, and implements
    :meth:`_clear_render_cache` and :meth:`_place_cursor`."""

    _bands: tuple[Band, ...] = ()
    #: the 0-based rows last revealed, kept centred when the view is resized
    _revealed: tuple[int, int] | None = None

    def _clear_render_cache(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _place_cursor(self, row: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def bands(self) -> tuple[Band, ...]:
        """The bands painted now."""
        return self._bands

    def set_bands(self, bands: list[Band] | tuple[Band, ...]) -> None:
        """Paint ``bands`` (replacing the previous ones); no repaint when unchanged."""
        bands = tuple(bands)
        if not bands:
            self._revealed = None  # no hit left to keep in view
        if bands == self._bands:
            return
        self._bands = bands
        self._clear_render_cache()
        self.refresh()  # type: ignore[attr-defined]

    def reveal(self, start: int, end: int) -> None:
        """Put the cursor on 0-based row ``start`` and scroll rows
        ``start..end`` into view (centred when they fit, else from ``start``)."""
        last = self.line_count - 1  # type: ignore[attr-defined]
        start = max(0, min(start, last))
        end = max(start, min(end, last))
        self._place_cursor(start)
        self._revealed = (start, end)
        self._scroll_into_view(start, end)

    def forget_reveal(self) -> None:
        """A new document: nothing to keep in view on resize."""
        self._revealed = None

    def keep_revealed(self) -> None:
        """Call on resize: scroll the rows last revealed back into view, since
        their centring depended on the old height (the layout settles after
        the first reveal, e.g. when the decision panel grows)."""
        if self._revealed is not None:
            self._scroll_into_view(*self._revealed)

    def _scroll_into_view(self, start: int, end: int) -> None:
        height = max(self.scrollable_content_region.height, 1)  # type: ignore[attr-defined]
        span = end - start + 1
        top = start - (height - span) // 2 if span < height else start
        self.scroll_to(x=0, y=max(0, top), animate=False, immediate=True)  # type: ignore[attr-defined]
