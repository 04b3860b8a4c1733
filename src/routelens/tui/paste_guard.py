"""An ESC inside a bracketed paste stays text.

Textual's terminal parser (``textual._xterm_parser.XTermParser``, 8.2)
reads an ESC inside a bracketed paste (between ``ESC [200~`` and
``ESC [201~``) as the start of a key sequence: the characters after it
arrive as typed keys before the paste, so pasting a coloured log line
(``the ci is red:\\n\\x1b[31mFAILED\\x1b[0m tests/x.py``) put
``^[31mFAILED^[0m tests/x.py`` before ``the ci is red:`` and routed that.
Most terminals strip ESC from what they paste; tmux's ``paste-buffer -p``
and others do not.

:func:`install` wraps the parser's ``feed``: inside a paste, each ESC that
does not open the closing marker becomes :data:`PASTED_ESC` (``␛``, the
picture the UI draws for ESC anyway) before the parser sees it, and the
task input turns it back into ESC (:func:`unguard`), so the task routed is
the text pasted, as ``routelens route`` would read it. A marker cut between
two reads is held until the next read (but a lone ESC, which may be an
Escape key press, is handed on at once: a paste whose opening marker was cut
right after it is recognised from the next read). Outside a paste nothing
else changes.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["PASTED_ESC", "install", "guard", "unguard"]

#: what an ESC inside a paste is handed to the app as (U+241B, the control picture of ESC)
PASTED_ESC = "\u241b"
_START, _END = "\x1b[200~", "\x1b[201~"


class _State:
    """Per parser: inside a paste, a marker's first characters held from the
    last read, and whether the last read ended with a lone ESC (handed on)."""

    __slots__ = ("in_paste", "held", "esc")

    def __init__(self) -> None:
        self.in_paste = False
        self.held = ""
        self.esc = False


def _cut(text: str, marker: str, least: int = 1) -> int:
    """How many last characters of ``text`` (``least`` or more) begin ``marker``: 0 if none."""
    return next((k for k in range(min(len(marker) - 1, len(text)), least - 1, -1) if marker.startswith(text[-k:])), 0)


def guard(state: _State, data: str) -> str:
    """``data`` (one read of the terminal) with every ESC inside a bracketed
    paste, but the closing marker's, written as :data:`PASTED_ESC`.
    ``state`` carries a paste across reads; a read ending with the first
    characters of the closing marker keeps them for the next."""
    data, state.held = state.held + data, ""
    out: list[str] = []
    i = 0
    if state.esc and not state.in_paste and data.startswith(_START[1:]):
        out.append(_START[1:])  # the opening marker cut right after its ESC, which went on as it came
        i, state.in_paste = len(_START) - 1, True
    state.esc = False
    while i < len(data):
        if not state.in_paste:
            j = data.find(_START, i)
            if j < 0:
                rest = data[i:]
                # an opening marker's first characters (not a lone ESC: an Escape key press is never held)
                cut = _cut(rest, _START, 2)
                if cut:
                    rest, state.held = rest[:-cut], rest[-cut:]
                state.esc = rest.endswith("\x1b")
                out.append(rest)
                break
            out.append(data[i:j + len(_START)])
            i = j + len(_START)
            state.in_paste = True
            continue
        j = data.find(_END, i)
        if j < 0:
            rest = data[i:]
            cut = _cut(rest, _END)
            if cut:
                rest, state.held = rest[:-cut], rest[-cut:]
            out.append(rest.replace("\x1b", PASTED_ESC))
            break
        out.append(data[i:j].replace("\x1b", PASTED_ESC))
        out.append(_END)
        i = j + len(_END)
        state.in_paste = False
    return "".join(out)


def unguard(text: str) -> str:
    """A pasted text as the terminal sent it: each :data:`PASTED_ESC` is ESC again."""
    return text.replace(PASTED_ESC, "\x1b")


def install() -> None:
    """Wrap ``XTermParser.feed`` once (idempotent); a Textual without that
    parser is left as it is."""
    try:
        from textual._xterm_parser import XTermParser
    except ImportError:  # pragma: no cover - another Textual
        return
    feed = XTermParser.feed
    if getattr(feed, "_routelens_guard", False):
        return

    def guarded(self: Any, data: str) -> Iterable[Any]:
        state = self.__dict__.get("_routelens_paste")
        if state is None:
            state = self.__dict__["_routelens_paste"] = _State()
        if not data:
            return feed(self, data)  # the end of input, as the driver says it
        kept = guard(state, data)
        return feed(self, kept) if kept else ()  # (all of it held: an empty feed would end the input)

    guarded._routelens_guard = True  # type: ignore[attr-defined]
    XTermParser.feed = guarded  # type: ignore[method-assign]
