"""The registry's entries as the router reads them: ids and canonical line
ranges, and each selected entry read back from its range.

The ids and ranges come from a fresh compact index (:meth:`Entries.from_index`:
the registry is not parsed) or from the parsed registry
(:meth:`Entries.from_registry`, when the index cannot be trusted). A
selected entry is then read from the canonical text of its range
(docs/formats.md §2, §6.6: "read back from its canonical line range"): the exact
YAML text, and ``path``/``priority``/``status`` parsed from it. A range that
lies beyond the end of the registry, whose first line does not hold the
entry's key (:func:`routelens.text.canonical.holds_key`, the check freshness
applies too), that holds something else, or whose triggers are not the
ones the index gives the entry (trust, verified: the task was matched
against the index's triggers; every rule of the index is checked the same
way before anything is routed to) raises :class:`IndexInvalidError`: the
router then falls back with ``index_invalid`` — never a wrong skill. A range that is not
self-contained (an alias whose anchor lies outside it) is resolved from the
whole registry, parsed only then.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from routelens.artifacts.bodies import body_state
from routelens.artifacts.index_file import CompactIndex
from routelens.errors import IndexInvalidError, RegistryError
from routelens.registry.model import Registry, RoutingSettings
from routelens.routing.decision import Expansion, line_span, quote
from routelens.routing.range_lines import read_range
from routelens.routing.sections import top_level_section
from routelens.text.canonical import editor_lines, holds_key, range_text
from routelens.text.yaml_events import TRUE_WORDS, parse_fragment

__all__ = ["Entries", "KINDS"]

#: The kinds of entries a range can hold.
KINDS = ("skill", "composition", "rule")
#: a section whose own lines do not parse alone (:meth:`Entries._own_section`)
_UNREAD = object()

#: (start, end) per id: 1-based inclusive canonical lines
_Rows = dict[str, tuple[int, int]]

#: a composition range holding one of these is parsed before its members are trusted to appear in
#: its text as written (an alias or anchor, a tag, a quoted or block scalar, a flow mapping, a
#: directive): :meth:`Entries.compositions_holding`
_NOT_PLAIN = re.compile(r"""[*&!"'\\{}|>%@`?<]""")
#: the words of a range that can be a skill id as written (docs/formats.md §1: ``[a-z0-9][a-z0-9-]*``)
_ID_WORD = re.compile(r"[a-z0-9-]+")


class Entries:
    """The entries of one registry for routing: ids, canonical line ranges,
    the canonical text, and expansions read from the ranges.

    Build it with :meth:`from_index` or :meth:`from_registry`. Immutable
    except for caches; safe to use from several threads.
    """

    def __init__(self, *, text: str, display_name: str, skills: _Rows, compositions: _Rows, rules: _Rows,
                 from_index: bool, registry: Registry | None = None,
                 registry_loader: Callable[[], Registry] | None = None, base_dir: str | Path | None = None):
        """Low-level constructor; prefer :meth:`from_index` / :meth:`from_registry`.

        ``text``: the registry's canonical text; ``display_name``: its name
        in messages; ``skills``/``compositions``/``rules``: ``id -> (start,
        end)``; ``from_index``: the rows come from a compact index (then
        statuses, members and ``forced`` are read from the ranges); else
        ``registry`` is the parsed registry they come from.
        ``registry_loader``: returns the parsed registry, called only to
        resolve a range that is not self-contained. ``base_dir``: the
        registry's real folder, where skill bodies are (default: the
        registry's, when given); None: bodies are not looked at."""
        self.text = text
        self.display_name = display_name
        self.from_index = from_index
        self._rows = {"skill": skills, "composition": compositions, "rule": rules}
        self._registry = registry
        self._registry_loader = registry_loader
        self.base_dir = base_dir if base_dir is not None else (registry.base_dir if registry is not None else None)
        self._lines: list[str] | None = None
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str], Any] = {}
        self._expanded: dict[tuple[str, str], Expansion] = {}
        self._members: dict[str, tuple[str, ...]] | None = None
        #: composition id -> its members, read one range at a time (:meth:`composition_members_of`)
        self._members_of: dict[str, tuple[str, ...]] = {}
        #: (word -> the plain compositions whose range holds it, the other compositions), built once
        self._composition_words: tuple[dict[str, list[str]], list[str]] | None = None
        #: skill id -> the compositions holding it, and composition id -> its members as a set (per-task
        #: look-ups of the composition step, kept: the ranges never change)
        self._holding: dict[str, tuple[str, ...]] = {}
        self._member_sets: dict[str, frozenset[str]] = {}
        #: kind -> id -> the triggers the index gives (checked against the ranges)
        self._index_triggers: dict[str, dict[str, tuple[str, ...]]] = {"skill": {}, "rule": {}}
        #: instead of :attr:`_index_triggers`: kind, id -> the index's triggers (:meth:`from_rows`)
        self._triggers_of: Callable[[str, str], tuple[str, ...] | None] | None = None
        self._rules_verified = False
        #: (skill id -> status when not active, skills left out) vouched for by the matcher cache (use_statuses)
        self._statuses: tuple[dict[str, str], frozenset[str]] | None = None
        self._known_skills: set[str] = set()  # skill ids found in the rows (vouched_status)
        #: skill id -> the compositions holding it, made once from every composition's vouched members
        self._vouched_holding: dict[str, tuple[str, ...]] | None = None
        #: the index's ``routing`` object (None: the index has none), checked against the registry's section
        self._index_routing: dict[str, Any] | None = None
        if not from_index:
            assert registry is not None, "entries read from the registry need the registry"
            self._members = {c.id: c.members for c in registry.compositions.values()}

    @classmethod
    def from_index(cls, text: str, display_name: str, index: CompactIndex, registry: Registry | None = None,
                   registry_loader: Callable[[], Registry] | None = None,
                   base_dir: str | Path | None = None) -> "Entries":
        """The entries of a compact index (docs/formats.md §3) over the
        registry's canonical ``text``. ``registry``, or else
        ``registry_loader``, resolves ranges that are not self-contained;
        ``base_dir`` is where the bodies are."""
        entries = cls(text=text, display_name=display_name,
                      skills={r[0]: (r[1], r[2]) for r in index.skills},
                      compositions={r[0]: (r[1], r[2]) for r in index.compositions},
                      rules={r[0]: (r[1], r[2]) for r in index.rules},
                      from_index=True, registry=registry, registry_loader=registry_loader, base_dir=base_dir)
        entries._index_triggers = {"skill": {r[0]: tuple(r[3]) for r in index.skills},
                                   "rule": {r[0]: tuple(r[3]) for r in index.rules}}
        entries._index_routing = dict(index.routing) if index.routing else None
        return entries

    @classmethod
    def from_rows(cls, text: str, display_name: str, rows: dict[str, _Rows], routing: dict[str, Any],
                  triggers_of: Callable[[str, str], tuple[str, ...] | None],
                  registry_loader: Callable[[], Registry] | None = None,
                  base_dir: str | Path | None = None) -> "Entries":
        """The entries of a compact index vouched for by the matcher cache
        (docs/formats.md §11.4), without decoding it: ``rows`` is kind ->
        id -> ``(start, end)`` (:func:`routelens.artifacts.index_file.summary_rows`),
        ``routing`` the index's ``routing`` object, and ``triggers_of(kind,
        id)`` gives the triggers the index gives a skill or rule (those the
        matchers were built from), or None. Every read-back check of §6.6
        is made as with :meth:`from_index`."""
        entries = cls(text=text, display_name=display_name, skills=rows["skill"], compositions=rows["composition"],
                      rules=rows["rule"], from_index=True, registry_loader=registry_loader, base_dir=base_dir)
        entries._triggers_of = triggers_of
        entries._index_routing = dict(routing) if routing else None
        return entries

    @classmethod
    def from_registry(cls, reg: Registry, display_name: str | None = None,
                      base_dir: str | Path | None = None) -> "Entries":
        """The entries of a parsed registry (used when the index cannot be
        trusted); ``display_name`` defaults to the registry's."""
        return cls(text=reg.text, display_name=display_name if display_name is not None else reg.display_name,
                   skills={s.id: (s.source_start, s.source_end) for s in reg.skills.values()},
                   compositions={c.id: (c.source_start, c.source_end) for c in reg.compositions.values()},
                   rules={r.id: (r.source_start, r.source_end) for r in reg.rules.values()},
                   from_index=False, registry=reg, base_dir=base_dir)

    @property
    def registry(self) -> Registry | None:
        """The parsed registry when it is held (given, or loaded to resolve
        a range that is not self-contained); None while it was not needed."""
        return self._registry

    # ------------------------------------------------------------------ ids and ranges
    @property
    def registry_chars(self) -> int:
        """Characters of the canonical registry text (the payload of a full fallback)."""
        return len(self.text)

    @property
    def skill_ids(self) -> tuple[str, ...]:
        """Skill ids, sorted."""
        return tuple(sorted(self._rows["skill"]))

    @property
    def composition_ids(self) -> tuple[str, ...]:
        """Composition ids, sorted."""
        return tuple(sorted(self._rows["composition"]))

    def has(self, kind: str, entry_id: str) -> bool:
        """True when ``entry_id`` is an entry of ``kind`` (one of :data:`KINDS`)."""
        return entry_id in self._rows[kind]

    def range_of(self, kind: str, entry_id: str) -> tuple[int, int] | None:
        """``(source_start, source_end)`` (1-based, inclusive) of an entry, or None."""
        return self._rows[kind].get(entry_id)

    @property
    def lines(self) -> list[str]:
        """The canonical lines (index 0 is line 1, docs/formats.md §2)."""
        if self._lines is None:
            self._lines = editor_lines(self.text)
        return self._lines

    def range_text(self, start: int, end: int) -> str:
        """Exact text of canonical lines ``start..end`` (1-based inclusive),
        LF-joined with a trailing LF. Raises ``ValueError`` outside the file."""
        return range_text(self.lines, start, end)

    # ------------------------------------------------------------------ reading an entry back
    def expand(self, kind: str, entry_id: str) -> Expansion:
        """The skill or composition ``entry_id`` read from its canonical range
        (docs/formats.md §6.6): its exact text and, for a
        skill, ``path``/``priority``/``status`` (``active`` when not
        written). Raises :class:`IndexInvalidError` when the range does not
        hold the entry."""
        done = self._expanded.get((kind, entry_id))
        if done is not None:  # read and verified before (the text never changes; an Expansion is frozen)
            return done
        start, end, text, value, resolved = self._fragment(kind, entry_id)
        if kind == "skill":
            if not isinstance(value, dict):
                raise IndexInvalidError(f"the range of skill {quote(entry_id)} does not hold a mapping")
            if self.from_index:
                self._verify_triggers("skill", entry_id, value, start, end)
                self._verify_rules()
            status = value.get("status", "active")
            done = Expansion(entry_id, "skill", start, end, text,
                             _str_or_none(value.get("path")), _str_or_none(value.get("priority")),
                             _str_or_none(status) or "active", resolved)
        else:
            done = Expansion(entry_id, "composition", start, end, text, None, None, None, resolved)
        self._expanded[(kind, entry_id)] = done
        return done

    def body_problem(self, expansion: Expansion) -> str | None:
        """What is wrong with a selected skill's Layer-2 body (docs/formats.md
        §4.4 words: ``missing``, ``not a regular file``, ...), or None when
        it is a regular file inside the registry's folder (or bodies are not
        looked at). Only stats the file; never cached (a body may appear)."""
        if expansion.kind != "skill" or expansion.path is None or self.base_dir is None:
            return None
        return body_state(self.base_dir, expansion.path)

    def composition_members(self) -> dict[str, tuple[str, ...]]:
        """``composition id -> member skill ids`` (in the order written), read
        from the ranges when the rows come from an index. Raises
        :class:`IndexInvalidError` when a range does not hold a list of ids."""
        if self._members is None:
            self._members = {cid: self.composition_members_of(cid) for cid in sorted(self._rows["composition"])}
        return self._members

    def composition_members_of(self, composition_id: str) -> tuple[str, ...]:
        """The member skill ids of one composition (in the order written),
        read from its range alone when the rows come from an index (cached).
        Raises :class:`IndexInvalidError` when the range does not hold a list
        of ids, and ``KeyError`` for an unknown id."""
        if self._members is not None:
            return self._members[composition_id]
        got = self._members_of.get(composition_id)
        if got is None:
            if composition_id not in self._rows["composition"]:
                raise KeyError(composition_id)
            _, _, _, value, _ = self._fragment("composition", composition_id)
            if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
                raise IndexInvalidError(f"the range of composition {quote(composition_id)} does not hold a list "
                                        "of skill ids")
            got = self._members_of[composition_id] = tuple(value)
        return got

    def compositions_holding(self, skill_id: str) -> tuple[str, ...]:
        """The ids of the compositions that have ``skill_id`` as a member,
        sorted (what :meth:`composition_sets` maps it to; same errors). When
        the rows come from an index only the ranges that can hold it are
        read: a range of plain YAML holds each member id as a word of its
        text, so it is read when ``skill_id`` is one of its words; a range
        with anything else (an alias, a quoted scalar, a tag: ``_NOT_PLAIN``)
        is always read. A cold start at 100,000 skills read all 10,000
        compositions' ranges for one task (about 40% of its time)."""
        if self._members is not None:
            return self.composition_sets()[1].get(skill_id, ())
        got = self._holding.get(skill_id)
        if got is not None:
            return got
        if self._vouched_holding is not None:  # every composition's members, vouched for by the matcher cache
            if not self._vouched_holding:
                by_member: dict[str, list[str]] = {}
                for cid in sorted(self._members_of):
                    for sid in set(self._members_of[cid]):
                        by_member.setdefault(sid, []).append(cid)
                self._vouched_holding.update((sid, tuple(cids)) for sid, cids in by_member.items())
            got = self._holding[skill_id] = self._vouched_holding.get(skill_id, ())
            return got
        words, other = self.composition_words()
        maybe = sorted({*words.get(skill_id, ()), *other})
        got = self._holding[skill_id] = tuple(c for c in maybe if skill_id in self.composition_members_of(c))
        return got

    def composition_words(self) -> tuple[Any, list[str]]:
        """``(word -> the plain compositions whose range holds it, as a list
        of ids; the other compositions)`` (:meth:`compositions_holding`),
        built once from the ranges' text — or given by the matcher cache,
        which keeps it for the index it vouches for (:meth:`use_composition_words`;
        a function of the index's rows and the registry text its hash
        pins). The first value offers ``get(word, default)``."""
        if self._composition_words is None:
            words: dict[str, list[str]] = {}
            other: list[str] = []
            lines = self.lines
            for cid, (start, end) in self._rows["composition"].items():
                if end > len(lines) or start < 1 or start > end:
                    other.append(cid)  # reading it raises the error the range deserves
                    continue
                text = self.range_text(start, end)
                if _NOT_PLAIN.search(text):
                    other.append(cid)
                    continue
                for w in set(_ID_WORD.findall(text)):
                    words.setdefault(w, []).append(cid)
            self._composition_words = (words, other)
        return self._composition_words

    def use_composition_words(self, words: Any, other: list[str]) -> None:
        """Take :meth:`composition_words` as given (from the matcher cache,
        for the rows and text it was made from)."""
        self._composition_words = (words, list(other))

    def composition_set(self, composition_id: str) -> frozenset[str]:
        """The member skill ids of one composition as a set (of
        :meth:`composition_members_of`, kept; same errors)."""
        got = self._member_sets.get(composition_id)
        if got is None:
            got = self._member_sets[composition_id] = frozenset(self.composition_members_of(composition_id))
        return got

    def compositions_of(self, skill_ids: Iterable[str]) -> tuple[dict[str, tuple[str, ...]],
                                                                 dict[str, tuple[str, ...]]]:
        """``(skill id -> the compositions holding it, sorted; composition id ->
        its members)`` for ``skill_ids`` and the compositions holding them
        (:meth:`compositions_holding`, :meth:`composition_members_of`; same
        errors): what the composition step (docs/formats.md §6.3 steps 6
        and 7) looks at."""
        by_member = {sid: self.compositions_holding(sid) for sid in skill_ids}
        return by_member, {c: self.composition_members_of(c) for cids in by_member.values() for c in cids}

    def composition_sets(self) -> tuple[dict[str, frozenset[str]], dict[str, tuple[str, ...]]]:
        """``(composition id -> its members as a set, skill id -> the
        compositions holding it, sorted by id)``, from
        :meth:`composition_members` (same errors), built once: the
        composition step (docs/formats.md §6.5) looks only at the
        compositions its candidates are in."""
        got = self._cache.get(("composition", "\x00sets"))
        if got is None:
            members = self.composition_members()
            sets = {cid: frozenset(mem) for cid, mem in members.items()}
            by_member: dict[str, list[str]] = {}
            for cid in sorted(members):
                for sid in sets[cid]:
                    by_member.setdefault(sid, []).append(cid)
            got = (sets, {sid: tuple(cids) for sid, cids in by_member.items()})
            self._cache[("composition", "\x00sets")] = got
        return got

    def rule_forced(self, rule_id: str) -> bool:
        """Whether rule ``rule_id`` is ``forced`` (docs/formats.md §1). Raises
        :class:`IndexInvalidError` when its range does not hold a mapping."""
        if not self.from_index:
            assert self._registry is not None
            return self._registry.rules[rule_id].forced
        start, end, _, value, _ = self._fragment("rule", rule_id)
        if not isinstance(value, dict):
            raise IndexInvalidError(f"the range of rule {quote(rule_id)} does not hold a mapping")
        self._verify_triggers("rule", rule_id, value, start, end)
        return str(value.get("forced", "false")) in TRUE_WORDS

    # ------------------------------------------------------------------ trust, verified
    def _verify_triggers(self, kind: str, entry_id: str, value: dict, start: int, end: int) -> None:
        """Trust, verified (docs/formats.md §6.6): the triggers the index
        gives an entry must be the triggers its canonical range holds, in
        order; the router matched the task against the index's, so a
        tampered index (two skills' trigger lists swapped, the hash kept)
        must not route. Raises :class:`IndexInvalidError` naming both lists."""
        if self._triggers_hold(kind, entry_id, value):
            return
        given = self._given_triggers(kind, entry_id) or ()
        held = value.get("triggers")
        held_t = tuple(held) if isinstance(held, list) and all(isinstance(t, str) for t in held) else None
        shown = "no trigger list" if held_t is None else _list(held_t) + _first_difference(given, held_t)
        raise IndexInvalidError(
            f"the index gives {kind} {quote(entry_id)} the triggers {_list(given)}, but its canonical range "
            f"({self.display_name} {line_span(start, end)}) holds {shown}: the index does not match the "
            "registry (hand-edited?)")

    def _given_triggers(self, kind: str, entry_id: str) -> tuple[str, ...] | None:
        if self._triggers_of is not None:
            return self._triggers_of(kind, entry_id)
        return self._index_triggers[kind].get(entry_id)

    def _triggers_hold(self, kind: str, entry_id: str, value: dict) -> bool:
        """Whether the range's ``value`` holds the triggers the index gives the entry (or it gives none)."""
        given = self._given_triggers(kind, entry_id)
        if given is None:
            return True
        held = value.get("triggers")
        return isinstance(held, list) and all(isinstance(t, str) for t in held) and tuple(held) == given

    def _verify_rules(self) -> None:
        """Every rule of the index holds, in its range, the triggers the index
        gives it (checked once, before the first entry is routed to): a
        forced rule's triggers moved to another rule, or dropped from it,
        would otherwise let a task through that the registry sends to the
        full registry. Raises :class:`IndexInvalidError`."""
        if self._rules_verified:
            return
        for rid in sorted(self._rows["rule"]):
            self.rule_forced(rid)
        self._verify_rule_ids()
        self._verify_settings()
        self._rules_verified = True

    def _own_section(self, key: str) -> tuple[int, int, Any] | None:
        """``(0-based line of the registry's top-level ``key:``, the line after
        its section, the section's value)`` read from the section's own lines
        (:func:`~routelens.routing.sections.top_level_section`; splitting a
        28 MB registry took 0.1 s of a cold route), the value
        :data:`_UNREAD` when they do not parse alone (an alias, a merge key,
        an explicit key); None when the registry has no such section."""
        found = top_level_section(self.text, key)
        if found is None:
            return None
        at, lines = found
        value: Any = _UNREAD
        if not lines[0].startswith("?"):
            try:
                value = parse_fragment("\n".join(lines) + "\n", at + 1, self.display_name).get(key)
            except RegistryError:
                pass
        return at, at + len(lines), value

    def _verify_rule_ids(self) -> None:
        """The index's rules must be the registry's: the ids of its top-level
        ``rules:`` section (:meth:`_own_section`; the whole registry when its
        lines do not parse alone). A newcomer removed the index's rules, its
        hash kept, and a task the registry's forced rule sends to the full
        registry routed. Raises :class:`IndexInvalidError`."""
        found = self._own_section("rules")
        value = None if found is None else found[2]
        held = ({str(k) for k in value or {}} if isinstance(value, dict) or value is None
                else set(self._full_registry().rules))
        given = set(self._rows["rule"])
        if held != given:
            missing, extra = sorted(held - given), sorted(given - held)
            said = "; ".join(x for x in (f"the registry's rules {_ids(missing)} are not in the index" if missing
                                         else "", f"the index's rules {_ids(extra)} are not in the registry"
                                         if extra else "") if x)
            raise IndexInvalidError(f"{said}: the index does not match the registry (hand-edited?)")

    def _verify_settings(self) -> None:
        """The index's ``routing`` object (threshold, ambiguity margin,
        high-risk terms) must be what the registry's top-level ``routing:``
        section says, defaults filled in: an index whose ``high_risk`` was
        emptied, its hash kept, would let a high-risk task through. The
        section is read from its own lines (:meth:`_own_section`), or from
        the whole registry when those lines do not parse alone. Raises
        :class:`IndexInvalidError`."""
        found = self._own_section("routing")
        if found is None:
            if self._index_routing is not None:
                raise IndexInvalidError("the index has routing settings, but the registry has no `routing:` section")
            return
        at, end, section = found
        if isinstance(section, dict):
            held = _settings(section)
        else:  # an alias, a merge key or an explicit key: the whole registry says
            held = _settings_of(self._full_registry().routing)
        given = _settings(self._index_routing or {})
        if held != given:
            raise IndexInvalidError(
                f"the index's routing settings {_show_settings(given)} differ from the registry's `routing:` "
                f"section ({self.display_name} {line_span(at + 1, end)}: {_show_settings(held)}): the index does "
                "not match the registry (hand-edited?)")

    # ------------------------------------------------------------------ statuses vouched for
    def vouch_statuses(self) -> tuple[dict[str, str], list[str]]:
        """``(skill id -> status, for every skill whose status is not
        active; the skills left out)`` of every skill whose range reads as
        :meth:`expand` reads it on its common path (the range's lines alone,
        :func:`~routelens.routing.range_lines.read_range`: its key, a
        mapping, the triggers the index gives it) — what the matcher cache
        keeps for an index it vouches for (docs/formats.md §11.4), so that
        a batch tells a candidate's status without reading its range
        (:meth:`use_statuses`). A skill whose range does not read so is
        left out (read, and its error raised, when a task needs it). Reads
        every skill's range once; keeps nothing."""
        statuses: dict[str, str] = {}
        left: list[str] = []
        lines = self.lines
        for sid, (start, end) in self._rows["skill"].items():
            value = None
            if 1 <= start <= end <= len(lines) and holds_key(lines[start - 1], sid):
                value = read_range(range_text(lines, start, end), sid)
            if not isinstance(value, dict) or not self._triggers_hold("skill", sid, value):
                left.append(sid)
                continue
            status = _str_or_none(value.get("status", "active")) or "active"
            if status != "active":
                statuses[sid] = status
        return statuses, left

    def vouch_compositions(self) -> dict[str, tuple[str, ...]] | None:
        """Every composition's members as its range reads them
        (:meth:`composition_members_of`), or None when a range does not
        read (its error is raised when a task leads to it): what the matcher
        cache keeps for an index it vouches for, so that a batch's first
        tasks do not read the composition ranges of hundreds of candidates
        (:meth:`use_compositions`)."""
        try:
            return {cid: self.composition_members_of(cid) for cid in self._rows["composition"]}
        except (IndexInvalidError, KeyError):
            return None

    def use_compositions(self, members: dict[str, tuple[str, ...]]) -> None:
        """Take every composition's members as :meth:`vouch_compositions`
        gave them for these rows and this registry text."""
        if self._members is None and isinstance(members, dict) and len(members) == len(self._rows["composition"]):
            self._members_of.update(members)
            self._vouched_holding = {}

    def use_statuses(self, statuses: dict[str, str], left: Iterable[str]) -> None:
        """Take the statuses :meth:`vouch_statuses` gave for these rows and
        this registry text (the matcher cache vouches for both)."""
        self._statuses = (dict(statuses), frozenset(left))

    def vouched_status(self, skill_id: str) -> str | None:
        """The status of skill ``skill_id`` as :meth:`use_statuses` was
        given it (the range is then known to read back and hold the
        index's triggers: :meth:`expand` would give it), or None (read it)."""
        got = self._statuses
        if got is None or skill_id in got[1]:
            return None
        status = got[0].get(skill_id)
        if status is not None:
            return status
        known = self._known_skills
        if skill_id not in known:
            if skill_id not in self._rows["skill"]:  # (the rows of a vouched index are looked up by bisection)
                return None
            known.add(skill_id)
        return "active"

    def verify_rules(self) -> None:
        """The check :meth:`expand` makes once before the first entry is
        routed to: every rule holds its index triggers and the routing
        settings are the registry's (docs/formats.md §6.6). Raises
        :class:`IndexInvalidError`."""
        self._verify_rules()

    def skill_status(self, skill_id: str) -> str | None:
        """Canonical status of a skill (``active`` | ``deprecated`` |
        ``disabled``), read from its range or the registry; None when the id
        is unknown or its range cannot be read."""
        if skill_id not in self._rows["skill"]:
            return None
        if not self.from_index:
            assert self._registry is not None
            return self._registry.skills[skill_id].status
        try:
            return self.expand("skill", skill_id).status
        except IndexInvalidError:
            return None

    def _full_registry(self) -> Registry:
        if self._registry is None:
            with self._lock:
                if self._registry is None:
                    if self._registry_loader is None:
                        raise IndexInvalidError("the registry is not available to resolve an entry")
                    try:
                        self._registry = self._registry_loader()
                    except RegistryError as exc:
                        first = exc.diagnostics[0] if exc.diagnostics else "unknown error"
                        raise IndexInvalidError(f"the registry does not parse ({first})") from None
        return self._registry

    def _fragment(self, kind: str, entry_id: str) -> tuple[int, int, str, Any, str]:
        """``(start, end, text, value, resolved_from)`` of an entry's range,
        cached (a failure too). Raises :class:`IndexInvalidError`."""
        key = (kind, entry_id)
        cached = self._cache.get(key)
        if cached is not None:
            if isinstance(cached, IndexInvalidError):
                raise cached
            return cached
        try:
            result = self._read_fragment(kind, entry_id)
        except IndexInvalidError as exc:
            self._cache[key] = exc
            raise
        self._cache[key] = result
        return result

    def _read_fragment(self, kind: str, entry_id: str) -> tuple[int, int, str, Any, str]:
        start, end = self._rows[kind][entry_id]
        lines = self.lines
        display = self.display_name
        if end > len(lines):
            where = f"{display} {line_span(start, end)}"
            raise IndexInvalidError(f"the index puts {kind} {quote(entry_id)} at {where}, beyond the end of the "
                                    f"registry ({len(lines)} lines)")
        text = self.range_text(start, end)
        if not holds_key(lines[start - 1], entry_id):
            head = lines[start - 1].strip()
            raise IndexInvalidError(f"line {start} of {display} should hold the key `{entry_id}:` "
                                    f"but holds {quote(head[:60])}")
        value = read_range(text, entry_id)  # the common range from its lines, else the YAML reader
        if value is not None:
            return start, end, text, value, "range"
        try:
            value = parse_fragment(text, start, display)
        except RegistryError:
            # not self-contained (an alias whose anchor lies outside the range): resolve from the registry
            reg = self._full_registry()
            entry = {"skill": reg.skills, "composition": reg.compositions, "rule": reg.rules}[kind].get(entry_id)
            if entry is None:
                raise IndexInvalidError(f"{kind} {quote(entry_id)} is not in the registry") from None
            if kind == "skill":
                value = {"path": entry.path, "priority": entry.priority, "status": entry.status,
                         "triggers": list(entry.triggers)}
            elif kind == "composition":
                value = list(entry.members)
            else:
                value = {"forced": "true" if entry.forced else "false", "triggers": list(entry.triggers)}
            return start, end, text, value, "registry"
        if not isinstance(value, dict) or list(value) != [entry_id]:
            raise IndexInvalidError(f"{display} {line_span(start, end)} of the registry do not hold {kind} "
                                    f"{quote(entry_id)} alone")
        return start, end, text, value[entry_id], "range"


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _settings(obj: dict) -> tuple:
    """``(threshold, ambiguity_margin, high_risk)`` of a routing mapping
    (the registry's text values or the index's numbers), defaults filled in."""
    default = RoutingSettings()
    terms = obj.get("high_risk", [])
    return (_number(obj.get("threshold", default.threshold)), _number(obj.get("ambiguity_margin",
                                                                             default.ambiguity_margin)),
            tuple(terms) if isinstance(terms, list) else None)


def _settings_of(rs: RoutingSettings) -> tuple:
    return (_number(rs.threshold), _number(rs.ambiguity_margin), tuple(rs.high_risk))


def _show_settings(t: tuple) -> str:
    threshold, margin, terms = t
    shown = "none" if not terms else ", ".join(quote(x) for x in terms[:5]) + (", ..." if len(terms) > 5 else "")
    return f"(threshold {threshold:g}, margin {margin:g}, high_risk [{shown}])" if threshold is not None \
        and margin is not None else "(unreadable)"


def _ids(ids: list[str]) -> str:
    """Ids for a message, cut after 5."""
    return ", ".join(quote(i) for i in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def _list(triggers: tuple[str, ...]) -> str:
    """A trigger list for a message, cut after 5 items."""
    shown = ", ".join(quote(t) for t in triggers[:5])
    return f"[{shown}{', ...' if len(triggers) > 5 else ''}]"


def _first_difference(given: tuple[str, ...], held: tuple[str, ...]) -> str:
    """Where two trigger lists first differ, for a message whose lists are
    cut after 5 items (a newcomer's "fix  ci" edit showed two lists that
    looked the same): ``"; they first differ at trigger 7: "fix  ci" in the
    index, "fix ci" in the range"``, or which list is longer. Triggers are
    numbered from 1; ``""`` when the lists are equal."""
    i = next((k for k, (a, b) in enumerate(zip(given, held)) if a != b), min(len(given), len(held)))
    if i < len(given) and i < len(held):
        return f"; they first differ at trigger {i + 1}: {quote(given[i])} in the index, {quote(held[i])} in the range"
    whose, extra = ("index's", given) if i < len(given) else ("range's", held)
    return (f"; the index has {len(given)} triggers, the range {len(held)} (the {whose} trigger {i + 1} is "
            f"{quote(extra[i])})") if i < len(extra) else ""


def _str_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None
