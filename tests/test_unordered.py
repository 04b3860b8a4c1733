"""Safety triggers in any word order (docs/formats.md §6.7): forced rules and
high-risk terms of two or more content words match when their words stand in
another order in one sentence."""

from pathlib import Path

import pytest

from routelens.registry.load import parse_registry
from routelens.routing.matching import prepare
from routelens.routing.router import Router, route
from routelens.routing.unordered import UnorderedPhrases

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "skills.yaml"


def _found(phrases: UnorderedPhrases, task: str, threshold: float = 85) -> dict:
    found: dict = {}
    phrases.add_to(prepare(task), found, threshold)
    return {k: (m.score, m.trigger, m.span, task[m.span[0]:m.span[1]], m.kind) for k, m in found.items()}


RULES = UnorderedPhrases([("production-change", ("本番", "production deploy", "prod database")),
                          ("secrets", ("api key", "secret rotation"))])


def test_words_in_another_order_match_with_their_span():
    task = "cut a release and deploy it to production"
    assert _found(RULES, task) == {
        "production-change": (90.0, "production deploy", (18, 41), "deploy it to production", "unordered")}


def test_an_inflection_of_a_word_counts():
    task = "we are deploying the hotfix to production now"
    assert _found(RULES, task) == {
        "production-change": (90.0, "production deploy", (7, 41), "deploying the hotfix to production",
                              "unordered")}


def test_words_in_two_sentences_do_not_match():
    assert _found(RULES, "Production is fine. Deploy the docs later") == {}
    assert _found(RULES, "production is fine; deploy the docs later") == {}
    assert _found(RULES, "production is fine\ndeploy the docs later") == {}


def test_a_dot_inside_a_word_does_not_end_the_sentence():
    task = "deploy node.js 20 to production"
    assert _found(RULES, task)["production-change"][3] == "deploy node.js 20 to production"


def test_more_than_six_other_tokens_between_do_not_match():
    assert _found(RULES, "deploy one two three four five six production") == {
        "production-change": (90.0, "production deploy", (0, 45), "deploy one two three four five six production",
                              "unordered")}
    assert _found(RULES, "deploy one two three four five six seven production") == {}


def test_the_shortest_window_is_taken():
    task = "production notes: deploy it, then production again"
    assert _found(RULES, task)["production-change"][2:4] == ((0, 24), "production notes: deploy")


def test_a_longer_word_that_is_no_form_of_it_does_not_count():
    # "product" is no form of "production", "deploys" of "deployable" is no word of it
    assert _found(RULES, "deploy the product page") == {}
    # "deployment" is the action's noun: it counts for a safety trigger (not for a skill's, §6.7)
    assert _found(RULES, "the deployment of the production build") == {
        "production-change": (90.0, "production deploy", (4, 32), "deployment of the production", "derived")}


def test_spaceless_triggers_take_no_part_and_one_word_only_done_again():
    phrases = UnorderedPhrases([("a", ("deploy",)), ("b", ("本番 環境",)), ("c", ("the deploy",))])
    # a one-word trigger as written is the ordered matcher's; the spaceless one never takes part
    assert _found(phrases, "deploy 環境 本番 the") == {}
    assert not UnorderedPhrases([("b", ("本番 環境",))])


@pytest.mark.parametrize("task, expected", [
    # "re" + the word: the same action done again (the newcomer's bypass of `format the card`)
    ("back up the card, then reformat the card", {"wipe": (90.0, "format the card", "reformat the card"),
                                                   "fmt": (90.0, "format", "reformat")}),
    ("reformatting the sd card now", {"wipe": (90.0, "format the card", "reformatting the sd card"),
                                      "fmt": (90.0, "format", "reformatting")}),
    ("redeploy it to production", {"prod": (90.0, "production deploy", "redeploy it to production")}),
    # a word that merely starts with "re" is no other word done again
    ("the report is ready; refresh the cards", {}),
])
def test_a_word_done_again_counts_for_safety(task, expected):
    phrases = UnorderedPhrases([("wipe", ("format the card",)), ("fmt", ("format",)),
                                ("prod", ("production deploy",))])
    assert {k: (v[0], v[1], v[3]) for k, v in _found(phrases, task).items()} == expected


def test_an_owner_already_matched_keeps_its_match():
    found: dict = {}
    task = "schedule the production deploy, then deploy to production"
    from routelens.routing.matching import Match
    m = Match("production-change", 100.0, "production deploy", (13, 30), "exact")
    found["production-change"] = m
    RULES.add_to(prepare(task), found, 85)
    assert found["production-change"] is m


def test_no_match_when_the_threshold_is_above_its_score():
    assert _found(RULES, "cut a release and deploy it to production", threshold=91) == {}
    assert _found(RULES, "cut a release and deploy it to production", threshold=90)["production-change"][0] == 90.0


@pytest.mark.parametrize("task, rule, shown", [
    ("cut a release and deploy it to production", "production-change", "deploy it to production"),
    ("fix the bug and deploy the fix to production", "production-change", "deploy the fix to production"),
    ("please rotate the secret for the api", None, None),  # "rotate" is no inflection of "rotation"
])
def test_bundled_forced_rule_in_another_order(task, rule, shown):
    d = route(task, BUNDLED)
    if rule is None:
        assert d.rule is None
        return
    assert (d.mode, d.reason, d.rule, d.skills) == ("full", "forced_rule", rule, ())
    assert d.message == (f'Fell back to the full registry: forced rule "{rule}" matched "production deploy" in the '
                         f'task (its words in another order: "{shown}", score 90)')


def test_high_risk_term_in_another_order():
    reg = parse_registry(b"""schema_version: 1
skills:
  bookings:
    path: skills/bookings.md
    priority: P1
    triggers: [booking export]
routing:
  high_risk: [delete all bookings]
  destructive_intents: false
""", "skills.yaml")
    d = Router.from_registry(reg).route("the bookings from 2023 - delete all please")
    assert (d.mode, d.reason, d.high_risk) == ("full", "high_risk", ("delete all bookings",))
    assert d.message == ('Fell back to the full registry: the high-risk term "delete all bookings" appears in the task '
                         '(its words in another order: "bookings from 2023 - delete all")')


def test_a_long_task_is_read_to_its_end_in_any_order():
    task = "please review my diff " + "x " * 6000 + "then deploy it to production"
    d = route(task, BUNDLED)
    assert (d.mode, d.reason, d.rule) == ("full", "forced_rule", "production-change")


def test_a_forced_rule_done_again_falls_back():
    reg = parse_registry(b"""schema_version: 1
skills:
  photo-backup:
    path: skills/photo-backup.md
    priority: P0
    triggers: [back up the card, photo backup]
rules:
  destroy-originals:
    forced: true
    triggers: [format the card]
""", "skills.yaml")
    d = Router.from_registry(reg).route("back up the card, then reformat the card")
    assert (d.mode, d.reason, d.rule, d.skills) == ("full", "forced_rule", "destroy-originals", ())
    assert d.message == ('Fell back to the full registry: forced rule "destroy-originals" matched "format the card" '
                         'in the task (a word of it in another form: "reformat the card", score 90)')


@pytest.mark.parametrize("word, forms", [
    ("reformat", ["format"]), ("redeploy", ["deploy"]), ("deployment", ["deploy"]), ("deployments", ["deploy"]),
    ("deletion", ["delet", "delete"]), ("migrations", ["migr", "migre", "migrat", "migrate"]),
    ("installation", ["install", "installe", "installat", "installate"]),
    ("read", []), ("ration", ["rat", "rate"]), ("production", ["product", "producte"]),
])
def test_other_forms(word, forms):
    from routelens.routing.unordered import other_forms
    assert other_forms(word) == forms


@pytest.mark.parametrize("task, shown", [
    ("production deployment of the docker image", "production deployment"),
    ("prepare the deployment to production", "deployment to production"),
])
def test_the_noun_of_a_safety_action_counts(task, shown):
    """A second newcomer's trial: "production deployment of the docker image" routed to docker-container past
    the bundled `production deploy` forced rule ("deployment" is no inflection of "deploy")."""
    d = route(task, BUNDLED)
    assert (d.mode, d.reason, d.rule) == ("full", "forced_rule", "production-change")
    assert d.message.endswith(f'(a word of it in another form: "{shown}", score 90)')
