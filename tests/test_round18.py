"""Routing round 18 (matcher 25): a statement about the world — one English
sentence with a full stop, a finite verb and no request, fault, need or
word of the team's own — whose candidate's one piece is a phrase weighs
it 1 and falls back ``weak_evidence`` (docs/formats.md §6.10 "A statement
about the world"). Each trap below routed before this round; each control
routes as it did."""

import pytest

from conftest import bench_router
from routelens.routing.questions import general_statement
from routelens.routing.faults import fault_reports
from routelens.routing.signals import asks

REGS = ("airline-ops", "hospitality", "insurance", "research-lab", "retail-ops")


@pytest.fixture(scope="module")
def routers():
    return {name: bench_router(name) for name in REGS}


def _statement(text):
    return general_statement(text, asks(text) or asks(text, pronoun=True), fault_reports(text))


@pytest.mark.parametrize("text, expected", [
    ("Investigators have recovered the black box from the airliner that crashed off the coast.", True),
    ("Today is the last day of Wimbledon, with the men's final on Centre Court.", True),
    # no full stop: a ticket's title, not a sentence of news
    ("the airflow dag for daily revenue failed for three days in a row", False),
    # a request, however short
    ("Fix it, Daventry is waiting.", False),
    ("The CAA report on the runway lighting was late, please prepare it.", False),
    # a fault reported of a thing
    ("The dishwasher is broken.", False),
    # the team's own: we, a digit, a customer, a need
    ("We sold out of the katsu curry at lunch.", False),
    ("The fryer in kitchen 2 was replaced.", False),
    ("The customer was refunded twice.", False),
    ("The unaccompanied minor on tomorrow's flight needs an escort.", False),
    # a question is no statement
    ("Was the black box recovered?", False),
    # no finite verb
    ("Storm damage to the roof tiles and the fence.", False),
])
def test_general_statement(text, expected):
    assert _statement(text) is expected


@pytest.mark.parametrize("reg, task, trigger", [
    ("insurance", "Investigators have recovered the black box from the airliner that crashed off the coast.",
     "black box"),
    ("hospitality", "Police were allowed to lock up the protest leaders overnight under the new law.", "lock up"),
    ("hospitality", "Tickets for the band's farewell tour were sold out within ten minutes of going on sale.",
     "sold out"),
    ("research-lab", "The Home Office announced new rules on small boat crossings this morning.", None),
    ("retail-ops", "The sprinter was banned for two years after an anti-doping policy violation.", None),
    ("airline-ops", "Fans are angry about the away stand allocation for the cup final at Wembley.", None),
])
def test_statement_about_the_world_falls_back(routers, reg, task, trigger):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])
    assert "in a statement about the world, which asks for nothing" in d.message
    if trigger is not None:
        assert f'"{trigger}"' in d.message


@pytest.mark.parametrize("reg, task, skills", [
    # the same kind of sentence with a word of the team's own, a request or no full stop still routes
    ("hospitality", "We sold out of the katsu curry at lunch, update the item availability.", ["item-availability"]),
    ("insurance", "Investigators have recovered the black box from the policyholder's van.", ["telematics"]),
    ("airline-ops", "The unaccompanied minor on tomorrow's Sapporo flight needs a handover form and an escort",
     ["special-assistance"]),
])
def test_statements_of_the_teams_work_still_route(routers, reg, task, skills):
    d = routers[reg].route(task)
    assert (d.mode, list(d.skills)) == ("index", skills)


@pytest.mark.parametrize("text, expected", [
    ("I was denied boarding on an overbooked Lufthansa flight last night - what am I entitled to?", "am I entitled"),
    ("Missed a direct debit on the car insurance because I switched banks - will they cancel me?",
     "will they cancel me"),
    ("The other driver's insurer keeps phoning me offering a hire car - should I accept it?", "should I accept it"),
    ("I need to send back the jeans I bought on Zalando", "I bought"),
    ("メルカリで買った服がまだ届かない", "で買った"),
    ("私が乗る予定の便が欠航になった。振替便はどうやって探せばいい？", "私が乗る"),
    # a customer's words, reported
    ("A customer says the jeans I bought never arrived, chase the courier", None),
    # the team's own: no consumer
    ("Can you cancel the policy for the customer?", None),
    ("お客様が買った商品の返品を受け付けて", None),
])
def test_consumer_of_some_business_is_private_life(text, expected):
    from routelens.text.life import private_life
    assert private_life(text) == expected


@pytest.mark.parametrize("reg, task", [
    ("airline-ops", "I was denied boarding on an overbooked Lufthansa flight last night - what am I entitled to?"),
    ("airline-ops", "私が乗る予定の便が欠航になった。振替便はどうやって探せばいい？"),
    ("insurance", "Missed a direct debit on the car insurance because I switched banks - will they cancel me?"),
    ("insurance", "Can I cancel the policy I bought from Churchill last week, am I still in the cooling-off period?"),
    ("retail-ops", "I need to send back the jeans I bought on Zalando, how do I print the return label at home?"),
    ("retail-ops", "メルカリで買った服がまだ届かない。追跡番号を見ても配達状況が更新されない"),
])
def test_consumer_questions_fall_back(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])
    assert "in a sentence about private life" in d.message


@pytest.mark.parametrize("text, expected", [
    ("How did the markets react on the first day of trading after the election?", "How did"),
    ("How many restaurants in Tokyo hold the top Michelin star rating this year?", "How many"),
    # a procedure: a skill's matter
    ("How does clearing work?", None),
    ("How do we onboard a new starter?", None),
])
def test_how_did_and_how_many_ask_about_the_world(text, expected):
    from routelens.routing.questions import general_question
    assert general_question(text) == expected


@pytest.mark.parametrize("reg, task", [
    ("research-lab", "How did the markets react on the first day of trading after the election?"),
    ("retail-ops", "How many restaurants in Tokyo hold the top Michelin star rating this year?"),
])
def test_questions_of_what_happened_fall_back(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason) == ("full", "weak_evidence")
    assert "in a question of general knowledge" in d.message


@pytest.mark.parametrize("reg, task", [
    # "Is", "Can" with a capital: the consumer's words are found in any case
    ("airline-ops", "Is it worth paying for an exit row seat on a 12-hour flight to Bangkok?"),
    ("retail-ops", "Can I swap the size of the trainers I got in the Black Friday sale at Next?"),
])
def test_consumer_words_in_any_case(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])


@pytest.mark.parametrize("reg, task", [
    ("newsroom", "Where can I buy the Japanese edition of One Piece volume 105?"),
    ("research-lab", "Can I pay with Visa at the kiosk in Kyoto station?"),
])
def test_buying_and_paying_as_a_consumer(reg, task):
    d = bench_router(reg).route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])


def test_pta_is_school_life():
    # a PTA treasurer's own expenses are no insurer's expense claim (§6.10: a word of everyday life the registry
    # never writes weakens a rare trigger word no request asks for)
    from routelens.text.life import life_words
    task = "PTAの経費精算ってどうやるの？初めて会計係になりました"
    assert life_words(task) == [("pta", (0, 3))]
    d = bench_router("insurance").route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])


@pytest.mark.parametrize("task, expected", [
    ("レジが固まって会計できない", [(0, 6, "固まっ", 2)]),
    ("ＰＯＳが落ちた、渋谷店", [(0, 7, "落ちた", 3)]),
    ("ﾚｼﾞのレシートが出ない", [(0, 12, "出ない", 8)]),
    ("天気が良い", []),
])
def test_japanese_fault_reports(task, expected):
    assert fault_reports(task) == expected


@pytest.mark.parametrize("reg, task, skills", [
    ("hospitality", "レジが固まって会計できない", ["pos-support"]),
    ("hospitality", "ＰＯＳが落ちた、渋谷店", ["pos-support"]),
    ("hospitality", "ﾚｼﾞのレシートが出ない", ["pos-support"]),
])
def test_japanese_fault_asks_for_its_subject(reg, task, skills):
    d = bench_router(reg).route(task)
    assert (d.mode, list(d.skills)) == ("index", skills)
    assert any(p.kind == "ask" for c in d.evidence if c.id == skills[0] for p in c.pieces)


@pytest.mark.parametrize("reg, task, reason", [
    # a computer's mouse is no lab animal: the trigger does not open the fault's subject
    ("research-lab", "パソコンのマウスが反応しない", "weak_evidence"),
    # the word and the fault, nothing more: underspecified
    ("data-platform", "テストが落ちてます", "weak_evidence"),
])
def test_japanese_fault_that_asks_nothing(reg, task, reason):
    d = bench_router(reg).route(task)
    assert (d.mode, d.reason) == ("full", reason)
