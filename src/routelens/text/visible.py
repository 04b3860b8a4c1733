"""Control characters made visible: the one helper every human formatter
uses, so text from a registry, a skill body or a SKILL.md never reaches a
terminal as an escape sequence (docs/formats.md §8, README "Security and
limits").

A registry value can hold control characters through YAML's escapes
(``"\\e]0;title\\a"`` is an OSC title change, ``"\\x9b2J"`` a C1 screen
clear), and a Markdown body can hold them raw. Printed as they are, they
retitle the terminal, clear it, or write the clipboard (OSC 52).

- :func:`visible` (command-line text, error messages): every control
  character but LF and TAB becomes an escape a person can read: C0 as
  ``\\x1b``, DEL, C1 and the bidirectional overrides as ``\\u009b``. The
  second form is also a JSON escape, so JSON text passed through it stays
  valid JSON with the same values (JSON never holds raw C0 characters).
- :func:`pictured` (the terminal UI): the same characters replaced one for
  one by a visible symbol (``␛`` for ESC, the Unicode control pictures), so
  columns and line numbers stay as they are in the file; it also pictures
  the characters ``str.splitlines`` would break a line on (U+2028 ...).
- :func:`first_control`: where the first such character is (lint, import);
  :func:`controls_in` and :func:`describe_controls`: every one of them, in
  words (lint reports them all, not the first alone).

JSON output is never escaped beyond what JSON itself writes: values stay
exact. Nothing here imports another routelens module.
"""

from __future__ import annotations

import re

__all__ = ["CONTROL_RE", "visible", "pictured", "has_controls", "first_control", "describe_control",
           "controls_in", "describe_controls", "describe_invisible"]

#: Characters that must not reach a terminal raw: C0 but TAB and LF, DEL,
#: C1, and the bidirectional embeddings, overrides and isolates.
CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: The same set plus CR-like line breaks ``str.splitlines`` honours (the TUI's view).
_PICTURE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

_PICTURES = {c: chr(0x2400 + c) for c in range(0x20)}
_PICTURES.update({0x7F: "\u2421", 0x85: "\u2424", 0x2028: "\u21b5", 0x2029: "\u00b6"})


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x20 else f"\\u{c:04x}"


def _picture(m: re.Match[str]) -> str:
    return _PICTURES.get(ord(m.group()), "\ufffd")


def visible(text: str) -> str:
    """``text`` with every character of :data:`CONTROL_RE` written as an
    escape: ``"\\x1b"`` for C0 (ESC, BEL, CR, ...), ``"\\u009b"`` for DEL,
    C1 and bidirectional controls. LF and TAB are kept. Idempotent; returns
    ``text`` itself when there is nothing to escape."""
    if not CONTROL_RE.search(text):
        return text
    return CONTROL_RE.sub(_escape, text)


def pictured(text: str) -> str:
    """``text`` with every control character (as :func:`visible`) and
    every line break but LF that ``str.splitlines`` honours replaced one
    for one by a visible symbol: the Unicode control pictures for C0
    (``␛`` for ESC, ``␍`` for CR), ``␡`` for DEL, ``␤`` for U+0085, ``↵``
    for U+2028, ``¶`` for U+2029, ``\ufffd`` for the other C1 and
    bidirectional controls. Same length, same columns, same line count
    (for the terminal UI)."""
    if not _PICTURE_RE.search(text):
        return text
    return _PICTURE_RE.sub(_picture, text)


def has_controls(text: str) -> bool:
    """True when ``text`` holds a character :func:`visible` would escape."""
    return CONTROL_RE.search(text) is not None


def first_control(text: str) -> int | None:
    """0-based index of the first character :func:`visible` would escape,
    or None."""
    m = CONTROL_RE.search(text)
    return m.start() if m else None


def describe_control(ch: str) -> str:
    """One control character for people: ``U+001B (ESC)``, ``U+009B``."""
    names = {0x1B: "ESC", 0x07: "BEL", 0x08: "BS", 0x0D: "CR", 0x00: "NUL", 0x7F: "DEL", 0x9B: "CSI",
             0x9D: "OSC", 0x202E: "RIGHT-TO-LEFT OVERRIDE"}
    c = ord(ch)
    return f"U+{c:04X}" + (f" ({names[c]})" if c in names else "")


def controls_in(text: str) -> dict[str, int]:
    """Each character :func:`visible` would escape in ``text``, with how
    many times it occurs, in order of first occurrence."""
    out: dict[str, int] = {}
    for m in CONTROL_RE.finditer(text):
        out[m.group()] = out.get(m.group(), 0) + 1
    return out


#: distinct control characters :func:`describe_controls` names before counting the rest
_NAMED_CONTROLS = 5


def describe_controls(found: dict[str, int]) -> str:
    """What :func:`controls_in` found, for people: ``the control character
    U+001B (ESC)`` for one; ``3 control characters: U+001B (ESC) twice and
    U+0007 (BEL) once`` for more (the first five kinds named, the others
    counted)."""
    total = sum(found.values())
    if total == 1:
        return f"the control character {describe_control(next(iter(found)))}"

    def times(n: int) -> str:
        return "once" if n == 1 else "twice" if n == 2 else f"{n:,} times"

    named = [f"{describe_control(c)} {times(n)}" for c, n in list(found.items())[:_NAMED_CONTROLS]]
    rest = len(found) - len(named)
    if rest:
        named.append(f"{rest:,} other kind{'s' if rest != 1 else ''}")
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"{total:,} control characters: {listed}"


#: characters nobody sees, that a trigger should not hold (docs/formats.md §11.2 ``invisible-character``)
_INVISIBLE_NAMES = {"\u200b": "ZERO WIDTH SPACE", "\u200c": "ZERO WIDTH NON-JOINER", "\u200d": "ZERO WIDTH JOINER",
                    "\u2060": "WORD JOINER", "\ufeff": "ZERO WIDTH NO-BREAK SPACE", "\u00ad": "SOFT HYPHEN"}
_INVISIBLE = re.compile("[" + "".join(_INVISIBLE_NAMES) + "]")


def describe_invisible(text: str) -> str | None:
    """What ``routelens lint`` says of a trigger holding a character nobody
    sees (a zero width space, non-joiner or joiner, a word joiner, a BOM, a
    soft hyphen), each named once in order: ``holds U+200B (ZERO WIDTH
    SPACE), which no one sees: the trigger reads as 'alphatask' and matches
    as if it were a space or nothing; delete it``; None when it holds none."""
    hidden = list(dict.fromkeys(_INVISIBLE.findall(text)))
    if not hidden:
        return None
    names = ", ".join(f"U+{ord(c):04X} ({_INVISIBLE_NAMES[c]})" for c in hidden)
    return (f"holds {names}, which no one sees: the trigger reads as {visible(_INVISIBLE.sub('', text))!r} and "
            "matches as if it were a space or nothing; delete it")
