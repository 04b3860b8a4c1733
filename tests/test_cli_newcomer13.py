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


# ---------------------------------------------------------------- fixes never enshrine a typo or a name

@pytest.mark.parametrize("text, task, spelled, expected", [
    ("cover for yuki", "who can cover for Yuki on Saturday morning", set(), False),        # a name
    ("bok an appointment", "bok an apointment for tomorow morning", {"appointment"}, False),  # "bok": book
    ("review my pul request", "pleese reveiw my pul request", {"review"}, False),           # "pul": pull
    ("cover for saturday", "who can cover for Yuki on Saturday", set(), True),             # a name that is a word
    ("vpn access", "My VPN access broke", set(), True),                                    # an acronym
    ("run sqlfluff", "run sqlfluff on the models", set(), True),                           # jargon
    ("colour grade the beach", "colour grde the beach portraits", {"colour", "grade"}, True),
])
def test_plausible_trigger(text, task, spelled, expected):
    from routelens.tools.suggest import plausible_trigger

    assert plausible_trigger(text, task, frozenset(spelled)) is expected


ROTA = """schema_version: 1
skills:
  appointment-booking:
    path: skills/appointment-booking.md
    priority: P0
    triggers: [book an appointment, schedule an appointment, reschedule, cancel appointment, 予約]
    description: Book, move or cancel a patient appointment in the scheduler
  staff-rota:
    path: skills/staff-rota.md
    priority: P2
    triggers: [staff rota, shift schedule, rota swap, cover for, 勤務表]
    description: Plan staff shifts and find cover for absences
"""


@pytest.mark.parametrize("task, before", [
    # the newcomer's registry: each fix below was offered, and verified to route, before plausible_trigger
    ("who can cover for Yuki on Saturday morning", ("add_trigger", "staff-rota", "cover for yuki")),
    ("bok an apointment for tomorow morning", ("add_trigger", "appointment-booking", "bok an appointment")),
])
def test_a_fix_never_proposes_a_name_or_a_typo(tmp_path, monkeypatch, task, before):
    import routelens.tools.fixes as fixes
    from routelens.registry.load import load_registry

    (tmp_path / "skills.yaml").write_text(ROTA)
    reg = load_registry(tmp_path / "skills.yaml")
    router = Router.from_registry(reg)
    d = router.route(task)
    assert [(f.kind, f.skill, f.edit.value) for f in fixes.fixes_for(d, reg)] == []
    monkeypatch.setattr(fixes, "plausible_trigger", lambda *a: True)
    assert [(f.kind, f.skill, f.edit.value) for f in fixes.fixes_for(d, reg)] == [before]


def test_the_ui_shows_a_tab():
    # the registry pane showed a tab as spaces beside "line 4 is indented with a tab"
    from routelens.tui.model import display_text

    assert display_text("  a:\n\tpath: skills/a.md\n") == "  a:\n\u2409path: skills/a.md\n"
    assert display_text("no tab") == "no tab"


def test_a_corrupt_index_is_said_invalid_once(tmp_path):
    # "the compact index is invalid (the index generated/routing.min.json is invalid: ...)"
    reg = tmp_path / "skills.yaml"
    reg.write_text(CLINIC, encoding="utf-8")
    (tmp_path / "generated").mkdir()
    index = tmp_path / "generated" / "routing.min.json"
    index.write_text('{"broken":\n', encoding="utf-8")
    d = Router.from_paths(reg, index).route("send the invoice to Mrs Ito")
    assert (d.mode, d.reason) == ("full", "index_invalid")
    assert d.message.startswith(
        f"Fell back to the full registry: the compact index {index} is invalid: not valid JSON (truncated?): "
        "Expecting value at line 2 column 1; run `routelens build`.")
