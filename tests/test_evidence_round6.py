"""Issue 10, round 6 (matcher 9): kinds of miss and wrong route of the case
sets fixed generally. One test per rule, with its own inputs and exact
decisions (docs/formats.md §6.3, §6.10)."""

from __future__ import annotations

import pytest

from conftest import decided
from routelens.registry import parse_registry
from routelens.routing.router import Router
from routelens.routing.several import and_request
from routelens.routing.signals import asks

SEVERAL = """\
schema_version: 1
skills:
  menu-planning:
    path: skills/menu-planning.md
    priority: P2
    triggers: [weekly menu, menu plan]
    description: Plan the weekly and seasonal menus
  allergen-check:
    path: skills/allergen-check.md
    priority: P0
    triggers: [allergen, allergen matrix]
    description: Check every dish against the allergen matrix
  staff-rota:
    path: skills/staff-rota.md
    priority: P1
    triggers: [rota]
    description: Build and publish the weekly staff rota
  leave-requests:
    path: skills/leave-requests.md
    priority: P1
    triggers: [annual leave, holiday request]
    description: Approve or decline staff holiday requests
  docker-container:
    path: skills/docker-container.md
    priority: P2
    triggers: [dockerfile]
    description: Write and fix container images
  security-review:
    path: skills/security-review.md
    priority: P1
    triggers: [threat model, security review]
    description: Review a service for security weaknesses
  pest-control:
    path: skills/pest-control.md
    priority: P0
    triggers: [mouse droppings, pest sighting]
    description: Respond to a pest sighting
  health-inspection:
    path: skills/health-inspection.md
    priority: P0
    triggers: [EHO, health inspection]
    description: Prepare for an environmental health officer's visit
  sql-query:
    path: skills/sql-query.md
    priority: P2
    triggers: [write a query, sql query]
    description: Write and fix SQL
  monitoring:
    path: skills/monitoring.md
    priority: P1
    triggers: [prometheus, alert rule]
    description: Set up metrics scraping and alerts
  inventory-count:
    path: skills/inventory-count.md
    priority: P1
    triggers: [stocktake, stock count]
    description: Run the monthly stocktake and explain variances
  accessibility-audit:
    path: skills/accessibility-audit.md
    priority: P2
    triggers: [accessibility, a11y audit]
    description: Audit a page against WCAG
  shift-rota:
    path: skills/shift-rota.md
    priority: P1
    triggers: [シフト表]
    description: シフト表を作成して公開する
  paid-leave:
    path: skills/paid-leave.md
    priority: P1
    triggers: [有給]
    description: 有給申請を承認または却下する
routing:
  max_index_ratio: 1.0
"""


@pytest.fixture(scope="module")
def s() -> Router:
    return Router.from_registry(parse_registry(SEVERAL.encode(), "skills.yaml"))


def test_two_requests_joined_by_and_select_both(s):
    # a request verb right after "and" opens a second request: two asks, each with its own evidence
    assert decided(s, "Plan the weekly menu and check allergens for every dish on it") == (
        "index", "multi_need", ("menu-planning", "allergen-check"), None)
    assert decided(s, "Build next week's rota and approve Sam's annual leave for the 14th") == (
        "index", "multi_need", ("staff-rota", "leave-requests"), None)
    # "and also": the same; the next trigger may open with the verb when a determiner follows it
    assert decided(s, "Set up prometheus scraping and also write a sql query for the weekly report") == (
        "index", "multi_need", ("monitoring", "sql-query"), None)


def test_two_objects_of_one_request_joined_by_and_stay_ambiguous(s):
    # one request, two objects: which does it want first, or both? the router does not guess
    assert decided(s, "Write a dockerfile and a threat model for the upload service") == (
        "full", "ambiguous", (), None)
    # a trigger whose first word looks like a verb ("threat models") is no second request
    assert decided(s, "Write a dockerfile and threat models for the upload service") == (
        "full", "ambiguous", (), None)
    # without the verb, one fairly common word per ask is not enough (round 4)
    assert decided(s, "Plan the weekly menu and allergens for every dish on it") == ("full", "ambiguous", (), None)
    # an alternative between them is no two asks
    assert decided(s, "Plan the weekly menu or check allergens for every dish on it") == (
        "full", "ambiguous", (), None)


def test_and_request_reads_the_verb_after_and():
    t = "Plan the weekly menu and check allergens for every dish"
    assert and_request(t, t.index(" and"), t.index("allergens"))
    t = "Write a dockerfile and threat models for the upload service"
    assert not and_request(t, t.index(" and"), t.index("threat"))
    t = "Set up prometheus scraping and write a sql query"
    assert and_request(t, t.index(" and"), t.index("write"))


def test_and_also_like_connectives_before_a_request_select_both(s):
    # "plus", "as well as", "along with", "and in addition" before a request verb part two asks as "and" does
    for task in ("Build next week's rota plus approve Sam's annual leave for the 14th",
                 "Build next week's rota as well as approving Sam's annual leave for the 14th",
                 "Build next week's rota and in addition approve Sam's annual leave for the 14th"):
        assert decided(s, task) == ("index", "multi_need", ("staff-rota", "leave-requests"), None), task
    # no request after it: one request, two objects
    assert decided(s, "Plan the weekly menu as well as allergens for every dish on it") == (
        "full", "ambiguous", (), None)


def test_a_japanese_te_form_request_closed_by_a_comma_before_another_request_selects_both(s):
    # "作って、" is a request of its own, and "承認してください" ends the sentence after the second ask
    assert decided(s, "シフト表を作って、有給申請を承認してください") == (
        "index", "multi_need", ("shift-rota", "paid-leave"), None)
    # "について、" is no request: one request about the rota
    assert decided(s, "シフト表について、有給申請を承認してください") == ("full", "ambiguous", (), None)
    # nouns joined by と: one request, two objects
    assert decided(s, "シフト表の作成と有給申請の承認をお願いします") == ("full", "ambiguous", (), None)
    # a request to be told something after the comma asks for no work
    assert decided(s, "シフト表を見て、有給申請の件を教えて") == ("full", "ambiguous", (), None)


def test_do_with_an_object_is_a_request_verb(s):
    # "Do the stocktake": "do" with a determiner after it is the request, so a typo the task asks for routes
    assert decided(s, "Do the stoktake for Soho tonight after close") == (
        "index", "clear_candidate", ("inventory-count",), None)
    assert decided(s, "please do an accesibility pass on the signup form") == (
        "index", "clear_candidate", ("accessibility-audit",), None)
    assert asks("Do the stocktake for Soho") == [(0, 16, "Do")]
    # the auxiliary asks for nothing: a question, "do you", "do not"
    assert decided(s, "Do the stoktake numbers look right?") == ("full", "weak_evidence", (), None)
    assert asks("Do you know when the stocktake is?") == []
    assert decided(s, "I do the stoktake on Mondays") == ("full", "weak_evidence", (), None)


CONTRAST = """\
schema_version: 1
skills:
  newsletter:
    path: skills/newsletter.md
    priority: P2
    triggers: [newsletter]
    description: Write and send the guest newsletter
  social-posts:
    path: skills/social-posts.md
    priority: P2
    triggers: [instagram post]
    description: Write posts for the restaurant's social accounts
  complaints:
    path: skills/complaints.md
    priority: P1
    triggers: [apology, complaint]
    description: Answer guest complaints
  refunds:
    path: skills/refunds.md
    priority: P1
    triggers: [refund]
    description: Issue full and partial refunds
  on-call-escalation:
    path: skills/on-call-escalation.md
    priority: P0
    triggers: [escalate]
    description: Escalate an out-of-hours problem to the on-call manager
  translation:
    path: skills/translation.md
    priority: P2
    triggers: [translate]
    description: Translate text between English and Japanese
  review-replies:
    path: skills/review-replies.md
    priority: P2
    triggers: [tripadvisor]
    description: Reply to public guest reviews
routing:
  max_index_ratio: 1.0
"""


@pytest.fixture(scope="module")
def c() -> Router:
    return Router.from_registry(parse_registry(CONTRAST.encode(), "skills.yaml"))


def test_the_clause_a_negation_makes_way_for_is_asked_for(c):
    # "No X, just Y": the task turns from the negated skill to Y, which it asks for (an everyday word too)
    assert decided(c, "No need for an Instagram post, just put it in the newsletter") == (
        "index", "clear_candidate", ("newsletter",), None)
    assert decided(c, "No refund, only a polite apology to the guest about the long wait") == (
        "index", "clear_candidate", ("complaints",), None)
    d = c.route("No need for an Instagram post, just put it in the newsletter")
    ask = next(p for p in next(x for x in d.evidence if x.id == "newsletter").pieces if p.kind == "ask")
    assert (ask.text, ask.weight, ask.detail) == (
        "just", 1, 'the task asks for it instead ("just", after the negated "Instagram post")')


def test_no_contrast_without_a_negated_trigger_or_after_a_subject(c):
    # "I just want ...": the word follows the subject, not the negation
    assert decided(c, "No need for an Instagram post, I just want the newsletter") == (
        "full", "weak_evidence", (), None)
    # the negated clause holds no other skill's trigger: nothing is turned away from
    assert decided(c, "No rush, just the newsletter") == ("full", "weak_evidence", (), None)
    # the negated skill itself is not asked for
    assert decided(c, "No refunds, no vouchers, nothing - we're not giving in on this one") == (
        "full", "weak_evidence", (), None)


def test_a_request_verb_takes_its_object_after_to_into_on_at(c):
    # "reply to yesterday's Tripadvisor review": the object follows the particle
    assert asks("reply to yesterday's Tripadvisor review") == [(0, 39, "reply")]
    assert asks("look into the failing job") == [(0, 25, "look")]
    assert decided(c, "Write an Instagram post for the new menu and reply to yesterday's Tripadvisor review") == (
        "index", "multi_need", ("social-posts", "review-replies"), None)
    # "with" is no such particle: "help with the deploy" asks for help, not for work on the deploy
    assert asks("help with the deploy of the new recommender") == []
    # a particle and no object after it asks for nothing
    assert asks("Please reply to") == []


def test_a_request_that_points_back_with_a_pronoun_asks_for_the_trigger_before_it(c):
    # "please redo them": its object is a pronoun for what the sentence before said was translated
    assert decided(c, "These error strings were translated badly, please redo them") == (
        "index", "clear_candidate", ("translation",), None)
    assert asks("These error strings were translated badly, please redo them", pronoun=True) == [(50, 59, "redo")]
    # a pronoun alone points at nothing said before; a statement with no request asks for nothing
    assert decided(c, "translate it") == ("full", "weak_evidence", (), None)
    assert decided(c, "These error strings were translated badly") == ("full", "weak_evidence", (), None)
    # two sentences away, or another request in between: the pronoun points elsewhere
    assert decided(c, "The strings were translated. The build broke. Please fix it") == (
        "full", "weak_evidence", (), None)


def test_a_relative_clause_in_the_object_ends_it_and_is_no_statement():
    # "write a runbook the alert can link to": a second determiner opens a relative clause; "can" is its verb
    assert asks("and write a runbook the alert can link to") == [(4, 19, "write")]
    # with no second determiner, a finite verb after the opening words makes them a statement
    assert asks("finance dashboards are stale") == []
    assert asks("check which halal dishes we can do for her") == [(0, 27, "check")]


def test_a_task_headed_by_the_trigger_is_about_that_work(c):
    # "Escalating: ...": one or two words and a colon at the start name the work the rest describes
    assert decided(c, "Escalating: Soho has had no hot water since 4pm") == (
        "index", "clear_candidate", ("on-call-escalation",), None)
    d = c.route("Escalating: Soho has had no hot water since 4pm")
    ask = next(p for p in next(x for x in d.evidence if x.id == "on-call-escalation").pieces if p.kind == "ask")
    assert (ask.text, ask.span, ask.detail) == ("Escalating", (0, 10), 'the task is headed by it ("Escalating:")')
    # a heading with nothing after it, or the word elsewhere in a statement, asks for nothing
    assert decided(c, "Escalating:") == ("full", "weak_evidence", (), None)
    assert decided(c, "Soho is escalating: no hot water since 4pm") == ("full", "weak_evidence", (), None)


def test_a_specific_word_in_a_clause_of_its_own_after_and_is_a_need_of_its_own(s):
    # "and the EHO is coming": "and" opens an independent clause (its own subject and verb) holding a rare trigger
    assert decided(s, "We found mouse droppings behind the oven and the EHO is coming on Thursday") == (
        "index", "multi_need", ("pest-control", "health-inspection"), None)
    # the same words as one object of a request: no clause of its own
    assert decided(s, "Write a dockerfile and a threat model for the upload service") == (
        "full", "ambiguous", (), None)
    # a fairly common word in such a clause is not enough: one specific word per need
    assert decided(s, "We found mouse droppings behind the oven and the rota is wrong") == (
        "full", "ambiguous", (), None)
