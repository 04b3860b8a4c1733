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
"""

from __future__ import annotations

from textual import events
from textual.binding import BindingsMap
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

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


#: key -> the Input's own bindings (editing, moving, submit), run as the key arrives
_EDITING = BindingsMap(Input.BINDINGS).key_to_bindings
