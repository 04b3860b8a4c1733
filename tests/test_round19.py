"""Routing round 19 (matcher 26): work reported as done ("the mix was
approved last week", "has been booked") in a task that asks for other work
negates its clause, so the candidate it names is mentioned, not asked for
(docs/formats.md §6.10 ``negated``). Each trap below selected the mentioned
skill too before this round; each control decides as it did. And a spaced
dash ends the clause in which a finite verb makes a request's words a
subject: "Reply to the Trustpilot review about the lamp - the refund was
already paid" asks for the reply (it asked for nothing)."""

import pytest

from conftest import bench_router, pieces_of
from routelens.routing.negation import negated
from routelens.routing.signals import asks


@pytest.fixture(scope="module")
def routers():
    return {name: bench_router(name) for name in ("retail-ops", "hospitality", "insurance")}


@pytest.mark.parametrize("text, expected", [
    # after the request, or before it: the report's clause back to its start (a comma, a dash, "and", "but")
    ("Master the single; the mix was approved last week", [(19, 27, "was approved")]),
    ("The mix was approved, master the single now", [(0, 8, "was approved")]),
    ("Book the studio. The session musicians were booked yesterday.", [(17, 39, "were booked")]),
    ("Raise a PO for 200 mugs; the goods receipt has been signed off",
     [(25, 43, "has been signed off")]),
    # a report with no request beside it is a report of that work
    ("The invoice was paid twice", []),
    ("The mix was approved last week.", []),
    # a condition or a reason of the work, not a report
    ("Arrange a courtesy car until the repair is done", []),
    ("Book the van once the order is confirmed", []),
    # the request's object is only a pronoun: it asks for nothing, so nothing is reported beside a request
    ("The order was shipped to the wrong address, please reship it", []),
    # the rule of round 17 (done, then "now") gives the same span once
    ("The stocktake's done already - now raise the purchase order", [(0, 13, "'s done already")]),
])
def test_reported_done_negates_its_clause(text, expected):
    assert negated(text) == expected


def test_a_spaced_dash_ends_the_clause_of_a_statement():
    # the finite verb after the dash belongs to the next clause: the request before it stands
    assert asks("Reply to the Trustpilot review about the lamp - the refund was already paid") == [(0, 30, "Reply")]
    assert asks("Answer the Trustpilot review about the lamp \u2014 the refund was paid") == [(0, 28, "Answer")]
    # in one clause a finite verb after the object's phrase still makes its words a subject
    assert asks("Bluetooth pairing with my headphones keeps failing") == []


@pytest.mark.parametrize("reg, task, reason, skills, before", [
    ("retail-ops", "Raise a PO for 200 mugs; the goods receipt was signed off yesterday", "clear_candidate",
     ("purchase-orders",), ("purchase-orders", "goods-receiving", "supplier-invoices")),
    ("retail-ops", "The Black Friday sale was approved last week, please draft the email campaign for it",
     "clear_candidate", ("email-campaigns",), ("sale-events", "promo-codes", "email-campaigns")),
    ("retail-ops", "Reply to the Trustpilot review about the lamp - the refund was already paid", "clear_candidate",
     ("product-reviews",), ()),
    ("hospitality", "Write tonight's handover for Soho; the rota for next week was approved this morning",
     "clear_candidate", ("manager-handoff",), ()),
    ("insurance", "Reissue the certificate of insurance; the direct debit was paid yesterday", "clear_candidate",
     ("policy-documents",), ("policy-documents", "direct-debit")),
])
def test_mentioned_work_is_not_asked_for(routers, reg, task, reason, skills, before):
    d = routers[reg].route(task)
    assert (d.reason, d.skills) == (reason, skills), before


def test_the_mentioned_candidate_shows_why(routers):
    d = routers["insurance"].route("Reissue the certificate of insurance; the direct debit was paid yesterday")
    assert pieces_of(d, "direct-debit")[0] == ("negated", 0, '"direct debit" is negated ("was paid")')


@pytest.mark.parametrize("reg, task, reason, skills", [
    # still a report of the work itself, or still two asks
    ("retail-ops", "Reply to the Trustpilot review about the lamp - the refund is still pending", "ambiguous", ()),
    ("retail-ops", "Refund UK-41182 in full, and also update the Rakuten listing for the teapot", "multi_need",
     ("refunds", "rakuten-listings")),
    ("insurance", "Arrange a courtesy car for the policyholder until the repair is done", "clear_candidate",
     ("courtesy-car",)),
])
def test_controls_decide_as_before(routers, reg, task, reason, skills):
    d = routers[reg].route(task)
    assert (d.reason, d.skills) == (reason, skills)
