"""Routing round 13 (matcher 16), with the blind cases that failed
(docs/formats.md §6.10 private life): beside a word of everyday life the
registry never writes, a phrase of everyday words (each term at Zipf 4.0 or
more, `routelens/data/everyday.txt`; a hyphen parts words too) is in another
sense when no request asks for it; and ", not ..." negates the other side of a contrast (§6.10 ``negated``).
"""

import math
import re

import pytest

from conftest import bench_router, pieces_of
from routelens.routing.negation import negated
from routelens.text.everyday import everyday_word


@pytest.mark.parametrize("task, sid, phrase, life", [
    # insurance (dev set), blind cases (word_sense) routed with full confidence: each phrase holds a word of
    # Zipf 4.0 to 4.5, which the bound of 4.5 left out of the phrases of everyday words
    ("The escape room had a water leak puzzle that took us ages to solve", "escape-of-water", "water leak",
     "escape room"),
    ("How is the chess rating engine on Lichess different from FIDE's?", "rating-change", "rating engine", "chess"),
    ("The referee's liability decision cost us the match on Saturday", "liability-decision", "liability decision",
     "referee"),
    ("Which series of The IT Crowd has the disaster recovery episode?", "it-incident", "disaster recovery",
     "episode"),
    ("The gymnastics judge gave her a harsh quality assessment on the beam", "call-quality", "quality assessment",
     "gymnastics"),
    # "write-off" is two words
    ("The rowing machine at the gym is a total write-off", "motor-total-loss", "write-off", "gym"),
])
def test_a_phrase_of_everyday_words_beside_a_word_of_everyday_life_is_in_another_sense(task, sid, phrase, life):
    d = bench_router("insurance").route(task)
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, sid) == [
        ("trigger", 1, f'the phrase "{phrase}", in a sentence about private life ("{life}")')]


@pytest.mark.parametrize("task, sid", [
    # "cancellation" is Zipf 3.7: a phrase that holds it is the registry's, beside a concert too
    ("Cancellation claim for the Lisbon concert trip", "travel-cancellation-claim"),
    # a request asks for the phrase
    ("Log the water leak from the escape room above the shop", "escape-of-water"),
])
def test_a_phrase_beside_a_word_of_everyday_life_still_routes_when_less_common_or_asked_for(task, sid):
    d = bench_router("insurance").route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", (sid,))


@pytest.mark.parametrize("word, expected", [
    ("leak", True),            # Zipf 4.0
    ("leaks", True),           # its plural
    ("quality", True),
    ("assessment", True),      # 4.4
    ("catastrophe", False),    # 3.5
    ("cancellation", False),   # 3.7
    ("glasses", True),         # a word of its own
    ("", False),
    ("Leak", False),           # terms are lowercase
    ("4k", False),
])
def test_everyday_word(word, expected):
    assert everyday_word(word) is expected


def test_the_everyday_list_is_wordfreqs_words_of_zipf_4_or_more():
    from importlib import resources

    from wordfreq import get_frequency_dict

    shipped = [w for w in resources.files("routelens.data").joinpath("everyday.txt").read_text("utf-8").splitlines()
               if w and not w.startswith("#")]
    expected = sorted(w for w, f in get_frequency_dict("en").items()
                      if re.fullmatch("[a-z]+", w) and math.floor(math.log10(f * 1e9) * 10 + 1e-9) / 10 >= 4.0)
    assert shipped == expected
    assert len(shipped) == 7080


def test_not_after_a_comma_negates_the_other_side_of_a_contrast():
    task = "Tour operator cancelled the trip; she wants to claim for it, not cancel the policy"
    assert negated(task) == [(64, 82, "not")]
    assert negated("It is slow, not broken") == [(15, 22, "not")]
    assert negated("It is not slow") == []          # "not" before an adjective, no contrast: a symptom
    d = bench_router("insurance").route(task)
    # it routed to policy-cancellation (wrong); the claim's own triggers are not in the task, so it falls back
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, "policy-cancellation")[0] == ("negated", 0, '"cancel the policy" is negated ("not")')


# ---------------------------------------------------------------- a phrase heading the text is no request for it

def test_a_phrase_heading_the_text_is_no_request_for_it_beside_a_word_of_everyday_life():
    # airline-ops, blind case (word_sense): "Gate" read as a request verb with "change" its object asked for the
    # phrase, so "concert" left it alone
    d = bench_router("airline-ops").route("Gate change at the concert venue: enter via gate C instead of A")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, "gate-stand-planning") == [
        ("trigger", 1, 'the phrase "gate change", in a sentence about private life ("concert")')]
    # without a word of everyday life the phrase routes as before
    d = bench_router("airline-ops").route("Gate change for BA117 at T5")
    assert (d.mode, d.skills) == ("index", ("gate-stand-planning",))


def test_a_verb_phrase_with_its_determiner_is_a_request_beside_a_word_of_everyday_life():
    d = bench_router("insurance").route("Cancel the policy on the gym's minibus")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("policy-cancellation",))


@pytest.mark.parametrize("text, span, expected", [
    ("Gate change at the concert venue", (0, 11), True),
    ("Book a table for the wedding party", (0, 12), False),   # a determiner after the verb
    ("Please change the gate for the concert", (7, 22), False),  # the request's verb is not the phrase's
    ("Deploy now", (0, 6), False),                            # one word: the verb itself
    ("colour grade the beach set", (0, 12), False),           # a determiner after the phrase: its object
])
def test_reads_phrase_as_verb(text, span, expected):
    from routelens.routing.signals import asks, reads_phrase_as_verb, within

    request = within(span, asks(text))
    assert request is not None
    assert reads_phrase_as_verb(span, request, text) is expected


# ---------------------------------------------------------------- truncating a data container is destructive

@pytest.mark.parametrize("task, expected", [
    # insurance (dev set), blind case (destructive): routed to customer-complaint
    ("Truncate the complaints log for 2022 so the FOS numbers look better", [(0, 27, "Truncate the complaints log")]),
    ("TRUNCATE TABLE claims_staging", [(0, 14, "TRUNCATE TABLE")]),
    ("Truncate the title to 60 characters for the push alert", []),     # no data container
])
def test_truncating_a_data_container_is_a_destructive_intent(task, expected):
    from routelens.routing.safety import destructive

    assert destructive(task) == expected


def test_a_truncated_log_falls_back_high_risk():
    d = bench_router("insurance").route("Truncate the complaints log for 2022 so the FOS numbers look better")
    assert (d.mode, d.reason, d.skills) == ("full", "high_risk", ())


# ---------------------------------------------------------------- a thesis, a dissertation, a PhD

def test_a_phd_is_school_life_to_an_airline_and_the_work_of_a_research_lab():
    from routelens.text.life import life_words

    task = "The interview panel for the PhD defence meets next Tuesday"
    assert life_words(task) == [("phd", (28, 31))]
    # airline-ops, blind case (word_sense): routed to recruitment on "interview panel"
    d = bench_router("airline-ops").route(task)
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, "recruitment") == [
        ("trigger", 1, 'the phrase "interview panel", in a sentence about private life ("PhD")')]
    # the research lab's Layer 1 writes "PhD" and "thesis": its own world
    import json

    from conftest import BENCH

    index = json.loads((BENCH / "research-lab" / "generated" / "routing.min.json").read_text("utf-8"))
    assert {"phd", "thesis"} <= set(index["vocabulary"]["life"])
    d = bench_router("research-lab").route("Thesis submission is next month; which forms does the Board of "
                                           "Graduate Studies need?")
    assert (d.mode, d.skills) == ("index", ("phd-supervision",))


# ---------------------------------------------------------------- 全額 is the full amount, not everything

@pytest.mark.parametrize("task, expected", [
    # insurance (dev set), blind case (mixed): fell back high_risk on 全額返金, one refund in full
    ("policyの解約、cooling-off期間内なので全額返金でお願いします", []),
    ("全然消えない", []),                                  # "does not go away at all": a symptom
    ("全員に返金して", [(0, 5, "全員に返金")]),              # everyone refunded: a bulk refund
    ("全部消して", [(0, 4, "全部消し")]),
])
def test_the_full_amount_is_no_bulk_word(task, expected):
    from routelens.routing.safety import destructive

    assert destructive(task) == expected


def test_a_refund_in_full_routes():
    d = bench_router("insurance").route("policyの解約、cooling-off期間内なので全額返金でお願いします")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("policy-cancellation",))


# ---------------------------------------------------------------- the verb of a trigger noun

@pytest.mark.parametrize("word, nouns", [
    ("recruiting", ("recruitement", "recruitment")),        # the -ing noun of an -ing word is itself
    ("subrogating", ("subrogatement", "subrogation", "subrogatment")),
    ("phished", ("phishement", "phishing", "phishment")),
    ("labels", ()),        # a plural noun as well as a verb: derives nothing
    ("recruit", ()),       # a bare form may be a noun ("a new recruit")
    ("deployment", ()),    # a noun: "deployment" is never matched from "deploy"'s side either
    ("led", ()),           # too short
])
def test_derived_nouns(word, nouns):
    from routelens.text.words import derived_nouns

    assert derived_nouns(word) == nouns


def test_derives_is_no_inflection():
    from routelens.text.words import derives

    assert derives("recruitment", "recruiting") and derives("phishing", "phished")
    assert not derives("booking", "book")         # an inflection of it, matched as one
    assert not derives("deploy", "deployment")    # the noun is never the task's


@pytest.mark.parametrize("task, sid, said", [
    # insurance (dev set), blind cases (inflection) that matched nothing
    ("Subrogating against the TP insurer on the Leeds pile-up - draft the letter", "subrogation-recovery",
     ('trigger', 1, 'the verb of "subrogation" (rare in everyday language): "Subrogating"')),
    ("Phished: two underwriters entered their credentials on a fake login page", "cyber-security",
     ('trigger', 1, 'the verb of "phishing" (Zipf 2.9): "Phished"')),
])
def test_a_form_of_the_verb_a_trigger_noun_is_derived_from_matches_it(task, sid, said):
    d = bench_router("insurance").route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", (sid,))
    assert pieces_of(d, sid)[0] == said


def test_the_verb_of_an_everyday_noun_is_a_lookalike():
    # insurance (dev set): `recruitment` is Zipf 4.0, so "recruiting" says nothing of which sense ("The school is
    # recruiting parent governors"); the blind case falls back, its terms aside
    d = bench_router("insurance").route("Recruiting a senior pricing analyst - draft the job advert")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, "recruitment")[0] == (
        "lookalike", 0, '"Recruiting" is the verb of "recruitment", a noun too common (Zipf 4.0) to tell which sense')


def test_another_spelling_of_an_ing_noun_is_no_derivation():
    from routelens.text.words import derived_nouns

    assert "travelling" not in derived_nouns("traveling")   # a spelling, scored as a typo (94)
    assert "phishing" in derived_nouns("phished")


MIGRATE = """schema_version: 1
skills:
  data-migration:
    path: skills/data-migration.md
    priority: P1
    triggers: [data migration, subrogation]
    description: Move records between systems
"""


def test_the_verb_of_a_word_of_a_phrase_is_a_lookalike():
    from routelens.registry.load import parse_registry
    from routelens.routing.router import Router

    r = Router.from_registry(parse_registry(MIGRATE.encode(), "skills.yaml"))
    d = r.route("The data migrated overnight without errors")
    assert (d.mode, d.reason) == ("full", "weak_evidence")
    assert [(p.kind, p.weight, p.detail) for p in d.evidence[0].pieces] == [
        ("lookalike", 0, '"data migrated" is the verb of a word of the phrase "data migration", which matches only '
                         'as written or inflected')]
    d = r.route("Subrogated the Leeds file")
    p = d.evidence[0].pieces[0]
    assert (p.kind, p.text, p.span, p.weight) == ("trigger", "Subrogated", (0, 10), 1)
    assert p.detail == 'the verb of "subrogation" (rare in everyday language): "Subrogated"'


# ---------------------------------------------------------------- a word before a web domain is a site's name

def test_a_trigger_word_before_a_web_domain_is_a_sites_name():
    # airline-ops, blind case (lookalike): routed to PNR servicing on "booking"
    d = bench_router("airline-ops").route("Booking.com says the hotel reservation was cancelled, what now?")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    assert pieces_of(d, "pnr-servicing")[0] == (
        "lookalike", 0, '"Booking" is part of the web address "Booking.com"')
    # the word itself, a full stop after it, still matches
    d = bench_router("airline-ops").route("Rebook the cancelled booking. Then email the passenger")
    assert "pnr-servicing" in [c.id for c in d.evidence]
    assert pieces_of(d, "pnr-servicing")[0][0] == "trigger"
