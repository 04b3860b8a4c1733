"""Routing round 23 (matcher 34), from shipped cases that routed wrong or
fell back (docs/formats.md §6.10):

- in a sentence about private life, a brand's name in camel case
  ("easyJet") is no identifier of the registry's world;
- a parent named bare ("because mum went into hospital") puts a task in
  private life, as "my mum" does;
- one member of a family or one pet right after "our" is private even
  where the registry writes the word ("Our dog's vet fees" to a pet
  insurer);
- "the kids", "the wife" ... put a task in private life, unless the
  registry writes the word (matcher 37);
- a shape trigger (an acronym, a punctuated trigger) with nothing else of
  the registry's world keeps its weight when the team speaks of its own
  work ("... if we sell it at £24?")."""

import pytest

from conftest import bench_router
from routelens.text.life import private_life


@pytest.mark.parametrize("text, words", [
    ("Had to cancel the family holiday to Crete because mum went into hospital", "mum"),
    ("I'll be at the gym till 9, remind me to call mum after", "mum"),
    ("Grandma does the crossword every morning", "Grandma"),
    ("Dad wants the car back", "Dad"),
    ("the guest's mum called about the booking", None),  # someone else's
    ("her mum is in hospital", None),
    ("a dad of three booked the family room", None),
    ("MoM revenue is down 3%", None),  # month on month
    ("Mum-and-baby room for the spa", None),
    ("Granny Smith apples for the crumble", None),
    ("Race on Gran Turismo tonight", None),
    ("The customer says mum is ill and wants to cancel", None),  # the customer's words
])
def test_a_bare_parent_is_the_writers_own(text, words):
    assert private_life(text) == words


@pytest.mark.parametrize("text, words", [
    ("Our dog's vet fees are huge; any tips to save money?", "Our dog's"),
    ("our son starts school on Monday", "our son"),
    ("our dogs need walking before the kennel opens", None),  # a plural may be the business's
    ("Our customer's dog's vet fees came in", None),  # a word between: the customer's dog
    ("our gym opens at six", None),  # the registry writes it: the business's own
])
def test_one_family_member_or_pet_after_our_is_private_even_where_the_registry_writes_it(text, words):
    assert private_life(text, writes=lambda w: True) == words


@pytest.mark.parametrize("name, task, want", [
    # the shipped cases (insurance consumer_life and private_life, hospitality english, data-platform inflection)
    ("insurance", "easyJet lost my bag in Malaga - can I claim lost baggage on my travel insurance?",
     ("full", "weak_evidence", ())),
    ("insurance", "Had to cancel the family holiday to Crete because mum went into hospital - will the trip "
     "cancellation cover pay out?", ("full", "weak_evidence", ())),
    ("insurance", "Our dog's vet fees are huge; any tips to save money?", ("full", "weak_evidence", ())),
    ("hospitality", "What's the GP% on the new miso cod if we sell it at £24?",
     ("index", "clear_candidate", ("recipe-costing",))),
    ("data-platform", "Two of our DAGs stopped being scheduled overnight",
     ("index", "clear_candidate", ("airflow-dag",))),
    # controls: the same words as the team's work, and the shape trigger without the team's voice
    ("insurance", "easyJet lost the policyholder's bag in Malaga - log the lost baggage claim",
     ("index", "clear_candidate", ("travel-baggage-claim",))),
    ("insurance", "The policyholder had to cancel because her mum went into hospital - log the trip cancellation "
     "claim", ("index", "clear_candidate", ("travel-cancellation-claim",))),
    ("insurance", "Our customer's dog's vet fees came in - pay the vet fees",
     ("index", "clear_candidate", ("pet-vet-claim",))),
    ("hospitality", "What's the GP% on the new miso cod at £24?", ("full", "weak_evidence", ())),
    ("data-platform", "Two DAGs stopped being scheduled overnight", ("full", "weak_evidence", ())),
])
def test_round_23_decisions(name, task, want):
    d = bench_router(name).route(task)
    assert (d.mode, d.reason, d.skills) == want


def test_the_decision_says_the_phrase_stands_in_private_life():
    d = bench_router("insurance").route(
        "easyJet lost my bag in Malaga - can I claim lost baggage on my travel insurance?")
    assert d.message == ('Fell back to the full registry: the only evidence is the phrase "lost baggage", in a '
                          'sentence about private life; nothing else in the task is about travel-baggage-claim')


@pytest.mark.parametrize("text, writes, words", [
    ("Can you help me plan a weekly menu for the kids at home?", False, "the kids"),
    ("Booked a table so the wife can have a night off", False, "the wife"),
    ("the in-laws arrive on Friday", False, "the in-laws"),
    ("Plan the lunch menu for the kids in the toddler room", True, None),  # a nursery writes "kids": its work
    ("The customer says the kids broke the lamp", False, None),  # the customer's words
    ("the kidswear range", False, None),
])
def test_the_family_as_british_english_says_it_is_private(text, writes, words):
    assert private_life(text, writes=lambda w: writes) == words


def test_the_kids_at_home_is_no_work_of_a_restaurant_group():
    # hospitality private_life: menu-planning's phrase in a sentence about the writer's own kids
    d = bench_router("hospitality").route(
        "Can you help me plan a weekly menu for the kids at home? They're fussy eaters.")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())


def test_a_tv_game_show_is_everyday_life():
    # hospitality word_sense: promotions-campaigns' `spin the wheel` on a TV game show (matcher 38)
    from routelens.text.life import life_words

    task = "On the TV game show, contestants spin the wheel to pick the category for each question."
    assert [w for w, _ in life_words(task)] == ["game show", "contestants"]
    d = bench_router("hospitality").route(task)
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    # the trade's own sense, asked for, still routes
    d = bench_router("hospitality").route("Set up a spin the wheel promotion for the Soho launch week")
    assert (d.mode, d.skills) == ("index", ("promotions-campaigns",))
