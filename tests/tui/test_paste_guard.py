"""An ESC inside a bracketed paste stays text (two newcomers' trials: pasting a
coloured CI log put the text after the ESC first, as typed keys)."""

import pytest
from textual import events
from textual._xterm_parser import XTermParser

from routelens.tui.paste_guard import PASTED_ESC, _State, guard, install, unguard

PASTE = "\x1b[200~the ci is red:\n\x1b[31mFAILED\x1b[0m tests/test_x.py\x1b[201~"


def _events(chunks):
    install()
    parser = XTermParser()
    out = []
    for c in chunks:
        out += list(parser.feed(c))
    out += list(parser.feed(""))
    return out


def test_a_paste_with_escapes_is_one_paste_event_in_order():
    got = _events([PASTE])
    pastes = [e.text for e in got if isinstance(e, events.Paste)]
    assert pastes == [f"the ci is red:\n{PASTED_ESC}[31mFAILED{PASTED_ESC}[0m tests/test_x.py"]
    assert [e for e in got if isinstance(e, events.Key)] == []
    assert unguard(pastes[0]) == "the ci is red:\n\x1b[31mFAILED\x1b[0m tests/test_x.py"


@pytest.mark.parametrize("cut", range(1, len(PASTE)))
def test_a_paste_read_in_two_pieces_is_the_same(cut):
    got = _events([PASTE[:cut], PASTE[cut:]])
    assert [e.text for e in got if isinstance(e, events.Paste)] == [
        f"the ci is red:\n{PASTED_ESC}[31mFAILED{PASTED_ESC}[0m tests/test_x.py"]


def test_outside_a_paste_nothing_changes():
    state = _State()
    assert guard(state, "\x1b") == "\x1b"  # an Escape key press is handed on at once, never held
    assert guard(state, "abc\x1b[A") == "abc\x1b[A" and not state.in_paste
    assert guard(state, "x\x1b[200~a\x1b") == f"x\x1b[200~a" and state.held == "\x1b"
    assert guard(state, "[201~\x1b") == "\x1b[201~\x1b" and not state.in_paste


def test_install_is_idempotent():
    install()
    feed = XTermParser.feed
    install()
    assert XTermParser.feed is feed
