"""The router: task text -> :class:`~routelens.routing.decision.Decision`
with its evidence (docs/formats.md §6). A facade over the routing stage:

- loading: the registry's bytes are read and hashed, and the compact index
  judged fresh or not (docs/formats.md §3.5); the registry is parsed only
  when the index is not fresh, or when a range that is not self-contained
  must be resolved;
- matching: the triggers of skills, rules and high-risk terms
  (:mod:`~routelens.routing.matching`) give the task's
  :class:`~routelens.routing.policy.Evidence`;
- deciding: :func:`~routelens.routing.policy.decide` applies the decision
  order, reading entries back through :mod:`~routelens.routing.entries`;
- :meth:`Router.explain` says why a skill was or was not chosen
  (:mod:`~routelens.routing.explain`).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import threading
from functools import cached_property
from pathlib import Path
from typing import Callable

from routelens.artifacts.bodies import body_sentence
from routelens.artifacts.freshness import Freshness, built_in_memory, by_hash, freshness
from routelens.artifacts.index_file import (
    CompactIndex, index_bytes, index_summary, parse_index, read_index_bytes, summary_rows, vouched_index,
)
from routelens.errors import IndexInvalidError
from routelens.artifacts.vocabulary import vocabulary
from routelens.paths import default_index_path, default_registry
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.registry.model import ID_RE, Registry, RoutingSettings
from routelens.routing import explain as explaining
from routelens.routing.decision import MAX_NEAR_MISSES, Decision, Explanation, quote
from routelens.routing.entries import Entries
from routelens.routing.matching import (
    MATCHER_VERSION,
    MAX_TASK_CHARS,
    NEAR_MISS_FLOOR,
    Match,
    not_when_floor,
    PreparedTask,
    TriggerMatcher,
    prepare,
    prepare_tail,
)
from routelens.routing.candidates import CandidateList, MatchList
from routelens.routing.evidence import Lexicon, assess
from routelens.routing import matcher_cache
from routelens.routing.columns import NamedPostings
from routelens.routing.matcher_cache import load_or_build
from routelens.routing.policy import Evidence, ExplicitId, UnknownId, Verdict, decide
from routelens.routing.safety import destructive, steering
from routelens.routing.negation import negated
from routelens.routing.signals import clause_breaks
from routelens.routing.unordered import UnorderedPhrases
from routelens.text.canonical import canonical_bytes, sha256_hex, source_sha256
from routelens.text.words import closest

__all__ = ["Router", "route", "Vouched", "vouch"]

#: ``/id`` or ``$id`` as a word of its own (docs/formats.md §6.4)
_EXPLICIT_RE = re.compile(r"(?<![0-9a-z_/$.\-])[/$]([0-9a-z][0-9a-z\-]*)(?![0-9a-z_/\-])")


class Router:
    """Routes tasks for one registry (+ its compact index).

    Build it with :meth:`from_paths` (files) or :meth:`from_registry` (an
    already parsed :class:`Registry`). It is immutable after construction
    except for caches, and :meth:`route` is safe to call from several
    threads. ``freshness``: the :class:`Freshness` of the index against the
    registry; ``settings``: the routing settings in force (from the fresh
    index, else the registry; ``threshold`` and ``margin`` are the same as
    floats); ``entries``: the :class:`Entries` routing reads.
    """

    def __init__(
        self,
        *,
        text: str,
        display_name: str,
        fresh: Freshness,
        index: CompactIndex | None,
        registry: Registry | None,
        registry_loader: Callable[[], Registry] | None = None,
        index_sha256: str | None = None,
        base_dir: str | Path | None = None,
        cache: bool = False,
        cached: dict | None = None,
    ):
        """Low-level constructor (the TUI uses it to reuse what it has read);
        prefer :meth:`from_paths` / :meth:`from_registry`.

        ``text``: the registry's canonical text (BOM removed, LF line ends);
        ``display_name``: the file name used in messages; ``fresh``: the
        index's :class:`Freshness`; ``index``: the compact index (matching
        uses it when ``fresh.state == "fresh"``); ``registry``: the parsed
        registry, required when the index is not fresh; ``registry_loader``:
        a callable returning the registry, called only to resolve a range
        that is not self-contained; ``index_sha256``: sha256 hex of the index
        file's bytes, copied into every decision; ``base_dir``: the folder of
        the skill bodies (default: the registry's), looked at for the
        selected skills (a decision flags a missing body); ``cache``: read
        and write the matchers in the matcher cache (docs/formats.md §11.4)
        when the index is fresh — for an index on disk whose freshness
        :func:`~routelens.artifacts.freshness.freshness` judged (every
        check of §3.4 and the range check of §3.5: the file then vouches
        for those bytes), not for the throw-away registries of fixes and
        suggestions; ``cached``: a payload
        :func:`routelens.routing.matcher_cache.read` gave for this index
        (its matchers are used when their floors are this router's, and its
        index summary gives the entries without decoding the index)."""
        self.freshness = fresh
        #: sha256 hex of the index file's bytes (None without an index)
        self.index_sha256 = index_sha256
        self.display_name = display_name
        if fresh.state == "fresh" and index is not None:
            source = index.settings
            rows = summary_rows(cached["index"]) if cached is not None and cached.get("index") else None
            if rows is not None:
                # vouched for by the matcher cache: the entries come from its summary, the triggers the index
                # gives each entry from the matchers built from them (the read-back checks of §6.6 are the same)
                self.entries = Entries.from_rows(text, display_name, rows, index.routing, self._index_triggers,
                                                 registry_loader, base_dir)
                cw = cached["index"].get("composition_words")
                if (isinstance(cw, tuple) and len(cw) == 2 and isinstance(cw[0], NamedPostings)
                        and isinstance(cw[1], list)):
                    self.entries.use_composition_words(*cw)
                st = cached["index"].get("skill_statuses")
                if isinstance(st, tuple) and len(st) == 2 and isinstance(st[0], dict) and isinstance(st[1], list):
                    self.entries.use_statuses(*st)
                cm = cached["index"].get("composition_members")
                if isinstance(cm, dict):
                    self.entries.use_compositions(cm)
            else:
                self.entries = Entries.from_index(text, display_name, index, registry, registry_loader, base_dir)

            def lists() -> tuple[list, list, list]:
                return ([(r[0], r[3]) for r in index.skills], [(r[0], r[3]) for r in index.rules],
                        [(r[0], r[4]) for r in index.skills if r[4]])

            def lexicon() -> Lexicon:
                vocab = index.vocabulary
                return Lexicon(vocab.get("zipf", {}), [(r[0], r[5]) for r in index.skills], vocab.get("terms", []),
                               self._trigger_lists[0], vocab.get("common", []), vocab.get("near", {}),
                               vocab.get("life", []))
        else:
            assert registry is not None, "a router without a fresh index needs the parsed registry"
            source = registry.routing
            self.entries = Entries.from_registry(registry, display_name, base_dir)

            def lists() -> tuple[list, list, list]:
                return ([(s.id, s.triggers) for s in registry.skills.values()],
                        [(r.id, r.triggers) for r in registry.rules.values()],
                        [(s.id, s.not_when) for s in registry.skills.values() if s.not_when])

            def lexicon() -> Lexicon:
                return _registry_lexicon(registry, self._trigger_lists[0])
        self._lists = lists
        self._lists_made: tuple[list, list, list] | None = None
        self.settings = RoutingSettings(
            threshold=float(source.threshold), ambiguity_margin=float(source.ambiguity_margin),
            high_risk=tuple(source.high_risk), max_index_ratio=source.max_index_ratio, present=source.present,
            destructive_intents=source.destructive_intents, audience=source.audience)
        #: the threshold and ambiguity margin (0-100 scores) and the high-risk terms in force
        self.threshold = self.settings.threshold
        self.margin = self.settings.ambiguity_margin
        self.high_risk_terms = self.settings.high_risk
        floors = (min(NEAR_MISS_FLOOR, self.threshold), self.threshold)

        def build() -> tuple:
            skill_triggers, rule_triggers, not_when = self._trigger_lists
            skills, lex = TriggerMatcher(skill_triggers, floor=floors[0], one_clause=True), lexicon()
            lex.own_words.backed_by(skills)  # both from skill_triggers: the cache keeps the words as the triggers
            got = (skills, TriggerMatcher(rule_triggers, floor=floors[1]),
                   TriggerMatcher([(t, [t]) for t in self.high_risk_terms], floor=floors[1]),
                   TriggerMatcher(not_when, floor=not_when_floor(floors[1])), lex)
            # (set here too: the summary written beside them reads the ranges against these matchers' triggers)
            self._skills, self._rules, self._risk, self._not_when, self.lexicon = got
            return got

        if cached is not None and cached.get("floors") == floors and fresh.state == "fresh" and index is not None:
            built = cached["built"]
        elif cache and fresh.state == "fresh" and index is not None:
            # built from the index alone: kept in the matcher cache, keyed by the index file's sha256 (§11.4),
            # with the index's summary (the file vouches for the index's bytes, which passed every check)
            built = load_or_build(index_sha256, floors, build, lambda: self._summary(index))
        else:
            built = build()
        #: the vocabulary of the evidence model (docs/formats.md §3.7, §6.10)
        self.lexicon: Lexicon
        self._skills, self._rules, self._risk, self._not_when, self.lexicon = built

    @property
    def _trigger_lists(self) -> tuple[list, list, list]:
        """``(owner, triggers)`` of skills and rules and ``(owner, not_when)``
        of skills, made when a matcher must be built (a router from the
        matcher cache never reads the index's rows for them)."""
        if self._lists_made is None:
            self._lists_made = self._lists()
        return self._lists_made

    def _summary(self, index: CompactIndex) -> dict:
        """What the matcher cache keeps of a checked index (docs/formats.md
        §11.4): :func:`~routelens.artifacts.index_file.index_summary`, the
        word index of the composition ranges, the skills' statuses
        (:meth:`Entries.vouch_statuses`) and the compositions' members
        (:meth:`Entries.vouch_compositions`), functions of the rows and of
        the registry text the index's hash pins."""
        summary = index_summary(index)
        words, other = self.entries.composition_words()
        if not isinstance(words, NamedPostings):
            words = NamedPostings.of(words, list(self.entries.composition_ids))
        summary["composition_words"] = (words, list(other))
        # the skills' statuses, read from their ranges (a batch whose everyday words reach hundreds of skills
        # reads each candidate's status the first time it counts: most of a cold batch's slowest tasks)
        statuses, left = self.entries.vouch_statuses()
        summary["skill_statuses"] = (statuses, left)
        self.entries.use_statuses(statuses, left)
        members = self.entries.vouch_compositions()
        if members is not None:
            summary["composition_members"] = members
            self.entries.use_compositions(members)
        return summary

    def _index_triggers(self, kind: str, entry_id: str) -> tuple[str, ...] | None:
        """The triggers the index gives skill or rule ``entry_id``: those its
        matcher was built from (:meth:`Entries.from_rows`)."""
        return (self._skills if kind == "skill" else self._rules).texts_of(entry_id)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_paths(cls, registry_path: str | Path, index_path: str | Path | None = None) -> "Router":
        """A router for the registry at ``registry_path`` and the compact index
        at ``index_path`` (default: ``generated/routing.min.json`` beside the
        registry).

        Reads the registry's bytes and hashes them (docs/formats.md §3);
        parses the registry only when the index is not fresh. Raises
        :class:`RegistryError` (with ``file:line:col`` diagnostics) when the
        registry cannot be read, or must be parsed and is broken."""
        registry_path = Path(registry_path)
        index_path = Path(index_path) if index_path is not None else default_index_path(registry_path)
        display = str(registry_path)
        raw = read_registry_bytes(registry_path, display)
        base = Path(os.path.realpath(registry_path)).parent  # bodies are beside the real file

        def loader() -> Registry:
            return parse_registry(raw, registry_path, display)

        try:
            data: bytes | None = read_index_bytes(index_path)
        except (FileNotFoundError, IndexInvalidError, OSError):
            data = None  # freshness reads it again and says why
        if data is not None:
            vouched = cls._vouched(raw, data, display, loader, base)
            if vouched is not None:
                return vouched
        fr = freshness(registry_path, index_path, raw, index_raw=data)
        file_sha = fr.index.sha256 if fr.index is not None else None
        if fr.state == "fresh":
            try:
                text = canonical_bytes(raw).decode("utf-8")
            except UnicodeDecodeError:
                text = loader().text  # raises RegistryError naming the byte
            return cls(text=text, display_name=display, fresh=fr, index=fr.index, registry=None,
                       registry_loader=loader, index_sha256=file_sha, base_dir=base, cache=True)
        reg = loader()
        return cls(text=reg.text, display_name=display, fresh=fr, index=fr.index, registry=reg, index_sha256=file_sha,
                   base_dir=base)

    @classmethod
    def _vouched(cls, raw: bytes, data: bytes, display: str, loader: Callable[[], Registry],
                 base: Path) -> "Router | None":
        """The router of :meth:`from_paths` when the matcher cache vouches for
        the index bytes ``data`` (:func:`vouch`, docs/formats.md §11.4), or
        None: the index is then read and checked in full."""
        v = vouch(raw, data)
        if v is None:
            return None
        return cls.from_vouched(v, display, loader, base)

    @classmethod
    def from_vouched(cls, v: "Vouched", display: str, loader: Callable[[], Registry] | None = None,
                     base: str | Path | None = None) -> "Router":
        """The router :meth:`from_paths` opens on an index the matcher cache
        vouches for (``v`` from :func:`vouch`): neither the index nor the
        registry is decoded, parsed or checked again; ``loader`` (a callable
        returning the parsed registry) is called only to resolve a range that
        is not self-contained; ``display``: the registry's name in messages;
        ``base``: the folder of the skill bodies."""
        return cls(text=v.text, display_name=display, fresh=v.freshness, index=v.freshness.index, registry=None,
                   registry_loader=loader, index_sha256=v.index_sha256, base_dir=base, cache=True, cached=v.payload)

    @classmethod
    def from_registry(cls, reg: Registry, index: CompactIndex | None = None) -> "Router":
        """A router for an already parsed registry. Without ``index`` the
        compact index is built in memory from ``reg`` (so it is fresh);
        with one, its freshness is judged by ``source_sha256``."""
        if index is None:
            index = parse_index(index_bytes(reg))
            fr = built_in_memory(index)
        else:
            fr = by_hash(index, reg.source_sha256)
        return cls(text=reg.text, display_name=reg.display_name, fresh=fr, index=index, registry=reg,
                   index_sha256=index.sha256)

    def with_settings(self, **changes) -> "Router":
        """A router like this one with routing settings replaced
        (``threshold=80``, ``ambiguity_margin=3``: fields of
        :class:`RoutingSettings`); ``routelens tune`` sweeps them this way.
        It shares the entries and the index; a matcher is rebuilt only when
        the lowest score it must report changes. Raises ``TypeError`` for
        an unknown setting."""
        new = copy.copy(self)
        new.settings = dataclasses.replace(self.settings, **changes)
        new.threshold = float(new.settings.threshold)
        new.margin = float(new.settings.ambiguity_margin)
        new.high_risk_terms = tuple(new.settings.high_risk)
        new.settings = dataclasses.replace(new.settings, threshold=new.threshold, ambiguity_margin=new.margin,
                                           high_risk=new.high_risk_terms)
        skill_triggers, rule_triggers, not_when = self._trigger_lists
        floor = min(NEAR_MISS_FLOOR, new.threshold)
        if floor != self._skills.floor:
            new._skills = TriggerMatcher(skill_triggers, floor=floor, one_clause=True)
        if new.threshold != self.threshold or new.high_risk_terms != self.high_risk_terms:
            new._rules = TriggerMatcher(rule_triggers, floor=new.threshold)
            new._risk = TriggerMatcher([(t, [t]) for t in new.high_risk_terms], floor=new.threshold)
        if not_when_floor(new.threshold) != self._not_when.floor:
            # the not_when matcher too (it kept the old threshold's floor: tune's figures at a
            # lower threshold were not eval's with that threshold pasted)
            new._not_when = TriggerMatcher(not_when, floor=not_when_floor(new.threshold))
        return new

    # ------------------------------------------------------------------ what it routes over
    @property
    def registry_chars(self) -> int:
        """Characters of the canonical registry text (the payload of a full fallback)."""
        return self.entries.registry_chars

    @property
    def skill_ids(self) -> tuple[str, ...]:
        """Skill ids known to the router, sorted."""
        return self.entries.skill_ids

    @property
    def composition_ids(self) -> tuple[str, ...]:
        """Composition ids known to the router, sorted."""
        return self.entries.composition_ids

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Rule ids known to the router (docs/formats.md §1.1 ``rules``), sorted."""
        return tuple(sorted(rid for rid, _ in self._trigger_lists[1]))

    def skill_range(self, skill_id: str) -> tuple[int, int] | None:
        """``(source_start, source_end)`` of a skill (1-based, inclusive), or None."""
        return self.entries.range_of("skill", skill_id)

    def range_text(self, start: int, end: int) -> str:
        """Exact text of canonical lines ``start..end`` (1-based inclusive),
        LF-joined with a trailing LF. Raises ``ValueError`` outside the file."""
        return self.entries.range_text(start, end)

    def skill_triggers(self, skill_id: str) -> tuple[str, ...]:
        """The triggers of ``skill_id`` as the registry writes them (empty
        for an unknown id)."""
        return next((tuple(ts) for owner, ts in self._trigger_lists[0] if owner == skill_id), ())

    def skill_status(self, skill_id: str) -> str | None:
        """Canonical status of a skill (``active`` | ``deprecated`` |
        ``disabled``), read from its range or the registry; None when the id
        is unknown or its range cannot be read."""
        return self.entries.skill_status(skill_id)

    def best_match(self, task: str, skill_id: str) -> Match | None:
        """The best-scoring trigger of ``skill_id`` on ``task`` whatever the
        threshold (None when no trigger aligns at all)."""
        return self._skills.score_owner(prepare(task), skill_id)

    # ------------------------------------------------------------------ routing
    def route(self, task: str) -> Decision:
        """The decision for ``task`` (any string: any Unicode, control
        characters, NUL, 100,000 characters). Never raises: an internal
        failure gives a ``full`` fallback whose message names it."""
        if not isinstance(task, str):
            task = "" if task is None else str(task)
        try:
            ev = self.evidence(task)
            return self._decision(ev, decide(ev, self.entries, self.settings))
        except Exception as exc:  # pragma: no cover - a safety net, the tests drive arbitrary input
            ev = Evidence(task, (), (), (), (), (), False, self.freshness)
            return self._decision(ev, Verdict("full", "no_match", f"Fell back to the full registry: the router "
                                                                  f"failed on this task ({type(exc).__name__}: {exc})"))

    def decision_for(self, ev: Evidence, settings: RoutingSettings | None = None) -> Decision:
        """The decision for evidence ``ev`` (from :meth:`evidence`) under
        ``settings`` (default: this router's). ``routelens tune`` finds the
        evidence of a task once per threshold and decides it under every
        ambiguity margin; the threshold in ``settings`` must be the one
        ``ev`` was found with."""
        return self._decision(ev, decide(ev, self.entries, settings or self.settings))

    def evidence(self, task: str) -> Evidence:
        """What the matchers find in ``task``: skill candidates (scores at or
        above the threshold) and near misses, rule and high-risk hits (over
        the whole task, however long), explicit ``/id`` and ``$id`` words."""
        p = prepare(task)
        threshold = self.threshold
        # the skills' hits as groups of skills sharing a trigger text: hundreds of skills share one on big
        # registries, and their matches and candidates are made when something reads them
        reached = self._skills.reach(p, threshold, MAX_NEAR_MISSES)
        ids, hit_of = reached.ranked()
        matches: tuple[Match, ...] | MatchList = MatchList(ids, hit_of) if ids else ()
        near = tuple(h.match(o) for o, h in reached.near(MAX_NEAR_MISSES))
        rules = self._rules.match(p, threshold, 0)
        risks = self._risk.match(p, threshold, 0)
        any_order = self._any_order
        for hits, phrases in zip((rules, risks), any_order):
            phrases.add_to(p, hits, threshold)
        if p.truncated and (self._rules.triggers or self._risk.triggers):
            # safety checks read the WHOLE task: a forced rule or a high-risk term
            # after the first MAX_TASK_CHARS characters still forces the fallback
            for q in prepare_tail(p.original):
                for hits, matcher, phrases in ((rules, self._rules, any_order[0]), (risks, self._risk, any_order[1])):
                    if not matcher.triggers:
                        continue
                    found = matcher.match(q, threshold, 0)
                    phrases.add_to(q, found, threshold)
                    for owner, m in found.items():
                        old = hits.get(owner)
                        if old is None or (-m.score, m.span[0]) < (-old.score, old.span[0]):
                            hits[owner] = m
        rule_hits = sorted((m for m in rules.values() if m.score >= threshold), key=lambda m: (-m.score, m.id))
        risk_hits = sorted((m for m in risks.values() if m.score >= threshold), key=lambda m: (m.span[0], m.id))
        text = p.original if not p.truncated else p.original[:MAX_TASK_CHARS]
        steer = tuple(steering(text, lambda: [h.span for _, hs, _ in reached.hit_lists() for h in hs
                                              if h.score >= 100.0 and len(h.trigger.split()) >= 2]))
        harm = tuple(destructive(task)) if self.settings.destructive_intents else ()
        explicit, unknown_ids, unknown = self._explicit(p)
        candidates: tuple | CandidateList = ()
        if matches:
            nw: dict[str, Match] = {}
            if self._not_when.triggers:
                bar = not_when_floor(threshold)
                for owner, m in self._not_when.match(p, bar, 0).items():
                    if m.score >= bar:
                        nw[owner] = m
            candidates = assess(p, reached, ids, self.lexicon, nw, negated(text),
                                public=self.settings.audience == "public")
        return Evidence(task, matches, near, tuple(rule_hits), tuple(risk_hits), explicit, p.truncated,
                        self.freshness, candidates, steer, harm, unknown_ids, tuple(clause_breaks(text)), unknown)

    @cached_property
    def _any_order(self) -> tuple[UnorderedPhrases, UnorderedPhrases]:
        """The forced rules' triggers and the high-risk terms that also
        match in any word order (docs/formats.md §6.7), made on first use."""
        return tuple(UnorderedPhrases((tr.owner, (tr.text,)) for tr in m.triggers)  # type: ignore[return-value]
                     for m in (self._rules, self._risk))

    def _explicit(self, p: PreparedTask) -> tuple[tuple[ExplicitId, ...], tuple[tuple[int, int, str], ...],
                                                   tuple[UnknownId, ...]]:
        """The ``/id`` and ``$id`` words of the task: those naming a known
        skill or composition; the id-shaped ones (kebab-case with a hyphen)
        that name nothing, as ``(start, end, word)`` spans (reason
        ``unknown_id``, docs/formats.md §6.4); and every word naming
        nothing, with the closest known id (said in the message)."""
        if "/" not in p.norm and "$" not in p.norm:
            return (), (), ()
        out = []
        unknown_ids = []
        unknown = []
        seen = set()
        entries = self.entries
        for m in _EXPLICIT_RE.finditer(p.norm):
            ident = m.group(1)
            if ident in seen or not ID_RE.match(ident):
                continue
            seen.add(ident)
            span = p.original_span(m.start(), m.end())
            if entries.has("skill", ident):
                kind = "skill"
            elif entries.has("composition", ident):
                kind = "composition"
            else:
                if "-" in ident.strip("-"):
                    unknown_ids.append((span[0], span[1], p.original[span[0]:span[1]]))
                rule = entries.has("rule", ident)
                unknown.append(UnknownId(p.original[span[0]:span[1]], ident, None if rule else self._closest_id(ident),
                                         rule))
                continue
            out.append(ExplicitId(ident, kind, span))
        return tuple(out), tuple(unknown_ids), tuple(unknown)

    def _closest_id(self, ident: str) -> str | None:
        """The skill or composition id closest to ``ident`` (rapidfuzz's
        ratio at least :data:`~routelens.routing.explain.SUGGEST_CUTOFF`), or None."""
        return closest(ident, [*self.skill_ids, *self.composition_ids], explaining.SUGGEST_CUTOFF)

    def _decision(self, ev: Evidence, v: Verdict) -> Decision:
        if not v.candidates and ev.candidates:
            # a step before the evidence model decided: every candidate still says why it was not chosen
            why = _EARLY_WHY.get(v.reason, v.reason.replace("_", " "))
            CandidateList.of(ev.candidates).fill_why(f"not selected: {why}", v.skills, "selected: named explicitly")
        evidence = v.candidates or ev.candidates
        if isinstance(evidence, CandidateList):
            evidence = evidence.frozen()  # what this decision filled in (tune decides one evidence again)
        message = v.message
        full = v.mode == "full"
        missing: tuple[tuple[str, str, str], ...] = ()
        if not full:
            found = []
            for e in v.expansions:
                problem = self.entries.body_problem(e)
                if problem is not None:
                    found.append((e.id, e.path or "", problem))
            missing = tuple(found)
            for sid, path, problem in missing:
                message += f"; warning: {body_sentence(path, problem)} (skill {quote(sid)}): its body cannot be loaded"
        if ev.truncated:
            message += (f" (skills were matched on the first {MAX_TASK_CHARS:,} of {len(ev.task):,} characters of "
                        f"the task; forced rules and high-risk terms on all of it)")
        # "why not" is for what was not chosen: a selected skill is never a near miss (docs/formats.md §6.1)
        near = ev.near_misses if full else tuple(m for m in ev.near_misses if m.id not in v.skills)
        return Decision(
            task=ev.task, mode=v.mode, reason=v.reason, message=message,
            skills=() if full else v.skills, composition=None if full else v.composition,
            matches=ev.matches if v.matches is None else v.matches, near_misses=near,
            expansions=() if full else v.expansions, dropped=v.dropped, rule=v.rule, high_risk=ev.high_risk,
            payload_chars=self.registry_chars if full else sum(len(e.text) for e in v.expansions),
            freshness=v.freshness or self.freshness.state,
            source_sha256=self.freshness.registry_sha256, index_sha256=self.index_sha256,
            matcher_version=MATCHER_VERSION, rule_matches=ev.rule_matches, truncated=ev.truncated,
            missing_bodies=missing,
            evidence=evidence,
        )

    # ------------------------------------------------------------------ explain
    def explain(self, task: str, skill_id: str) -> Explanation:
        """Why ``skill_id`` was or was not chosen for ``task`` (see
        :func:`routelens.routing.explain.explain`). Never raises."""
        return explaining.explain(self, task, skill_id)


#: why a candidate was not chosen when a step before the evidence model decided (docs/formats.md §6.3)
_EARLY_WHY = {
    "index_missing": "the compact index is missing",
    "index_stale": "the compact index is stale",
    "index_invalid": "the compact index is invalid",
    "suspicious_input": "the task tries to steer the router",
    "forced_rule": "a forced rule sends the task to the full registry",
    "high_risk": "the task is high-risk",
    "explicit": "the task names other ids explicitly",
    "unknown_id": "the task names an id that does not exist",
}


def _registry_lexicon(reg: Registry, triggers: list) -> Lexicon:
    """The lexicon computed from the registry itself, when the index cannot
    be used (docs/formats.md §3.7: the same build code; the decision falls
    back anyway, so this only shows the evidence)."""
    v = vocabulary(reg)
    return Lexicon(v["zipf"], list(v["skill_terms"].items()), v["registry_terms"], triggers, v["common"], v["near"],
                   v["life"])


# --------------------------------------------------------------------------- convenience

_ROUTER_CACHE: dict[tuple, Router] = {}
_CACHE_LOCK = threading.Lock()


def _stat_key(path: Path) -> tuple:
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        return (None,)


def route(task: str, registry_path: str | Path | None = None, index_path: str | Path | None = None) -> Decision:
    """Route one task (convenience). ``registry_path`` defaults to
    :func:`routelens.paths.default_registry` (``$ROUTELENS_REGISTRY``, else
    ``skills.yaml`` here or in a parent folder; never the bundled example
    silently), ``index_path`` to ``generated/routing.min.json`` beside it.
    Routers are cached per (paths, file stats). Raises :class:`RegistryError`
    only when the registry cannot be read, or must be parsed and is broken,
    and :class:`~routelens.errors.NoRegistryError` when there is none."""
    rp = Path(registry_path) if registry_path is not None else default_registry()
    ip = Path(index_path) if index_path is not None else default_index_path(rp)
    key = (str(rp.resolve()), str(ip.resolve()), _stat_key(rp), _stat_key(ip))
    with _CACHE_LOCK:
        router = _ROUTER_CACHE.get(key)
    if router is None:
        router = Router.from_paths(rp, ip)
        with _CACHE_LOCK:
            if len(_ROUTER_CACHE) > 8:
                _ROUTER_CACHE.clear()
            _ROUTER_CACHE[key] = router
    return router.route(task)


@dataclasses.dataclass(frozen=True)
class Vouched:
    """An index the matcher cache vouches for (docs/formats.md §11.4),
    judged fresh without decoding or checking it (:func:`vouch`).

    ``freshness``: state ``fresh``, with the same message as the full check
    (:func:`~routelens.artifacts.freshness.by_hash`) and a
    :class:`CompactIndex` whose rows are decoded only if asked for;
    ``payload``: the trusted cache payload (``floors``, ``built``,
    ``index``) for :meth:`Router.from_vouched`; ``index_sha256``: sha256 hex
    of the index file's bytes; ``text``: the registry's canonical text;
    ``counts``: (skills, compositions, rules) rows of the index, from the
    summary (disabled skills included, as the index lists them); ``rows``:
    kind (``skill`` | ``composition`` | ``rule``) -> id -> ``(source_start,
    source_end)``, 1-based inclusive canonical lines, from the summary
    (:func:`~routelens.artifacts.index_file.summary_rows`). Both None for a
    summary that does not match its own counts: the router then decodes
    and checks the index's rows (§11.4)."""

    freshness: Freshness
    payload: dict
    index_sha256: str
    text: str
    counts: tuple[int, int, int] | None
    rows: dict | None


def vouch(registry_raw: bytes, index_raw: bytes) -> Vouched | None:
    """The freshness :meth:`Router.from_paths` takes from the matcher cache
    (docs/formats.md §3.5, §11.4): when a trusted cache file for the sha256
    of ``index_raw`` holds the summary of an index that passed every check
    of §3.4 and the range check of §3.5, and the canonical hash of
    ``registry_raw`` (§3.2) is that summary's ``source_sha256``, the index
    is fresh — those checks read nothing but these bytes and the registry
    text that hash pins, so they would give the same answers. None
    otherwise (no file, the cache off, a file not trusted, a summary that
    another registry hash, a registry that
    is not UTF-8): judge the index in full
    (:func:`~routelens.artifacts.freshness.freshness`). Reads the cache file
    (about 0.25 s of CPU for 100,000 skills); never raises for bad input."""
    sha = sha256_hex(index_raw)
    got = matcher_cache.read(sha)
    summary = got.get("index") if got is not None else None
    if not summary:
        return None
    current = source_sha256(registry_raw)
    if summary.get("source_sha256") != current:
        return None  # stale (or another registry): judged in full
    rows = summary_rows(summary)  # None: a summary that does not match its counts (the rows are then decoded)
    try:
        text = canonical_bytes(registry_raw).decode("utf-8")
    except UnicodeDecodeError:
        return None
    idx = vouched_index(index_raw, summary)
    counts = (len(rows["skill"]), len(rows["composition"]), len(rows["rule"])) if rows is not None else None
    return Vouched(by_hash(idx, current), got, sha, text, counts, rows)
