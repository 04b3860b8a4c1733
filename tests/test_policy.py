"""The decision order (docs/formats.md §6) as a function of typed evidence:
``decide`` is driven here with hand-made Evidence, no matcher involved."""

from __future__ import annotations

import pytest

from routelens.artifacts.freshness import Freshness, built_in_memory
from routelens.artifacts.index_file import index_bytes, parse_index
from routelens.registry import parse_registry
from routelens.routing.entries import Entries
from routelens.routing.evidence import Candidate, Piece
from routelens.routing.matching import Match
from routelens.routing.policy import Evidence, ExplicitId, decide

REGISTRY = """\
schema_version: 1
skills:
  release:
    path: skills/release.md
    priority: P0
    triggers: [cut a release]
  release-notes:
    path: skills/release-notes.md
    priority: P1
    triggers: [release notes]
  legacy:
    path: skills/legacy.md
    priority: P2
    status: disabled
    triggers: [capistrano]
composition:
  release-pair: [release, release-notes]
rules:
  production-change:
    forced: true
    triggers: [production deploy]
routing:
  threshold: 85
  ambiguity_margin: 5
"""


@pytest.fixture(scope="module")
def reg():
    return parse_registry(REGISTRY.encode(), "skills.yaml")


@pytest.fixture(scope="module")
def indexed(reg) -> Entries:
    return Entries.from_index(reg.text, "skills.yaml", parse_index(index_bytes(reg)), reg)


def strong(match: Match, start: int) -> Candidate:
    """A candidate backed by one phrase trigger (docs/formats.md §6.10), its span at ``start``."""
    span = (start, start + 4)
    return Candidate(match.id, match.score, (Piece("trigger", "task", span, 2, f'the phrase "{match.trigger}"',
                                                   match.trigger),), weight=2, supported=True, spans=(span,),
                     tier="phrase")


def ev(reg, *, matches=(), near=(), rules=(), risks=(), explicit=(), fresh=None, candidates=None) -> Evidence:
    fresh = fresh or built_in_memory(parse_index(index_bytes(reg)))
    if candidates is None:
        candidates = [strong(x, 10 * i) for i, x in enumerate(matches)]
    return Evidence("task", tuple(matches), tuple(near), tuple(rules), tuple(risks), tuple(explicit), False, fresh,
                    tuple(candidates))


def m(owner: str, score: float, trigger: str = "t") -> Match:
    return Match(owner, score, trigger, (0, 4))


def test_a_stale_index_falls_back_and_still_names_the_forced_rule_and_disabled_candidates(reg):
    stale = Freshness("stale", "the index was built from registry aaa, the registry is now bbb", "b" * 64, "a" * 64)
    v = decide(ev(reg, matches=[m("legacy", 100)], rules=[m("production-change", 100)], fresh=stale),
               Entries.from_registry(reg), reg.routing)
    assert (v.mode, v.reason, v.rule, v.dropped) == ("full", "index_stale", "production-change", (("legacy", "disabled"),))
    assert v.message == ("Fell back to the full registry: the compact index is stale (the index was built from "
                         "registry aaa, the registry is now bbb); run `routelens build`. Best candidate: \"legacy\" "
                         "scored 100 via \"t\"")


def test_a_forced_rule_comes_before_an_explicit_id(reg, indexed):
    # safety first (docs/formats.md §6.3): "/release ... production deploy" goes to the full registry
    v = decide(ev(reg, rules=[m("production-change", 100)], explicit=[ExplicitId("release", "skill", (0, 4))]),
               indexed, reg.routing)
    assert (v.mode, v.reason, v.skills, v.rule) == ("full", "forced_rule", (), "production-change")


def test_an_explicit_id_routes_fast(reg, indexed):
    v = decide(ev(reg, explicit=[ExplicitId("release", "skill", (0, 4))]), indexed, reg.routing)
    assert (v.mode, v.reason, v.skills) == ("fast", "explicit", ("release",))
    assert [x.id for x in v.matches] == ["release"]


def test_steering_comes_before_an_explicit_id(reg, indexed):
    e = ev(reg, explicit=[ExplicitId("release", "skill", (8, 16))])
    e.steering = ((0, 7, "SYSTEM:"),)
    v = decide(e, indexed, reg.routing)
    assert (v.mode, v.reason, v.skills) == ("full", "suspicious_input", ())
    assert v.message == ('Fell back to the full registry: the task holds text that tries to steer the router '
                         '("SYSTEM:"); ids and modes named in it are not routes')


def test_a_destructive_intent_beats_a_clear_candidate(reg, indexed):
    e = ev(reg, matches=[m("release", 100)])
    e.destructive = ((0, 13, "delete every"),)
    v = decide(e, indexed, reg.routing)
    assert (v.mode, v.reason, v.message) == (
        "full", "high_risk", 'Fell back to the full registry: the task holds the destructive intent "delete every"')


def test_a_candidate_with_weak_evidence_falls_back(reg, indexed):
    weak = Candidate("release", 100.0, (Piece("trigger", "task", (0, 4), 1, 'the everyday word "release" (Zipf 4.9)',
                                              "release"),), weight=1, supported=False, spans=((0, 4),),
                     tier="everyday")
    v = decide(ev(reg, matches=[m("release", 100)], candidates=[weak]), indexed, reg.routing)
    assert (v.mode, v.reason) == ("full", "weak_evidence")
    assert v.message == ('Fell back to the full registry: the only evidence is the everyday word "release"; nothing '
                         'else in the task is about release')
    assert weak.why == 'not selected: weak evidence (the everyday word "release" (Zipf 4.9))'


def test_two_supported_candidates_for_distinct_asks_are_both_selected(reg, indexed):
    a, b = m("release", 100), m("release-notes", 100)
    e = ev(reg, matches=[a, b])
    e.clause_breaks = (6,)
    # no composition holds them alone here: use a registry-free pair of candidates in separate clauses
    v = decide(e, indexed, reg.routing)
    # both are members of release-pair, so the composition wins over two separate needs
    assert (v.mode, v.composition) == ("index", "release-pair")


def test_a_high_risk_term_beats_a_clear_candidate(reg, indexed):
    v = decide(ev(reg, matches=[m("release", 100)], risks=[m("rm -rf", 100)]), indexed, reg.routing)
    assert (v.mode, v.reason, v.message) == (
        "full", "high_risk", 'Fell back to the full registry: the high-risk term "rm -rf" appears in the task')


@pytest.mark.parametrize("scores, reason, composition", [
    ((100, 96), "clear_candidate", "release-pair"),  # both members of one composition: no ambiguity
    ((100,), "clear_candidate", None),
])
def test_compositions_are_decided_before_ambiguity(reg, indexed, scores, reason, composition):
    ms = [m(i, s) for i, s in zip(("release", "release-notes"), scores)]
    v = decide(ev(reg, matches=ms), indexed, reg.routing)
    assert (v.mode, v.reason, v.composition) == ("index", reason, composition)


def test_the_only_candidate_disabled(reg, indexed):
    v = decide(ev(reg, matches=[m("legacy", 100)]), indexed, reg.routing)
    assert (v.mode, v.reason, v.dropped) == ("full", "disabled_skill", (("legacy", "disabled"),))
    assert v.message == 'Fell back to the full registry: the only candidate "legacy" is disabled'


def test_no_match_names_the_best_near_miss(reg, indexed):
    v = decide(ev(reg, near=[m("release", 72.5, "cut a release")]), indexed, reg.routing)
    assert (v.reason, v.message) == ("no_match", 'Fell back to the full registry: no skill reached the threshold 85 '
                                                 '(best: "release" scored 72.5 via "cut a release")')
