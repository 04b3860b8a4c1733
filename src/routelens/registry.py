"""Read and validate the canonical registry (``skills.yaml``).

The registry is the single source of truth (spec ``formats.md`` section 1).
This module reads it from YAML *parse events* — never from a constructed
document — so that:

- every scalar is the text written in the file (``yes``, ``3.10`` and
  ``0123`` stay strings; spec section 1, "Rules of reading");
- an alias keeps its *own* position (a parser's composed node for ``*x``
  points at the anchor), so canonical line ranges are exact (spec section 2);
- object-building tags are refused before anything is constructed;
- alias expansion is bounded (no "billion laughs").

Lines are counted on the canonical text (BOM removed, CRLF/CR turned into
LF), from each event's *character index*, never from the parser's own line
counter: parsers count U+0085/U+2028/U+2029 as line breaks, YAML 1.2 and
editors do not (spec section 2).

Nothing in this module imports Textual.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any, Callable, Iterable

from ruamel.yaml import events as ev

from routelens.errors import Diagnostic, RegistryError
from routelens.gcpause import gc_paused
from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping

try:  # the C parser is ~10x faster; ruamel.yaml 0.19 needs ruamel.yaml.clib for it
    from ruamel.yaml.cyaml import CParser as _CParser
except Exception:  # pragma: no cover - exercised only without the clib
    _CParser = None

__all__ = [
    "Diagnostic",
    "RegistryError",
    "Skill",
    "Composition",
    "Rule",
    "RoutingSettings",
    "Registry",
    "load_registry",
    "parse_registry",
    "canonical_bytes",
    "decode_canonical",
    "read_registry_bytes",
    "source_sha256",
    "parse_fragment",
    "ID_RE",
    "LIMITS",
]

#: Ids of skills, compositions and rules (spec section 1).
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
PRIORITIES = ("P0", "P1", "P2")
STATUSES = ("active", "deprecated", "disabled")
NULL_WORDS = frozenset({"", "~", "null", "Null", "NULL"})
TRUE_WORDS = frozenset({"true", "True", "TRUE"})
FALSE_WORDS = frozenset({"false", "False", "FALSE"})
#: Tags that build nothing; any other explicit tag is refused.
SAFE_TAGS = frozenset(
    {"tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map", "!"}
)
KNOWN_TOP_LEVEL = ("schema_version", "skills", "composition", "rules", "routing")
#: A number as YAML 1.2's core schema writes it (no .inf/.nan, no 0x, no 1_000).
_NUMBER_RE = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_ID_MATCH = ID_RE.match
_SKILL_KEYS = frozenset({"path", "priority", "triggers", "description", "status"})

# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Skill:
    """A skill entry of the registry (spec section 1).

    ``source_start``/``source_end``: 1-based inclusive canonical line range
    (spec section 2). ``triggers``: the text as written, in file order.
    ``metadata``: every further key, as plain JSON-able values.
    ``self_contained``: False when the range uses an alias whose anchor lies
    outside it (spec section 2).
    """

    id: str
    path: str
    priority: str
    triggers: tuple[str, ...]
    description: str | None
    status: str
    metadata: dict[str, Any]
    source_start: int
    source_end: int
    self_contained: bool = True


@dataclass(frozen=True)
class Composition:
    """A composition: an id naming a non-empty list of existing skill ids."""

    id: str
    members: tuple[str, ...]
    source_start: int
    source_end: int
    self_contained: bool = True


@dataclass(frozen=True)
class Rule:
    """A rule; a matching ``forced`` rule sends the router to the full registry."""

    id: str
    forced: bool
    triggers: tuple[str, ...]
    description: str | None
    metadata: dict[str, Any]
    source_start: int
    source_end: int
    self_contained: bool = True


@dataclass(frozen=True)
class RoutingSettings:
    """The registry's ``routing:`` section with defaults (spec section 1).

    ``threshold`` and ``ambiguity_margin`` are scores on the 0-100 scale;
    ``max_index_ratio`` bounds index characters / registry characters.
    ``present`` tells whether the registry has a ``routing:`` section.
    """

    threshold: float = 85
    ambiguity_margin: float = 5
    high_risk: tuple[str, ...] = ()
    max_index_ratio: float = 0.70
    present: bool = False


@dataclass
class Registry:
    """A validated registry.

    ``text`` is the canonical text (BOM removed, LF line ends);
    ``source_sha256`` the sha256 hex of its UTF-8 bytes (spec section 3).
    ``skills``, ``compositions`` and ``rules`` are dicts sorted by id.
    ``line_count`` counts lines as an editor does (a final newline adds none).
    """

    path: Path
    display_name: str
    text: str
    source_sha256: str
    skills: dict[str, Skill]
    compositions: dict[str, Composition]
    rules: dict[str, Rule]
    routing: RoutingSettings
    warnings: list[Diagnostic] = field(default_factory=list)
    _lines: list[str] | None = field(default=None, repr=False)
    _comps_of: dict[str, list[str]] | None = field(default=None, repr=False)

    @property
    def lines(self) -> list[str]:
        """Canonical lines without their line ends (index 0 is line 1)."""
        if self._lines is None:
            lines = self.text.split("\n")
            if lines and lines[-1] == "" and self.text.endswith("\n"):
                lines.pop()
            self._lines = lines
        return self._lines

    @property
    def line_count(self) -> int:
        """Number of lines as an editor counts them (a final newline adds none)."""
        return len(self.lines)

    def range_text(self, start: int, end: int) -> str:
        """Exact text of 1-based inclusive lines ``start..end``, LF-joined,
        with a trailing LF. Raises ``ValueError`` for a range outside the file."""
        if start < 1 or end < start or end > self.line_count:
            raise ValueError(f"line range [{start}, {end}] is outside 1..{self.line_count}")
        return "\n".join(self.lines[start - 1 : end]) + "\n"

    @property
    def base_dir(self) -> Path:
        """The folder skill ``path``s are relative to."""
        return self.path.parent

    def entry(self, entry_id: str) -> Skill | Composition | Rule | None:
        """The skill, composition or rule with this id, or None."""
        return self.skills.get(entry_id) or self.compositions.get(entry_id) or self.rules.get(entry_id)

    def compositions_of(self, skill_id: str) -> list[str]:
        """Ids of the compositions that contain ``skill_id``, sorted (a new list)."""
        if self._comps_of is None:
            comps: dict[str, list[str]] = {}
            for c in self.compositions.values():  # sorted by id
                for m in c.members:
                    comps.setdefault(m, []).append(c.id)
            self._comps_of = comps
        return list(self._comps_of.get(skill_id, ()))


# --------------------------------------------------------------------------- canonical form


def canonical_bytes(raw: bytes) -> bytes:
    """The canonical form of registry bytes (spec section 3): a leading UTF-8
    BOM removed, CRLF and CR turned into LF."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\r" in raw:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return raw


def source_sha256(raw: bytes) -> str:
    """sha256 hex digest of :func:`canonical_bytes` (spec section 3)."""
    return hashlib.sha256(canonical_bytes(raw)).hexdigest()


# --------------------------------------------------------------------------- nodes

_SCALAR, _SEQ, _MAP, _ALIAS = 0, 1, 2, 3
_NO_ITEMS: tuple = ()


class _Node:
    """A parse-event node. ``start``/``end`` are character indices into the
    canonical text; ``plain`` tells a plain (unquoted) scalar, ``block`` a
    block scalar (``|``/``>``), ``flow`` a flow collection (``[...]``/``{...}``,
    from the parser's event, so a tag or anchor before the bracket does not
    matter). ``size`` is the number of nodes the node expands to (aliases
    followed), computed on demand (-1 until then)."""

    __slots__ = ("kind", "start", "end", "value", "plain", "items", "anchor", "target", "size", "block", "flow")

    def __init__(self, kind: int, start: int, end: int, value: Any = None, plain: bool = False,
                 items: Any = _NO_ITEMS, size: int = 1):
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.plain = plain
        self.items = items
        self.anchor: str | None = None
        self.target: _Node | None = None
        self.size = size
        self.block = False
        self.flow = False


class _Fatal(Exception):
    """Stop composing; diagnostics were recorded already."""


class _Reader:
    """Turns text into a node tree and collects diagnostics.

    ``fragment_offset`` (lines) and ``column_offset`` (characters) shift the
    reported positions, for a fragment cut out of a bigger file."""

    def __init__(self, text: str, display: str, fragment_offset: int = 0, column_offset: int = 0):
        self.text = text
        self.display = display
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self._line_starts: list[int] | None = None
        self.fragment_offset = fragment_offset
        self.column_offset = column_offset
        self.alias_total = 0
        #: True once an alias was read (entries then need the self-containment walk)
        self.has_alias = False
        #: ids of mappings with a refused second '<<' (their missing keys are not reported again)
        self.bad_merge: set[int] = set()
        #: id(key node) -> Skill or None, for skills validated while composing
        self.streamed: dict[int, Any] = {}
        #: give refused tags, alias bombs and too-deep nesting their key path
        self.compose_paths = False
        #: set when reading stopped at LIMITS["max_errors"] (reported last)
        self.limit_note: Diagnostic | None = None

    # positions ---------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        """Character index of the start of each canonical line (only LF ends a line here)."""
        if self._line_starts is None:
            starts = [0]
            starts.extend(accumulate(map((1).__add__, map(len, self.text.split("\n")))))
            starts.pop()  # the index just past the end of the text
            self._line_starts = starts
        return self._line_starts

    def line_of(self, index: int) -> int:
        """1-based line of a character index."""
        return bisect.bisect_right(self.line_starts, index)

    def pos(self, index: int) -> tuple[int, int]:
        """(1-based line, 1-based column) of a character index (the end of a
        text that ends with a line break is line N+1, column 1, as parsers
        and editors report an unexpected end of file)."""
        starts = self.line_starts
        line = bisect.bisect_right(starts, index)
        return line + self.fragment_offset, index - starts[line - 1] + 1 + self.column_offset

    def error(self, index: int, key_path: str, message: str) -> None:
        line, col = self.pos(index)
        self.errors.append(Diagnostic(self.display, line, col, key_path, message))
        if len(self.errors) >= LIMITS["max_errors"]:
            self.limit_note = Diagnostic(self.display, line, col, "",
                                         f"too many errors: stopped after {LIMITS['max_errors']}")
            raise _Fatal()

    def warn(self, index: int, key_path: str, message: str) -> None:
        line, col = self.pos(index)
        self.warnings.append(Diagnostic(self.display, line, col, key_path, message, "warning"))

    # composing ---------------------------------------------------------
    def compose(self, text: str, back: dict[str, str] | None = None,
                on_skill: Callable[[_Node, _Node], None] | None = None) -> _Node | None:
        """Compose the single document of ``text`` into nodes; None when the
        stream holds no document. Records every error it can (refused tags,
        duplicate keys, null or non-scalar keys, a second ``<<`` in a mapping,
        a bad merge value) with its key path, and raises ``_Fatal`` on what
        stops reading: a syntax error, a second document, an alias bomb, an
        undefined alias, nesting deeper than ``LIMITS["max_depth"]``.

        ``back`` maps the placeholder characters of :func:`_mask_separators`
        back to the line separators (applied to every scalar as it is read).
        ``on_skill(key, value)`` is called for each block-mapping entry of the
        top-level ``skills`` mapping as soon as it is complete; the entry's
        children are dropped afterwards (unless it is anchored), so memory
        stays bounded by the biggest entry, not the whole registry."""
        if _CParser is not None:
            parser = _CParser(text)
            get = parser.get_event
        else:  # pragma: no cover
            from ruamel.yaml import YAML

            it = iter(YAML(typ="safe", pure=True).parse(text))
            get = it.__next__
        anchors: dict[str, _Node] = {}
        stack: list[_Node] = []
        cur: list | None = None  # items of the innermost open collection
        root: _Node | None = None
        documents = 0
        max_depth = LIMITS["max_depth"]
        Node = _Node
        SCALAR, SEQ, MAP, ALIAS = _SCALAR, _SEQ, _MAP, _ALIAS
        ScalarEvent, AliasEvent = ev.ScalarEvent, ev.AliasEvent
        MappingStartEvent, SequenceStartEvent = ev.MappingStartEvent, ev.SequenceStartEvent
        MappingEndEvent, SequenceEndEvent = ev.MappingEndEvent, ev.SequenceEndEvent
        DocumentStartEvent, StreamEndEvent = ev.DocumentStartEvent, ev.StreamEndEvent
        safe_tags = SAFE_TAGS
        null_words = NULL_WORDS
        table = {ord(k): v for k, v in back.items()} if back else None
        #: (errors, warnings) counts before the last entry validated by on_skill, until
        #: the next node starts: a syntax error right after an entry may have cut it short,
        #: and then what its validation said is noise
        just_streamed: tuple[int, int] | None = None
        skills_key: _Node | None = None  # the top-level `skills` key whose entries are streamed
        try:
            while True:
                try:
                    e = get()
                except Exception as exc:  # ruamel's MarkedYAMLError, ReaderError, ...
                    if just_streamed is not None:
                        del self.errors[just_streamed[0]:]
                        del self.warnings[just_streamed[1]:]
                    self._syntax_error(exc, stack)
                    raise _Fatal() from None
                cls = type(e)
                if cls is ScalarEvent:
                    just_streamed = None
                    style = e.style
                    value = e.value if table is None else e.value.translate(table)
                    node = Node(SCALAR, e.start_mark.index, e.end_mark.index, value, not style)
                    if style == "|" or style == ">":
                        node.block = True
                    if e.ctag is not None and e.tag not in safe_tags and not (not style and e.tag == "?"):
                        self._refuse_tag(e, stack)
                    if e.anchor is not None:
                        node.anchor = e.anchor
                        anchors[e.anchor] = node
                elif cls is MappingEndEvent or cls is SequenceEndEvent:
                    node = stack.pop()
                    node.end = e.end_mark.index
                    cur = stack[-1].items if stack else None
                    if cls is MappingEndEvent and node.items:
                        # every mapping is checked once, where it is written
                        keys = node.items[0::2]
                        names = {k.value for k in keys}
                        if (len(names) != len(keys) or None in names or True in names or "<<" in names
                                or not names.isdisjoint(null_words)):
                            self._check_mapping(node, stack)
                        else:
                            node.value = True  # clean: distinct scalar keys, no merge, no null key
                        if on_skill is not None and len(stack) == 2:
                            top, sect = stack
                            key = sect.items[-1] if len(sect.items) % 2 else None
                            name = top.items[-1] if len(top.items) % 2 else None
                            if (key is not None and name is not None and sect.kind == MAP and not sect.flow
                                    and name.kind == SCALAR and name.plain and name.value == "skills"
                                    and (skills_key is None or skills_key is name)  # not a duplicate `skills:`
                                    and key.kind == SCALAR and not (key.plain and key.value in ("<<", *null_words))):
                                skills_key = name
                                just_streamed = (len(self.errors), len(self.warnings))
                                on_skill(key, node)
                                if node.anchor is None:
                                    node.items = []  # validated: let the children go
                    if node.anchor is not None:
                        anchors[node.anchor] = node
                elif cls is MappingStartEvent or cls is SequenceStartEvent:
                    just_streamed = None
                    node = Node(MAP if cls is MappingStartEvent else SEQ, e.start_mark.index,
                                e.end_mark.index, None, False, [], -1)
                    node.flow = bool(e.flow_style)
                    if e.ctag is not None and e.tag not in safe_tags:
                        self._refuse_tag(e, stack)
                    node.anchor = e.anchor
                    if len(stack) >= max_depth:
                        self.error(node.start, self._path_for_error(stack), f"nesting deeper than {max_depth} levels")
                        raise _Fatal()
                    stack.append(node)
                    cur = node.items
                    continue
                elif cls is AliasEvent:
                    just_streamed = None
                    target = anchors.get(e.anchor)
                    node = Node(ALIAS, e.start_mark.index, e.end_mark.index)
                    self.has_alias = True
                    if target is None:
                        self.error(node.start, self._path_for_error(stack),
                                   f"alias *{e.anchor} has no anchor defined before it")
                        raise _Fatal()
                    node.target = target
                    size = node.size = _expanded_size(target)
                    if size > LIMITS["max_alias_expansion"]:
                        self.error(
                            node.start, self._path_for_error(stack),
                            f"alias *{e.anchor} expands to {size} nodes, more than the limit "
                            f"{LIMITS['max_alias_expansion']} (alias bomb?)",
                        )
                        raise _Fatal()
                    self.alias_total += size
                    if self.alias_total > LIMITS["max_total_alias_expansion"]:
                        self.error(
                            node.start, self._path_for_error(stack),
                            f"aliases expand to more than {LIMITS['max_total_alias_expansion']} nodes in all "
                            "(alias bomb?)",
                        )
                        raise _Fatal()
                elif cls is DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        self.error(
                            e.start_mark.index, "",
                            "a second YAML document: the registry must be a single document",
                        )
                        raise _Fatal()
                    continue
                elif cls is StreamEndEvent:
                    break
                else:
                    continue
                # a completed node (scalar, alias, finished collection)
                if cur is not None:
                    cur.append(node)
                else:
                    root = node
        except (_Fatal, RecursionError, MemoryError):
            raise
        except Exception as exc:  # pragma: no cover - a bug: report it, never a traceback
            self.error(0, self._stack_path(stack), f"internal error while reading: {type(exc).__name__}: {exc}")
            raise _Fatal() from None
        return root

    def _path_for_error(self, stack: list[_Node]) -> str:
        """Key path for an error found while composing: only when
        ``compose_paths`` (the registry reader), "" for fragments (whose
        callers word their own messages)."""
        return self._stack_path(stack) if self.compose_paths else ""

    def _stack_path(self, stack: list[_Node]) -> str:
        """Key path of the next node to be added to the innermost open
        collection (computed only when an error is reported)."""
        path = ""
        for n in stack:
            items = n.items
            if n.kind == _MAP:
                if len(items) % 2 == 1:
                    k = self.deref(items[-1])
                    path = _join(path, k.value if k.kind == _SCALAR else "?")
            else:
                path = f"{path}[{len(items)}]"
        return path

    def _check_mapping(self, node: _Node, stack: list[_Node]) -> None:
        """Report the mapping's bad keys once, at the place it is written:
        duplicates, null keys, non-scalar keys, a second ``<<``, a ``<<``
        whose value is not a mapping or a list of mappings."""
        path = self._stack_path(stack)
        items = node.items
        seen: dict[str, _Node] = {}
        merge: _Node | None = None
        for i in range(0, len(items) - 1, 2):
            knode, vnode = items[i], items[i + 1]
            kd = self.deref(knode)
            if kd.kind != _SCALAR:
                self.error(knode.start, path, "a mapping key must be a plain string, not a list or a mapping")
                continue
            key = kd.value
            if kd.plain and key == "<<":
                if merge is not None:
                    self.bad_merge.add(id(node))
                    self.error(knode.start, _join(path, "<<"),
                               f"a second merge key '<<' in the same mapping (the first is on line "
                               f"{self.pos(merge.start)[0]}; only one is allowed)")
                    continue
                merge = knode
                src = self.deref(vnode)
                srcs = [src] if src.kind == _MAP else (
                    [self.deref(s) for s in src.items] if src.kind == _SEQ else [])
                if not srcs or any(s.kind != _MAP for s in srcs):
                    self.error(vnode.start, _join(path, "<<"), "a merge key '<<' needs a mapping or a list of mappings")
                continue
            if kd.plain and key in NULL_WORDS:
                shown = f"{key!r} " if key else ""
                self.error(knode.start, path, f"a null key {shown}(write the key as text, quoted if you mean the word)")
                continue
            if key in seen:
                first = self.pos(seen[key].start)[0]
                self.error(knode.start, _join(path, key), f"duplicate key (first defined on line {first})")
                continue
            seen[key] = knode

    def _refuse_tag(self, e: Any, stack: list[_Node]) -> None:
        tag = str(e.tag)
        if tag.startswith("tag:yaml.org,2002:"):
            tag = "!!" + tag[len("tag:yaml.org,2002:"):]
        self.error(e.start_mark.index, self._path_for_error(stack),
                   f"tag {tag} is not allowed: routelens never builds objects from the registry")

    def _syntax_error(self, exc: Exception, stack: list[_Node]) -> None:
        # The key path stays empty: where the parser stopped is not always
        # the entry at fault (a bad indentation closes the entry above).
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        context = getattr(exc, "context", None)
        message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
        path = ""
        if mark is not None and getattr(mark, "index", None) is not None:
            self.error(min(mark.index, len(self.text)), path, message)
        elif getattr(exc, "position", None) is not None:  # ReaderError
            self.error(min(exc.position, len(self.text)), path, message)
        else:
            self.error(0, path, message)

    # helpers -----------------------------------------------------------
    def deref(self, node: _Node) -> _Node:
        while node.kind == _ALIAS:
            node = node.target  # type: ignore[assignment]
        return node

    def mapping_pairs(self, node: _Node, path: str) -> list[tuple[str, _Node, _Node]]:
        """Effective (key, key node, value node) pairs of a mapping: explicit
        keys first, then keys merged through one ``<<`` that the mapping does
        not set itself. Keys are the text as written. Bad keys (duplicates,
        null, non-scalar, a second ``<<``) were reported by :meth:`compose`
        and are skipped here (the first of duplicates wins)."""
        node = self.deref(node)
        items = node.items
        if node.value is True:  # checked clean by compose
            keys = items[0::2]
            return list(zip([k.value for k in keys], keys, items[1::2]))
        pairs: list[tuple[str, _Node, _Node]] = []
        seen: set[str] = set()
        merge: _Node | None = None
        for i in range(0, len(items) - 1, 2):
            knode, vnode = items[i], items[i + 1]
            kd = knode if knode.kind == _SCALAR else self.deref(knode)
            if kd.kind != _SCALAR:
                continue
            key = kd.value
            if kd.plain and (key == "<<" or key in NULL_WORDS):
                if key == "<<" and merge is None:
                    merge = vnode
                continue
            if key in seen:
                continue
            seen.add(key)
            pairs.append((key, knode, vnode))
        if merge is not None:
            sources = self.deref(merge)
            source_nodes = [sources] if sources.kind == _MAP else (
                [self.deref(s) for s in sources.items] if sources.kind == _SEQ else []
            )
            for src in source_nodes:
                if src.kind != _MAP:
                    continue
                for key, knode, vnode in self.mapping_pairs(src, path):
                    if key not in seen:
                        seen.add(key)
                        pairs.append((key, knode, vnode))
        return pairs

    def content_end(self, node: _Node) -> int:
        """Character index just after the last content character of a value:
        the last descendant's end, never a collection's end mark (which may
        point at the next key), never the mark of an empty value (which may
        point at the next token); trailing blanks and line breaks are skipped,
        except the trailing line breaks a keep-chomped block scalar (``|+``)
        holds as content."""
        text = self.text
        while node.kind in (_MAP, _SEQ) and node.items and not node.flow:
            last = node.items[-1]
            if last.kind == _SCALAR and last.start == last.end and last.plain and not last.value:
                # an empty value: its mark follows the ':' or '-' indicator on the
                # same line, or (after a `? key` without value) it is the next token
                if last.start > 0 and text[last.start - 1] in ":-":
                    return last.start
                if node.kind == _MAP and len(node.items) >= 2:
                    node = node.items[-2]
                    continue
                return max(last.start, node.start)
            node = last
        end = node.end
        if node.kind == _SCALAR and node.block and node.value.endswith("\n\n"):
            return end  # |+ : the trailing blank lines are part of the value
        while end > node.start and text[end - 1] in " \t\n":
            end -= 1
        return end

    def uses_outside_alias(self, node: _Node, lo: int, hi: int) -> bool:
        """True when ``node`` (not following aliases) holds an alias whose
        anchor is defined outside lines ``lo..hi``."""
        if not self.has_alias:
            return False
        todo = [node]
        while todo:
            n = todo.pop()
            if n.kind == _ALIAS:
                line = self.line_of(n.target.start)  # type: ignore[union-attr]
                if not (lo <= line <= hi):
                    return True
            elif n.kind in (_MAP, _SEQ):
                todo.extend(n.items)
        return False

    def to_python(self, node: _Node, path: str) -> Any:
        """Plain JSON-able value: strings as written, plain nulls as None,
        lists, dicts (merge keys applied)."""
        node = self.deref(node)
        if node.kind == _SCALAR:
            return None if node.plain and node.value in NULL_WORDS else node.value
        if node.kind == _SEQ:
            return [self.to_python(c, f"{path}[{i}]") for i, c in enumerate(node.items)]
        return {k: self.to_python(v, _join(path, k)) for k, _, v in self.mapping_pairs(node, path)}


def _expanded_size(node: _Node) -> int:
    """Nodes ``node`` expands to with aliases followed (memoised in ``size``).
    Iterative, so a deep tree cannot exhaust the stack."""
    if node.size >= 0:
        return node.size
    todo = [(node, False)]
    while todo:
        n, done = todo.pop()
        if n.size >= 0:
            continue
        if n.kind == _ALIAS:
            t = n.target
            if t.size >= 0:  # type: ignore[union-attr]
                n.size = t.size  # type: ignore[union-attr]
            else:
                todo.append((n, False))
                todo.append((t, False))  # type: ignore[arg-type]
            continue
        if done:
            n.size = 1 + sum(c.size for c in n.items)
            continue
        todo.append((n, True))
        todo.extend((c, False) for c in n.items if c.size < 0)
    return node.size


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --------------------------------------------------------------------------- validation


class _Validator:
    def __init__(self, r: _Reader):
        self.r = r

    def string(self, node: _Node, path: str, what: str, allow_empty: bool = False) -> str | None:
        r = self.r
        n = r.deref(node)
        if n.kind != _SCALAR:
            r.error(node.start, path, f"{what} must be a string, not a {'list' if n.kind == _SEQ else 'mapping'}")
            return None
        if n.plain and n.value in NULL_WORDS:
            r.error(node.start, path, f"{what} is null or empty (quote it if you mean the word)")
            return None
        if not allow_empty and n.value == "":
            r.error(node.start, path, f"{what} is an empty string")
            return None
        return n.value

    def mapping(self, node: _Node, path: str, what: str) -> bool:
        n = self.r.deref(node)
        if n.kind != _MAP:
            kind = "a list" if n.kind == _SEQ else ("null" if n.plain and n.value in NULL_WORDS else f"the scalar {n.value!r}")
            self.r.error(node.start, path, f"{what} must be a mapping, not {kind}")
            return False
        return True

    def triggers(self, node: _Node, path: str) -> tuple[str, ...]:
        r = self.r
        n = r.deref(node)
        if n.kind != _SEQ:
            r.error(node.start, path, "triggers must be a non-empty list of strings")
            return ()
        if not n.items:
            r.error(node.start, path, "triggers is empty: give at least one trigger")
            return ()
        if len(n.items) > LIMITS["max_triggers_per_entry"]:
            r.error(node.start, path, f"{len(n.items)} triggers, more than the limit {LIMITS['max_triggers_per_entry']}")
            return ()
        out = []
        maxc = LIMITS["max_trigger_chars"]
        for i, item in enumerate(n.items):
            t = item.value
            if item.kind == _SCALAR and t and len(t) <= maxc and not (item.plain and t in NULL_WORDS) and not t.isspace():
                out.append(t)  # the common case, checked without building the key path
                continue
            p = f"{path}[{i}]"
            t = self.string(item, p, "a trigger")
            if t is None:
                continue
            if not t.strip():
                r.error(item.start, p, "a trigger is blank")
                continue
            if len(t) > LIMITS["max_trigger_chars"]:
                r.error(item.start, p, f"a trigger of {len(t)} characters, more than the limit {LIMITS['max_trigger_chars']}")
                continue
            out.append(t)
        return tuple(out)

    def entry_id(self, knode: _Node, key: str, section: str) -> str | None:
        if not ID_RE.match(key):
            self.r.error(
                knode.start, _join(section, key),
                f"bad id {key!r}: ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)",
            )
            return None
        return key


_NOT_STREAMED = object()


def _entry_range(r: _Reader, knode: _Node, vnode: _Node) -> tuple[int, int, bool]:
    """(source_start, source_end, self_contained) of an entry (spec section 2)."""
    start = r.line_of(knode.start)
    end = r.line_of(max(r.content_end(vnode) - 1, vnode.start))
    end = max(end, start)
    return start, end, not r.uses_outside_alias(vnode, start, end)


def _validate_skill(r: _Reader, v: _Validator, key: str, kn: _Node, vn: _Node) -> Skill | None:
    """The :class:`Skill` of one ``skills`` entry, or None after recording
    its errors."""
    null_words = NULL_WORDS
    sid = key if _ID_MATCH(key) else v.entry_id(kn, key, "skills")
    d = vn if vn.kind == _MAP else r.deref(vn)
    if d.kind != _MAP:
        v.mapping(vn, _join("skills", key), "a skill")
        return None
    if d.value is True:  # checked clean by compose: distinct scalar keys, no merge
        items = d.items
        fields = dict(zip([k.value for k in items[0::2]], items[1::2]))
    else:
        fields = {k: v2 for k, _, v2 in r.mapping_pairs(d, "")}
    base = "skills." + key
    for req in ("path", "priority", "triggers"):
        if req not in fields and id(d) not in r.bad_merge:
            r.error(kn.start, f"{base}.{req}", f"missing required key `{req}`")
    path_v = prio = None
    trig: tuple[str, ...] = ()
    n = fields.get("path")
    if n is not None:
        path_v = n.value if (n.kind == _SCALAR and n.value and not (n.plain and n.value in null_words)) \
            else v.string(n, base + ".path", "path")
        if path_v is not None and is_absolute_or_escaping(path_v):
            r.error(n.start, base + ".path",
                    f"path {path_v!r} must be relative to the registry's folder and stay inside it "
                    "(no absolute path, no '..')")
            path_v = None
    n = fields.get("priority")
    if n is not None:
        prio = n.value if n.kind == _SCALAR else v.string(n, base + ".priority", "priority")
        if prio not in PRIORITIES:
            if prio is not None and (n.kind != _SCALAR or v.string(n, base + ".priority", "priority") is not None):
                r.error(n.start, base + ".priority", f"unknown priority {prio!r} (one of P0, P1, P2)")
            prio = None
    n = fields.get("triggers")
    if n is not None:
        trig = v.triggers(n, base + ".triggers")
    description = None
    n = fields.get("description")
    if n is not None:
        description = n.value if (n.kind == _SCALAR and n.value and not (n.plain and n.value in null_words)) \
            else v.string(n, base + ".description", "description")
    status = "active"
    n = fields.get("status")
    if n is not None:
        st = n.value if n.kind == _SCALAR else v.string(n, base + ".status", "status")
        if st not in STATUSES:
            if st is not None and (n.kind != _SCALAR or v.string(n, base + ".status", "status") is not None):
                r.error(n.start, base + ".status", f"unknown status {st!r} (one of active, deprecated, disabled)")
            st = "active"
        status = st
    if len(fields) > 3:
        metadata = {k: r.to_python(v2, f"{base}.{k}") for k, v2 in fields.items() if k not in _SKILL_KEYS}
    else:
        metadata = {}
    if sid is None or not path_v or not prio or not trig:
        return None
    start, end, contained = _entry_range(r, kn, vn)
    if not contained:
        r.warn(kn.start, base, "not self-contained: its range uses an alias whose anchor lies outside it")
    return Skill(sid, path_v, prio, trig, description, status, metadata, start, end, contained)


def _validate(r: _Reader, root: _Node | None, path: Path, text: str) -> Registry | None:
    v = _Validator(r)
    if root is None or (root.kind == _SCALAR and root.plain and root.value in NULL_WORDS):
        r.error(0, "", "the registry is empty: expected a mapping with schema_version and skills")
        return None
    if not v.mapping(root, "", "the registry's top level"):
        return None
    top = {k: (kn, vn) for k, kn, vn in r.mapping_pairs(root, "")}

    # schema_version
    if "schema_version" not in top:
        r.error(0, "schema_version", "missing required key (schema_version: 1)")
    else:
        kn, vn = top["schema_version"]
        d = r.deref(vn)
        if not (d.kind == _SCALAR and d.plain and d.value == "1"):
            if d.kind != _SCALAR:
                shown = "a list" if d.kind == _SEQ else "a mapping"
            elif not d.plain:
                shown = f"the quoted string {d.value!r} (write 1 without quotes)"
            elif d.value in NULL_WORDS:
                shown = "null"
            else:
                shown = repr(d.value)
            r.error(vn.start, "schema_version", f"must be the integer 1, got {shown}")
    for key, (kn, vn) in top.items():
        if key not in KNOWN_TOP_LEVEL:
            r.warn(kn.start, key, f"unknown top-level key (known: {', '.join(KNOWN_TOP_LEVEL)}); ignored")

    def section_entries(name: str) -> list[tuple[str, _Node, _Node]]:
        if name not in top:
            return []
        kn, vn = top[name]
        d = r.deref(vn)
        if d.kind == _SCALAR and d.plain and d.value in NULL_WORDS and name != "skills":
            return []
        if not v.mapping(vn, name, f"`{name}`"):
            return []
        if d.flow and d.items:
            r.error(d.start, name, f"`{name}` is written in flow style ({{...}}): write it as a block mapping, "
                    "each entry on its own lines, so every entry has its own line range")
        for i in range(0, len(d.items) - 1, 2):
            k = r.deref(d.items[i])
            if k.kind == _SCALAR and k.plain and k.value == "<<":
                r.error(
                    d.items[i].start, f"{name}.<<",
                    f"merge keys are not allowed directly under `{name}`: each entry needs its own line range",
                )
        return r.mapping_pairs(vn, name)

    def entry_range(knode: _Node, vnode: _Node) -> tuple[int, int, bool]:
        return _entry_range(r, knode, vnode)

    # skills (validated while composing when they could be: see parse_registry)
    skills: dict[str, Skill] = {}
    if "skills" not in top:
        r.error(0, "skills", "missing required key `skills` (a mapping of skill id -> skill)")
    for key, kn, vn in section_entries("skills"):
        done = r.streamed.get(id(kn), _NOT_STREAMED)
        skill = _validate_skill(r, v, key, kn, vn) if done is _NOT_STREAMED else done
        if skill is not None:
            skills[skill.id] = skill

    # compositions
    compositions: dict[str, Composition] = {}
    for key, kn, vn in section_entries("composition"):
        cid = v.entry_id(kn, key, "composition")
        base = _join("composition", key)
        d = r.deref(vn)
        if d.kind != _SEQ or not d.items:
            r.error(vn.start, base, "a composition must be a non-empty list of skill ids")
            continue
        members = []
        for i, item in enumerate(d.items):
            p = f"{base}[{i}]"
            m = v.string(item, p, "a composition member")
            if m is None:
                continue
            if m not in skills and not (ID_RE.match(m) and _declared_skill(top, r, m)):
                r.error(item.start, p, f"unknown skill {m!r}")
                continue
            if m in members:
                r.error(item.start, p, f"skill {m!r} listed twice")
                continue
            members.append(m)
        if cid is None or len(members) != len(d.items):
            continue
        if cid in skills:
            r.error(kn.start, base, f"composition id {cid!r} is also a skill id: explicit ids must be unique")
            continue
        start, end, contained = entry_range(kn, vn)
        if not contained:
            r.warn(kn.start, base, "not self-contained: its range uses an alias whose anchor lies outside it")
        compositions[cid] = Composition(cid, tuple(members), start, end, contained)

    # rules
    rules: dict[str, Rule] = {}
    for key, kn, vn in section_entries("rules"):
        rid = v.entry_id(kn, key, "rules")
        base = _join("rules", key)
        if not v.mapping(vn, base, "a rule"):
            continue
        fields = {k: (k2, v2) for k, k2, v2 in r.mapping_pairs(vn, base)}
        forced = False
        if "forced" in fields:
            f = r.deref(fields["forced"][1])
            if f.kind == _SCALAR and f.plain and f.value in TRUE_WORDS:
                forced = True
            elif not (f.kind == _SCALAR and f.plain and f.value in FALSE_WORDS):
                r.error(fields["forced"][1].start, _join(base, "forced"), "forced must be true or false")
        if "triggers" not in fields:
            r.error(kn.start, _join(base, "triggers"), "missing required key `triggers`")
            continue
        trig = v.triggers(fields["triggers"][1], _join(base, "triggers"))
        description = None
        if "description" in fields:
            description = v.string(fields["description"][1], _join(base, "description"), "description")
        metadata = {k: r.to_python(v2, _join(base, k)) for k, (k2, v2) in fields.items()
                    if k not in ("forced", "triggers", "description")}
        if rid is None or not trig:
            continue
        start, end, contained = entry_range(kn, vn)
        rules[rid] = Rule(rid, forced, trig, description, metadata, start, end, contained)

    # routing
    routing = RoutingSettings()
    if "routing" in top:
        kn, vn = top["routing"]
        if v.mapping(vn, "routing", "`routing`"):
            vals: dict[str, Any] = {"present": True}
            for key, k2, v2 in r.mapping_pairs(vn, "routing"):
                p = _join("routing", key)
                if key in ("threshold", "ambiguity_margin", "max_index_ratio"):
                    s = v.string(v2, p, key)
                    if s is None:
                        continue
                    if not _NUMBER_RE.match(s.strip()):
                        r.error(v2.start, p, f"must be a number, got {s!r}")
                        continue
                    num = float(s)
                    lo, hi = (0.0, 100.0) if key != "max_index_ratio" else (0.0, 1.0)
                    if not (lo <= num <= hi) or num != num or (key == "max_index_ratio" and num == 0):
                        r.error(v2.start, p, f"must be a number in {'(0, 1]' if key == 'max_index_ratio' else '[0, 100]'}, got {s}")
                        continue
                    vals[key] = int(num) if num.is_integer() and key != "max_index_ratio" else num
                elif key == "high_risk":
                    d = r.deref(v2)
                    if d.kind == _SEQ and not d.items:
                        vals["high_risk"] = ()
                    else:
                        vals["high_risk"] = v.triggers(v2, p)
                else:
                    r.warn(k2.start, p, "unknown routing key; ignored")
            routing = RoutingSettings(**vals)

    if r.errors:
        return None
    return Registry(
        path=path,
        display_name=r.display,
        text=text,
        source_sha256="",
        skills=dict(sorted(skills.items())),
        compositions=dict(sorted(compositions.items())),
        rules=dict(sorted(rules.items())),
        routing=routing,
        warnings=list(r.warnings),
    )


def _declared_skill(top: dict, r: _Reader, sid: str) -> bool:
    """True when ``sid`` is a key under ``skills`` (even one with its own errors),
    so a broken skill does not also make every composition naming it an error."""
    if "skills" not in top:
        return False
    d = r.deref(top["skills"][1])
    if d.kind != _MAP:
        return False
    for i in range(0, len(d.items) - 1, 2):
        k = r.deref(d.items[i])
        if k.kind == _SCALAR and k.value == sid:
            return True
    return False


# --------------------------------------------------------------------------- entry points


def decode_canonical(raw: bytes, display: str) -> str:
    """Canonical text of YAML bytes (BOM removed, LF line ends; spec section
    3). Raises :class:`RegistryError` naming the 1-based line and column (in
    characters) of the first byte that is not UTF-8."""
    data = canonical_bytes(raw)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise RegistryError([Diagnostic(display, line, col, "",
                                        f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded")]) from None


_LINE_SEPARATORS = "\x85\u2028\u2029"


def _mask_separators(text: str) -> tuple[str, dict[str, str]]:
    """Replace U+0085/U+2028/U+2029 by private-use characters absent from the
    text, one character for one, so the parser (which counts them as line
    breaks, YAML 1.1) keeps them as ordinary characters (YAML 1.2)."""
    if not any(c in text for c in _LINE_SEPARATORS):
        return text, {}
    mapping: dict[str, str] = {}
    candidate = 0xE000
    for sep in _LINE_SEPARATORS:
        if sep not in text:
            continue
        while chr(candidate) in text:
            candidate += 1
        mapping[sep] = chr(candidate)
        candidate += 1
    return text.translate({ord(k): v for k, v in mapping.items()}), {v: k for k, v in mapping.items()}


def _unmask(node: _Node | None, back: dict[str, str]) -> None:
    if node is None or not back:
        return
    table = {ord(k): v for k, v in back.items()}
    todo = [node]
    seen: set[int] = set()
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.kind == _SCALAR:
            n.value = n.value.translate(table)
        elif n.kind in (_MAP, _SEQ):
            todo.extend(n.items)


def parse_registry(raw: bytes, path: str | Path = "skills.yaml", display_name: str | None = None,
                   progress: Callable[[float], None] | None = None) -> Registry:
    """Validate registry bytes and return a :class:`Registry`.

    ``path`` is where the registry lives (skill paths are relative to its
    folder); ``display_name`` is the file name used in diagnostics (defaults
    to ``path``). Raises :class:`RegistryError` carrying *every* error found
    (spec section 1): syntax, duplicate keys, bad ids, missing keys, refused
    tags, alias bombs, non-UTF-8 bytes, an empty file, a second document.
    ``progress(fraction)``, when given, is called while reading with the
    fraction (0..1) of the text read so far, at most about a hundred times.
    """
    path = Path(path)
    display = display_name or str(path)
    if len(raw) > LIMITS["max_registry_bytes"]:
        raise RegistryError([Diagnostic(display, 1, 1, "",
                                        f"the registry is {len(raw)} bytes, more than the limit {LIMITS['max_registry_bytes']}")])
    text = decode_canonical(raw, display)
    if "\x00" in text:
        i = text.index("\x00")
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        raise RegistryError([Diagnostic(display, line, col, "", "a NUL character: this is not a text file")])
    parse_text, back = _mask_separators(text)
    r = _Reader(text, display)
    r.compose_paths = True
    v = _Validator(r)

    total = max(len(text), 1)
    step = [0.01]

    def on_skill(kn: _Node, vn: _Node) -> None:
        r.streamed[id(kn)] = _validate_skill(r, v, kn.value, kn, vn)
        if progress is not None and vn.end / total >= step[0]:
            step[0] = vn.end / total + 0.01
            progress(min(vn.end / total, 1.0))

    try:
        with gc_paused():
            root = r.compose(parse_text, back, on_skill)
            reg = _validate(r, root, path, text)
        if reg is not None and r.errors:  # pragma: no cover - _validate returns None on errors
            reg = None
    except _Fatal:
        reg = None
    except RecursionError:
        r.errors.append(Diagnostic(display, 1, 1, "", "the registry nests too deeply"))
        reg = None
    if reg is None:
        errors = _sorted_unique(r.errors)
        if r.limit_note is not None:
            errors.append(r.limit_note)
        raise RegistryError(errors, _sorted_unique(r.warnings))
    if progress is not None:
        progress(1.0)
    reg.warnings = _sorted_unique(reg.warnings)
    reg.source_sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return reg


def _sorted_unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (line, column, key path, message), each once."""
    return sorted(set(diags), key=lambda d: (d.line, d.column, d.key_path, d.message, d.severity))


def read_registry_bytes(path: str | Path, display: str | None = None) -> bytes:
    """The registry file's bytes, read safely: only a regular file (a FIFO,
    a device such as ``/dev/zero`` or a directory is refused without
    blocking), at most ``LIMITS["max_registry_bytes"]`` bytes (checked while
    reading, not only from the reported size). Raises :class:`RegistryError`
    with a diagnostic naming the file."""
    import os
    import stat as _stat

    path = Path(path)
    display = display or str(path)
    limit = LIMITS["max_registry_bytes"]

    def fail(message: str) -> RegistryError:
        return RegistryError([Diagnostic(display, 1, 1, "", message)])

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise fail(f"cannot read the registry: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if _stat.S_ISDIR(st.st_mode):
            raise fail("cannot read the registry: it is a directory, not a file")
        if not _stat.S_ISREG(st.st_mode):
            raise fail("cannot read the registry: not a regular file (a pipe or a device?)")
        if st.st_size > limit:
            raise fail(f"the registry is {st.st_size} bytes, more than the limit {limit}")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise fail(f"the registry is more than the limit of {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise fail(f"cannot read the registry: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def load_registry(path: str | Path, display_name: str | None = None,
                  progress: Callable[[float], None] | None = None) -> Registry:
    """Read and validate the registry at ``path`` (see :func:`parse_registry`;
    ``progress`` is passed on).

    Raises :class:`RegistryError` (with a diagnostic naming the file) when the
    file cannot be read, is bigger than ``LIMITS["max_registry_bytes"]``, or
    is invalid.
    """
    path = Path(path)
    display = display_name or str(path)
    raw = read_registry_bytes(path, display)
    return parse_registry(raw, path, display, progress)


def parse_fragment(text: str, first_line: int = 1, display: str = "<fragment>") -> dict[str, Any]:
    """Parse the text of one canonical line range (spec section 2, the
    slicing property): the range is dedented and parsed as a one-key mapping
    with the same reading rules as the registry (text as written, no tags).

    Returns ``{key: value}`` with plain values. Raises :class:`RegistryError`
    (lines counted from ``first_line``) when the text does not parse, e.g.
    because it uses an alias whose anchor lies outside the range.
    """
    lines = text.split("\n")
    indents = [len(l) - len(l.lstrip(" ")) for l in lines if l.strip() and not l.lstrip().startswith("#")]
    cut = min(indents) if indents else 0
    # a line indented less than the cut (a comment, a blank line) loses only its own spaces
    body = "\n".join(l[min(cut, len(l) - len(l.lstrip(" "))):] for l in lines)
    parse_text, back = _mask_separators(body)
    r = _Reader(body, display, fragment_offset=first_line - 1, column_offset=cut)
    try:
        root = r.compose(parse_text, back)
        if root is None or r.deref(root).kind != _MAP:
            r.error(0, "", "the range does not hold a mapping entry")
            raise _Fatal()
        value = r.to_python(root, "")
    except _Fatal:
        raise RegistryError(_sorted_unique(r.errors) + ([r.limit_note] if r.limit_note else [])) from None
    except RecursionError:
        raise RegistryError([Diagnostic(display, first_line, 1, "", "the range nests too deeply")]) from None
    if r.errors:
        raise RegistryError(_sorted_unique(r.errors))
    return value


def iter_entries(reg: Registry) -> Iterable[Skill | Composition | Rule]:
    """Every skill, composition and rule, in file order."""
    allx: list[Skill | Composition | Rule] = [*reg.skills.values(), *reg.compositions.values(), *reg.rules.values()]
    return sorted(allx, key=lambda e: e.source_start)
