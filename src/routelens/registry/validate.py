"""Validation: a node tree of the registry -> :class:`Registry`, with every
error found (docs/formats.md §1 "Rules of reading", §2 line ranges).

Errors are recorded on the :class:`~routelens.text.yaml_events.Reader`
with their position and key path; nothing here raises.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from ruamel.yaml import events as _ev

from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.registry.keys import (KNOWN_TOP_LEVEL, entries_misspelled_keys, missing_key, misspelt_routing_keys,
                                     unknown_top_level_key)
from routelens.registry.model import (
    ID_RE,
    PRIORITIES,
    RULE_KEYS,
    SKILL_KEYS,
    STATUSES,
    Composition,
    Registry,
    RoutingSettings,
    Rule,
    Skill,
    new_skill,
)
from routelens.registry.settings import ROUTING_KEYS, routing_settings
from routelens.text.canonical import editor_lines
from routelens.text.words import closest
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

__all__ = ["NOT_SELF_CONTAINED", "KNOWN_TOP_LEVEL", "ROUTING_KEYS", "SKILL_KEYS", "RULE_KEYS", "Validator", "validate_skill", "fast_skill", "compose_registry", "validate_registry"]

#: The warning of a skill or composition whose range uses an alias whose anchor lies outside it (docs/formats.md
#: §2.3); commands sum many up in one line (:mod:`routelens.registry.notices`), the catalog keeps each
NOT_SELF_CONTAINED = "not self-contained: its range uses an alias whose anchor lies outside it"
_ID_MATCH = ID_RE.match
_SKILL_KEYS = frozenset(SKILL_KEYS)


#: how alike (rapidfuzz ``fuzz.ratio``, 0-100) a key must be to a key routelens reads to be its misspelling:
#: named at a missing required key, and an error in ``routing:`` and at a rule's ``forced`` (a misspelt
#: safety setting, docs/formats.md §1.3)
_MISSPELT_CUTOFF = 80


def _holds_anchor(node: Node, depth: int = 0) -> bool:
    """Whether ``node`` or a node inside it defines an anchor (``&x``): a
    top-level key that does is no stray key, its anchors are used by the
    entries' aliases (docs/formats.md §1.1, §2.3)."""
    if node.anchor is not None:
        return True
    if depth > 20 or not isinstance(node.items, (list, tuple)):
        return False
    for item in node.items:
        for n in (item if isinstance(item, tuple) else (item,)):
            if isinstance(n, Node) and _holds_anchor(n, depth + 1):
                return True
    return False


#: what a trigger list must be: ``routing.high_risk`` may be empty (``high_risk: []``, docs/formats.md §1.1)
_LIST_OF = {False: "non-empty list of strings", True: "list of strings (it may be empty: `high_risk: []`)"}
#: a comma part of a string given for a list that reads as itself in `[...]` (not "[x-ray": a list in a list)
_FLOW_SAFE = re.compile(r"(?![-?:!&*|>%@`'\"])(?:(?!: | #)[^\[\]{},])+(?<!:)")


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
        """A trigger list (``triggers``, ``not_when``, ``routing.high_risk``:
        the last key of ``path``, which its errors name; docs/formats.md §1: a
        non-empty list of non-empty strings, at most ``LIMITS["max_triggers_per_entry"]`` of at most
        ``LIMITS["max_trigger_chars"]`` characters each), the valid ones; every
        bad item is an error."""
        r = self.r
        n = r.deref(node)
        key = path.rsplit(".", 1)[-1]  # triggers, not_when or high_risk: the error names the key it is about
        if n.kind != SEQ:
            if n.kind == SCALAR and n.plain and isinstance(n.value, str) and re.match(r"-[^\s-]", n.value):
                # "-request gpus" at the start of a block list: YAML reads one string, not a list item
                r.error(node.start, path, f"{key} must be a {_LIST_OF[key == 'high_risk']}, not the string "
                                          f"{n.value!r}: a space is missing after the dash: write "
                                          f"`- {n.value[1:].split(' - ')[0]}`")
                return ()
            shown = n.value if (n.kind == SCALAR and isinstance(n.value, str) and n.value
                                and not (n.plain and n.value in NULL_WORDS)) else None
            parts = [x.strip() for x in shown.split(",")] if shown and len(shown) <= 120 else []
            fix = (f"`{key}: [{', '.join(parts)}]`" if all(map(_FLOW_SAFE.fullmatch, parts))
                   else f"a list, one item per {'trigger' if key == 'triggers' else 'phrase'} (`{key}: [a, b]`)")
            r.error(node.start, path, f"{key} must be a {_LIST_OF[key == 'high_risk']}"
                    + (f", not the string {shown!r}: write {fix}" if parts else ""))
            return ()
        if not n.items:
            r.error(node.start, path, f"{key} is empty: give at least one "
                    + ("trigger" if key == "triggers" else "phrase"))
            return ()
        if len(n.items) > LIMITS["max_triggers_per_entry"]:
            what = "triggers" if key == "triggers" else f"{key} phrases"
            r.error(node.start, path, f"{len(n.items)} {what}, more than the limit {LIMITS['max_triggers_per_entry']}")
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
            missing_key(r, kn, d, fields, base, req)
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
    not_when: tuple[str, ...] = ()
    n = fields.get("not_when")
    if n is not None:
        not_when = v.triggers(n, base + ".not_when")
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
        r.warn(kn.start, base, NOT_SELF_CONTAINED)
    return new_skill(sid, path_v, prio, trig, description, status, metadata, start, end, contained, not_when)


_ScalarEvent, _SequenceStartEvent = _ev.ScalarEvent, _ev.SequenceStartEvent
_SequenceEndEvent, _MappingEndEvent = _ev.SequenceEndEvent, _ev.MappingEndEvent
_PLAIN_KEYS_REFUSED = NULL_WORDS | {"<<"}


def fast_skill(r: Reader, kn: Node, start: Any, get: Any, buf: list) -> tuple[Skill | None, int]:
    """Read one ``skills`` entry straight from parse events, for the common
    case only: a block mapping of distinct scalar keys whose values are
    scalars or sequences of scalars, with no anchor, alias or tag anywhere,
    that is valid as it stands. ``start`` is the entry's
    ``MappingStartEvent`` (already taken); ``get`` takes the next event;
    every event taken is appended to ``buf``.

    Returns ``(skill, end)``: ``skill`` is exactly the :class:`Skill`
    :func:`validate_skill` gives for the same entry (same range, metadata,
    order), ``end`` the character index of the mapping's end. When the
    entry is anything else (a nested mapping, an alias, an anchor, a tag,
    a missing key, any error at all) ``skill`` is None, and the caller
    reads the events in ``buf`` again the general way, which records the
    errors with their positions; nothing is recorded here. An exception
    raised by ``get`` (a syntax error) is not caught: the caller replays
    ``buf`` first (:meth:`Reader.compose` does)."""
    push = buf.append
    fields: dict[str, Any] = {}
    refused = _PLAIN_KEYS_REFUSED
    maxc = LIMITS["max_trigger_chars"]
    S, SS, SE, ME = _ScalarEvent, _SequenceStartEvent, _SequenceEndEvent, _MappingEndEvent
    last: Any = None  # the event whose end is the entry's content end
    while True:
        e = get()
        push(e)
        cls = type(e)
        if cls is ME:
            end_index = e.end_mark.index
            break
        if cls is not S or e.anchor is not None or e.ctag is not None:
            return None, 0
        k = e.value
        if k in fields or k in refused:  # duplicates, null and merge keys: the general path reports them
            return None, 0
        e = get()
        push(e)
        cls = type(e)
        if cls is S:
            if e.anchor is not None or e.ctag is not None:
                return None, 0
            fields[k] = e
            last = e
        elif cls is SS:
            if e.anchor is not None or e.ctag is not None:
                return None, 0
            items = []
            while True:
                it = get()
                push(it)
                c = type(it)
                if c is S:
                    if it.anchor is not None or it.ctag is not None:
                        return None, 0
                    items.append(it)
                elif c is SE:
                    break
                else:
                    return None, 0
            fields[k] = items
            # a flow sequence ends at its ']' (the whole sequence is the last
            # value); a block one at its last item
            last = (e, it) if e.flow_style or not items else items[-1]
        else:
            return None, 0
    # validation: only what validate_skill accepts without a word
    sid = kn.value
    if not _ID_MATCH(sid):
        return None, 0
    p = fields.get("path")
    pr = fields.get("priority")
    tr = fields.get("triggers")
    if type(p) is not S or type(pr) is not S or type(tr) is not list:
        return None, 0
    path_v = p.value
    if not path_v or (not p.style and path_v in NULL_WORDS) or is_absolute_or_escaping(path_v):
        return None, 0
    prio = pr.value
    if prio not in PRIORITIES:
        return None, 0
    if not tr or len(tr) > LIMITS["max_triggers_per_entry"]:
        return None, 0
    trig = []
    for it in tr:
        t = it.value
        if not t or len(t) > maxc or (not it.style and t in NULL_WORDS) or t.isspace():
            return None, 0
        trig.append(t)
    not_when: tuple[str, ...] = ()
    nw = fields.get("not_when")
    if nw is not None:  # as a trigger list (docs/formats.md §1.1)
        if type(nw) is not list or not nw or len(nw) > LIMITS["max_triggers_per_entry"]:
            return None, 0
        for it in nw:
            t = it.value
            if not t or len(t) > maxc or (not it.style and t in NULL_WORDS) or t.isspace():
                return None, 0
        not_when = tuple(it.value for it in nw)
    description = None
    d = fields.get("description")
    if d is not None:
        if type(d) is not S:
            return None, 0
        description = d.value
        if not description or (not d.style and description in NULL_WORDS):
            return None, 0
    status = "active"
    st = fields.get("status")
    if st is not None:
        if type(st) is not S or st.value not in STATUSES:
            return None, 0
        status = st.value
    metadata: dict[str, Any] = {}
    if len(fields) > 3:
        for k, val in fields.items():
            if k in _SKILL_KEYS:
                continue
            if type(val) is S:
                metadata[k] = None if not val.style and val.value in NULL_WORDS else val.value
            else:
                metadata[k] = [None if not it.style and it.value in NULL_WORDS else it.value for it in val]
    # the canonical range (docs/formats.md §2), as Reader.content_end finds it
    if last is None:  # an empty mapping: validation above has refused it already
        return None, 0  # pragma: no cover
    if type(last) is S:
        lo = last.start_mark.index
        hi = last.end_mark.index
        if lo == hi and not last.style and not last.value:
            return None, 0  # an empty last value: its mark may point at the next token
        if (last.style == "|" or last.style == ">") and last.value.endswith("\n\n"):
            pass  # |+ : the trailing blank lines are part of the value
        else:
            text = r.text
            while hi > lo and text[hi - 1] in " \t\n":
                hi -= 1
    else:  # a flow sequence: from its '[' to its ']'
        text = r.text
        lo = last[0].start_mark.index
        hi = last[1].end_mark.index
        while hi > lo and text[hi - 1] in " \t\n":
            hi -= 1
    line_of = r.line_of
    first = line_of(kn.start)
    final = line_of(max(hi - 1, start.start_mark.index))
    if final < first:
        final = first
    return (new_skill(sid, path_v, prio, tuple(trig), description, status, metadata, first, final, True, not_when),
            end_index)


def compose_registry(r: Reader, parse_text: str, back: dict[str, str],
                     progress: Callable[[float], None] | None = None, total: int | None = None,
                     fast: bool = True) -> Node | None:
    """Compose the registry text (``parse_text``, masked by
    :func:`mask_separators`; ``back`` undoes it) on the reader ``r``,
    validating each ``skills`` entry as soon as it is read (into
    ``r.streamed``, :func:`validate_skill` or, for entries written the
    common way, :func:`fast_skill` when ``fast``). ``progress(fraction)``
    is called about a hundred times, the fraction being the position read
    over ``total`` characters (default: the text's length). Returns the root
    node; raises what :meth:`Reader.compose` raises."""
    v = Validator(r)
    total = max(total or len(parse_text), 1)
    step = [0.01]

    def on_skill(kn: Node, vn: Node) -> None:
        r.streamed[id(kn)] = validate_skill(r, v, kn.value, kn, vn)
        if progress is not None and vn.end / total >= step[0]:
            step[0] = vn.end / total + 0.01
            progress(min(vn.end / total, 1.0))

    def fast_entry(kn: Node, start, get, taken: list) -> Node | None:
        skill, end = fast_skill(r, kn, start, get, taken)
        if skill is None:
            return None
        r.streamed[id(kn)] = skill
        if progress is not None and end / total >= step[0]:
            step[0] = end / total + 0.01
            progress(min(end / total, 1.0))
        # the value node as the general way leaves a streamed entry: a clean mapping, children dropped
        return Node(MAP, start.start_mark.index, end, True, False, [], -1)

    return r.compose(parse_text, back, on_skill, fast_entry if fast else None)


def validate_registry(r: Reader, root: Node | None, path: Path, text: str,
                      extra_skills: dict[str, Skill] | None = None) -> Registry | None:
    """The :class:`Registry` of a composed document (``root``), or None
    after recording every error on ``r``: schema_version, skills (those
    validated while reading are taken from ``r.streamed``), compositions,
    rules, routing (docs/formats.md §1). ``source_sha256`` is left empty
    for the caller to fill. ``extra_skills`` are valid skills read from a
    part of the text blanked out of ``root`` (the two-process read of
    :mod:`routelens.registry.split`): they count as skills before the
    compositions are checked; an id both there and under ``root``'s
    ``skills`` is an error (the caller reads the whole text again, which
    reports it properly)."""
    v = Validator(r)
    if root is None or (root.kind == SCALAR and root.plain and root.value in NULL_WORDS):
        r.error(0, "", "the registry is empty: expected a mapping with schema_version and skills")
        return None
    if not v.mapping(root, "", "the registry's top level"):
        return None
    top = {k: (kn, vn) for k, kn, vn in r.mapping_pairs(root, "")}

    # schema_version
    if "schema_version" not in top:
        # at the key that misspells it ("schema_versoin: 1" was said at 1:1, a comment line), as for `skills`
        near = closest("schema_version", [k for k in top if k not in KNOWN_TOP_LEVEL], _MISSPELT_CUTOFF)
        r.error(top[near][0].start if near else 0, "schema_version", "missing required key (schema_version: 1)"
                + (f"; `{near}` here looks like a misspelling of it" if near else ""))
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
        if key not in KNOWN_TOP_LEVEL and not _holds_anchor(vn):  # a key holding anchors is read (§2.3)
            error, said = unknown_top_level_key(key, top)
            (r.error if error else r.warn)(kn.start, key, said)

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
        near = closest("skills", [k for k in top if k not in KNOWN_TOP_LEVEL], _MISSPELT_CUTOFF)
        r.error(top[near][0].start if near else 0, "skills",
                "missing required key `skills` (a mapping of skill id -> skill"
                + (f"; `{near}` here looks like a misspelling of it)" if near else ")"))
    declared: set[str] = set()
    for key, kn, vn in section_entries("skills"):
        declared.add(key)
        done = r.streamed.get(id(kn), _NOT_STREAMED)
        skill = validate_skill(r, v, key, kn, vn) if done is _NOT_STREAMED else done
        if skill is not None:
            skills[skill.id] = skill
    if extra_skills:
        for sid, skill in extra_skills.items():
            if sid in declared:
                r.error(0, f"skills.{sid}", "the same skill id in both halves of a split read")
            skills[sid] = skill
    r.errors += misspelt_routing_keys(r.display, lambda: editor_lines(text), skills)  # `stauts: disabled`

    # compositions
    compositions: dict[str, Composition] = {}
    declared: list[frozenset[str]] = []  # the keys under skills, read once when first needed

    def declared_skill(sid: str) -> bool:
        if not declared:
            declared.append(_declared_skills(top, r))
        return sid in declared[0]

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
            if m not in skills and not (ID_RE.match(m) and declared_skill(m)):
                near = closest(m, list(skills), _MISSPELT_CUTOFF)
                r.error(item.start, p, f"unknown skill {m!r}" + (f"; did you mean {near!r}?" if near else ""))
                continue
            if m in members:
                r.error(item.start, p, f"skill {m!r} listed twice")
                continue
            members.append(m)
        if cid is not None and (cid in skills or declared_skill(cid)):  # also beside a broken skill's errors
            r.error(kn.start, base, f"composition id {cid!r} is also a skill id: explicit ids must be unique")
            continue
        if cid is None or len(members) != len(d.items):
            continue
        start, end, contained = entry_range(kn, vn)
        if not contained:
            r.warn(kn.start, base, NOT_SELF_CONTAINED)
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
            near = closest("triggers", [k for k in fields if k not in RULE_KEYS], _MISSPELT_CUTOFF)
            r.error(fields[near][0].start if near else kn.start, join_path(base, "triggers"),
                    "missing required key `triggers`" + (f" (`{near}` here looks like a misspelling of it)"
                                                         if near else ""))
            continue
        trig = v.triggers(fields["triggers"][1], join_path(base, "triggers"))
        description = None
        if "description" in fields:
            description = v.string(fields["description"][1], join_path(base, "description"), "description")
        metadata = {k: r.to_python(v2, join_path(base, k)) for k, (k2, v2) in fields.items()
                    if k not in RULE_KEYS}
        if "forced" not in fields:
            for k, (k2, _v2) in fields.items():
                if k not in RULE_KEYS and closest(k, ("forced",), _MISSPELT_CUTOFF):
                    # a rule is the registry's safety net: a misspelt `forced` must not leave it unforced
                    r.error(k2.start, join_path(base, k), f"`{k}` is no key of a rule: did you mean `forced`? "
                                                          "(the rule is not forced without it)")
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
    routing = routing_settings(r, v, top["routing"][1]) if "routing" in top else RoutingSettings()

    if r.errors:
        # a valid entry's misspelt key is said after the errors too (`satus:` beside a bad priority: §1.3)
        r.warnings += entries_misspelled_keys(r.display, editor_lines(text), skills, rules,
                                              {d.key_path for d in r.errors})
        return None
    return Registry(
        path=path,
        display_name=r.display,
        text=text,
        source_sha256="",
        skills={sid: skills[sid] for sid in sorted(skills)},  # ids compared alone: faster than (id, skill) pairs
        compositions=dict(sorted(compositions.items())),
        rules=dict(sorted(rules.items())),
        routing=routing,
        warnings=list(r.warnings),
    )


def _declared_skills(top: dict, r: Reader) -> frozenset[str]:
    """The keys under ``skills`` (those with errors of their own too), so a
    broken skill does not also make every composition naming it an error,
    and a composition id that is one is said with that skill's errors."""
    d = r.deref(top["skills"][1]) if "skills" in top else None
    if d is None or d.kind != MAP:
        return frozenset()
    keys = (r.deref(d.items[i]) for i in range(0, len(d.items) - 1, 2))
    return frozenset(k.value for k in keys if k.kind == SCALAR)
