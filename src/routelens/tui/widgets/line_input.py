"""A one-line :class:`~textual.widgets.Input` whose typing never lays out
the screen and whose editing keys keep their order.

Textual's ``Input`` sets its ``virtual_size`` (the text's width, for
horizontal scrolling) on every change of its value, and ``virtual_size``
is a layout reactive: each key press lays out the whole screen again.
On the skill browser at 10,000 skills that pass was most of a keystroke
(about 20 ms of 30-50 ms). A one-line input of fixed height and width
(every input here: ``height: 3``, the screen's width) never changes size
with its text, so :class:`LineInput` redeclares ``virtual_size`` to
repaint only; scrolling along the text still reads it.

Textual types a printable key in the focused input at once, but runs the
input's own bindings (backspace, delete, the arrows, home, end, ctrl+u,
enter, ...) only after the key has bubbled up to the app: keys typed in a
burst were applied out of order ("deploy", six backspaces, "review" gave
"drevie"; "derev", backspace, "rev" gave "derevre"). :class:`LineInput`
runs those bindings as the key arrives, in order with the typing.

A pasted or ``--task`` value can hold control characters (ESC, BEL, the
bidirectional overrides: a coloured log line, a hostile task). Textual's
``Input`` draws its value as it is, so an ESC sequence reached the terminal
and recoloured the input. :class:`LineInput` draws each such character as
its picture (``␛``, :func:`routelens.text.visible.pictured`, one for one)
while its ``value`` keeps the task as given, which routing reads.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import BindingsMap
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

from routelens.text.visible import pictured

__all__ = ["LineInput"]


class LineInput(Input):
    """An ``Input`` whose text width changes repaint it, not the screen's
    layout. Use it only with a fixed (not ``auto``) width and height."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=True)

    async def _on_key(self, event: events.Key) -> None:
        bindings = _EDITING.get(event.key)
        if bindings and not event.is_printable:
            event.stop()
            event.prevent_default()
            await self.run_action(bindings[0].action)
            return
        await super()._on_key(event)

    @property
    def _value(self) -> Text:
        """The value as drawn: each control character pictured, one for one."""
        if self.password:
            return super()._value
        text = Text(pictured(self.value), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text

    def _position_to_cell(self, position: int) -> int:
        # the pictures are one cell wide where the characters they stand for took none
        return cell_len(pictured(self.value[:position]).expandtabs(4))

    def _cell_offset_to_index(self, offset: int) -> int:
        shown = pictured(self.value)
        if shown is self.value:
            return super()._cell_offset_to_index(offset)
        cells = 0
        offset += self.scroll_offset[0]
        for index, char in enumerate(shown):
            width = cell_len(char)
            if cells <= offset < cells + width:
                return index
            cells += width
        return max(0, min(offset, len(self.value)))


#: key -> the Input's own bindings (editing, moving, submit), run as the key arrives
_EDITING = BindingsMap(Input.BINDINGS).key_to_bindings
