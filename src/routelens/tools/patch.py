"""Registry edits as text insertions that leave every other byte unchanged
(``routelens suggest --copy``, the ``fixes`` of a decision).

An :class:`Edit` inserts (or replaces) text at one place of the canonical
registry text; :func:`apply_edits` carries it into the registry's bytes
line by line, so a BOM, CRLF or CR line ends and every byte outside the
edit stay as they were. The places come from routelens's own YAML reader
(exact node positions, docs/formats.md §1.2); a new scalar is written plain
when YAML reads it back as the same text, else double-quoted. Each patched
registry is checked twice before it is returned: routelens reads it with
exactly the one value added and nothing else changed, and ruamel.yaml's
round-trip loader reads it to the same data plus that value.

Nothing here writes a file except :func:`write_copy`, which refuses the
registry itself (after resolving links, and hard links too). Nothing in
this module imports Textual.
"""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ruamel.yaml import YAML

from routelens.artifacts.write import atomic_write
from routelens.errors import RegistryError, RoutelensError
from routelens.fileio import same_file
from routelens.registry.load import parse_registry
from routelens.registry.model import Registry
from routelens.text.yaml_events import ALIAS, MAP, SCALAR, SEQ, Node, Reader, compose_bytes

__all__ = ["PatchError", "Edit", "yaml_scalar", "add_list_item", "set_routing", "apply_edits", "patched_registry",
           "write_copy", "same_file"]


class PatchError(RoutelensError):
    """The registry cannot be patched at that place (an alias, a flow-style
    mapping, a value that would not read back); the message says why, for
    people. Nothing was written."""


@dataclass(frozen=True)
class Edit:
    """One insertion into the canonical registry text.

    ``path``: the key path it edits (``("skills", "code-review",
    "triggers")`` or ``("routing", "threshold")``); ``value``: the value
    added (a trigger, a ``not_when`` phrase) or set (a number, as text);
    ``line``/``column``: 1-based position in the canonical text where
    ``text`` is inserted; ``replace``: characters replaced there (0 for a
    pure insertion); ``text``: the inserted text, LF for a line break;
    ``yaml``: the line a person would paste (``- review the pull
    request``); ``where_line``: the 1-based line the value is on once the
    edit is applied; ``how``: a sentence saying where it goes;
    ``values``: every value a list edit appends, in order (``(value,)``
    when empty)."""

    path: tuple[str, ...]
    value: str
    line: int
    column: int
    replace: int
    text: str
    yaml: str
    where_line: int
    how: str
    values: tuple[str, ...] = ()

    @property
    def added(self) -> tuple[str, ...]:
        """The values this edit appends (or sets)."""
        return self.values or (self.value,)

    @property
    def key_path(self) -> str:
        """``skills.code-review.triggers`` (docs/formats.md §1.3 notation)."""
        return ".".join(self.path)


_PLAIN_OK = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*")
_FLOW_BAD = re.compile(r"[,\[\]{}]")


def yaml_scalar(value: str, flow: bool = False) -> str:
    """``value`` as a YAML scalar that reads back as exactly the string
    ``value``, with routelens's reader and with ruamel.yaml's (which turns
    a plain ``1.10`` into a number): plain when that is safe (no ``: ``,
    `` #``, no leading indicator, no trailing space; in flow style no
    ``,[]{}`` either, and a plain read by ruamel.yaml gives the same
    string), else double-quoted with JSON escapes (a subset of YAML's
    double-quoted style)."""
    plain = (
        bool(_PLAIN_OK.fullmatch(value))
        and value == value.strip()
        and ": " not in value and " #" not in value and not value.endswith(":")
        and not (flow and _FLOW_BAD.search(value))
        and value.isprintable()
    )
    if plain:
        try:
            back = YAML(typ="safe", pure=True).load(f"k: [{value}]" if flow else f"k: {value}")["k"]
            plain = (back == [value]) if flow else (back == value)
        except Exception:  # anything ruamel cannot read plain gets quotes
            plain = False
    return value if plain else json.dumps(value, ensure_ascii=False)


def paste_text(raw: bytes, edit: Edit) -> str:
    """What a person pastes for ``edit`` into the registry ``raw`` it was
    made from: the line or lines as they will read in the file, their
    indentation included (``"    - review the pull request"``), where
    ``edit.yaml`` is the bare line (``- review the pull request``) that
    lands at column 1 when pasted over a whole line. New lines (a list
    item, a key, the ``routing:`` block) give the inserted lines; a line
    that is replaced (a one-line flow list, a ``routing`` value) gives the
    whole new line; a piece added inside the brackets of a list spread over
    several lines gives ``edit.yaml``, the piece itself. LF between lines.
    Raises :class:`PatchError` as :func:`apply_edits` does."""
    if edit.replace == 0 and edit.text.startswith("\n"):
        return edit.text[1:]
    if edit.replace == 0 and edit.column == 1 and edit.text.endswith("\n"):
        return edit.text[:-1]
    if edit.how.startswith("replace "):
        new = apply_edits(raw, [edit]).decode("utf-8", "surrogatepass")
        return _nth_line(new.removeprefix("\ufeff"), edit.line)
    return edit.yaml


def _nth_line(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text`` without its ending."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[line - 1]


# --------------------------------------------------------------------------- finding places


def _child(r: Reader, node: Node, key: str) -> tuple[Node, Node] | None:
    """``(key node, value node)`` of an own key of a mapping (merged keys
    are not the mapping's own text, so they do not count)."""
    items = node.items
    for i in range(0, len(items) - 1, 2):
        k = items[i]
        if k.kind == SCALAR and k.value == key:
            return k, items[i + 1]
    return None


def _walk(r: Reader, root: Node, path: Sequence[str]) -> tuple[Node | None, list[tuple[Node, Node]]]:
    """The value node at ``path`` (None when the last key is missing) and
    the ``(key, value)`` pairs on the way. Raises :class:`PatchError` when a
    step is missing, an alias, or not a mapping."""
    node = root
    trail: list[tuple[Node, Node]] = []
    for depth, key in enumerate(path):
        if node.kind == ALIAS:
            raise PatchError(f"{'.'.join(path[:depth])} is an alias: edit the anchor it points to by hand")
        if node.kind != MAP:
            raise PatchError(f"{'.'.join(path[:depth]) or 'the file'} is not a mapping")
        pair = _child(r, node, key)
        if pair is None:
            if depth == len(path) - 1:
                return None, trail
            raise PatchError(f"{'.'.join(path[:depth + 1])} is not in the registry")
        trail.append(pair)
        node = pair[1]
    return node, trail


def _line_col(r: Reader, index: int) -> tuple[int, int]:
    line, col = r.pos(index)
    return line, col


def _line_text(r: Reader, line: int) -> str:
    starts = r.line_starts
    end = starts[line] - 1 if line < len(starts) else len(r.text)
    return r.text[starts[line - 1]:end]


def _last_line(r: Reader, node: Node) -> int:
    """The line of a node's last content character."""
    end = r.content_end(node)
    return r.line_of(max(end - 1, node.start))


def _indent_of(r: Reader, index: int) -> str:
    line = r.line_of(index)
    text = _line_text(r, line)
    return text[: len(text) - len(text.lstrip(" "))]


def _append_line(r: Reader, after_line: int, new_line: str) -> tuple[int, int, str]:
    """(line, column, text) inserting ``new_line`` as a line of its own
    after ``after_line``."""
    text = _line_text(r, after_line)
    return after_line, len(text) + 1, "\n" + new_line


def add_list_item(raw: bytes, display: str, path: Sequence[str], value: str | Sequence[str]) -> Edit:
    """The edit appending ``value`` (one string, or several in order) to
    the list at ``path`` (e.g. ``("skills", "code-review", "triggers")``):
    a new ``- value`` line after the last item of a block list (same
    indentation), ``, value`` after the last item of a flow list, or, when
    the key is missing, a new ``key: [value]`` line after the mapping's
    last line (indented like its keys). Raises :class:`PatchError` for an
    alias, a flow-style mapping, or a value that is not a list;
    :class:`RegistryError` when the registry does not read."""
    values = (value,) if isinstance(value, str) else tuple(value)
    if not values:
        raise PatchError("nothing to add")
    value = values[0]
    r, root = compose_bytes(raw, display)
    if root is None:
        raise PatchError("the registry is empty")
    node, trail = _walk(r, root, path)
    where = ".".join(path)
    if node is None:
        parent = trail[-1][1] if trail else root
        if parent.flow:
            raise PatchError(f"{'.'.join(path[:-1])} is written in flow style ({{...}}): add `{path[-1]}` by hand")
        first_key = parent.items[0]
        indent = " " * (r.pos(first_key.start)[1] - 1)
        item = ", ".join(yaml_scalar(v, flow=True) for v in values)
        new = f"{indent}{path[-1]}: [{item}]"
        after = _last_line(r, parent)
        line, col, text = _append_line(r, after, new)
        return Edit(tuple(path), value, line, col, 0, text, f"{path[-1]}: [{item}]", after + 1,
                    f"a new line after line {after}, the last line of {'.'.join(path[:-1])}", values)
    if node.kind == ALIAS:
        raise PatchError(f"{where} is an alias: add the value where its anchor is defined, by hand")
    if node.kind != SEQ:
        raise PatchError(f"{where} is not a list")
    if not node.items:
        raise PatchError(f"{where} is an empty list: add the value by hand")
    last = node.items[-1]
    if node.flow:
        item = ", ".join(yaml_scalar(v, flow=True) for v in values)
        end = r.content_end(last)
        line, col = _line_col(r, end)
        if r.line_of(node.start) == line:  # a one-line list: the whole new line is the thing to paste
            old = _line_text(r, line)
            new_line = (old[: col - 1] + f", {item}" + old[col - 1:]).strip()
            return Edit(tuple(path), value, line, col, 0, f", {item}", new_line, line,
                        f"replace line {line} with it (`, {item}` added inside the brackets)", values)
        return Edit(tuple(path), value, line, col, 0, f", {item}", f", {item}", line,
                    f"append `, {item}` to the list on line {line}, inside its brackets", values)
    # block list: the dash of the last item gives the indentation
    start = last.start
    text = r.text
    dash = text.rfind("-", 0, start)
    prefix = text[r.line_starts[r.line_of(dash) - 1]:dash]
    if dash < 0 or prefix.strip():
        raise PatchError(f"{where}: cannot find the dash of its last item")
    item = yaml_scalar(value)
    after = _last_line(r, last)
    ins = "".join(f"\n{prefix}- {yaml_scalar(v)}" for v in values)
    line, col = after, len(_line_text(r, after)) + 1
    return Edit(tuple(path), value, line, col, 0, ins, f"- {item}", after + 1,
                f"a new line after line {after}, the last item of {where}", values)


def set_routing(raw: bytes, display: str, key: str, value: str) -> Edit:
    """The edit setting ``routing.<key>`` to the number ``value`` (text):
    the value replaced in place when the key is there, a new key line at
    the end of the ``routing:`` mapping, or a new ``routing:`` section at
    the end of the file (its ``yaml`` is then both lines, ``routing:`` and
    the key under it: the key alone pasted at column 1 is an unknown
    top-level key). Raises :class:`PatchError` for a flow-style
    section or an alias."""
    r, root = compose_bytes(raw, display)
    if root is None or root.kind != MAP:
        raise PatchError("the registry is not a mapping")
    sect = _child(r, root, "routing")
    if sect is None:
        lines = r.text.split("\n")
        n = len(lines) if lines[-1] != "" else len(lines) - 1
        block = f"routing:\n  {key}: {value}"
        if r.text and not r.text.endswith("\n"):
            line, col, text = n, len(lines[-1]) + 1, "\n" + block
        else:
            line, col, text = n + 1, 1, block + "\n"
        return Edit(("routing", key), value, line, col, 0, text, block, n + 2,
                    "a new `routing:` section at the end of the file")
    knode, vnode = sect
    if vnode.kind == ALIAS:
        raise PatchError("routing is an alias: edit it by hand")
    if vnode.kind != MAP or vnode.flow:
        raise PatchError("routing is written in flow style ({...}) or is not a mapping: edit it by hand")
    pair = _child(r, vnode, key)
    if pair is not None:
        old = pair[1]
        if old.kind != SCALAR:
            raise PatchError(f"routing.{key} is not a number")
        line, col = _line_col(r, old.start)
        length = old.end - old.start
        return Edit(("routing", key), value, line, col, length, value, f"{key}: {value}", line,
                    f"replace the value on line {line}")
    indent = " " * (r.pos(vnode.items[0].start)[1] - 1)
    after = _last_line(r, vnode)
    line, col, text = _append_line(r, after, f"{indent}{key}: {value}")
    return Edit(("routing", key), value, line, col, 0, text, f"{key}: {value}", after + 1,
                f"a new line after line {after}, in the routing: section")


# --------------------------------------------------------------------------- applying

_LINE_RE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)?")


def apply_edits(raw: bytes, edits: Sequence[Edit]) -> bytes:
    """``raw`` with ``edits`` applied (positions from the same ``raw``).
    A line break in an edit's text is written as the line ending of the
    line it goes into (that of the line before, for the last line; LF when
    the file has none). Bytes outside the edits are not touched. Raises
    :class:`PatchError` when two edits overlap."""
    bom = raw.startswith(b"\xef\xbb\xbf")
    body = raw[3:] if bom else raw
    pieces = [m.group() for m in _LINE_RE.finditer(body) if m.group()]
    default_end = b"\n"
    for p in pieces:
        if p.endswith((b"\r\n", b"\r", b"\n")):
            default_end = b"\r\n" if p.endswith(b"\r\n") else p[-1:]
            break
    by_line: dict[int, list[Edit]] = {}
    for e in edits:
        by_line.setdefault(e.line, []).append(e)
    for line, es in by_line.items():
        es.sort(key=lambda e: e.column, reverse=True)
        for a, b in zip(es[1:], es):
            if a.column + a.replace > b.column:
                raise PatchError(f"two edits overlap on line {line}")
        while len(pieces) < line:
            pieces.append(b"")
        piece = pieces[line - 1]
        content = piece.rstrip(b"\r\n")
        ending = piece[len(content):]
        ending_for_text = ending or default_end
        chars = content.decode("utf-8")
        for e in es:
            if e.column - 1 > len(chars):
                raise PatchError(f"edit past the end of line {line}")
            new_text = e.text.replace("\n", ending_for_text.decode("ascii"))
            chars = chars[: e.column - 1] + new_text + chars[e.column - 1 + e.replace:]
        pieces[line - 1] = chars.encode("utf-8", "surrogatepass") + ending
    return (b"\xef\xbb\xbf" if bom else b"") + b"".join(pieces)


def _ruamel(raw: bytes) -> Any:
    text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    return YAML().load(io.StringIO(text))


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data if data is None else str(data)


def _with_value(data: Any, e: Edit) -> Any:
    data = _plain(data)
    node = data
    for key in e.path[:-1]:
        node = node.setdefault(key, {})
    last = e.path[-1]
    if e.path[0] == "routing" and len(e.path) == 2:
        node[last] = e.value
    else:
        node.setdefault(last, [])
        node[last] = [*node[last], *e.added]
    return data


def patched_registry(reg: Registry, raw: bytes, edits: Sequence[Edit]) -> tuple[bytes, Registry]:
    """Apply ``edits`` to the registry's bytes ``raw`` and check the result:
    routelens reads it (``reg``'s path, so bodies resolve the same), every
    edited list holds exactly its old items plus the added values, nothing
    else of any entry changed, and ruamel.yaml's round-trip loader reads it
    to the old data plus the edits. Returns ``(new bytes, new registry)``.
    Raises :class:`PatchError` when a check fails."""
    new = apply_edits(raw, edits)
    try:
        new_reg = parse_registry(new, reg.path, reg.display_name)
    except RegistryError as exc:
        raise PatchError(f"the patched registry does not read: {exc.diagnostics[0]}") from None
    try:
        before, after = _ruamel(raw), _ruamel(new)
    except Exception as exc:  # ruamel raises many kinds
        raise PatchError(f"the patched registry does not load with ruamel.yaml: {exc}") from None
    expected = _plain(before)
    for e in edits:
        expected = _with_value(expected, e)
    if _plain(after) != expected:
        raise PatchError("the patched registry reads differently from the intended edit")
    return new, new_reg


def write_copy(path: str | Path, data: bytes, protected: Sequence[str | Path]) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file beside it,
    then a rename; an existing file keeps its mode). Refuses
    (:class:`PatchError`) when ``path`` is one of ``protected`` (the
    registry, the generated files) or a folder."""
    path = Path(path)
    for p in protected:
        if same_file(path, p):
            raise PatchError(f"refusing to write {path}: it is {p}, which routelens never writes; "
                             "choose another file for the patched copy")
    if path.is_dir():
        raise PatchError(f"refusing to write {path}: it is a folder")
    atomic_write(path, data)
