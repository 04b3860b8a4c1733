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
from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import events as ev

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
ROUTING_DEFAULTS = {"threshold": 85, "ambiguity_margin": 5, "high_risk": (), "max_index_ratio": 0.70}

#: Limits enforced on every registry read (README "Security"): values are
#: part of the contract, tests assert them.
LIMITS = {
    "max_registry_bytes": 64 * 1024 * 1024,  # bytes of skills.yaml
    "max_alias_expansion": 10_000,  # nodes one alias may expand to
    "max_total_alias_expansion": 100_000,  # nodes all aliases together may expand to
    "max_depth": 64,  # nesting of collections
    "max_triggers_per_entry": 256,  # triggers of one skill or rule
    "max_trigger_chars": 200,  # characters of one trigger
    "max_errors": 200,  # diagnostics reported before giving up
}


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a registry.

    ``line`` and ``column`` are 1-based and count characters on the canonical
    text (as an editor shows them). ``key_path`` is dotted with list indices,
    e.g. ``skills.repository-change.triggers[2]`` ("" for the whole file).
    ``severity`` is ``"error"`` or ``"warning"``.
    """

    file: str
    line: int
    column: int
    key_path: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.key_path}: " if self.key_path else ""
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return f"{self.file}:{self.line}:{self.column}: {tag}{where}{self.message}"


class RegistryError(Exception):
    """The registry cannot be used. ``diagnostics`` holds every error found
    (not only the first), in file order; ``warnings`` holds the warnings."""

    def __init__(self, diagnostics: list[Diagnostic], warnings: list[Diagnostic] | None = None):
        self.diagnostics = diagnostics
        self.warnings = warnings or []
        super().__init__("\n".join(str(d) for d in diagnostics))


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
        return self.skills.get(entry_id) or self.compositions.get(entry_id) or self.rules.get(entry_id)

    def compositions_of(self, skill_id: str) -> list[str]:
        """Ids of the compositions that contain ``skill_id``, sorted."""
        return [c.id for c in self.compositions.values() if skill_id in c.members]


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


class _Node:
    """A parse-event node. ``start``/``end`` are character indices into the
    canonical text; ``plain`` tells a plain (unquoted) scalar."""

    __slots__ = ("kind", "start", "end", "value", "plain", "items", "anchor", "target", "size", "block")

    def __init__(self, kind: int, start: int, end: int):
        self.kind = kind
        self.start = start
        self.end = end
        self.value: Any = None
        self.plain = False
        self.items: list = []
        self.anchor: str | None = None
        self.target: _Node | None = None
        self.size = 1
        self.block = False


class _Fatal(Exception):
    """Stop composing; diagnostics were recorded already."""


class _Reader:
    """Turns text into a node tree and collects diagnostics."""

    def __init__(self, text: str, display: str, fragment_offset: int = 0):
        self.text = text
        self.display = display
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        # line starts of the canonical text: only LF ends a line here
        starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.line_starts = starts
        self.fragment_offset = fragment_offset
        self.alias_total = 0
        #: ids of mappings with a refused second '<<' (their missing keys are not reported again)
        self.bad_merge: set[int] = set()

    # positions ---------------------------------------------------------
    def line_of(self, index: int) -> int:
        """1-based line of a character index."""
        return bisect.bisect_right(self.line_starts, index)

    def pos(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index)
        return line + self.fragment_offset, index - self.line_starts[line - 1] + 1

    def error(self, index: int, key_path: str, message: str) -> None:
        line, col = self.pos(index)
        self.errors.append(Diagnostic(self.display, line, col, key_path, message))
        if len(self.errors) >= LIMITS["max_errors"]:
            raise _Fatal()

    def warn(self, index: int, key_path: str, message: str) -> None:
        line, col = self.pos(index)
        self.warnings.append(Diagnostic(self.display, line, col, key_path, message, "warning"))

    # composing ---------------------------------------------------------
    def compose(self, text: str) -> _Node | None:
        """Compose the single document of ``text`` into nodes; None when the
        stream holds no document. Records an error and raises ``_Fatal`` on a
        syntax error, a second document or a refused tag."""
        if _CParser is not None:
            parser = _CParser(text)
            get = parser.get_event
        else:  # pragma: no cover
            from ruamel.yaml import YAML

            it = iter(YAML(typ="safe", pure=True).parse(text))
            get = it.__next__
        anchors: dict[str, _Node] = {}
        stack: list[_Node] = []
        root: _Node | None = None
        documents = 0
        max_depth = LIMITS["max_depth"]
        ScalarEvent, AliasEvent = ev.ScalarEvent, ev.AliasEvent
        MappingStartEvent, SequenceStartEvent = ev.MappingStartEvent, ev.SequenceStartEvent
        CollectionEndEvent = ev.CollectionEndEvent
        DocumentStartEvent, StreamEndEvent = ev.DocumentStartEvent, ev.StreamEndEvent
        try:
            while True:
                e = get()
                cls = type(e)
                if cls is ScalarEvent:
                    node = _Node(_SCALAR, e.start_mark.index, e.end_mark.index)
                    node.value = e.value
                    style = e.style
                    node.plain = style is None or style == ""
                    node.block = style in ("|", ">")
                    if e.tag is not None and e.tag not in SAFE_TAGS and not (node.plain and e.tag == "?"):
                        self._refuse_tag(e)
                elif cls is AliasEvent:
                    target = anchors.get(e.anchor)
                    node = _Node(_ALIAS, e.start_mark.index, e.end_mark.index)
                    if target is None:
                        self.error(node.start, "", f"alias *{e.anchor} has no anchor defined before it")
                        raise _Fatal()
                    node.target = target
                    node.size = target.size
                    if target.size > LIMITS["max_alias_expansion"]:
                        self.error(
                            node.start, "",
                            f"alias *{e.anchor} expands to {target.size} nodes, more than the limit "
                            f"{LIMITS['max_alias_expansion']} (alias bomb?)",
                        )
                        raise _Fatal()
                    self.alias_total += target.size
                    if self.alias_total > LIMITS["max_total_alias_expansion"]:
                        self.error(
                            node.start, "",
                            f"aliases expand to more than {LIMITS['max_total_alias_expansion']} nodes in all "
                            "(alias bomb?)",
                        )
                        raise _Fatal()
                elif cls is MappingStartEvent or cls is SequenceStartEvent:
                    node = _Node(_MAP if cls is MappingStartEvent else _SEQ, e.start_mark.index, e.end_mark.index)
                    if e.tag is not None and e.tag not in SAFE_TAGS:
                        self._refuse_tag(e)
                    node.anchor = e.anchor
                    stack.append(node)
                    if len(stack) > max_depth:
                        self.error(node.start, "", f"nesting deeper than {max_depth} levels")
                        raise _Fatal()
                    continue
                elif isinstance(e, CollectionEndEvent):
                    node = stack.pop()
                    node.end = e.end_mark.index
                    size = 1
                    for child in node.items:
                        size += child.size
                    node.size = size
                    if node.anchor is not None:
                        anchors[node.anchor] = node
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
                if cls is ScalarEvent and e.anchor is not None:
                    node.anchor = e.anchor
                    anchors[e.anchor] = node
                if stack:
                    stack[-1].items.append(node)
                else:
                    root = node
        except _Fatal:
            raise
        except Exception as exc:  # ruamel's MarkedYAMLError, ReaderError, ...
            self._syntax_error(exc)
            raise _Fatal() from None
        return root

    def _refuse_tag(self, e: Any) -> None:
        tag = str(e.tag)
        if tag.startswith("tag:yaml.org,2002:"):
            tag = "!!" + tag[len("tag:yaml.org,2002:"):]
        self.error(
            e.start_mark.index, "",
            f"tag {tag} is not allowed: routelens never builds objects from the registry",
        )
        raise _Fatal()

    def _syntax_error(self, exc: Exception) -> None:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).strip().splitlines()[0]
        context = getattr(exc, "context", None)
        message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
        if mark is not None and getattr(mark, "index", None) is not None:
            index = min(mark.index, len(self.text))
            self.error(index, "", message)
        elif getattr(exc, "position", None) is not None:  # ReaderError
            self.error(min(exc.position, len(self.text)), "", message)
        else:
            self.error(0, "", message)

    # helpers -----------------------------------------------------------
    def deref(self, node: _Node) -> _Node:
        while node.kind == _ALIAS:
            node = node.target  # type: ignore[assignment]
        return node

    def mapping_pairs(self, node: _Node, path: str) -> list[tuple[str, _Node, _Node]]:
        """Effective (key, key node, value node) pairs of a mapping: explicit
        keys first (duplicates are errors), then keys merged through one ``<<``
        that the mapping does not set itself. Keys are the text as written."""
        node = self.deref(node)
        items = node.items
        pairs: list[tuple[str, _Node, _Node]] = []
        seen: dict[str, _Node] = {}
        merge: _Node | None = None
        for i in range(0, len(items) - 1, 2):
            knode, vnode = items[i], items[i + 1]
            kd = self.deref(knode)
            if kd.kind != _SCALAR:
                self.error(knode.start, path, "a mapping key must be a plain string")
                continue
            key = kd.value
            if kd.plain and key == "<<":
                if merge is not None:
                    self.bad_merge.add(id(node))
                    self.error(
                        knode.start, _join(path, "<<"),
                        "a second merge key '<<' in the same mapping (only one is allowed)",
                    )
                    continue
                merge = vnode
                continue
            if kd.plain and key in NULL_WORDS:
                self.error(knode.start, path, "a null key (write the key as text)")
                continue
            if key in seen:
                first = self.pos(seen[key].start)[0]
                self.error(knode.start, _join(path, key), f"duplicate key (first defined on line {first})")
                continue
            seen[key] = knode
            pairs.append((key, knode, vnode))
        if merge is not None:
            sources = self.deref(merge)
            source_nodes = [sources] if sources.kind == _MAP else (
                [self.deref(s) for s in sources.items] if sources.kind == _SEQ else []
            )
            if not source_nodes or any(s.kind != _MAP for s in source_nodes):
                self.error(merge.start, _join(path, "<<"), "a merge key '<<' needs a mapping or a list of mappings")
            for src in source_nodes:
                if src.kind != _MAP:
                    continue
                for key, knode, vnode in self.mapping_pairs(src, path):
                    if key not in seen:
                        seen[key] = knode
                        pairs.append((key, knode, vnode))
        return pairs

    def content_end(self, node: _Node) -> int:
        """Character index just after the last content character of a value:
        the last descendant's end, never a collection's end mark (which may
        point at the next key); trailing blanks and line breaks are skipped."""
        while node.kind in (_MAP, _SEQ) and node.items and not self._is_flow(node):
            node = node.items[-1]
        end = node.end
        text = self.text
        while end > node.start and text[end - 1] in " \t\n":
            end -= 1
        return end

    def _is_flow(self, node: _Node) -> bool:
        ch = self.text[node.start : node.start + 1]
        if ch == "&":  # anchored: look past the anchor token
            j = node.start
            n = len(self.text)
            while j < n and self.text[j] not in " \t\n":
                j += 1
            while j < n and self.text[j] in " \t":
                j += 1
            ch = self.text[j : j + 1]
        return ch in ("[", "{")

    def uses_outside_alias(self, node: _Node, lo: int, hi: int) -> bool:
        """True when ``node`` (not following aliases) holds an alias whose
        anchor is defined outside lines ``lo..hi``."""
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


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _is_absolute_or_escaping(p: str) -> bool:
    if p.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", p):
        return True
    parts = re.split(r"[\\/]", p)
    return ".." in parts


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
        for i, item in enumerate(n.items):
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
            shown = d.value if d.kind == _SCALAR else "a collection"
            r.error(vn.start, "schema_version", f"must be the integer 1, got {shown!r}")
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
        for i in range(0, len(d.items) - 1, 2):
            k = r.deref(d.items[i])
            if k.kind == _SCALAR and k.plain and k.value == "<<":
                r.error(
                    d.items[i].start, f"{name}.<<",
                    f"merge keys are not allowed directly under `{name}`: each entry needs its own line range",
                )
        return r.mapping_pairs(vn, name)

    def entry_range(knode: _Node, vnode: _Node) -> tuple[int, int, bool]:
        start = r.line_of(knode.start)
        end = r.line_of(max(r.content_end(vnode) - 1, vnode.start))
        end = max(end, start)
        return start, end, not r.uses_outside_alias(vnode, start, end)

    # skills
    skills: dict[str, Skill] = {}
    if "skills" not in top:
        r.error(0, "skills", "missing required key `skills` (a mapping of skill id -> skill)")
    for key, kn, vn in section_entries("skills"):
        sid = v.entry_id(kn, key, "skills")
        base = _join("skills", key)
        if not v.mapping(vn, base, "a skill"):
            continue
        fields = {k: (k2, v2) for k, k2, v2 in r.mapping_pairs(vn, base)}
        values: dict[str, Any] = {}
        for req in ("path", "priority", "triggers"):
            if req not in fields and id(r.deref(vn)) not in r.bad_merge:
                r.error(kn.start, _join(base, req), f"missing required key `{req}`")
        if "path" in fields:
            p = v.string(fields["path"][1], _join(base, "path"), "path")
            if p is not None and _is_absolute_or_escaping(p):
                r.error(fields["path"][1].start, _join(base, "path"),
                        f"path {p!r} must be relative to the registry's folder and stay inside it (no absolute path, no '..')")
                p = None
            values["path"] = p
        if "priority" in fields:
            pr = v.string(fields["priority"][1], _join(base, "priority"), "priority")
            if pr is not None and pr not in PRIORITIES:
                r.error(fields["priority"][1].start, _join(base, "priority"), f"unknown priority {pr!r} (one of P0, P1, P2)")
                pr = None
            values["priority"] = pr
        if "triggers" in fields:
            values["triggers"] = v.triggers(fields["triggers"][1], _join(base, "triggers"))
        description = None
        if "description" in fields:
            description = v.string(fields["description"][1], _join(base, "description"), "description")
        status = "active"
        if "status" in fields:
            st = v.string(fields["status"][1], _join(base, "status"), "status")
            if st is not None and st not in STATUSES:
                r.error(fields["status"][1].start, _join(base, "status"), f"unknown status {st!r} (one of active, deprecated, disabled)")
            status = st if st in STATUSES else "active"
        metadata = {
            k: r.to_python(v2, _join(base, k))
            for k, (k2, v2) in fields.items()
            if k not in ("path", "priority", "triggers", "description", "status")
        }
        start, end, contained = entry_range(kn, vn)
        if sid is None or not values.get("path") or not values.get("priority") or not values.get("triggers"):
            continue
        if not contained:
            r.warn(kn.start, base, "not self-contained: its range uses an alias whose anchor lies outside it")
        skills[sid] = Skill(sid, values["path"], values["priority"], values["triggers"], description,
                            status, metadata, start, end, contained)

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
                    try:
                        num = float(s) if s is not None else None
                    except ValueError:
                        num = None
                        r.error(v2.start, p, f"must be a number, got {s!r}")
                    if num is None:
                        continue
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


def _decode(raw: bytes, display: str) -> str:
    """Canonical text of registry bytes; raises RegistryError naming the
    line and column of the first byte that is not UTF-8."""
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


def parse_registry(raw: bytes, path: str | Path = "skills.yaml", display_name: str | None = None) -> Registry:
    """Validate registry bytes and return a :class:`Registry`.

    ``path`` is where the registry lives (skill paths are relative to its
    folder); ``display_name`` is the file name used in diagnostics (defaults
    to ``path``). Raises :class:`RegistryError` carrying *every* error found
    (spec section 1): syntax, duplicate keys, bad ids, missing keys, refused
    tags, alias bombs, non-UTF-8 bytes, an empty file, a second document.
    """
    path = Path(path)
    display = display_name or str(path)
    if len(raw) > LIMITS["max_registry_bytes"]:
        raise RegistryError([Diagnostic(display, 1, 1, "",
                                        f"the registry is {len(raw)} bytes, more than the limit {LIMITS['max_registry_bytes']}")])
    text = _decode(raw, display)
    if "\x00" in text:
        i = text.index("\x00")
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        raise RegistryError([Diagnostic(display, line, col, "", "a NUL character: this is not a text file")])
    parse_text, back = _mask_separators(text)
    r = _Reader(text, display)
    try:
        root = r.compose(parse_text)
        _unmask(root, back)
        reg = _validate(r, root, path, text)
    except _Fatal:
        reg = None
    except RecursionError:
        r.errors.append(Diagnostic(display, 1, 1, "", "the registry nests too deeply"))
        reg = None
    if reg is None:
        errors = sorted(r.errors, key=lambda d: (d.line, d.column))
        raise RegistryError(errors, r.warnings)
    reg.source_sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return reg


def load_registry(path: str | Path, display_name: str | None = None) -> Registry:
    """Read and validate the registry at ``path``.

    Raises :class:`RegistryError` (with a diagnostic naming the file) when the
    file cannot be read or is invalid.
    """
    path = Path(path)
    display = display_name or str(path)
    try:
        size = path.stat().st_size
        if size > LIMITS["max_registry_bytes"]:
            raise RegistryError([Diagnostic(display, 1, 1, "",
                                            f"the registry is {size} bytes, more than the limit {LIMITS['max_registry_bytes']}")])
        raw = path.read_bytes()
    except OSError as exc:
        raise RegistryError([Diagnostic(display, 1, 1, "", f"cannot read the registry: {exc.strerror or exc}")]) from None
    return parse_registry(raw, path, display)


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
    body = "\n".join(l[cut:] if len(l) >= cut else l.lstrip(" ") for l in lines)
    parse_text, back = _mask_separators(body)
    r = _Reader(body, display, fragment_offset=first_line - 1)
    try:
        root = r.compose(parse_text)
        _unmask(root, back)
        if root is None or r.deref(root).kind != _MAP:
            r.error(0, "", "the range does not hold a mapping entry")
            raise _Fatal()
        value = r.to_python(root, "")
    except _Fatal:
        raise RegistryError(r.errors) from None
    if r.errors:
        raise RegistryError(r.errors)
    return value


def iter_entries(reg: Registry) -> Iterable[Skill | Composition | Rule]:
    """Every skill, composition and rule, in file order."""
    allx: list[Skill | Composition | Rule] = [*reg.skills.values(), *reg.compositions.values(), *reg.rules.values()]
    return sorted(allx, key=lambda e: e.source_start)
