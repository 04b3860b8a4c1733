"""Routing round 17 (matcher 22), judged on fresh blind cases of ambiguity,
underspecified tasks and negation for the seven benchmark registries: work
said to be done before the next step negates its clause, an English
negation reaches 8 words (docs/formats.md §6.10 ``negated``), a Japanese
"AとB、どちら" weighs A and B against each other (§6.3 step 8), and a
one-word thing said to need work that names none asks nothing (§6.10
``ask``). Each task below was decided wrongly before this round."""

import pytest

from conftest import bench_router
from routelens.routing.negation import negated
from routelens.routing.signals import asks

REGS = ("airline-ops", "data-platform", "hospitality", "newsroom", "research-lab", "retail-ops")


@pytest.fixture(scope="module")
def routers():
    return {name: bench_router(name) for name in REGS}


@pytest.mark.parametrize("task, expected", [
    ("The stocktake's done already — now raise the purchase order with Brakes for Thursday.",
     [(0, 13, "'s done already")]),
    ("The MEL deferral is raised already; now source part number 65-4521 as AOG for JA802A.",
     [(0, 17, "is raised already")]),
    ("The copy edit's finished — next it needs a hed and dek for the app, under 70 characters.",
     [(0, 13, "'s finished")]),
    ("棚卸しは完了しました。次に発注をお願いします", [(0, 3, "は完了しました")]),
    # done, with no next step after it: nothing negated
    ("Check the booking is done", []),
    ("The refund is done.", []),
    # a negation reaches eight words
    ("No need for a passenger notification about the gate change.", [(11, 58, "No need for")]),
])
def test_negated_spans(task, expected):
    assert negated(task) == expected


@pytest.mark.parametrize("reg, task, skills", [
    ("airline-ops", "The MEL deferral is raised already; now source part number 65-4521 as AOG for JA802A.",
     ["aog-parts"]),
    ("data-platform", "The retrain is done already; now ship it to the inference endpoint behind a canary.",
     ["model-deployment"]),
    ("hospitality", "The stocktake's done already — now raise the purchase order with Brakes for Thursday.",
     ["supplier-orders"]),
    ("newsroom", "The copy edit's finished — next it needs a hed and dek for the app, under 70 characters.",
     ["headline-writing"]),
    ("research-lab", "The library prep is done already; now I just need the FASTQ files downloaded and checked.",
     ["sequencing-data-retrieval"]),
    ("retail-ops", "The cycle count at Chiba is done already; now raise the transfer order to move 200 units to "
                   "Daventry.", ["stock-transfers"]),
])
def test_work_done_already_is_not_asked_for(routers, reg, task, skills):
    d = routers[reg].route(task)
    assert (d.mode, list(d.skills)) == ("index", skills)


@pytest.mark.parametrize("reg, task, reason", [
    ("airline-ops", "No need for a passenger notification about the gate change.", "weak_evidence"),
    ("hospitality", "No need for an Instagram post about the happy hour this time.", "weak_evidence"),
    ("research-lab", "FACSの予約と故障の件、どちらの担当に連絡すればいいですか", "ambiguous"),
    ("airline-ops", "貨物の書類と危険物の申告、どちらに不備があるのか分かりません", "ambiguous"),
    ("airline-ops", "The dashboard needs sorting.", "weak_evidence"),
])
def test_these_fall_back(routers, reg, task, reason):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", reason, [])


def test_a_thing_needing_named_work_still_asks():
    assert asks("The dashboard needs sorting.") == []
    assert asks("The allergens on the katsu curry need re-checking") == [(0, 49, "need")]
    assert asks("The rota needs to be redone") == [(0, 27, "needs")]


# ---------------------------------------------------------------- a consumer of the same trade (matcher 24)

from routelens.text.life import private_life  # noqa: E402


@pytest.mark.parametrize("text, expected", [
    ("Where is my order? I bought trainers from JD Sports on Monday", "my order"),
    ("easyJet lost my bag in Malaga", "my bag"),
    ("My boarding pass won't load in the Emirates app", "My boarding pass"),
    ("Missing miles from my Virgin trip to New York", "my Virgin trip"),
    ("My windscreen got a chip on the M1", "My windscreen"),
    # the customer's own words, reported: the business's work
    ("A customer emailed asking where is my order for H&V-55102 - check the Royal Mail tracking", None),
    # a software package or a delivery pipeline is no private thing
    ("Publish my package to npm", None),
    ("my delivery pipeline is red", None),
])
def test_a_consumer_of_the_same_trade(text, expected):
    assert private_life(text) == expected


@pytest.mark.parametrize("reg, task", [
    ("retail-ops", "Where is my order? I bought trainers from JD Sports on Monday and the tracking hasn't updated"),
    ("airline-ops", "My boarding pass won't load in the Emirates app and I fly in three hours"),
])
def test_a_consumers_own_parcel_or_flight_falls_back(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])


def test_a_customers_reported_words_still_route(routers):
    d = routers["retail-ops"].route("A customer emailed asking where is my order for H&V-55102 - check the Royal Mail "
                                    "tracking and reply to them")
    assert (d.mode, list(d.skills)) == ("index", ["carrier-tracking"])
