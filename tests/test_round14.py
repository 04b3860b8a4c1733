"""Routing round 14 (matcher 17), docs/formats.md §6.10 ``ask``: a need of
the team's ("We need new vouchers designed ...") and a thing said to need
work ("The allergens ... need re-checking") ask for it; a fault reported of
a thing ("The dishwasher is broken") asks for it when the subject names one
candidate's trigger."""

import pytest

from routelens.registry.load import parse_registry
from routelens.routing.router import Router
from routelens.routing.faults import fault_reports
from routelens.routing.signals import asks

REG = """schema_version: 1
skills:
  vouchers:
    path: skills/vouchers.md
    priority: P1
    triggers: [voucher]
  dish-machine:
    path: skills/dish-machine.md
    priority: P1
    triggers: [dishwasher]
  equipment:
    path: skills/equipment.md
    priority: P1
    triggers: [broken]
  dashboard:
    path: skills/dashboard.md
    priority: P1
    triggers: [dashboard]
  forecasting:
    path: skills/forecasting.md
    priority: P1
    triggers: [forecast]
"""


@pytest.fixture(scope="module")
def router():
    return Router.from_registry(parse_registry(REG.encode(), "skills.yaml"))


@pytest.mark.parametrize("task, expected", [
    ("We need new vouchers designed for the Christmas gift range", [(3, 29, "need")]),
    ("so we need more staff on Friday", [(6, 21, "need")]),
    ("The allergens on the katsu curry need re-checking after the panko brand change", [(0, 49, "need")]),
    ("The rota needs to be redone", [(0, 27, "needs")]),
    # "I need ..." is as often a want of one's own ("I need a new phone"); "we need to" is a request verb's lead
    ("I need new vouchers designed for the range", []),
    ("we need to fix it", []),
    ("We need it", []),
    # a subject that does not open a clause with a determiner: no subject found
    ("My boss says the menu needs updating", []),
])
def test_a_need_asks_for_its_object(task, expected):
    assert asks(task) == expected


@pytest.mark.parametrize("task, expected", [
    ("The till at Soho won't open the cash drawer", [(0, 27, "open", 16)]),
    ("The dishwasher is broken and we have 200 covers tonight", [(0, 24, "broken", 14)]),
    ("the printer keeps jamming", [(0, 25, "jamming", 11)]),
    ("Our walk-in fridge has stopped working", [(0, 38, "working", 18)]),
    ("My dishwasher is broken", []),                   # private life, not a ticket
    ("A dishwasher is a great invention", []),          # no fault
    ("The old blue machine in the back kitchen by the door is broken", []),  # more than 5 words: no subject read
])
def test_a_fault_reported_of_a_thing(task, expected):
    assert fault_reports(task) == expected


@pytest.mark.parametrize("task, decision", [
    ("We need new vouchers designed for the Christmas gift range", ("index", "clear_candidate", ["vouchers"])),
    ("The vouchers need re-printing before Friday", ("index", "clear_candidate", ["vouchers"])),
    ("The vouchers need to be reprinted", ("index", "clear_candidate", ["vouchers"])),
    ("I need new vouchers designed for the range", ("full", "weak_evidence", [])),
    ("vouchers", ("full", "weak_evidence", [])),
    # the fault word is another skill's trigger ("broken"): the subject names one candidate's trigger alone
    ("The dishwasher is broken and we have 200 covers tonight", ("index", "clear_candidate", ["dish-machine"])),
    ("The dishwasher keeps leaking", ("index", "clear_candidate", ["dish-machine"])),
    ("My dishwasher is broken", ("full", "weak_evidence", [])),
    ("A dishwasher is a great invention", ("full", "weak_evidence", [])),
    ("The dashboard is broken", ("index", "clear_candidate", ["dashboard"])),
    # the subject names two candidates' triggers: which of them is broken is not said (data-platform's case)
    ("The forecast dashboard for supply planning is broken", ("full", "weak_evidence", [])),
])
def test_needs_and_faults_route(router, task, decision):
    d = router.route(task)
    assert (d.mode, d.reason, list(d.skills)) == decision


def test_the_fault_is_shown_as_the_ask(router):
    d = router.route("The dishwasher keeps leaking")
    ev = {c.id: [(p.kind, p.weight, p.detail) for p in c.pieces] for c in d.evidence}
    assert ev["dish-machine"] == [("trigger", 1, 'the fairly common word "dishwasher" (Zipf 3.2)'),
                                  ("ask", 1, 'the task asks for it ("leaking" ...)')]


def test_each_fault_of_a_long_task_is_read_in_its_own_clause():
    # the clause of each fault is looked for just before it, not from the task's start (a pasted log of thousands
    # of "... is broken." lines made each fault scan all the text before it)
    text = "the pump is broken. " * 1000
    got = fault_reports(text)
    assert len(got) == 1000
    assert got[0] == (0, 18, "broken", 8) and got[-1] == (19980, 19998, "broken", 19988)
