"""Candidates whose evidence is the same are kept and decided as groups
(issue 14, batch round 8: :class:`~routelens.routing.candidates.CandidateList`,
:class:`~routelens.routing.candidates.LiveGroups`): every decision, and what
it says of every candidate (``selected``, ``why``), must be what the same
candidates give read one by one. Compared here on registries whose trigger
words are shared by many skills, with disabled skills, compositions,
``not_when`` phrases, domain terms, phrases and rare words, and decided
twice under two margins (as ``routelens tune`` does)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from routelens.registry import parse_registry
from routelens.routing.candidates import CandidateList, MatchList
from routelens.routing.policy import Evidence
from routelens.routing.router import Router

EVERYDAY = "review deploy table model report support summary change team order".split()
RARE = "kubectl postmortem sqlfluff changelog".split()
JA = ["個人情報", "議事録", "予約"]
TWIN = "terraform grafana kafka helm".split()  # the triggers of skills made to share them


def _registry(rng: random.Random, n: int) -> str:
    out = ["schema_version: 1", "skills:"]
    ids = [f"{rng.choice(EVERYDAY)}-{i:03d}" for i in range(n)]
    for sid in ids:
        out += [f"  {sid}:", f"    path: skills/{sid}.md", "    priority: P2"]
        if rng.random() < 0.1:
            out.append("    status: disabled")
        trigs = set()
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            if r < 0.5:
                trigs.add(rng.choice(EVERYDAY))
            elif r < 0.7:
                trigs.add(" ".join(rng.sample(EVERYDAY, 2)))
            elif r < 0.85:
                trigs.add(rng.choice(RARE))
            else:
                trigs.add(rng.choice(JA))
        out.append("    triggers:")
        out += [f"      - {t}" for t in sorted(trigs)]
        if rng.random() < 0.05:
            out += ["    not_when:", f"      - {rng.choice(EVERYDAY)} {rng.choice(EVERYDAY)}"]
        if rng.random() < 0.2:
            out.append(f"    description: {' '.join(rng.sample(EVERYDAY + RARE, 3))} work")
    # skills sharing their triggers, some of them in one composition (a group's members chosen with it)
    for i, word in enumerate(TWIN + EVERYDAY[:3]):
        for j in range(4):
            sid = f"{word}-twin-{j}"
            out += [f"  {sid}:", f"    path: skills/{sid}.md", "    priority: P2", "    triggers:", f"      - {word}"]
            if j == 3 and i % 2:
                out.append("    status: disabled")
            ids.append(sid)
    out.append("composition:")
    for i in range(n // 6):
        members = rng.sample(ids, rng.randint(2, 3))
        out.append(f"  combo-{i:02d}: [{', '.join(members)}]")
    for word in TWIN[:2] + EVERYDAY[:2]:
        out.append(f"  {word}-pair: [{word}-twin-0, {word}-twin-1, {word}-twin-2, {word}-twin-3]")
    out.append(f"  {TWIN[2]}-{TWIN[3]}: [{TWIN[2]}-twin-0, {TWIN[2]}-twin-1, {TWIN[3]}-twin-0, {TWIN[3]}-twin-1]")
    out += ["routing:", "  high_risk: [drop table]"]
    return "\n".join(out) + "\n"


def _task(rng: random.Random) -> str:
    words = rng.sample(EVERYDAY + RARE, rng.randint(1, 4))
    if rng.random() < 0.3:
        words.append(rng.choice(JA))
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words) + 1), rng.choice(["and", "or", ", then", "please", "not the"]))
    r = rng.random()
    if r < 0.05:
        words.append(f"/{rng.choice(TWIN)}-twin-{rng.randrange(4)}")  # named explicitly: fast
    elif r < 0.08:
        words.append("drop table")  # high-risk: a step before the evidence model decides
    elif r < 0.3:
        words = rng.sample(TWIN, rng.randint(1, 2))  # one composition, two, or none holding them
        words.insert(1, rng.choice(["please", "and", ", then", "or"]))
    return " ".join(words)


def _one_by_one(ev: Evidence) -> Evidence:
    """The same evidence with every candidate a copy of its own (no groups)."""
    return Evidence(ev.task, tuple(ev.matches), ev.near_misses, ev.rule_hits, ev.risk_hits, ev.explicit,
                    ev.truncated, ev.freshness, tuple(copy.copy(c) for c in ev.candidates), ev.steering,
                    ev.destructive, ev.unknown_ids, ev.clause_breaks, ev.unknown)


def _said(d) -> tuple:
    return (json.dumps(d.to_dict(), sort_keys=True), [(c.id, c.selected, c.why) for c in d.evidence], d.named())


@pytest.mark.parametrize("seed", range(5))
def test_groups_decide_as_the_candidates_one_by_one(seed):
    rng = random.Random(seed)
    r = Router.from_registry(parse_registry(_registry(rng, 160).encode(), "skills.yaml"))
    grouped = 0
    for _ in range(80):
        task = _task(rng)
        ev = r.evidence(task)
        plain = _one_by_one(ev)
        if isinstance(ev.candidates, CandidateList):
            grouped += sum(1 for _ in ev.candidates.groups())
        for margin in (r.settings.ambiguity_margin, 0.0):  # decided twice, as tune does
            settings = r.settings.__class__(**{**r.settings.__dict__, "ambiguity_margin": margin})
            assert _said(r.decision_for(ev, settings)) == _said(r.decision_for(plain, settings)), task
    assert grouped > 50  # the registries do make groups


def test_a_group_reads_like_its_candidates():
    rng = random.Random(7)
    r = Router.from_registry(parse_registry(_registry(rng, 120).encode(), "skills.yaml"))
    d = r.route("please review the table")
    cl = d.evidence
    assert isinstance(cl, CandidateList) and isinstance(d.matches, MatchList)
    assert any(len(ids) > 1 for _, _, ids in cl.groups())
    assert [c.id for c in cl] == [m.id for m in d.matches] == list(cl.ids)
    assert cl[0] is cl[0] and cl[-1] == list(cl)[-1] and cl[1:3] == tuple(list(cl)[1:3])
    assert d.matches == tuple(d.matches) and d.matches + () == tuple(d.matches)
    members = [c for _, _, ids in cl.groups() for c in cl if c.id in ids]
    assert all(c.pieces is members[0].pieces for c in members if c.score == members[0].score
               and c.weight == members[0].weight and c.tier == members[0].tier) or members
