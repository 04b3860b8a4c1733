"""A newcomer's trial of round 13 (a dental clinic's registry written from
scratch, 30 tasks with expectations written before routing, and an attempt
to break the CLI and the TUI): each fault found, with its input."""

import pytest

from routelens.registry.load import parse_registry
from routelens.routing.router import Router
from routelens.routing.signals import asks

CLINIC = """schema_version: 1
skills:
  billing-invoice:
    path: skills/billing-invoice.md
    priority: P1
    triggers: [invoice, 請求書]
    description: Create and send patient invoices
  xray-imaging:
    path: skills/xray-imaging.md
    priority: P1
    triggers: [x-ray, radiograph]
    description: Take, file and report dental radiographs
"""


@pytest.fixture(scope="module")
def clinic():
    return Router.from_registry(parse_registry(CLINIC.encode(), "skills.yaml"))


# ---------------------------------------------------------------- a Japanese request in a later sentence

@pytest.mark.parametrize("task, expected", [
    # the English full stop ends the sentence: the request is the second sentence's only
    ("the invoice. 猫に餌をあげてください", [(12, 24, "てください")]),
    ("the invoice. 猫を送って", [(12, 18, "て")]),
    ("v1.2の設定を確認してください", [(0, 16, "てください")]),   # a full stop inside a word ends nothing
])
def test_an_english_full_stop_ends_a_sentence_before_a_japanese_request(task, expected):
    assert asks(task) == expected


def test_a_japanese_request_in_another_sentence_asks_nothing_of_the_trigger(clinic):
    # before: routed to billing-invoice, "the task asks for it ("てください")" ("please feed the cat")
    d = clinic.route("the invoice. 猫に餌をあげてください")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    d = clinic.route("請求書を送ってください")
    assert (d.mode, d.skills) == ("index", ("billing-invoice",))


# ---------------------------------------------------------------- a name and its verb

@pytest.mark.parametrize("task, expected", [
    ("Bill Gates sent an invoice template meme lol", []),           # a name and its verb: no request
    ("Check Stripe failed payouts", [(0, 27, "Check")]),            # no determiner after the -ed word
    ("Bill the Smiths for the crown", [(0, 15, "Bill")]),
])
def test_two_capitalised_words_and_a_past_verb_are_a_name_and_its_verb(task, expected):
    assert asks(task) == expected


def test_a_name_opening_a_sentence_asks_nothing(clinic):
    # before: routed to billing-invoice, "the task asks for it ("Bill" ...)"
    d = clinic.route("Bill Gates sent an invoice template meme lol")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
