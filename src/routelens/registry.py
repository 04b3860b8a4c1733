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

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from routelens.errors import Diagnostic, RegistryError
from routelens.gcpause import gc_paused
from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.text.canonical import (
    canonical_bytes,
    decode_canonical,
    editor_lines,
    range_text,
    sha256_hex,
    source_sha256,
)
from routelens.text.yaml_events import (
    FALSE_WORDS,
    MAP,
    NULL_WORDS,
    SCALAR,
    SEQ,
    TRUE_WORDS,
    Node,
    Reader,
    ReadStoppedError,
    join_path,
    mask_separators,
    parse_fragment,
    sorted_unique,
)


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
            self._lines = editor_lines(self.text)
        return self._lines

    @property
    def line_count(self) -> int:
        """Number of lines as an editor counts them (a final newline adds none)."""
        return len(self.lines)

    def range_text(self, start: int, end: int) -> str:
        """Exact text of 1-based inclusive lines ``start..end``, LF-joined,
        with a trailing LF. Raises ``ValueError`` for a range outside the file."""
        return range_text(self.lines, start, end)

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


# --------------------------------------------------------------------------- validation


class _Validator:
    def __init__(self, r: Reader):
        self.r = r

    def string(self, node: Node, path: str, what: str, allow_empty: bool = False) -> str | None:
        r = self.r
        n = r.deref(node)
        if n.kind != SCALAR:
            r.error(node.start, path, f"{what} must be a string, not a {'list' if n.kind == SEQ else 'mapping'}")
            return None
        if n.plain and n.value in NULL_WORDS:
            r.error(node.start, path, f"{what} is null or empty (quote it if you mean the word)")
            return None
        if not allow_empty and n.value == "":
            r.error(node.start, path, f"{what} is an empty string")
            return None
        return n.value

    def mapping(self, node: Node, path: str, what: str) -> bool:
        n = self.r.deref(node)
        if n.kind != MAP:
            kind = "a list" if n.kind == SEQ else ("null" if n.plain and n.value in NULL_WORDS else f"the scalar {n.value!r}")
            self.r.error(node.start, path, f"{what} must be a mapping, not {kind}")
            return False
        return True

    def triggers(self, node: Node, path: str) -> tuple[str, ...]:
        r = self.r
        n = r.deref(node)
        if n.kind != SEQ:
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
            if item.kind == SCALAR and t and len(t) <= maxc and not (item.plain and t in NULL_WORDS) and not t.isspace():
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

    def entry_id(self, knode: Node, key: str, section: str) -> str | None:
        if not ID_RE.match(key):
            self.r.error(
                knode.start, join_path(section, key),
                f"bad id {key!r}: ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)",
            )
            return None
        return key


_NOT_STREAMED = object()


def _entry_range(r: Reader, knode: Node, vnode: Node) -> tuple[int, int, bool]:
    """(source_start, source_end, self_contained) of an entry (spec section 2)."""
    start = r.line_of(knode.start)
    end = r.line_of(max(r.content_end(vnode) - 1, vnode.start))
    end = max(end, start)
    return start, end, not r.uses_outside_alias(vnode, start, end)


def _validate_skill(r: Reader, v: _Validator, key: str, kn: Node, vn: Node) -> Skill | None:
    """The :class:`Skill` of one ``skills`` entry, or None after recording
    its errors."""
    null_words = NULL_WORDS
    sid = key if _ID_MATCH(key) else v.entry_id(kn, key, "skills")
    d = vn if vn.kind == MAP else r.deref(vn)
    if d.kind != MAP:
        v.mapping(vn, join_path("skills", key), "a skill")
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
        path_v = n.value if (n.kind == SCALAR and n.value and not (n.plain and n.value in null_words)) \
            else v.string(n, base + ".path", "path")
        if path_v is not None and is_absolute_or_escaping(path_v):
            r.error(n.start, base + ".path",
                    f"path {path_v!r} must be relative to the registry's folder and stay inside it "
                    "(no absolute path, no '..')")
            path_v = None
    n = fields.get("priority")
    if n is not None:
        prio = n.value if n.kind == SCALAR else v.string(n, base + ".priority", "priority")
        if prio not in PRIORITIES:
            if prio is not None and (n.kind != SCALAR or v.string(n, base + ".priority", "priority") is not None):
                r.error(n.start, base + ".priority", f"unknown priority {prio!r} (one of P0, P1, P2)")
            prio = None
    n = fields.get("triggers")
    if n is not None:
        trig = v.triggers(n, base + ".triggers")
    description = None
    n = fields.get("description")
    if n is not None:
        description = n.value if (n.kind == SCALAR and n.value and not (n.plain and n.value in null_words)) \
            else v.string(n, base + ".description", "description")
    status = "active"
    n = fields.get("status")
    if n is not None:
        st = n.value if n.kind == SCALAR else v.string(n, base + ".status", "status")
        if st not in STATUSES:
            if st is not None and (n.kind != SCALAR or v.string(n, base + ".status", "status") is not None):
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


def _validate(r: Reader, root: Node | None, path: Path, text: str) -> Registry | None:
    v = _Validator(r)
    if root is None or (root.kind == SCALAR and root.plain and root.value in NULL_WORDS):
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
        if not (d.kind == SCALAR and d.plain and d.value == "1"):
            if d.kind != SCALAR:
                shown = "a list" if d.kind == SEQ else "a mapping"
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

    def section_entries(name: str) -> list[tuple[str, Node, Node]]:
        if name not in top:
            return []
        kn, vn = top[name]
        d = r.deref(vn)
        if d.kind == SCALAR and d.plain and d.value in NULL_WORDS and name != "skills":
            return []
        if not v.mapping(vn, name, f"`{name}`"):
            return []
        if d.flow and d.items:
            r.error(d.start, name, f"`{name}` is written in flow style ({{...}}): write it as a block mapping, "
                    "each entry on its own lines, so every entry has its own line range")
        for i in range(0, len(d.items) - 1, 2):
            k = r.deref(d.items[i])
            if k.kind == SCALAR and k.plain and k.value == "<<":
                r.error(
                    d.items[i].start, f"{name}.<<",
                    f"merge keys are not allowed directly under `{name}`: each entry needs its own line range",
                )
        return r.mapping_pairs(vn, name)

    def entry_range(knode: Node, vnode: Node) -> tuple[int, int, bool]:
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
        base = join_path("composition", key)
        d = r.deref(vn)
        if d.kind != SEQ or not d.items:
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
        base = join_path("rules", key)
        if not v.mapping(vn, base, "a rule"):
            continue
        fields = {k: (k2, v2) for k, k2, v2 in r.mapping_pairs(vn, base)}
        forced = False
        if "forced" in fields:
            f = r.deref(fields["forced"][1])
            if f.kind == SCALAR and f.plain and f.value in TRUE_WORDS:
                forced = True
            elif not (f.kind == SCALAR and f.plain and f.value in FALSE_WORDS):
                r.error(fields["forced"][1].start, join_path(base, "forced"), "forced must be true or false")
        if "triggers" not in fields:
            r.error(kn.start, join_path(base, "triggers"), "missing required key `triggers`")
            continue
        trig = v.triggers(fields["triggers"][1], join_path(base, "triggers"))
        description = None
        if "description" in fields:
            description = v.string(fields["description"][1], join_path(base, "description"), "description")
        metadata = {k: r.to_python(v2, join_path(base, k)) for k, (k2, v2) in fields.items()
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
                p = join_path("routing", key)
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
                    if d.kind == SEQ and not d.items:
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


def _declared_skill(top: dict, r: Reader, sid: str) -> bool:
    """True when ``sid`` is a key under ``skills`` (even one with its own errors),
    so a broken skill does not also make every composition naming it an error."""
    if "skills" not in top:
        return False
    d = r.deref(top["skills"][1])
    if d.kind != MAP:
        return False
    for i in range(0, len(d.items) - 1, 2):
        k = r.deref(d.items[i])
        if k.kind == SCALAR and k.value == sid:
            return True
    return False


# --------------------------------------------------------------------------- entry points


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
    parse_text, back = mask_separators(text)
    r = Reader(text, display)
    r.compose_paths = True
    v = _Validator(r)

    total = max(len(text), 1)
    step = [0.01]

    def on_skill(kn: Node, vn: Node) -> None:
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
    except ReadStoppedError:
        reg = None
    except RecursionError:
        r.errors.append(Diagnostic(display, 1, 1, "", "the registry nests too deeply"))
        reg = None
    if reg is None:
        errors = sorted_unique(r.errors)
        if r.limit_note is not None:
            errors.append(r.limit_note)
        raise RegistryError(errors, sorted_unique(r.warnings))
    if progress is not None:
        progress(1.0)
    reg.warnings = sorted_unique(reg.warnings)
    reg.source_sha256 = sha256_hex(text.encode("utf-8"))
    return reg


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


def iter_entries(reg: Registry) -> Iterable[Skill | Composition | Rule]:
    """Every skill, composition and rule, in file order."""
    allx: list[Skill | Composition | Rule] = [*reg.skills.values(), *reg.compositions.values(), *reg.rules.values()]
    return sorted(allx, key=lambda e: e.source_start)
