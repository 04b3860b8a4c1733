"""Routing round 9 (matcher 12): an everyday word followed by "for" and the
best candidate's specific trigger names the work, so it is a rival
(docs/formats.md §6.3 step 9); the reverse of the "for ..." purpose rule.
The failing input comes from the research-lab registry's blind cases ("Need
the stats for the qPCR" routed to the qPCR skill on its rare word alone)."""

from pathlib import Path

import pytest

from routelens.registry.load import parse_registry
from routelens.routing.router import Router

REGISTRY = b"""schema_version: 1
skills:
  qpcr-analysis:
    path: skills/qpcr-analysis.md
    priority: P1
    triggers: [qPCR, delta delta Ct, melt curve]
    description: Analyse qPCR runs - Ct values, melt curves, relative expression
  stats-consult:
    path: skills/stats-consult.md
    priority: P1
    triggers: [statistics, stats, statistical test]
    description: Book a consult with the statistician on study design and tests
  equipment-booking:
    path: skills/equipment-booking.md
    priority: P1
    triggers: [plate reader, equipment booking]
    description: Book shared instruments in PPMS
"""


@pytest.fixture(scope="module")
def router():
    return Router.from_registry(parse_registry(REGISTRY, Path("skills.yaml")))


@pytest.mark.parametrize("task, mode, reason, skills", [
    # the stats are the work; the qPCR is what they are for
    ("Need the stats for the qPCR", "full", "ambiguous", []),
    ("Can you run the stats for the qPCR plate?", "full", "ambiguous", []),
    # "for" not right after the word: the specific triggers route as before
    ("Need the stats on the melt curve for the qPCR", "index", "clear_candidate", ["qpcr-analysis"]),
    # the other way round is the purpose rule: the qPCR is the work
    ("Analyse the qPCR for the stats meeting", "index", "clear_candidate", ["qpcr-analysis"]),
])
def test_the_thing_a_for_is_for_is_a_rival(router, task, mode, reason, skills):
    d = router.route(task)
    assert (d.mode, d.reason, list(d.skills)) == (mode, reason, skills)


def test_the_rival_is_named(router):
    d = router.route("Need the stats for the qPCR")
    assert d.message == ('Fell back to the full registry: "qpcr-analysis" and "stats-consult" both have evidence '
                         '("qpcr-analysis": the specific word "qpcr" (rare in everyday language); "stats-consult": '
                         'the everyday word "stats" (Zipf 4.3)) and the task does not say which it wants')


# ---------------------------------------------------------------- two asks the contract parts, on the bundled registry

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bundled():
    return Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")


@pytest.mark.parametrize("task, reason, skills", [
    # the README's own ambiguous screenshot: "and add" is a request verb even though "add tests" is a trigger
    # (docs §6.3 step 9: WordNet knows "add" as a verb); a sentence end parts them too
    ("refactor the parser and add unit tests", "multi_need", ["refactoring", "test-writing"]),
    ("Refactor the parser. Then add unit tests.", "multi_need", ["refactoring", "test-writing"]),
    ("refactor the parser and write unit tests", "multi_need", ["refactoring", "test-writing"]),
    # two objects of one request stay one request
    ("write a dockerfile and threat models", "ambiguous", []),
    ("write a dockerfile and a threat model", "ambiguous", []),
])
def test_two_asks(bundled, task, reason, skills):
    d = bundled.route(task)
    assert (d.reason, list(d.skills)) == (reason, skills)


def test_a_request_object_ends_at_a_full_stop():
    from routelens.routing.signals import asks

    assert asks("Refactor the parser. Then add unit tests.") == [(0, 19, "Refactor"), (26, 40, "add")]
    assert asks("Fix the C++ build.") == [(0, 17, "Fix")]
    assert asks("Update node.js in the repo") == [(0, 14, "Update")]
