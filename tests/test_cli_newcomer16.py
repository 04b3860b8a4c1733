"""A newcomer's trial (a veterinary practice's registry written from
scratch): each input that surprised them, as a test."""

from pathlib import Path

import pytest

from routelens.cli.entry import main
from routelens.registry.load import parse_registry
from routelens.routing.router import Router
from routelens.routing.safety import destructive
from routelens.routing.questions import general_question
from routelens.tools.suggest import candidate_phrases

VET = """schema_version: 1
skills:
  client-billing:
    path: skills/client-billing.md
    priority: P1
    triggers: [refund, invoice]
  appointment-booking:
    path: skills/appointment-booking.md
    priority: P1
    triggers: [cancel an appointment, book an appointment]
  pharmacy:
    path: skills/pharmacy.md
    priority: P1
    triggers: [flea treatment, prescription]
  lab-results:
    path: skills/lab-results.md
    priority: P1
    triggers: [blood test results]
"""


@pytest.fixture(scope="module")
def vet() -> Router:
    return Router.from_registry(parse_registry(VET.encode(), Path("skills.yaml")))


@pytest.mark.parametrize("task, span", [
    # English bulk refunds routed to billing while 一括返金 fell back: "refund" is a destroying verb in bulk now
    ("Refund all clients who paid for the cancelled puppy class", (0, 10, "Refund all")),
    ("Refund every client", (0, 12, "Refund every")),
    ("Mass refund the puppy class", (0, 11, "Mass refund")),
    ("Issue refunds to all clients who paid", (0, 20, "Issue refunds to all")),
])
def test_bulk_refunds_are_destructive(vet, task, span):
    assert destructive(task) == [span]
    d = vet.route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "high_risk", [])


@pytest.mark.parametrize("task", ["Refund the client for invoice 1182", "Refund the deposit in full"])
def test_one_refund_is_no_destructive_intent(vet, task):
    assert destructive(task) == []
    assert vet.route(task).skills == ("client-billing",)


def test_a_question_about_the_practices_clients_is_no_general_knowledge(vet):
    task = "Can a client pick up flea treatment without seeing the vet?"
    assert general_question(task) is None
    d = vet.route(task)
    assert (d.mode, list(d.skills)) == ("index", ["pharmacy"])


def test_a_phrase_in_the_singular_is_no_typo(vet):
    d = vet.route("blood test result for Bella")
    assert list(d.skills) == ["lab-results"]
    piece = next(c for c in d.evidence if c.id == "lab-results").pieces[0]
    assert (piece.weight, piece.detail) == (2, 'the phrase "blood test results", its last word in the singular (91.2)')


def test_no_fix_starts_inside_a_kanji_compound_and_runs_into_katakana():
    texts = [ph.text for ph in candidate_phrases("モモちゃんの混合ワクチンの証明書を再発行してください")]
    assert texts == ["モモ", "混合", "混合ワクチン", "ワクチン", "証明", "証明書", "明書", "再発", "再発行", "発行"]


def test_a_skill_body_passed_as_the_registry_says_so(tmp_path, capsys):
    body = tmp_path / "grooming.md"
    body.write_text("---\ntitle: grooming\n---\n# Grooming\n", encoding="utf-8")
    assert main(["route", "--registry", str(body), "x"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (f"routelens: {body} is no YAML file; --registry names the registry (skills.yaml), "
                                    "not a skill's body or another file")
