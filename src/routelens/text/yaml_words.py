"""YAML syntax errors in a person's words.

The YAML parser says what it was doing when it stopped ("mapping values
are not allowed in this context", "did not find expected key"); a person
wants to know what to change. :func:`explain` looks at the text around
the parser's position and names the usual mistakes: a tab or another
space character than U+0020 (a full-width space, U+3000) used for
indentation, a line indented more or less than its siblings, a missing
colon or dash, a colon without a space after it, a value holding ``: ``,
an unclosed quote or bracket, text after a closing quote, a stray closing
bracket, a list item among a mapping's keys, a key longer than YAML
allows. The caller keeps ``FILE:LINE:COL`` and the parser's own words
after these (docs/formats.md §1.3); when no rule fits, the parser's words
stand alone.

Only LF ends a line here (the text is canonical, docs/formats.md §2.2).
Indentation is counted in spaces; positions are character indices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from routelens.text.yaml_spaces import indentation_words

__all__ = ["Explained", "explain"]

#: longest implicit key YAML allows (the YAML 1.2 specification, libyaml)
MAX_IMPLICIT_KEY = 1024

_KEY_VALUE = re.compile(r"""^(?P<indent> *)(?:- +)?(?P<key>[^\s#'"\[{:][^:#]*?|"[^"]*"|'[^']*') *:(?= |$)""")
_COLON_NO_SPACE = re.compile(r"""^ *(?:- +)?[^\s#'"\[{:-][^:\s#]*:(?=[^\s:])""")


@dataclass(frozen=True)
class Explained:
    """What a syntax error means: ``index`` (character index of the place to
    fix, which may differ from the parser's), ``words`` (one sentence) and
    ``path`` (the key path of the value at fault, when the text names it
    for sure: an unclosed quote's key; ``""`` otherwise)."""

    index: int
    words: str
    path: str = ""


class _Text:
    """Lines of the text with their start indices."""

    def __init__(self, text: str, line_number: Callable[[int], int]) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for ln in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(ln) + 1)
        self._number = line_number

    def row(self, index: int) -> int:
        """0-based row of a character index."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def number(self, row: int) -> int:
        """The line number people see for a 0-based row."""
        return self._number(self.starts[row])

    def col(self, index: int) -> int:
        """1-based column of a character index."""
        return index - self.starts[self.row(index)] + 1

    def indent(self, row: int) -> int:
        line = self.lines[row]
        return len(line) - len(line.lstrip(" "))

    def content(self, row: int) -> bool:
        """The row holds something other than spaces and a comment."""
        s = self.lines[row].strip()
        return bool(s) and not s.startswith("#")

    def above(self, row: int) -> int | None:
        """The nearest row above ``row`` that holds content."""
        r = row - 1
        while r >= 0 and not self.content(r):
            r -= 1
        return r if r >= 0 else None

    def first_char(self, row: int) -> int:
        """Index of the first character of a row that is not a space."""
        return self.starts[row] + self.indent(row)

    def shown(self, row: int, limit: int = 40) -> str:
        s = self.lines[row].strip()
        return s if len(s) <= limit else s[: limit - 1] + "…"

    def levels(self, row: int) -> list[tuple[int, int]]:
        """``(indent, row)`` of the lines a line at ``row`` could line up
        with: the nearest content line above, then each line above it that
        is indented less (its parents), nearest first."""
        out: list[tuple[int, int]] = []
        r = self.above(row)
        while r is not None:
            i = self.indent(r)
            if not out or i < out[-1][0]:
                out.append((i, r))
            if i == 0:
                break
            r = self.above(r)
        return out


def explain(text: str, problem: str, context: str | None, index: int | None, context_index: int | None,
            line_number: Callable[[int], int] | None = None) -> Explained | None:
    """The plain words for a YAML syntax error, or None when no rule fits.

    ``problem``/``context``: the parser's words; ``index``/``context_index``:
    the character indices of its problem and context marks (None when it
    gave none); ``line_number(index)``: the line number people see for an
    index (default: 1-based lines of ``text``), used in the sentence."""
    if index is None:
        return None
    t = _Text(text, line_number or (lambda i: text.count("\n", 0, i) + 1))
    index = max(0, min(index, len(text)))
    for rule in _RULES:
        got = rule(t, problem or "", context or "", index, context_index)
        if got is not None:
            return got
    return None


# --------------------------------------------------------------------------- rules, most specific first


def _tab(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    row = t.row(index)
    line = t.lines[row]
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    at = t.text[index] if index < len(t.text) else ""
    if "tab" not in problem and at != "\t":
        return None
    if "\t" not in lead and at != "\t":
        return None
    tab = t.starts[row] + lead.index("\t") if "\t" in lead else index
    return Explained(tab, f"line {t.number(row)} is indented with a tab: YAML indents with spaces only, so "
                          "replace the tab with spaces")


def _non_ascii_space(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """A line indented with U+3000 or another space character that is not
    U+0020 (YAML reads it as text, a key at column 1): the parser stops on
    that line or on the next one."""
    rows = [t.row(cidx)] if cidx is not None else []
    rows.append(t.row(index))
    above = t.above(rows[-1])
    if above is not None:
        rows.append(above)
    for row in rows:
        got = indentation_words(t.lines[row])
        if got is not None and not _in_block_scalar(t, row):
            return Explained(t.starts[row] + got[0], f"line {t.number(row)} {got[1]}")
    return None


def _in_block_scalar(t: _Text, row: int) -> bool:
    """Whether the line above ``row`` that is indented less than it (in
    ASCII spaces) opens a block scalar (``key: |``): ``row`` is its text."""
    indent = t.indent(row)
    r = t.above(row)
    while r is not None and t.indent(r) >= indent:
        r = t.above(r)
    return r is not None and re.search(r"(?:^|\s)[|>][-+]?\d?\s*(#.*)?$", t.lines[r]) is not None


def _unclosed_quote(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "quoted scalar" not in context or "end of stream" not in problem or cidx is None:
        return None
    q = t.text[cidx] if cidx < len(t.text) else '"'
    kind = "double" if q == '"' else "single"
    row = t.row(cidx)
    return Explained(cidx, f"the {kind} quote opened on line {t.number(row)}, column {t.col(cidx)} is never "
                           f"closed: add the closing {q} at the end of the value", key_path_at(t, cidx))


def _unclosed_bracket(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    m = re.match(r"did not find expected ',' or '([\]}])'", problem)
    if m is None or cidx is None:
        return None
    close = m.group(1)
    opener = "[" if close == "]" else "{"
    row = t.row(cidx)
    q = _open_quote_in_flow(t.lines[row], cidx - t.starts[row])
    if q is not None:  # a quoted item never closed on the line runs on: the quote is the fault, not the bracket
        at = t.starts[row] + q
        kind = "double" if t.text[at] == '"' else "single"
        return Explained(at, f"the {kind} quote opened on line {t.number(row)}, column {t.col(at)} is not closed "
                             f"on its line, so the value runs on: close it with {t.text[at]}", key_path_at(t, at))
    what = "items" if close == "]" else "entries"
    return Explained(cidx, f"the {opener} opened on line {t.number(row)}, column {t.col(cidx)} is not closed "
                           f"where its value ends, or two of its {what} lack a comma between them: "
                           f"close it with {close}")


#: a quoted item of a flow collection, closed (a backslash escapes in double quotes, '' is a quote in single ones)
_FLOW_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^']|'')*'""")


def _open_quote_in_flow(line: str, start: int) -> int | None:
    """The 0-based column of a quote that opens an item of the flow
    collection opened at column ``start`` of ``line`` (right after ``[``,
    ``{`` or a comma, spaces aside) and is not closed on that line, or None."""
    i = start + 1
    while True:
        while line[i:i + 1] == " ":
            i += 1
        if line[i:i + 1] in ('"', "'"):
            m = _FLOW_QUOTED.match(line, i)
            if m is None:
                return i
            i = m.end()
        k = line.find(",", i)
        if k < 0:
            return None
        i = k + 1


def _reserved(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "cannot start any token" not in problem or index >= len(t.text) or t.text[index] not in "@`%":
        return None
    c = t.text[index]
    return Explained(index, f"a value cannot start with {c} on line {t.number(t.row(index))}: YAML reserves it; "
                            "put the value in quotes")


def _anchor_name(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    m = re.search(r"while scanning an? (anchor|alias)", context)
    if m is None:
        return None
    at = cidx if cidx is not None else index
    sigil = "&" if m.group(1) == "anchor" else "*"
    return Explained(at, f"{sigil} on line {t.number(t.row(at))} starts an {m.group(1)}, but no name follows it: "
                         f"write {sigil}name, or put the value in quotes")


def _quote_run_on(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """Text right after a closing quote whose opening quote is on an
    earlier line: the quote was never closed on its own line. The parser
    stops after the quote that closes it, wherever that is: among keys
    ("expected key"), in a list ("expected '-' indicator": a list item's
    quote closed by the next quoted value named that line), at a block's
    end."""
    if not re.search(r"expected (key|'-' indicator|<block end>)|mapping values", problem):
        return None
    before = t.text[:index].rstrip(" ")
    if not before or before[-1] not in "\"'":
        return None
    q = before[-1]
    close = len(before) - 1
    if q == '"':
        i = close - 1
        while i >= 0 and not (t.text[i] == '"' and (i == 0 or t.text[i - 1] != "\\")):
            i -= 1
    else:
        i = t.text.rfind("'", 0, close)
    if i < 0:
        return None
    row, close_row = t.row(i), t.row(close)
    if row == close_row:
        words = (f"text follows the closing quote on line {t.number(row)}: put the whole value inside the quotes, "
                 "or leave the quotes out")
        return Explained(index, words)
    kind = "double" if q == '"' else "single"
    return Explained(i, f"the {kind} quote opened on line {t.number(row)}, column {t.col(i)} is not closed on its "
                        f"line, so the value runs on to line {t.number(close_row)}: close it on line {t.number(row)}",
                     key_path_at(t, i))


_LINE_HEAD = re.compile(r"""^(?P<indent> *)(?P<dash>- +)?(?:(?P<key>[^\s#'"\[{:-][^:#]*?|"[^"]*"|'[^']*') *:(?: +|$))?""")


_FLOW_ITEM = re.compile(r"""\[(?P<items>[^\]\[{}"'#]*)""")


def _key_name(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        return raw[1:-1]
    return raw


def _item_number(t: _Text, row: int, dash_col: int) -> int:
    """How many list items at column ``dash_col`` come before the one on
    ``row``, in the same list (rows above, up to a line indented less)."""
    n = 0
    r = t.above(row)
    while r is not None:
        ind = t.indent(r)
        if ind < dash_col:
            break
        if ind == dash_col and t.lines[r][ind:].startswith("-"):
            n += 1
        r = t.above(r)
    return n


def key_path_at(t: _Text, index: int) -> str:
    """The key path (``skills.code-review.description``,
    ``skills.a.triggers[1]``, docs/formats.md §1.3) of the value that starts at character
    ``index``, read from the indentation of the lines above it (the text
    does not parse, so there is no tree to ask); ``""`` when the lines do
    not say it plainly (flow collections, several dashes on one line, a
    quote that opens a key)."""
    row = t.row(index)
    line = t.lines[row]
    before = line[: index - t.starts[row]]
    head = _LINE_HEAD.match(before)
    parts: list[str] = []
    if head is not None and head.end() != len(before):
        flow = _FLOW_ITEM.match(before, head.end())  # `key: [a, "b` : the item of a flow list on one line
        if head.group("key") is None or flow is None or flow.end() != len(before):
            return ""
        items = flow.group("items")
        parts.append(f"[{items.count(',')}]")
    if head is None:
        return ""
    indent = len(head.group("indent"))
    if head.group("key") is not None:
        parts.append(_key_name(head.group("key")))
        if head.group("dash"):
            parts.append(f"[{_item_number(t, row, indent)}]")
    elif head.group("dash"):
        parts.append(f"[{_item_number(t, row, indent)}]")
    # else the quote opens a key: the path is its mapping's
    r = row
    while indent > 0:
        r = t.above(r)
        while r is not None and t.indent(r) >= indent:
            r = t.above(r)
        if r is None:
            return ""
        up = _LINE_HEAD.match(t.lines[r])
        if up is None:
            return ""
        indent = len(up.group("indent"))
        rest = t.lines[r][up.end():].split("#", 1)[0].strip()
        if up.group("key") is not None and not rest:  # `key:` opening the block below
            parts.append(_key_name(up.group("key")))
            if up.group("dash"):
                parts.append(f"[{_item_number(t, r, indent)}]")
        elif up.group("dash") and (up.group("key") is not None or not rest):  # `- key: value` / `-`: a list item
            parts.append(f"[{_item_number(t, r, indent)}]")
        else:
            return ""
    path = ""
    for part in reversed(parts):
        path += part if part.startswith("[") or not path else "." + part
    return path


def _stray_bracket(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "expected key" not in problem or index >= len(t.text) or t.text[index] not in "]}":
        return None
    c = t.text[index]
    return Explained(index, f"an extra {c} on line {t.number(t.row(index))}, column {t.col(index)}: remove it")


def _long_key(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """A key over 1,024 characters: the parser says "mapping values are not
    allowed" at its colon, or, when the next line is another key, "could not
    find expected ':'" with the long line as its context."""
    if "mapping values are not allowed" in problem:
        row, colon = t.row(index), index
        key = t.text[t.starts[row]:index].strip()
    elif "expected ':'" in problem and cidx is not None:
        row = t.row(cidx)
        line = t.lines[row]
        at = line.find(": ")
        at = at if at >= 0 else (len(line.rstrip()) - 1 if line.rstrip().endswith(":") else -1)
        if at < 0:
            return None
        colon, key = t.starts[row] + at, line[:at].strip().removeprefix("- ").strip()
    else:
        return None
    if len(key) <= MAX_IMPLICIT_KEY or ": " in key:
        return None
    return Explained(colon, f"the key on line {t.number(row)} is {len(key):,} characters long: YAML allows at most "
                            f"{MAX_IMPLICIT_KEY:,} characters in a key written without `? `")


def _value_with_colon(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "mapping values are not allowed" not in problem:
        return None
    row = t.row(index)
    line = t.lines[row]
    m = _KEY_VALUE.match(line)
    if m is None or t.starts[row] + m.end() >= index:
        return None
    key = m.group("key")
    value = line[m.end():].strip()
    quoted = f"'{value}'" if '"' in value else f'"{value}"'
    return Explained(t.starts[row] + m.end() + (len(line[m.end():]) - len(line[m.end():].lstrip(" "))),
                     f"the value on line {t.number(row)} holds ': ', which YAML reads as the start of another key: "
                     f"put the value in quotes ({key}: {quoted})")


def _colon_no_space(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """``path:x`` reads as one word; the next line then breaks the mapping
    ("mapping values are not allowed" on the line after, or "could not find
    expected ':'" with the ``path:x`` line as its context when the next line
    is another key)."""
    if "mapping values are not allowed" in problem:
        row = t.row(index)
        rows = (t.above(row), row)
    elif "expected ':'" in problem and cidx is not None:
        rows = (t.row(cidx),)
    else:
        return None
    for r in rows:
        if r is None:
            continue
        line = t.lines[r]
        m = _COLON_NO_SPACE.match(line)
        if m and ": " not in line and not line.rstrip().endswith(":") and not line[m.end():].startswith("//"):
            colon = t.starts[r] + m.end() - 1
            key, value = line[: m.end() - 1].strip(), line[m.end():].strip()
            return Explained(colon, f"line {t.number(r)} has no space after its colon: write `{key}: {value}`")
    return None


def _indented_more(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "mapping values are not allowed" not in problem:
        return None
    row = t.row(index)
    prev = t.above(row)
    if prev is None or t.indent(row) <= t.indent(prev):
        return None
    p = t.lines[prev].strip()
    if p.endswith(":") or p.endswith("|") or p.endswith(">") or re.search(r"[|>][-+]?\d?$", p):
        return None  # the line above opens a block: being indented more is right
    if ":" not in p and not p.startswith(("-", "#")) and p[0] not in "\"'[{" and " " not in p:
        # one plain word, then lines indented under it: the word is a key whose colon is missing
        return Explained(t.first_char(prev) + len(p), f"line {t.number(prev)} (`{t.shown(prev)}`) has no colon: a key "
                                                      f"that opens the indented lines below ends with `:` "
                                                      f"(`{t.shown(prev)}:`)")
    before = t.above(prev)
    if before is not None and t.indent(prev) < t.indent(before) == t.indent(row):
        # the line above lost its indentation (a key pasted at column 1 inside a skill): it is the one to fix
        return _lost_indentation(t, prev, before, row, "is indented more than the line above it",
                                 f"indent line {t.number(row)} by {t.indent(prev)}")
    if (before is not None and t.lines[before].rstrip().endswith(":") and t.indent(before) < t.indent(prev)
            and _next_lines_up(t, row)):
        # the line above is the first key of its block and the lines from this one on line up with each other:
        # the first key is the odd one out (`path:` indented by 3 under a skill whose other keys have 4)
        return Explained(t.first_char(prev), f"line {t.number(prev)} (`{t.shown(prev)}`) is indented by "
                                             f"{t.indent(prev)}, the keys below it by {t.indent(row)}: indent line "
                                             f"{t.number(prev)} by {t.indent(row)} like them (or line {t.number(row)} "
                                             f"and the keys after it by {t.indent(prev)})")
    return Explained(t.first_char(row), f"line {t.number(row)} is indented more than line {t.number(prev)} above it "
                                        f"({t.indent(row)} spaces, not {t.indent(prev)}): a key lines up with the "
                                        "keys beside it")


def _over_indented(t: _Text, row: int) -> Explained | None:
    """The first key of a block indented past its siblings: the line above
    ``row`` is one ``key: value`` line indented more than ``row`` (a key
    too), right under the key that opens their block, which is indented
    less than both (`path:` indented by 5 under a skill whose other keys have
    4). The parser stops at ``row``, which lines up with no line above; the
    line to fix is the one above it when the lines say so: the keys after
    ``row`` line up with it, or the block before theirs ends at ``row``'s
    indentation (the keys of the skill above). Otherwise ``row`` may as well
    be the one indented less than its siblings, and the older words stand."""
    prev = t.above(row)
    if prev is None or t.indent(prev) <= t.indent(row):
        return None
    parent = t.above(prev)
    if parent is None or t.indent(parent) >= t.indent(row):
        return None
    up = _LINE_HEAD.match(t.lines[parent])
    if up is None or up.group("key") is None or t.lines[parent][up.end():].split("#", 1)[0].strip():
        return None  # the line above is not a `key:` opening the block
    here, mine = _KEY_VALUE.match(t.lines[row]), _KEY_VALUE.match(t.lines[prev])
    if here is None or mine is None or t.lines[row].lstrip(" ").startswith("-") \
            or t.lines[prev].lstrip(" ").startswith("-"):
        return None  # list items, or not keys: another mistake (a key that lost its indentation above)
    n, i, k = t.number(prev), t.indent(prev), t.indent(row)
    siblings = _next_lines_up(t, row)
    before = t.above(parent)
    if not siblings and (before is None or t.indent(before) != k):
        return None
    if siblings:
        words = (f"line {n} (`{t.shown(prev)}`) is indented by {i}, the keys below it by {k}: indent line {n} by "
                 f"{k} like them (or line {t.number(row)} and the keys after it by {i})")
    else:
        words = (f"line {n} (`{t.shown(prev)}`) is indented by {i}, line {t.number(row)} below it by {k}: indent "
                 f"line {n} by {k} like line {t.number(row)} (or line {t.number(row)} by {i})")
    head = _LINE_HEAD.match(t.lines[prev])
    path = key_path_at(t, t.starts[prev] + head.end()) if head is not None and head.group("key") else ""
    return Explained(t.first_char(prev), words, path)


def _next_lines_up(t: _Text, row: int) -> bool:
    """Whether the next content line after ``row`` is indented as ``row`` is."""
    r = row + 1
    while r < len(t.lines) and not t.content(r):
        r += 1
    return r < len(t.lines) and t.indent(r) == t.indent(row)


def _lost_indentation(t: _Text, cut: int, before: int, row: int, what: str, otherwise: str) -> Explained:
    """Line ``cut`` is indented less than ``before`` above it and ``row``
    below it, which line up: it ended the block they are in, so ``row``
    ``what``. The fix is most likely to indent ``cut`` like ``before``;
    ``otherwise`` is the other way out."""
    ind = t.indent(row)
    return Explained(t.first_char(cut),
                     f"line {t.number(cut)} (`{t.shown(cut)}`) is indented by {t.indent(cut)}, less than line "
                     f"{t.number(before)} above it and line {t.number(row)} below ({ind}), and ends the block they "
                     f"are in, so line {t.number(row)} {what}: indent line {t.number(cut)} by {ind} like line "
                     f"{t.number(before)} if it belongs there, or else {otherwise}")


def _missing_colon(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """A line of plain words where a key was expected, then a key below it."""
    if "mapping values are not allowed" not in problem:
        return None
    row = t.row(index)
    prev = t.above(row)
    if prev is None or t.indent(prev) != t.indent(row):
        return None
    p = t.lines[prev].strip()
    if ":" in p or p.startswith("-") or p[0] in "\"'[{":
        return None
    return Explained(t.first_char(prev), f"line {t.number(prev)} (`{t.shown(prev)}`) is not `key: value`: a colon "
                                         "is missing after its key")


def _block_scalar_text(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "expected ':'" not in problem or cidx is None:
        return None
    row = t.row(cidx)
    prev = t.above(row)
    if prev is None or not re.search(r":\s*[|>][-+]?\d?\s*(#.*)?$", t.lines[prev]):
        return None
    return Explained(t.first_char(row), f"the text of the block scalar on line {t.number(prev)} must be indented "
                                        f"more than its key: indent line {t.number(row)} by more than "
                                        f"{t.indent(prev)} spaces")


def _dash_or_colon(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    """A line of plain words among list items or keys (``could not find
    expected ':'``)."""
    if "expected ':'" not in problem or cidx is None:
        return None
    row = t.row(cidx)
    word = t.shown(row)
    sibling = None
    r = t.above(row)
    while r is not None and t.indent(r) >= t.indent(row) - 2:
        s = t.lines[r].strip()
        if s.startswith("- ") or s == "-":
            sibling = "dash"
            break
        if _KEY_VALUE.match(t.lines[r]) and t.indent(r) == t.indent(row):
            sibling = "colon"
            break
        r = t.above(r)
    n = t.number(row)
    if sibling != "colon" and re.match(r"-[^\s-]", word):
        # `-request gpus`: a list item whose dash has no space after it (read as a plain word)
        indent = t.indent(row)
        before = _item_number(t, row, indent)  # the items above it at its column: its index once fixed
        path = key_path_at(t, t.first_char(row)) if before and _list_block(t, row) else ""
        path = f"{path}[{before}]" if path else ""
        words = (f"line {n} (`{word}`) is neither `key: value` nor a list item: a space is missing after the dash: "
                 f"write `- {word[1:]}`")
        return Explained(cidx, words, path)
    if sibling == "dash":
        words = (f"line {n} (`{word}`) is neither `key: value` nor a list item: the lines above it are list items, "
                 f"so a dash is missing (`- {word}`)")
    elif sibling == "colon":
        words = f"line {n} (`{word}`) is not `key: value`: a colon is missing after its key"
    else:
        words = f"line {n} (`{word}`) is neither `key: value` nor a list item `- {word}`: a colon or a dash is missing"
    return Explained(cidx, words)


def _list_block(t: _Text, row: int) -> bool:
    """Whether every line above ``row`` at its indentation, up to the line
    indented less that opens their block, is a list item (a list written at
    its key's own indentation, `triggers:` then `- x` under it, is not: its
    path cannot be read from the indentation)."""
    indent = t.indent(row)
    r = t.above(row)
    while r is not None and t.indent(r) >= indent:
        if t.indent(r) == indent and not t.lines[r][indent:].startswith("-"):
            return False
        r = t.above(r)
    return r is not None


def _not_a_list_item(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "expected '-' indicator" not in problem:
        return None
    row = t.row(index)
    start = t.row(cidx) if cidx is not None else None
    where = f" (the list starts on line {t.number(start)})" if start is not None else ""
    return Explained(t.first_char(row), f"line {t.number(row)} is not a list item, but the lines above it at this "
                                        f"indentation are{where}: start it with `- `, or indent it as part of "
                                        "the item above")


def _list_after_key(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "block sequence entries are not allowed" not in problem:
        return None
    row = t.row(index)
    return Explained(index, f"a list item (`- `) cannot start on line {t.number(row)} after a key on the same line: "
                            "move it to the next line, indented more than the key")


def _list_item_among_keys(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "expected key" not in problem or index >= len(t.text) or t.text[index] != "-":
        return None
    row = t.row(index)
    for i, r in t.levels(row):
        if i == t.indent(row):
            if _KEY_VALUE.match(t.lines[r]):
                return Explained(index, f"line {t.number(row)} starts a list item (`- `) among the keys of a mapping "
                                        f"(line {t.number(r)}): write `key: value`, or indent the list under a key")
            break
    return None


def _indented_less(t: _Text, problem: str, context: str, index: int, cidx: int | None) -> Explained | None:
    if "expected key" not in problem and "document start" not in problem and "block end" not in problem:
        return None
    row = t.row(index)
    if not t.content(row):
        return None
    levels = t.levels(row)
    if not levels:
        return None
    ind = t.indent(row)
    if "document start" in problem:
        first = next((r for r in range(len(t.lines)) if t.content(r)), None)
        if first is not None and first < row and t.indent(first) > ind:
            return Explained(t.first_char(first), f"line {t.number(first)} is indented: the top-level keys all start "
                                                  "in the first column")
    if ind in (i for i, _ in levels):
        return None
    near_i, near_r = levels[0]
    options = ", or ".join(f"by {i} like line {t.number(r)}" for i, r in levels[:3])
    over = _over_indented(t, row)
    if over is not None:
        return over
    # a line above that lost its indentation (a key pasted at column 1 inside
    # a skill): the nearest line indented less than this one sits between two
    # lines at this very indentation, and ended the block both were in
    cut = next(((i, r) for i, r in levels if i < ind), None)
    before = t.above(cut[1]) if cut is not None else None
    if cut is not None and before is not None and t.indent(before) == ind:
        return _lost_indentation(t, cut[1], before, row, "lines up with no line above",
                                 f"indent line {t.number(row)} {options}")
    rel = "less" if ind < near_i else "more"
    return Explained(t.first_char(row), f"line {t.number(row)} is indented by {ind} spaces, {rel} than line "
                                        f"{t.number(near_r)} above it ({near_i}), and lines up with no line above: "
                                        f"indent it {options}")


_RULES = (
    _tab,
    _non_ascii_space,
    _unclosed_quote,
    _unclosed_bracket,
    _reserved,
    _anchor_name,
    _quote_run_on,
    _stray_bracket,
    _long_key,
    _value_with_colon,
    _colon_no_space,
    _indented_more,
    _missing_colon,
    _block_scalar_text,
    _dash_or_colon,
    _not_a_list_item,
    _list_after_key,
    _list_item_among_keys,
    _indented_less,
)
