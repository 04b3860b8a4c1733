"""A one-line :class:`~textual.widgets.Input` whose typing never lays out
the screen.

Textual's ``Input`` sets its ``virtual_size`` (the text's width, for
horizontal scrolling) on every change of its value, and ``virtual_size``
is a layout reactive: each key press lays out the whole screen again.
On the skill browser at 10,000 skills that pass was most of a keystroke
(about 20 ms of 30-50 ms). A one-line input of fixed height and width
(every input here: ``height: 3``, the screen's width) never changes size
with its text, so :class:`LineInput` redeclares ``virtual_size`` to
repaint only; scrolling along the text still reads it.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

__all__ = ["LineInput"]


class LineInput(Input):
    """An ``Input`` whose text width changes repaint it, not the screen's
    layout. Use it only with a fixed (not ``auto``) width and height."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=True)
