"""A footer whose keys never spill under the palette key.

Textual's :class:`~textual.widgets.Footer` lets its keys run off the right
edge when they do not fit, under the docked ``^p palette`` key; the docked
key then stops a cell short of the edge and that cell shows a letter of a
hidden key ("^p paletteF" at 80 columns). :class:`FittingFooter` hides the
keys that do not fit whole, from the right, after each layout. It reads the
``FooterKey`` children Textual 8's footer composes (``textual.widgets._footer``;
pyproject pins ``textual<9``): a footer built differently is left as it is."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class FittingFooter(Footer):
    """:class:`~textual.widgets.Footer` that shows only the keys that fit
    whole in its width (cells) beside the palette key; the others stay
    reachable (F1 lists every key)."""

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._hide_overflow)

    def on_resize(self, event: events.Resize) -> None:
        for k in self.query(FooterKey):
            k.display = True
        self.call_after_refresh(self._hide_overflow)

    def _hide_overflow(self) -> None:
        """With every key laid out, hide those whose right edge passes the
        palette key's left edge (or the footer's, without a palette key)."""
        keys = [k for k in self.query(FooterKey) if not k.has_class("-command-palette")]
        palette = [k for k in self.query(FooterKey) if k.has_class("-command-palette")]
        edge = min([p.region.x for p in palette] + [self.region.right])
        blank = 0 if self.compact else 1  # a full-size key ends in a space the palette key may cover
        for k in keys:
            if k.display and k.region.right - blank > edge:
                k.display = False
