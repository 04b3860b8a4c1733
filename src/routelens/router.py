"""The router: task text -> :class:`Decision` with its evidence (spec ``formats.md`` section 6).

Order of decisions (spec section 6, in this order):

1. the compact index is missing, invalid or stale -> ``full`` (matching still
   runs over the canonical registry, so people see the candidates);
2. the task names a skill or composition id as ``/id`` or ``$id`` -> ``fast``;
3. a forced rule or a high-risk term matches -> ``full``;
4. no skill scores at or above the threshold -> ``full`` (``no_match``);
5. candidates whose canonical status is ``disabled`` are dropped (and listed
   in ``dropped``); when nothing is left -> ``full`` (``disabled_skill``);
6. candidates that all belong to one composition (the smallest one holding
   them all) -> that composition, mode ``index``;
7. candidates spread over compositions that do not contain each other ->
   ``full`` (``composition_conflict``);
8. the top two candidates closer than the ambiguity margin -> ``full``
   (``ambiguous``);
9. otherwise the best candidate -> mode ``index`` (``clear_candidate``).

Every selected entry is expanded from its canonical line range: the exact
YAML text of the range, parsed with :func:`routelens.registry.parse_fragment`
for path/priority/status. A range whose first line does not hold the
expected ``<id>:`` key, or that lies beyond the end of the registry, means
the index cannot be trusted: the decision is ``full`` with reason
``index_invalid`` — never a wrong skill. A range that is not self-contained
(an alias whose anchor lies outside it) is resolved from the whole registry
and the decision says so.

Loading for routing reads the registry's bytes only to hash them (spec
section 3); the registry is parsed only when the index is not fresh, or when
a non-self-contained range must be resolved.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routelens.artifacts.freshness import Freshness, freshness
from routelens.artifacts.index_file import CompactIndex, index_bytes, parse_index
from routelens.matching import (
    MATCHER_VERSION,
    MAX_TASK_CHARS,
    NEAR_MISS_FLOOR,
    Match,
    PreparedTask,
    TriggerMatcher,
    prepare,
    prepare_tail,
)
from routelens.paths import bundled_registry, default_index_path
from routelens.registry import ID_RE, Registry, RegistryError, parse_registry, read_registry_bytes
from routelens.text.canonical import canonical_bytes, editor_lines, holds_key, range_text
from routelens.text.yaml_events import parse_fragment

__all__ = [
    "MATCHER_VERSION",
    "MAX_TASK_CHARS",
    "MAX_NEAR_MISSES",
    "REASONS",
    "Match",
    "Expansion",
    "Decision",
    "Explanation",
    "Router",
    "route",
]

#: The typed reasons of a decision (spec section 6).
REASONS = (
    "explicit",
    "clear_candidate",
    "index_missing",
    "index_stale",
    "index_invalid",
    "no_match",
    "ambiguous",
    "high_risk",
    "forced_rule",
    "composition_conflict",
    "disabled_skill",
)

#: How many near misses a decision lists (best first).
MAX_NEAR_MISSES = 5

_EXPLICIT_RE = re.compile(r"(?<![0-9a-z_/$.\-])[/$]([0-9a-z][0-9a-z\-]*)(?![0-9a-z_/\-])")
_DEFAULTS = {"threshold": 85.0, "ambiguity_margin": 5.0, "high_risk": ()}


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Expansion:
    """One selected entry, read from its canonical line range (spec section 6).

    ``kind``: ``"skill"`` or ``"composition"``; ``source_start``/``source_end``:
    1-based inclusive lines of the registry; ``text``: the exact text of those
    lines (LF line ends, trailing LF); ``path``/``priority``/``status``: read
    from the range for skills (None for compositions); ``resolved_from``:
    ``"range"``, or ``"registry"`` when the range is not self-contained and
    the attributes came from the whole registry.
    """

    id: str
    kind: str
    source_start: int
    source_end: int
    text: str
    path: str | None
    priority: str | None
    status: str | None
    resolved_from: str = "range"

    def to_dict(self) -> dict:
        """JSON-able dict, keys in field order."""
        return {
            "id": self.id,
            "kind": self.kind,
            "source_start": self.source_start,
            "source_end": self.source_end,
            "text": self.text,
            "path": self.path,
            "priority": self.priority,
            "status": self.status,
            "resolved_from": self.resolved_from,
        }


@dataclass(frozen=True)
class Decision:
    """The router's decision for one task (spec section 6).

    ``mode``: ``fast`` | ``index`` | ``full``; ``reason``: one of
    :data:`REASONS`; ``message``: one sentence for people; ``skills``:
    selected skill ids (``()`` when mode is full); ``composition``: the
    selected composition id or None; ``matches``: skills scoring at or above
    the threshold, best first (ties by id); ``near_misses``: the best skills
    below it (at most :data:`MAX_NEAR_MISSES`, score >= 60); ``expansions``:
    the selected entries read from their canonical ranges; ``dropped``:
    ``(skill id, why)`` pairs, e.g. ``("legacy-deploy", "disabled")``;
    ``rule``: the forced rule that fired; ``high_risk``: high-risk terms
    found (as written in the registry); ``payload_chars``: characters an
    agent reads for this decision (the expanded ranges, or the whole
    canonical registry when mode is full); ``freshness``: ``fresh`` |
    ``stale`` | ``missing`` | ``invalid``; ``source_sha256``: the registry's
    canonical hash; ``index_sha256``: sha256 of the index file bytes (None
    without an index file); ``matcher_version``: :data:`MATCHER_VERSION`.

    Additions beyond the spec: ``rule_matches`` (evidence for every rule and
    high-risk term that matched: ``Match.id`` is the rule id or the term) and
    ``truncated`` (skills were matched on the first :data:`MAX_TASK_CHARS`
    characters only; forced rules and high-risk terms are always matched over
    the whole task).
    """

    task: str
    mode: str
    reason: str
    message: str
    skills: tuple[str, ...]
    composition: str | None
    matches: tuple[Match, ...]
    near_misses: tuple[Match, ...]
    expansions: tuple[Expansion, ...]
    dropped: tuple[tuple[str, str], ...]
    rule: str | None
    high_risk: tuple[str, ...]
    payload_chars: int
    freshness: str
    source_sha256: str | None
    index_sha256: str | None
    matcher_version: str = MATCHER_VERSION
    rule_matches: tuple[Match, ...] = ()
    truncated: bool = False

    def to_dict(self) -> dict:
        """JSON-able dict with a stable key order; spans as ``[start, end]``."""
        return {
            "task": self.task,
            "mode": self.mode,
            "reason": self.reason,
            "message": self.message,
            "skills": list(self.skills),
            "composition": self.composition,
            "matches": [m.to_dict() for m in self.matches],
            "near_misses": [m.to_dict() for m in self.near_misses],
            "expansions": [e.to_dict() for e in self.expansions],
            "dropped": [[a, b] for a, b in self.dropped],
            "rule": self.rule,
            "high_risk": list(self.high_risk),
            "rule_matches": [m.to_dict() for m in self.rule_matches],
            "payload_chars": self.payload_chars,
            "freshness": self.freshness,
            "source_sha256": self.source_sha256,
            "index_sha256": self.index_sha256,
            "matcher_version": self.matcher_version,
            "truncated": self.truncated,
        }


@dataclass(frozen=True)
class Explanation:
    """Why one skill was or was not chosen for a task, in plain words.

    ``known``: the id is a skill of the registry; ``selected``: it is among
    ``decision.skills``; ``best``: its best-scoring trigger (None when no
    trigger aligns at all); ``threshold``: the registry's threshold;
    ``status``: its canonical status (None when unknown); ``reasons``: the
    sentences of ``text``, in order; ``decision``: the decision for the task.
    """

    task: str
    skill: str
    known: bool
    selected: bool
    best: Match | None
    threshold: float
    status: str | None
    reasons: tuple[str, ...]
    decision: Decision

    @property
    def text(self) -> str:
        """The explanation as plain sentences, one per line."""
        return "\n".join(self.reasons)

    def to_dict(self) -> dict:
        """JSON-able dict with a stable key order."""
        return {
            "task": self.task,
            "skill": self.skill,
            "known": self.known,
            "selected": self.selected,
            "best": self.best.to_dict() if self.best else None,
            "threshold": self.threshold,
            "status": self.status,
            "reasons": list(self.reasons),
            "text": self.text,
            "decision": self.decision.to_dict(),
        }


class _IndexBroken(Exception):
    """An expansion showed the index cannot be trusted (message for people)."""


def _fmt(score: float) -> str:
    return f"{score:g}" if score == int(score) else f"{score:.1f}"


def _q(s: str) -> str:
    return '"' + s.replace("\n", "\\n") + '"'


# --------------------------------------------------------------------------- router


class Router:
    """Routes tasks for one registry (+ its compact index).

    Build it with :meth:`from_paths` (files) or :meth:`from_registry` (an
    already parsed :class:`Registry`). It is immutable after construction
    except for caches, and :meth:`route` is safe to call from several
    threads. ``freshness`` is the :class:`routelens.artifacts.freshness.Freshness` of the
    index against the registry.
    """

    def __init__(
        self,
        *,
        text: str,
        display_name: str,
        fresh: Freshness,
        index: CompactIndex | None,
        registry: Registry | None,
        registry_loader: Any = None,
        index_sha256: str | None = None,
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
        file's bytes, copied into every decision."""
        self.freshness = fresh
        self._text = text
        self._lines: list[str] | None = None
        self._display = display_name
        self._index = index
        self._registry = registry
        self._registry_loader = registry_loader
        self._lock = threading.Lock()
        self._fragment_cache: dict[tuple[str, str], Any] = {}
        self._members: dict[str, tuple[str, ...]] | None = None
        #: sha256 hex of the index file's bytes (None without an index)
        self.index_sha256 = index_sha256
        use_index = fresh.state == "fresh" and index is not None
        self._use_index = use_index
        if use_index:
            assert index is not None
            routing = dict(_DEFAULTS)
            routing.update({k: v for k, v in index.routing.items() if k in _DEFAULTS})
            self.threshold = float(routing["threshold"])
            self.margin = float(routing["ambiguity_margin"])
            self.high_risk_terms = tuple(str(t) for t in routing["high_risk"] or ())
            self._skill_rows = {r[0]: (r[1], r[2]) for r in index.skills}
            self._comp_rows = {r[0]: (r[1], r[2]) for r in index.compositions}
            self._rule_rows = {r[0]: (r[1], r[2]) for r in index.rules}
            skill_entries = [(r[0], r[3]) for r in index.skills]
            rule_entries = [(r[0], r[3]) for r in index.rules]
        else:
            assert registry is not None
            self.threshold = float(registry.routing.threshold)
            self.margin = float(registry.routing.ambiguity_margin)
            self.high_risk_terms = tuple(registry.routing.high_risk)
            self._skill_rows = {s.id: (s.source_start, s.source_end) for s in registry.skills.values()}
            self._comp_rows = {c.id: (c.source_start, c.source_end) for c in registry.compositions.values()}
            self._rule_rows = {r.id: (r.source_start, r.source_end) for r in registry.rules.values()}
            skill_entries = [(s.id, s.triggers) for s in registry.skills.values()]
            rule_entries = [(r.id, r.triggers) for r in registry.rules.values()]
            self._members = {c.id: c.members for c in registry.compositions.values()}
        self._skills = TriggerMatcher(skill_entries, floor=min(NEAR_MISS_FLOOR, self.threshold))
        self._rules = TriggerMatcher(rule_entries, floor=self.threshold)
        self._risk = TriggerMatcher([(t, [t]) for t in self.high_risk_terms], floor=self.threshold)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_paths(cls, registry_path: str | Path, index_path: str | Path | None = None) -> "Router":
        """A router for the registry at ``registry_path`` and the compact index
        at ``index_path`` (default: ``generated/routing.min.json`` beside the
        registry).

        Reads the registry's bytes and hashes them (spec section 3); parses
        the registry only when the index is not fresh. Raises
        :class:`RegistryError` (with ``file:line:col`` diagnostics) when the
        registry cannot be read, or must be parsed and is broken."""
        registry_path = Path(registry_path)
        index_path = Path(index_path) if index_path is not None else default_index_path(registry_path)
        display = str(registry_path)
        raw = read_registry_bytes(registry_path, display)
        fr = freshness(registry_path, index_path, raw)
        file_sha = hashlib.sha256(fr.index.raw).hexdigest() if fr.index is not None and fr.index.raw else None

        def loader() -> Registry:
            return parse_registry(raw, registry_path, display)

        if fr.state == "fresh":
            try:
                text = canonical_bytes(raw).decode("utf-8")
            except UnicodeDecodeError:
                reg = loader()  # raises RegistryError naming the byte
                text = reg.text
            return cls(text=text, display_name=display, fresh=fr, index=fr.index, registry=None,
                       registry_loader=loader, index_sha256=file_sha)
        reg = loader()
        return cls(text=reg.text, display_name=display, fresh=fr, index=fr.index, registry=reg, index_sha256=file_sha)

    @classmethod
    def from_registry(cls, reg: Registry, index: CompactIndex | None = None) -> "Router":
        """A router for an already parsed registry. Without ``index`` the
        compact index is built in memory from ``reg`` (so it is fresh);
        with one, its freshness is judged by ``source_sha256``."""
        if index is None:
            data = index_bytes(reg)
            index = parse_index(data)
            fr = Freshness("fresh", f"the index was built in memory from the registry ({reg.source_sha256[:12]})",
                           reg.source_sha256, index.source_sha256, index)
        elif index.source_sha256 == reg.source_sha256:
            fr = Freshness("fresh", f"the index matches the registry ({reg.source_sha256[:12]})",
                           reg.source_sha256, index.source_sha256, index)
        else:
            fr = Freshness("stale",
                           f"the index was built from registry {index.source_sha256[:12]}, "
                           f"the registry is now {reg.source_sha256[:12]}",
                           reg.source_sha256, index.source_sha256, index)
        file_sha = hashlib.sha256(index.raw).hexdigest() if index.raw else None
        return cls(text=reg.text, display_name=reg.display_name, fresh=fr, index=index, registry=reg,
                   index_sha256=file_sha)

    # ------------------------------------------------------------------ reading ranges
    @property
    def registry_chars(self) -> int:
        """Characters of the canonical registry text (the payload of a full fallback)."""
        return len(self._text)

    @property
    def skill_ids(self) -> tuple[str, ...]:
        """Skill ids known to the router, sorted."""
        return tuple(sorted(self._skill_rows))

    @property
    def composition_ids(self) -> tuple[str, ...]:
        """Composition ids known to the router, sorted."""
        return tuple(sorted(self._comp_rows))

    def _get_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = editor_lines(self._text)
        return self._lines

    def range_text(self, start: int, end: int) -> str:
        """Exact text of canonical lines ``start..end`` (1-based inclusive),
        LF-joined with a trailing LF. Raises ``ValueError`` outside the file."""
        return range_text(self._get_lines(), start, end)

    def _full_registry(self) -> Registry:
        if self._registry is None:
            with self._lock:
                if self._registry is None:
                    if self._registry_loader is None:
                        raise _IndexBroken("the registry is not available to resolve an entry")
                    try:
                        self._registry = self._registry_loader()
                    except RegistryError as exc:
                        first = exc.diagnostics[0] if exc.diagnostics else "unknown error"
                        raise _IndexBroken(f"the registry does not parse ({first})") from None
        return self._registry

    def _fragment(self, kind: str, entry_id: str) -> tuple[int, int, str, Any, str]:
        """``(start, end, text, value, resolved_from)`` of an entry's range.
        Raises :class:`_IndexBroken` when the range does not hold the entry."""
        key = (kind, entry_id)
        cached = self._fragment_cache.get(key)
        if cached is not None:
            if isinstance(cached, _IndexBroken):
                raise cached
            return cached
        try:
            result = self._read_fragment(kind, entry_id)
        except _IndexBroken as exc:
            self._fragment_cache[key] = exc
            raise
        self._fragment_cache[key] = result
        return result

    def _read_fragment(self, kind: str, entry_id: str) -> tuple[int, int, str, Any, str]:
        rows = {"skill": self._skill_rows, "composition": self._comp_rows, "rule": self._rule_rows}[kind]
        start, end = rows[entry_id]
        lines = self._get_lines()
        where = f"{self._display} {_lines(start, end)}"
        if end > len(lines):
            raise _IndexBroken(f"the index puts {kind} {_q(entry_id)} at {where}, beyond the end of the registry "
                               f"({len(lines)} lines)")
        text = self.range_text(start, end)
        if not holds_key(lines[start - 1], entry_id):
            head = lines[start - 1].strip()
            raise _IndexBroken(f"line {start} of {self._display} should hold the key `{entry_id}:` "
                               f"but holds {_q(head[:60])}")
        try:
            value = parse_fragment(text, start, self._display)
        except RegistryError:
            # not self-contained (an alias whose anchor lies outside the range): resolve from the registry
            reg = self._full_registry()
            entry = {"skill": reg.skills, "composition": reg.compositions, "rule": reg.rules}[kind].get(entry_id)
            if entry is None:
                raise _IndexBroken(f"{kind} {_q(entry_id)} is not in the registry") from None
            if kind == "skill":
                value = {"path": entry.path, "priority": entry.priority, "status": entry.status}
            elif kind == "composition":
                value = list(entry.members)
            else:
                value = {"forced": "true" if entry.forced else "false"}
            return start, end, text, value, "registry"
        if not isinstance(value, dict) or list(value) != [entry_id]:
            raise _IndexBroken(f"{where} of the registry do not hold {kind} {_q(entry_id)} alone")
        return start, end, text, value[entry_id], "range"

    def _expand(self, kind: str, entry_id: str) -> Expansion:
        start, end, text, value, resolved = self._fragment(kind, entry_id)
        if kind == "skill":
            if not isinstance(value, dict):
                raise _IndexBroken(f"the range of skill {_q(entry_id)} does not hold a mapping")
            status = value.get("status", "active")
            return Expansion(entry_id, "skill", start, end, text,
                             _str_or_none(value.get("path")), _str_or_none(value.get("priority")),
                             _str_or_none(status) or "active", resolved)
        return Expansion(entry_id, "composition", start, end, text, None, None, None, resolved)

    def _composition_members(self) -> dict[str, tuple[str, ...]]:
        if self._members is None:
            members: dict[str, tuple[str, ...]] = {}
            for cid in sorted(self._comp_rows):
                _, _, _, value, _ = self._fragment("composition", cid)
                if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
                    raise _IndexBroken(f"the range of composition {_q(cid)} does not hold a list of skill ids")
                members[cid] = tuple(value)
            self._members = members
        return self._members

    def _rule_forced(self, rule_id: str) -> bool:
        if not self._use_index:
            assert self._registry is not None
            return self._registry.rules[rule_id].forced
        _, _, _, value, _ = self._fragment("rule", rule_id)
        if not isinstance(value, dict):
            raise _IndexBroken(f"the range of rule {_q(rule_id)} does not hold a mapping")
        return str(value.get("forced", "false")) in ("true", "True", "TRUE")

    def skill_status(self, skill_id: str) -> str | None:
        """Canonical status of a skill (``active`` | ``deprecated`` |
        ``disabled``), read from its range or the registry; None when the id
        is unknown or its range cannot be read."""
        if skill_id not in self._skill_rows:
            return None
        if not self._use_index:
            assert self._registry is not None
            return self._registry.skills[skill_id].status
        try:
            return self._expand("skill", skill_id).status
        except _IndexBroken:
            return None

    # ------------------------------------------------------------------ routing
    def route(self, task: str) -> Decision:
        """The decision for ``task`` (any string: any Unicode, control
        characters, NUL, 100,000 characters). Never raises: an internal
        failure gives a ``full`` fallback whose message names it."""
        if not isinstance(task, str):
            task = "" if task is None else str(task)
        try:
            return self._route(task)
        except Exception as exc:  # pragma: no cover - a safety net, the tests drive arbitrary input
            return self._decision(prepare(""), task, "full", "no_match",
                                  f"Fell back to the full registry: the router failed on this task "
                                  f"({type(exc).__name__}: {exc})", freshness_state=self.freshness.state)

    def _explicit(self, p: PreparedTask) -> list[tuple[str, str, tuple[int, int]]]:
        out = []
        seen = set()
        if "/" not in p.norm and "$" not in p.norm:
            return out
        for m in _EXPLICIT_RE.finditer(p.norm):
            ident = m.group(1)
            if ident in seen or not ID_RE.match(ident):
                continue
            if ident in self._skill_rows:
                kind = "skill"
            elif ident in self._comp_rows:
                kind = "composition"
            else:
                continue
            seen.add(ident)
            out.append((ident, kind, p.original_span(m.start(), m.end())))
        return out

    def _decision(self, p: PreparedTask, task: str, mode: str, reason: str, message: str, *,
                  skills: tuple[str, ...] = (), composition: str | None = None,
                  matches: tuple[Match, ...] = (), near: tuple[Match, ...] = (),
                  expansions: tuple[Expansion, ...] = (), dropped: tuple[tuple[str, str], ...] = (),
                  rule: str | None = None, high_risk: tuple[str, ...] = (),
                  rule_matches: tuple[Match, ...] = (), freshness_state: str | None = None) -> Decision:
        if p.truncated:
            message += (f" (skills were matched on the first {MAX_TASK_CHARS:,} of {len(task):,} characters of the "
                        f"task; forced rules and high-risk terms on all of it)")
        payload = self.registry_chars if mode == "full" else sum(len(e.text) for e in expansions)
        return Decision(
            task=task, mode=mode, reason=reason, message=message,
            skills=skills if mode != "full" else (), composition=composition if mode != "full" else None,
            matches=matches, near_misses=near, expansions=expansions if mode != "full" else (),
            dropped=dropped, rule=rule, high_risk=high_risk, payload_chars=payload,
            freshness=freshness_state or self.freshness.state,
            source_sha256=self.freshness.registry_sha256, index_sha256=self.index_sha256,
            matcher_version=MATCHER_VERSION, rule_matches=rule_matches, truncated=p.truncated,
        )

    def _evidence(self, p: PreparedTask):
        found = self._skills.match(p, self.threshold, MAX_NEAR_MISSES)
        order = sorted(found.values(), key=lambda m: (-m.score, m.id))
        matches = tuple(m for m in order if m.score >= self.threshold)
        near = tuple(m for m in order if m.score < self.threshold)[:MAX_NEAR_MISSES]
        rules = self._rules.match(p, self.threshold, 0)
        risks = self._risk.match(p, self.threshold, 0)
        if p.truncated and (self._rules.triggers or self._risk.triggers):
            # safety checks read the WHOLE task: a forced rule or a high-risk term
            # after the first MAX_TASK_CHARS characters still forces the fallback
            for q in prepare_tail(p.original):
                for found, matcher in ((rules, self._rules), (risks, self._risk)):
                    if not matcher.triggers:
                        continue
                    for owner, m in matcher.match(q, self.threshold, 0).items():
                        old = found.get(owner)
                        if old is None or (-m.score, m.span[0]) < (-old.score, old.span[0]):
                            found[owner] = m
        rule_hits = sorted((m for m in rules.values() if m.score >= self.threshold), key=lambda m: (-m.score, m.id))
        risk_hits = sorted((m for m in risks.values() if m.score >= self.threshold), key=lambda m: (m.span[0], m.id))
        return matches, near, rule_hits, risk_hits

    def _route(self, task: str) -> Decision:
        p = prepare(task)
        matches, near, rule_hits, risk_hits = self._evidence(p)
        high_risk = tuple(m.id for m in risk_hits)
        rule_matches = tuple(rule_hits) + tuple(risk_hits)
        common = dict(matches=matches, near=near, high_risk=high_risk, rule_matches=rule_matches)

        # 1. freshness
        if not self._use_index:
            state = self.freshness.state if self.freshness.state != "fresh" else "invalid"
            forced = next((m.id for m in rule_hits if self._rule_forced(m.id)), None)
            dropped = tuple((m.id, "disabled") for m in matches
                            if self._registry is not None and self._registry.skills[m.id].status == "disabled")
            detail = self.freshness.message
            for advice in (": run `routelens build`", "; run `routelens build`"):
                if detail.endswith(advice):  # said once, at the end of the sentence
                    detail = detail[: -len(advice)]
            msg = f"Fell back to the full registry: {_index_words(state)} ({detail}); run `routelens build`"
            msg += self._candidate_note(matches, near)
            return self._decision(p, task, "full", f"index_{state}", msg, rule=forced, dropped=dropped, **common)

        try:
            return self._route_indexed(p, task, matches, near, rule_hits, risk_hits, common)
        except _IndexBroken as exc:
            msg = (f"Fell back to the full registry: the index is invalid: {exc}; run `routelens build`"
                   + self._candidate_note(matches, near))
            return self._decision(p, task, "full", "index_invalid", msg, freshness_state="invalid", **common)

    def _candidate_note(self, matches: tuple[Match, ...], near: tuple[Match, ...]) -> str:
        if matches:
            m = matches[0]
            return f". Best candidate: {_q(m.id)} scored {_fmt(m.score)} via {_q(m.trigger)}"
        if near:
            m = near[0]
            return f". No candidate reached the threshold {_fmt(self.threshold)} (best: {_q(m.id)} {_fmt(m.score)})"
        return ""

    def _route_indexed(self, p, task, matches, near, rule_hits, risk_hits, common) -> Decision:
        # 2. explicit ids
        explicit = self._explicit(p)
        if explicit:
            return self._route_explicit(p, task, explicit, common)

        # 3. forced rules, high-risk terms
        for m in rule_hits:
            if self._rule_forced(m.id):
                msg = (f"Fell back to the full registry: forced rule {_q(m.id)} matched {_q(m.trigger)} "
                       f"in the task (score {_fmt(m.score)})")
                return self._decision(p, task, "full", "forced_rule", msg, rule=m.id, **common)
        if risk_hits:
            m = risk_hits[0]
            more = f" (and {len(risk_hits) - 1} more)" if len(risk_hits) > 1 else ""
            msg = f"Fell back to the full registry: the high-risk term {_q(m.id)} appears in the task{more}"
            return self._decision(p, task, "full", "high_risk", msg, **common)
        rule_note = ""
        if rule_hits:
            rule_note = "; rule " + ", ".join(_q(m.id) for m in rule_hits) + " applies"

        # 4. no candidate
        if not matches:
            if near:
                m = near[0]
                msg = (f"Fell back to the full registry: no skill reached the threshold {_fmt(self.threshold)} "
                       f"(best: {_q(m.id)} scored {_fmt(m.score)} via {_q(m.trigger)})")
            else:
                msg = "Fell back to the full registry: no skill trigger matches the task"
            return self._decision(p, task, "full", "no_match", msg + rule_note, **common)

        # 5. drop disabled candidates (status read from the canonical range)
        expansions = {m.id: self._expand("skill", m.id) for m in matches}
        dropped = tuple((m.id, "disabled") for m in matches if expansions[m.id].status == "disabled")
        live = tuple(m for m in matches if expansions[m.id].status != "disabled")
        if not live:
            ids = " and ".join(_q(d[0]) for d in dropped)
            msg = (f"Fell back to the full registry: the only candidate{'s' if len(dropped) > 1 else ''} {ids} "
                   f"{'are' if len(dropped) > 1 else 'is'} disabled")
            return self._decision(p, task, "full", "disabled_skill", msg + rule_note, dropped=dropped, **common)
        drop_note = ""
        if dropped:
            drop_note = "; dropped disabled " + ", ".join(_q(d[0]) for d in dropped)

        # 6./7. compositions
        if len(live) >= 2:
            cand = {m.id for m in live}
            members = self._composition_members()
            holding = [c for c, mem in members.items() if cand <= set(mem)]
            if holding:
                smallest = min(len(members[c]) for c in holding)
                best = sorted(c for c in holding if len(members[c]) == smallest)
                cid = best[0]
                sets = {frozenset(members[c]) for c in best}
                if len(sets) == 1:
                    return self._select_composition(p, task, cid, members[cid], live, dropped, common,
                                                    rule_note + drop_note)
                msg = (f"Fell back to the full registry: the candidates belong to compositions "
                       f"{_q(best[0])} and {_q(best[1])}, which do not contain each other")
                return self._decision(p, task, "full", "composition_conflict", msg + rule_note + drop_note,
                                      dropped=dropped, **common)
            touched = sorted(c for c, mem in members.items() if cand & set(mem))
            for i, a in enumerate(touched):
                for b in touched[i + 1:]:
                    sa, sb = set(members[a]), set(members[b])
                    # spread: each holds a candidate the other lacks, and neither contains the other
                    if not (sa <= sb or sb <= sa) and (cand & sa) - sb and (cand & sb) - sa:
                        msg = (f"Fell back to the full registry: the candidates are spread over compositions "
                               f"{_q(a)} and {_q(b)}, which do not contain each other")
                        return self._decision(p, task, "full", "composition_conflict",
                                              msg + rule_note + drop_note, dropped=dropped, **common)

        # 8. ambiguity
        top = live[0]
        if len(live) >= 2 and top.score - live[1].score < self.margin:
            second = live[1]
            msg = (f"Fell back to the full registry: {_q(top.id)} and {_q(second.id)} scored "
                   f"{_fmt(top.score)} and {_fmt(second.score)}, closer than the margin {_fmt(self.margin)}")
            return self._decision(p, task, "full", "ambiguous", msg + rule_note + drop_note, dropped=dropped, **common)

        # 9. clear candidate
        exp = expansions[top.id]
        msg = (f"Routed to {_q(top.id)}: trigger {_q(top.trigger)} scored {_fmt(top.score)} "
               f"(threshold {_fmt(self.threshold)}); expanded from {self._display} {_lines(exp.source_start, exp.source_end)}")
        if exp.resolved_from == "registry":
            msg += " (its range is not self-contained, so it was resolved from the whole registry)"
        if exp.status == "deprecated":
            msg += "; note: this skill is deprecated"
        return self._decision(p, task, "index", "clear_candidate", msg + rule_note + drop_note,
                              skills=(top.id,), expansions=(exp,), dropped=dropped, **common)

    def _select_composition(self, p, task, cid, members, live, dropped, common, note) -> Decision:
        comp_exp = self._expand("composition", cid)
        exps = [comp_exp]
        skills = []
        dropped = list(dropped)
        for sid in members:
            if sid not in self._skill_rows:
                raise _IndexBroken(f"composition {_q(cid)} names {_q(sid)}, which is not in the index")
            e = self._expand("skill", sid)
            if e.status == "disabled":
                if (sid, "disabled") not in dropped:
                    dropped.append((sid, "disabled"))
                continue
            exps.append(e)
            skills.append(sid)
        names = " and ".join(_q(m.id) for m in live)
        msg = (f"Routed to composition {_q(cid)}: the candidates {names} are all members of it; "
               f"expanded from {self._display} {_lines(comp_exp.source_start, comp_exp.source_end)} and its members' ranges")
        if any(e.resolved_from == "registry" for e in exps):
            msg += " (a range is not self-contained, so it was resolved from the whole registry)"
        return self._decision(p, task, "index", "clear_candidate", msg + note, skills=tuple(skills),
                              composition=cid, expansions=tuple(exps), dropped=tuple(dropped), **common)

    def _route_explicit(self, p, task, explicit, common) -> Decision:
        skills: list[str] = []
        exps: list[Expansion] = []
        dropped: list[tuple[str, str]] = []
        comps = [e for e in explicit if e[1] == "composition"]
        composition = comps[0][0] if len(explicit) == 1 and comps else None
        evidence = []
        for ident, kind, span in explicit:
            evidence.append(Match(ident, 100.0, task[span[0]:span[1]], span))
            if kind == "composition":
                exps.append(self._expand("composition", ident))
                member_ids = self._composition_members()[ident]
            else:
                member_ids = (ident,)
            for sid in member_ids:
                if sid in skills or any(d[0] == sid for d in dropped):
                    continue
                if sid not in self._skill_rows:
                    raise _IndexBroken(f"composition {_q(ident)} names {_q(sid)}, which is not in the index")
                e = self._expand("skill", sid)
                if e.status == "disabled":
                    dropped.append((sid, "disabled"))
                    continue
                skills.append(sid)
                exps.append(e)
        named = ", ".join(task[s[0]:s[1]] for _, _, s in explicit)
        matches = tuple(evidence) + tuple(m for m in common["matches"] if m.id not in {e.id for e in evidence})
        common = dict(common, matches=matches)
        if not skills:
            ids = " and ".join(_q(d[0]) for d in dropped)
            msg = f"Fell back to the full registry: the task names {named}, but {ids} {'is' if len(dropped) == 1 else 'are'} disabled"
            return self._decision(p, task, "full", "disabled_skill", msg, dropped=tuple(dropped), **common)
        msg = f"Fast route: the task names {named} explicitly"
        if dropped:
            msg += "; dropped disabled " + ", ".join(_q(d[0]) for d in dropped)
        return self._decision(p, task, "fast", "explicit", msg, skills=tuple(skills), composition=composition,
                              expansions=tuple(exps), dropped=tuple(dropped), **common)

    # ------------------------------------------------------------------ explain
    def explain(self, task: str, skill_id: str) -> Explanation:
        """Why ``skill_id`` was or was not chosen for ``task``: its best
        trigger and score against the threshold, and whether staleness, an
        explicit id, a forced rule, a high-risk term, ambiguity, a composition
        conflict or its status stopped it. An unknown id is said so (with
        the closest known id). Never raises."""
        d = self.route(task)
        known = skill_id in self._skill_rows
        reasons: list[str] = []
        if not known:
            hint = ""
            try:
                from rapidfuzz import fuzz, process

                # only a close suggestion (plain ratio >= 70): "nope" must not suggest an unrelated id
                best = process.extractOne(skill_id, sorted(self._skill_rows), scorer=fuzz.ratio, score_cutoff=70)
                if best and skill_id:
                    hint = f" Did you mean {_q(best[0])}?"
            except Exception:  # pragma: no cover
                pass
            if not skill_id.strip():
                reasons.append("No skill id was given: name one of the registry's skills.")
            elif skill_id in self._comp_rows:
                reasons.append(f"{_q(skill_id)} is a composition, not a skill; explain one of its members instead.")
            else:
                reasons.append(f"There is no skill {_q(skill_id)} in {self._display} "
                               f"({len(self._skill_rows)} skills).{hint}")
            reasons.append(f"The decision for this task: {d.message}.")
            return Explanation(task, skill_id, False, False, None, self.threshold, None, tuple(reasons), d)
        p = prepare(task)
        best = self._skills.score_owner(p, skill_id)
        status = self.skill_status(skill_id)
        selected = skill_id in d.skills
        thr = _fmt(self.threshold)
        if best is None:
            reasons.append(f"None of the triggers of {_q(skill_id)} appears in the task, even approximately "
                           f"(the threshold is {thr}).")
        else:
            where = task[best.span[0]:best.span[1]]
            rel = "at or above" if best.score >= self.threshold else "below"
            reasons.append(f"Its best trigger {_q(best.trigger)} scored {_fmt(best.score)} on {_q(where)} "
                           f"(characters {best.span[0]}-{best.span[1]}), {rel} the threshold {thr}.")
        if status in ("disabled", "deprecated"):
            reasons.append(f"Its status is {status}" + (": a disabled skill is never selected." if status == "disabled"
                                                        else ": it can still be selected."))
        if selected:
            how = f" as a member of composition {_q(d.composition)}" if d.composition else ""
            reasons.append(f"It was selected{how} (mode {d.mode}, reason {d.reason}).")
        else:
            reasons.append(self._why_not(d, skill_id, best, status))
        reasons.append(f"The decision: {d.message}.")
        return Explanation(task, skill_id, True, selected, best, self.threshold, status, tuple(reasons), d)

    def _why_not(self, d: Decision, skill_id: str, best: Match | None, status: str | None) -> str:
        above = best is not None and best.score >= self.threshold
        r = d.reason
        if r in ("index_missing", "index_stale", "index_invalid"):
            return (f"It was not selected because {_index_words(r[6:])}, so the router fell back to the full "
                    f"registry whatever the scores.")
        if r == "explicit":
            return "It was not selected because the task names other skills explicitly (fast route)."
        if r == "forced_rule":
            return f"It was not selected because the forced rule {_q(d.rule or '')} matched: the task goes to the full registry."
        if r == "high_risk":
            return (f"It was not selected because the task holds the high-risk term {_q(d.high_risk[0])}: "
                    "it goes to the full registry.")
        if not above:
            return "It was not selected because its score is below the threshold."
        if status == "disabled":
            return "It was not selected because it is disabled (dropped from the candidates)."
        if r == "ambiguous":
            return f"It was not selected because the choice was ambiguous: {d.message.split(': ', 1)[-1]}."
        if r == "composition_conflict":
            return f"It was not selected because of a composition conflict: {d.message.split(': ', 1)[-1]}."
        if d.skills:
            top = d.matches[0] if d.matches else None
            if top is not None and top.id != skill_id:
                return (f"It was not selected because {_q(top.id)} scored higher ({_fmt(top.score)} vs "
                        f"{_fmt(best.score if best else 0)}), beyond the ambiguity margin {_fmt(self.margin)}.")
        return f"It was not selected (reason {r})."


def _lines(start: int, end: int) -> str:
    return f"line {start}" if start == end else f"lines {start}-{end}"


def _index_words(state: str) -> str:
    return {"missing": "the compact index is missing", "stale": "the compact index is stale",
            "invalid": "the compact index is invalid"}.get(state, f"the compact index is {state}")


def _str_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None


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
    """Route one task (convenience). ``registry_path`` defaults to the bundled
    registry (:func:`routelens.paths.bundled_registry`), ``index_path`` to
    ``generated/routing.min.json`` beside it. Routers are cached per
    (paths, file stats). Raises :class:`RegistryError` only when the registry
    cannot be read, or must be parsed and is broken."""
    rp = Path(registry_path) if registry_path is not None else bundled_registry()
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
