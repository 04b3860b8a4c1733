"""Routing round 22 (matcher 31): a skill's trigger matches only within one
clause of the task (docs/formats.md §6.7). A trigger's words matched across
a sentence end, ";", a line break, an em dash or a spaced dash are words of
two clauses, not the phrase: "Hold the push — no alert yet; just add the
new figures to the live blog" selected four skills through a loose
`push alert` before this round. Forced rules and high-risk terms still
match across clauses (they guard against harm), and a trigger that writes
punctuation of its own keeps it."""

from pathlib import Path

import pytest

from conftest import bench_router
from routelens.routing.matching import TriggerMatcher, prepare
from routelens.routing.router import Router

TRIGGERS = [("alerts", ["push alert"]), ("notes", ["release notes"]), ("yahoo", ["Yahoo!ショッピング"]),
            ("summary", ["tl;dr"])]


def _hits(task: str, one_clause: bool) -> dict[str, tuple[float, str]]:
    m = TriggerMatcher(TRIGGERS, one_clause=one_clause)
    return {k: (v.score, v.kind) for k, v in m.match(prepare(task), 0).items()}


@pytest.mark.parametrize("task, across", [
    ("Hold the push — no alert yet", (88.0, "loose")),
    ("Hold the push. Alert the desk", (100.0, "exact")),
    ("push! alert", (100.0, "exact")),
    ("push; the alert", (97.0, "loose")),
    ("push – alert", (100.0, "exact")),
    ("push - alert", (100.0, "exact")),
    ("push—alert", (100.0, "exact")),
    ("push\nalert", (100.0, "exact")),
    ("プッシュ push。alert", (100.0, "exact")),
])
def test_a_trigger_across_a_clause_break_is_no_match(task, across):
    assert _hits(task, one_clause=True) == {}
    # what the same words scored before this round, and still score in a matcher of safety triggers
    assert _hits(task, one_clause=False) == {"alerts": across}


@pytest.mark.parametrize("task, hits", [
    ("push the alert", {"alerts": (97.0, "loose")}),
    ("push, alert", {"alerts": (100.0, "exact")}),  # a comma parts no clause here
    ("push!alert", {"alerts": (100.0, "exact")}),  # "!" glued to a word ends nothing
    ("Write the release 2.1 notes", {"notes": (76.0, "loose")}),  # a version's full stop
    ("release-notes", {"notes": (100.0, "exact")}),
    ("Yahoo!ショッピングの商品ページ", {"yahoo": (100.0, "exact")}),  # the trigger writes its "!"
    ("a tl;dr please", {"summary": (100.0, "exact")}),  # ... and its ";"
])
def test_a_trigger_within_one_clause_still_matches(task, hits):
    assert _hits(task, one_clause=True) == hits


def test_the_labelled_case_routes_to_the_one_skill_asked_for():
    d = bench_router("newsroom").route("Hold the push — no alert yet; just add the new figures to the live blog.")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("live-blog",))
    assert "breaking-news-alert" not in {m.id for m in d.matches}


def test_a_trigger_writing_its_own_exclamation_mark_still_matches():
    # the one decision the first draft of this round changed: its "!" read as a sentence end, the disabled
    # yahoo-shopping lost its trigger and the task went to rakuten-listings (labelled `disabled`)
    d = bench_router("retail-ops").route("Yahoo!ショッピングの商品ページを更新してください")
    assert (d.mode, d.reason, d.skills) == ("full", "disabled_skill", ())
    assert {m.id: m.score for m in d.matches}["yahoo-shopping"] == 100.0


BUNDLED = Path(__file__).resolve().parent.parent / "skills.yaml"


def test_safety_triggers_still_match_across_a_clause_break():
    router = Router.from_paths(BUNDLED)
    # across a sentence end, where no match in another word order (§6.7) reaches either
    d = router.route("Don't use force. Push it to main")  # high_risk: force push
    assert (d.mode, d.reason) == ("full", "high_risk")
    d = router.route("Draft the production. Deploy notes")  # the forced rule production-change
    assert (d.mode, d.reason) == ("full", "forced_rule")


# --------------------------------------------------------------------------- someone's want, relayed (matcher 32)

@pytest.mark.parametrize("task, want", [
    ("After the derby, the coach wants the match report for Monday", [(27, 49, "wants")]),
    ("The players want new kit", [(12, 24, "want")]),
    ("The guest has asked for a late checkout", [(10, 39, "has asked for")]),
    ("Our head chef would like the allergen matrix", [(14, 44, "would like")]),
    # denied, the writer's own ("my"), a want to do something, a pronoun only, a subject too long to be one
    ("The guest doesn't want a refund", []),
    ("The guest never asked for a refund", []),
    ("my wife wants a new car", []),
    ("The kids want to go", []),
    ("The guest wants it", []),
    ("The man at the end of the long bar wants a refund", []),
])
def test_a_want_relayed_by_the_writer_asks_for_its_object(task, want):
    from routelens.routing.signals import asks
    assert asks(task) == want


@pytest.fixture(scope="module")
def hospitality():
    return bench_router("hospitality")


@pytest.mark.parametrize("task, scene", [
    ("After the accident book entry for Sam, the GM has asked for the allergen matrix for the new menu",
     "staff-accidents"),
    ("After the private event on Friday, the owner wants the allergen matrix for the new menu", "private-events"),
    ("The private event on Friday has 40 guests; the owner would like the allergen matrix for the new menu",
     "private-events"),
])
def test_the_relayed_want_is_the_one_asked_for_beside_a_scene(hospitality, task, scene):
    # matcher 31 selected both (multi_need) or fell back ambiguous: no request was found in the want's clause
    d = hospitality.route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("allergen-check",))
    why = {c["id"]: c["why"] for c in d.to_dict()["evidence"]}
    assert why[scene] == ('not selected: only mentioned, in a clause of its own that asks nothing of it; '
                          'the request is for "allergen-check"')


def test_a_relayed_want_of_ones_own_sets_no_request(hospitality):
    d = hospitality.route("After the accident book entry for Sam, my wife wants the allergen matrix for the new menu")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())


# --------------------------------------------------------------------------- an adverb leads a request (matcher 33)

@pytest.mark.parametrize("task, want", [
    ("Just update the readme", [(5, 22, "update")]),
    ("First, update the readme", [(7, 24, "update")]),
    ("Also update the docs for the release", [(5, 20, "update")]),
    ("Quickly check the invoice for Friday", [(8, 25, "check")]),
    # an adverb before no verb opens no request
    ("Now the readme is out of date", []),
    ("Just a quick question about the readme", []),
    ("Just wondering about the readme", []),
])
def test_an_adverb_of_when_or_how_leads_a_request(task, want):
    from routelens.routing.signals import asks
    assert asks(task) == want


@pytest.mark.parametrize("task, reason, skills", [
    # matcher 32: weak_evidence, the fairly common "readme" asked for by nothing
    ("Just update the readme", "clear_candidate", ("docs-update",)),
    ("Hold the push — no alert yet; just update the readme", "clear_candidate", ("docs-update",)),
    ("Just wondering about the readme", "weak_evidence", ()),
])
def test_the_request_an_adverb_leads_asks_for_its_trigger(task, reason, skills):
    d = Router.from_paths(BUNDLED).route(task)
    assert (d.reason, d.skills) == (reason, skills)
