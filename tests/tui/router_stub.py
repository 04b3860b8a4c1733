"""A tiny stand-in for ``routelens.router`` used only until the real router
is committed (see conftest.py). Exact substring matching after NFKC +
casefold; decision order of spec section 6, simplified. DELETE when
``src/routelens/router.py`` lands."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

from routelens.index import Freshness, freshness as _freshness
from routelens.registry import Registry, load_registry


@dataclass(frozen=True)
class Match:
    id: str
    score: float
    trigger: str
    span: tuple[int, int]


@dataclass(frozen=True)
class Expansion:
    id: str
    kind: str
    source_start: int
    source_end: int
    text: str
    path: str | None
    priority: str | None
    status: str | None
    resolved_from: str


@dataclass(frozen=True)
class Decision:
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
    matcher_version: str = "stub-1"

    def to_dict(self) -> dict:
        return json.loads(json.dumps(asdict(self), ensure_ascii=False))


@dataclass(frozen=True)
class Explanation:
    text: str

    def to_dict(self) -> dict:
        return {"text": self.text}


def _norm(s: str) -> str:
    return unicodedata.normalize("NFKC", s).casefold()


def _find(trigger: str, task: str) -> tuple[int, int] | None:
    t, n = _norm(trigger), _norm(task)
    if not t:
        return None
    if re.fullmatch(r"[0-9a-z .\-]+", t):
        m = re.search(r"(?<![0-9a-z])" + re.escape(t) + r"(?![0-9a-z])", n)
        return (m.start(), m.end()) if m else None
    i = n.find(t)
    return (i, i + len(t)) if i >= 0 else None


class Router:
    def __init__(self, reg: Registry, fresh: Freshness):
        self.registry = reg
        self.freshness = fresh

    @classmethod
    def from_paths(cls, registry_path, index_path) -> "Router":
        reg = load_registry(registry_path, Path(registry_path).name)
        return cls(reg, _freshness(registry_path, index_path))

    @classmethod
    def from_registry(cls, reg, index=None) -> "Router":
        st = "fresh" if index is not None else "missing"
        return cls(reg, Freshness(st, st, reg.source_sha256, index.source_sha256 if index else None, index))

    def _matches(self, task):
        out = []
        for s in self.registry.skills.values():
            best = None
            for trig in s.triggers:
                sp = _find(trig, task)
                if sp and (best is None or len(trig) > len(best.trigger)):
                    best = Match(s.id, 100.0, trig, sp)
            if best:
                out.append(best)
        return tuple(sorted(out, key=lambda m: (-m.score, m.id)))

    def _exp(self, sid, kind="skill"):
        e = self.registry.entry(sid)
        return Expansion(sid, kind, e.source_start, e.source_end, self.registry.range_text(e.source_start, e.source_end),
                         getattr(e, "path", None), getattr(e, "priority", None), getattr(e, "status", None), "range")

    def route(self, task: str) -> Decision:
        reg = self.registry
        fr = self.freshness
        matches = self._matches(task)
        base = dict(task=task, matches=matches, near_misses=(), dropped=(), rule=None, high_risk=(),
                    freshness=fr.state, source_sha256=fr.registry_sha256, index_sha256=fr.index_sha256,
                    composition=None, expansions=())
        full = len(reg.text)

        def dec(mode, reason, message, skills=(), **kw):
            d = dict(base)
            d.update(kw)
            exps = d.pop("expansions") or tuple(self._exp(s) for s in skills)
            pay = full if mode == "full" else sum(len(x.text) for x in exps)
            return Decision(mode=mode, reason=reason, message=message, skills=tuple(skills), expansions=exps,
                            payload_chars=pay, **d)

        if fr.state != "fresh":
            return dec("full", f"index_{fr.state}", f"Fell back to the full registry: the index is {fr.state}.")
        m = re.search(r"(?:^|\s)[/$]([a-z0-9][a-z0-9-]*)", task)
        if m and (m.group(1) in reg.skills or m.group(1) in reg.compositions):
            i = m.group(1)
            if i in reg.compositions:
                return dec("fast", "explicit", f"Named explicitly: {i}.", reg.compositions[i].members, composition=i)
            return dec("fast", "explicit", f"Named explicitly: {i}.", (i,))
        for r in reg.rules.values():
            if r.forced and any(_find(t, task) for t in r.triggers):
                return dec("full", "forced_rule", f"Forced rule {r.id} matched: read the full registry.", rule=r.id)
        hr = tuple(t for t in reg.routing.high_risk if _find(t, task))
        if hr:
            return dec("full", "high_risk", f"High-risk term {hr[0]!r}: read the full registry.", high_risk=hr)
        if not matches:
            return dec("full", "no_match", "No trigger scored above the threshold: read the full registry.")
        ids = {x.id for x in matches}
        for c in reg.compositions.values():
            if set(c.members) == ids and len(ids) > 1:
                return dec("index", "clear_candidate", f"Composition {c.id}: all its members matched.", c.members,
                           composition=c.id)
        if len(matches) > 1:
            return dec("full", "ambiguous",
                       f'Fell back to the full registry: "{matches[0].id}" and "{matches[1].id}" scored '
                       f"{matches[0].score:g} and {matches[1].score:g}, closer than the margin "
                       f"{reg.routing.ambiguity_margin:g}")
        return dec("index", "clear_candidate", f"Clear candidate {matches[0].id}.", (matches[0].id,))

    def explain(self, task: str, skill_id: str) -> Explanation:
        s = self.registry.skills.get(skill_id)
        if s is None:
            return Explanation(f"{skill_id} is not a skill of this registry.")
        hits = [t for t in s.triggers if _find(t, task)]
        if hits:
            return Explanation(f"{skill_id} matched on {hits[0]!r} (score 100).")
        return Explanation(f"{skill_id}: none of its triggers {list(s.triggers)} appear in the task.")
