"""Routing round 21 (matcher 30): of several supported candidates, the one
a request asks for is chosen alone when every other is only mentioned, in a
clause of its own that holds no request and no fault, as the scene of its
work (docs/formats.md §6.3 step 9, :func:`routelens.routing.several.asked_one`).
Each trap below fell back ``ambiguous`` or selected both before this round;
each control decides as it did, and fails with its guard taken out: an
imperative the request finder misses (a clause headed by the mention's own
trigger is one too: test_evidence_round2's "do the advisory triage; lint sql
in the warehouse repository after"), an "and" before a request, a mention
after the ask without a sentence end, a composition holding both, a fault
reported of a thing, a word that adds an ask, and a Japanese request that
ends a sentence whose earlier clause holds the word."""

from pathlib import Path

import pytest

from conftest import bench_router
from routelens.routing.router import Router
from routelens.routing.signals import asks

BUNDLED = Path(__file__).resolve().parent.parent / "skills.yaml"
MENTIONED = "not selected: only mentioned, in a clause of its own that asks nothing of it; the request is for "

KANSAI = ("Hi team, quick one from the Kansai station. Yesterday evening we had a long queue of transfer passengers "
          "from the Bangkok flight and several of them did not get their bags. Ops told me the containers were left "
          "behind in BKK. Could you open the PIRs in WorldTracer for the eleven passengers on the attached list and "
          "arrange delivery to their hotels? Thanks, Kimura")


@pytest.fixture(scope="module")
def routers():
    return {**{name: bench_router(name) for name in ("hospitality", "airline-ops", "data-platform")},
            "bundled": Router.from_paths(BUNDLED)}


@pytest.mark.parametrize("reg, task, selected, mentioned", [
    # the labelled cases of the shipped sets this round routes (both fell back `ambiguous`)
    ("data-platform", "このPRレビューをお願いします。dbtの変更です", "code-review", "dbt-model"),
    ("airline-ops", KANSAI, "baggage-tracing", None),
    # a scene before the request, after it in a sentence of its own, and before ", so please ..."
    ("hospitality", "After the accident book entry for Sam, please update the allergen matrix for the new menu",
     "allergen-check", "staff-accidents"),
    ("hospitality", "Update the allergen matrix; the private event is on Friday", "allergen-check", "private-events"),
    ("hospitality", "The private event on Friday has 40 guests, so please update the allergen matrix",
     "allergen-check", "private-events"),
])
def test_the_one_asked_for_is_chosen_beside_a_mention(routers, reg, task, selected, mentioned):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", (selected,))
    if mentioned is not None:
        why = {c["id"]: c["why"] for c in d.to_dict()["evidence"]}
        assert why[mentioned] == MENTIONED + f'"{selected}"'


@pytest.mark.parametrize("reg, task, mode, reason, skills", [
    # "Fill in" opens an imperative the request finder does not take for a request: two asks
    ("hospitality", "Fill in the accident book for Sam and update the allergen matrix", "index", "multi_need",
     ("staff-accidents", "allergen-check")),
    # an "and" followed by a request verb: the mention's clause is an ask of its own, however it opens
    ("hospitality", "The accident book entry for Sam and update the allergen matrix", "index", "multi_need",
     ("staff-accidents", "allergen-check")),
    # after the ask, only a sentence end, a semicolon or a dash sets a scene apart: a comma lists another ask
    ("hospitality", "Update the allergen matrix, the private event is on Friday", "index", "multi_need",
     ("allergen-check", "private-events")),
    # members of one composition named together are the composition (step 8 comes first)
    ("hospitality", "After the stock count this morning, please place the supplier order", "index",
     "clear_candidate", ("inventory-count", "supplier-orders")),
    # ... and when a third candidate keeps step 8 from the composition, its members stay asked together
    ("hospitality", "After the stock count this morning, please place the supplier order; the private event is on "
     "Friday", "index", "multi_need", ("inventory-count", "supplier-orders", "private-events")),
    # a fault reported of a thing asks for help with it: a need of its own, not a scene
    ("hospitality", "The walk-in fridge is broken; please update the allergen matrix", "index", "multi_need",
     ("walk-in-fridge", "allergen-check")),
    # a word that adds an ask
    ("hospitality", "The private event is on Friday; also update the allergen matrix", "index", "multi_need",
     ("private-events", "allergen-check")),
    # two objects of one request (a labelled case of routing-holdout: ambiguous)
    ("bundled", "Write a dockerfile and a threat model for the upload service", "full", "ambiguous", ()),
    # a Japanese request ends the sentence; a clause break stands between the bookings and it
    ("hospitality", "食洗機のすすぎ温度が82度まで上がりません。今夜は予約が120件入っているので、至急見てください。", "full",
     "ambiguous", ()),
])
def test_controls_keep_their_decision(routers, reg, task, mode, reason, skills):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, d.skills) == (mode, reason, skills)


@pytest.mark.parametrize("text, said", [
    ("The event has 40 guests, so please update the matrix", ["update"]),
    ("The event has 40 guests, so can you update the matrix", ["update"]),
    # "so" alone opens no request
    ("The event has 40 guests, so update is late", []),
])
def test_so_please_opens_a_request(text, said):
    assert [s for _, _, s in asks(text)] == said
