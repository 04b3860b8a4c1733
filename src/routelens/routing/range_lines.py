"""Reading a canonical line range back from its lines, without the YAML
parser (docs/formats.md §2, §6.6; issue 14, batch round 4).

The router reads a candidate's range back to learn its status and verify
its triggers (:meth:`routelens.routing.entries.Entries.expand`). Through
the YAML reader that cost about 0.25 ms a range the first time a skill is
reached: on a registry whose trigger words are shared by many skills, a
batch of 1,000 tasks at 10,000 skills read 10,005 ranges, about a sixth of
its time and most of its slowest tasks.

Most ranges are written one simple way, the way the build's line scanner
(:mod:`routelens.registry.scan`) reads an entry without the parser: this
module decides such a range with the scanner's patterns and gives the value
:func:`~routelens.text.yaml_events.parse_fragment` would give, or None
when it cannot decide, and the caller parses the range as before. Decided:

- a mapping entry (a skill, a rule): the range matches the scanner's
  strict chunk pattern whole (an id key alone on its line, fields at one
  deeper indentation, each a one-line value, a block sequence of one-line
  items, or a block scalar without blank lines, deeper lines or trailing
  spaces, or a flow sequence of plain words: ``tags: [ops, on call]``;
  comment and empty lines between), no key twice, no key a null word;
- a block sequence (a composition's members): ``- item`` lines of one-line
  values at one indentation deeper than the key, comment and empty lines
  between.

A value is a plain scalar that cannot be read two ways, a double-quoted one
without ``\\`` or a single-quoted one (the scanner's ``VALUE``); a plain
null word (``null``, ``~`` ...) is None, as the parser gives it. Anything
else (an anchor, alias, tag, flow collection, tab, a multi-line scalar, a
character the parser masks or refuses, a second key, a comment after the
key) is undecided.

Failure mode: none visible (the same value as the parser on every shipped
range and on generated ones, tested); a range written another way costs the
parser's time, as before.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from routelens.registry.scan import COMMENT_TEXT, ITEM, VALUE, chunk_pattern, field_pattern, unquote
from routelens.text.yaml_events import NULL_WORDS

__all__ = ["read_range"]

#: the key line of a range: its indentation and id, nothing after the colon
_KEY_LINE = re.compile(r"( *)([a-z0-9][a-z0-9-]*+):\n")
#: the first line with content after the key line (not empty, not a comment): its indentation, and
#: whether it starts a sequence item
_CONTENT = re.compile(r"^( +)(- )?[^ #\n]", re.M)
_QUOTES = frozenset("\"'")
#: a field ``key: [a, b c]`` whose flow sequence holds plain words only (letters, digits, ``_./-``, single
#: spaces inside an item, ``, `` between items): group 1 the indentation and key, group 2 the items
_FLOW_WORD = r"[A-Za-z0-9][A-Za-z0-9_./-]*+(?: [A-Za-z0-9_./-]++)*+"
_FLOW_FIELD = rf"^( ++[A-Za-z_][A-Za-z0-9_-]*+): \[((?:{_FLOW_WORD}(?:, {_FLOW_WORD})*+)?)\]$"


@lru_cache(maxsize=16)
def _sequence_pattern(i: int, k: int) -> re.Pattern[str]:
    """A key at indentation ``i`` holding a block sequence of one-line items
    at indentation ``k`` (> ``i``), matched whole; group ``items``."""
    comment = rf" {{0,{k}}}{COMMENT_TEXT}"  # (the value pattern written once: it is most of the compile time)
    return re.compile(rf" {{{i}}}[a-z0-9][a-z0-9-]*+:\n(?P<items>(?: {{{k}}}- ++{VALUE}\n|{comment}|\n)*+)")


_chunk = lru_cache(maxsize=16)(chunk_pattern)
_fields = lru_cache(maxsize=16)(field_pattern)


def _scalar(v: str) -> str | None:
    """The value of a one-line scalar matched by ``VALUE``: unquoted, a plain null word None."""
    if v[0] in _QUOTES:
        return unquote(v)
    return None if v in NULL_WORDS else v


def read_range(text: str, entry_id: str) -> Any | None:
    """The value of ``entry_id`` in the canonical range ``text`` (its lines,
    LF-joined with a trailing LF, the key line first), as
    ``parse_fragment(text)[entry_id]`` gives it — a dict for a mapping entry
    (block scalars folded, lists item by item), a list for a block
    sequence — or None when the lines alone cannot decide it (the caller
    parses the range). Never raises."""
    km = _KEY_LINE.match(text)
    if km is None or km.group(2) != entry_id or entry_id in NULL_WORDS:
        return None
    i = len(km.group(1))
    cm = _CONTENT.search(text, km.end())
    if cm is None:
        return None
    k = len(cm.group(1))
    if k <= i:
        return None
    if cm.group(2):  # a block sequence
        m = _sequence_pattern(i, k).fullmatch(text)
        items = ITEM.findall(m.group("items")) if m is not None else None
        return [_scalar(v) for v in items] if items else None
    flows: dict[str, list[str | None]] = {}
    if "[" in text:
        # a flow sequence of plain words is read here, and its line stands for one plain value below
        def plain(m: re.Match[str]) -> str:
            head = m.group(1)
            if len(head) - len(head.lstrip(" ")) != k:
                return m.group()
            flows[head.lstrip(" ")] = [_scalar(v) for v in m.group(2).split(", ")] if m.group(2) else []
            return head + ": x"
        text = re.sub(_FLOW_FIELD, plain, text, flags=re.M)  # compiled once, on first use (re's cache)
    if _chunk(i, k).fullmatch(text) is None:
        return None
    value: dict[str, Any] = {}
    for f in _fields(k).finditer(text, km.end()):
        key, head, body, one, seq = f.groups()
        if key in value or key in NULL_WORDS:
            return None
        if one is not None:
            value[key] = flows[key] if key in flows else (
                one if one[0] not in _QUOTES and one not in NULL_WORDS else _scalar(one))
        elif seq is not None:
            items = ITEM.findall(seq)
            # (plain items, the common case, are their values: no quote opens one and none is a null word)
            value[key] = items if '"' not in seq and "'" not in seq and NULL_WORDS.isdisjoint(items) else [
                _scalar(v) for v in items]
        else:  # a block scalar: lines at one indentation, no blank line inside (the chunk pattern)
            lines = [line.lstrip(" ") for line in body[:-1].split("\n")]
            folded = (" " if head[0] == ">" else "\n").join(lines)
            value[key] = folded if head[-1] == "-" else folded + "\n"
    return value
