"""Validation: a node tree of the registry -> :class:`Registry`, with every
error found (docs/formats.md §1 "Rules of reading", §2 line ranges).

Errors are recorded on the :class:`~routelens.text.yaml_events.Reader`
with their position and key path; nothing here raises.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.registry.model import (
    ID_RE,
    PRIORITIES,
    STATUSES,
    Composition,
    Registry,
    RoutingSettings,
    Rule,
    Skill,
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
    join_path,
)

__all__ = ["KNOWN_TOP_LEVEL", "Validator", "validate_skill", "validate_registry"]

#: The top-level keys of the registry (docs/formats.md §1); others are a warning.
KNOWN_TOP_LEVEL = ("schema_version", "skills", "composition", "rules", "routing")
#: A number as YAML 1.2's core schema writes it (no .inf/.nan, no 0x, no 1_000).
_NUMBER_RE = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_ID_MATCH = ID_RE.match
_SKILL_KEYS = frozenset({"path", "priority", "triggers", "description", "status"})


class Validator:
    """Checks of single values (strings, mappings, trigger lists, ids) that
    record an error on the reader ``r`` and return None / False / ``()``
    when the value is wrong."""

    def __init__(self, r: Reader):
        self.r = r

    def string(self, node: Node, path: str, what: str, allow_empty: bool = False) -> str | None:
        """The text of a scalar, or None after an error: a list or mapping, a
        plain null, or an empty string (unless ``allow_empty``). ``what`` names
        the value in the message."""
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
        """True when ``node`` (aliases followed) is a mapping; else an error and False."""
        n = self.r.deref(node)
        if n.kind != MAP:
            kind = "a list" if n.kind == SEQ else ("null" if n.plain and n.value in NULL_WORDS else f"the scalar {n.value!r}")
            self.r.error(node.start, path, f"{what} must be a mapping, not {kind}")
            return False
        return True

    def triggers(self, node: Node, path: str) -> tuple[str, ...]:
        """A trigger list (docs/formats.md §1: a non-empty list of non-empty
        strings, at most ``LIMITS["max_triggers_per_entry"]`` of at most
        ``LIMITS["max_trigger_chars"]`` characters each), the valid ones; every
        bad item is an error."""
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
        """``key`` when it is a valid id (:data:`ID_RE`), else None after an error."""
        if not ID_RE.match(key):
            self.r.error(
                knode.start, join_path(section, key),
                f"bad id {key!r}: ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)",
            )
            return None
        return key


_NOT_STREAMED = object()


def _entry_range(r: Reader, knode: Node, vnode: Node) -> tuple[int, int, bool]:
    """(source_start, source_end, self_contained) of an entry (docs/formats.md §2)."""
    start = r.line_of(knode.start)
    end = r.line_of(max(r.content_end(vnode) - 1, vnode.start))
    end = max(end, start)
    return start, end, not r.uses_outside_alias(vnode, start, end)


def validate_skill(r: Reader, v: Validator, key: str, kn: Node, vn: Node) -> Skill | None:
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


def validate_registry(r: Reader, root: Node | None, path: Path, text: str) -> Registry | None:
    """The :class:`Registry` of a composed document (``root``), or None
    after recording every error on ``r``: schema_version, skills (those
    validated while reading are taken from ``r.streamed``), compositions,
    rules, routing (docs/formats.md §1). ``source_sha256`` is left empty
    for the caller to fill."""
    v = Validator(r)
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
        skill = validate_skill(r, v, key, kn, vn) if done is _NOT_STREAMED else done
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
        if rid in skills or rid in compositions:
            kind = "skill" if rid in skills else "composition"
            r.error(kn.start, base, f"rule id {rid!r} is also a {kind} id: every id must name one thing "
                                    "(decisions, lint and the UI name entries by id)")
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
