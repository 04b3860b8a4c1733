"""Big registries whose trigger words are shared by many skills (issue 14):
a decision's JSON lists the best matches and says how many there were
(docs/formats.md §6.1 ``matches_total``), and candidates that hold the same
matched triggers and nothing of their own share one computed evidence."""

from __future__ import annotations

import json

from routelens.registry import parse_registry
from routelens.routing.decision import MAX_LISTED
from routelens.routing.router import Router


def _registry(n: int) -> str:
    """``n`` skills whose only trigger is the everyday word "review", one
    skill with the phrase "security audit" (its id sorts last) and one with
    "deploy" and "deploy model"."""
    out = ["schema_version: 1", "skills:"]
    for i in range(n):
        out += [f"  aa-{i:02d}:", f"    path: skills/aa-{i:02d}.md", "    priority: P2", "    triggers:", "      - review"]
    out += ["  zz-audit:", "    path: skills/zz-audit.md", "    priority: P2", "    triggers:", "      - security audit"]
    out += ["  models:", "    path: skills/models.md", "    priority: P2", "    triggers:", "      - deploy", "      - deploy model"]
    out += ["  ship-a:", "    path: skills/ship-a.md", "    priority: P2", "    triggers:", "      - deploy"]
    out += ["  ship-b:", "    path: skills/ship-b.md", "    priority: P2", "    triggers:", "      - deploy"]
    return "\n".join(out) + "\n"


def _router(n: int) -> Router:
    return Router.from_registry(parse_registry(_registry(n).encode(), "skills.yaml"))


def test_json_lists_the_best_matches_and_the_selected_one_below_the_cut():
    d = _router(30).route("review the security code audit")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("zz-audit",))
    # the Python decision keeps every match; the JSON lists the first MAX_LISTED and the selected one
    assert [m.id for m in d.matches] == [f"aa-{i:02d}" for i in range(30)] + ["zz-audit"]
    assert d.matches[-1].score == 88.0
    j = json.loads(json.dumps(d.to_dict()))
    assert MAX_LISTED == 20
    assert [m["id"] for m in j["matches"]] == [f"aa-{i:02d}" for i in range(20)] + ["zz-audit"]
    assert j["matches_total"] == 31
    assert [c["id"] for c in j["evidence"]] == [m["id"] for m in j["matches"]]
    assert j["evidence_total"] == 31
    zz = j["evidence"][-1]
    assert (zz["selected"], zz["weight"], zz["why"]) == (
        True, 2, 'selected: "zz-audit": the phrase "security audit", loose')


def test_a_short_list_is_not_cut():
    d = _router(3).route("review the security code audit").to_dict()
    assert [m["id"] for m in d["matches"]] == ["aa-00", "aa-01", "aa-02", "zz-audit"]
    assert d["matches_total"] == d["evidence_total"] == 4


def test_a_fallback_is_cut_the_same_way():
    d = _router(30).route("review it")
    assert (d.mode, d.reason) == ("full", "weak_evidence")
    j = d.to_dict()
    assert len(j["matches"]) == 20 and j["matches_total"] == 30
    assert [c["why"] for c in j["evidence"][:2]] == [
        'not selected: weak evidence (the everyday word "review" (Zipf 5.1))'] * 2


def test_shared_evidence_is_the_same_as_each_candidates_own():
    # ship-a and ship-b hold the same matched trigger and nothing of their own: one evidence, shared;
    # models owns the longer trigger holding "deploy", so its evidence is its own
    d = _router(2).route("deploy model now")
    ev = {c.id: c for c in d.evidence}
    assert set(ev) == {"models", "ship-a", "ship-b"}
    assert [p.to_dict() for p in ev["models"].pieces] == [
        {"kind": "trigger", "text": "deploy model", "span": [0, 12], "weight": 2, "detail": 'the phrase "deploy model"',
         "trigger": "deploy model"}]
    for sid in ("ship-a", "ship-b"):
        assert [p.to_dict() for p in ev[sid].pieces] == [
            {"kind": "yields", "text": "deploy", "span": [0, 6], "weight": 0,
             "detail": '"deploy" lies inside "deploy model" of "models"', "trigger": "deploy"}]
    assert ev["ship-a"].pieces is ev["ship-b"].pieces
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("models",))


def test_only_candidates_that_can_change_the_decision_are_read_back():
    # ship-c is disabled. Inside "deploy model" its "deploy" does not count, so it can change nothing
    # but the lists: its range is not read and it is not said dropped (docs/formats.md §6.6). On its
    # own, "deploy" counts, so ship-c is read and dropped.
    text = _registry(1) + "\n".join(["  ship-c:", "    path: skills/ship-c.md", "    priority: P2",
                                     "    status: disabled", "    triggers:", "      - deploy"]) + "\n"
    r = Router.from_registry(parse_registry(text.encode(), "skills.yaml"))
    d = r.route("deploy model now")
    assert (d.mode, d.reason, d.skills, d.dropped) == ("index", "clear_candidate", ("models",), ())
    assert {c.id: c.why for c in d.evidence}["ship-c"] == (
        "not selected: its trigger lies inside a longer trigger of another skill")
    assert ("skill", "ship-c") not in r.entries._expanded
    d = r.route("deploy it")
    assert d.dropped == (("ship-c", "disabled"),)
    assert {c.id: c.why for c in d.evidence}["ship-c"] == "dropped: the skill is disabled"
    assert (d.mode, d.reason) == ("full", "weak_evidence")


def test_the_inverted_index_lists_each_trigger_text_once():
    """The postings hold distinct trigger texts, each with every trigger that
    has it: 30 skills with "review" are one posting, and a task reaching it
    gets a match for each of the 30 (with its own trigger order as the tie)."""
    from routelens.routing.matching import TriggerMatcher, prepare

    m = TriggerMatcher([(f"s{i:02d}", ["review"] if i % 2 else ["audit", "review"]) for i in range(30)]
                       + [("zz", ["code review"])])
    review = [x for x, tids in enumerate(m._text_tids) if m.triggers[tids[0]].text == "review"]
    assert len(review) == 1
    tids = m._text_tids[review[0]]
    assert [m.triggers[t].owner for t in tids] == [f"s{i:02d}" for i in range(30)]
    assert m._word_post["review"].count(review[0]) == 1
    assert len(m._word_post["review"]) == 2  # "review" and "code review"
    hits: dict = {}
    got = m.match(prepare("please review this"), 80.0, 5, hits)
    assert sorted(got) == [f"s{i:02d}" for i in range(30)] + ["zz"]
    assert got["zz"].trigger == "code review" and got["zz"].score < 100.0
    del got["zz"]
    assert {(x.score, x.trigger, x.span, x.kind) for x in got.values()} == {(100.0, "review", (7, 13), "exact")}
    assert all(len(hits[o]) == 1 for o in got)
    # the same from a matcher read back from its pickled state (the matcher cache)
    import pickle
    again = pickle.loads(pickle.dumps(m))
    assert {k: v for k, v in again.match(prepare("please review this"), 80.0, 5, {}).items() if k != "zz"} == got


def test_a_batch_collects_garbage_less_often_and_restores_the_collector():
    import gc

    from routelens.gcpause import BATCH_THRESHOLDS, batch_collection

    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with batch_collection():
        assert gc.get_threshold() == BATCH_THRESHOLDS
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


_COMPOSED = """schema_version: 1
skills:
  alpha:
    path: skills/alpha.md
    priority: P2
    triggers: [alpha work]
  beta:
    path: skills/beta.md
    priority: P2
    triggers: [beta work]
  gamma:
    path: skills/gamma.md
    priority: P2
    triggers: [gamma work]
  alpha-beta:
    path: skills/alpha-beta.md
    priority: P2
    triggers: [joint work]
composition:
  c-plain:
    - alpha
    - beta
  c-flow: [alpha-beta, gamma]
  c-quoted:
    - "gamma"
    - 'alpha'
  c-other:
    - alpha-beta  # alpha is no member here, only a part of this word
"""


def test_only_the_compositions_that_can_hold_a_candidate_are_read():
    """compositions_holding reads a plain range only when the skill id is a
    word of it, and always reads a range with quotes (or an alias, a tag):
    the same compositions as reading them all, in id order."""
    from routelens.artifacts.index_file import parse_index
    from routelens.artifacts.index_file import index_bytes
    from routelens.routing.entries import Entries

    reg = parse_registry(_COMPOSED.encode(), "skills.yaml")
    entries = Entries.from_index(reg.text, "skills.yaml", parse_index(index_bytes(reg)), registry=reg)
    assert entries.compositions_holding("beta") == ("c-plain",)
    read = {k[1] for k in entries._cache if k[0] == "composition"}
    assert read == {"c-plain", "c-quoted"}  # c-flow and c-other do not hold the word "beta"
    assert entries.compositions_holding("alpha") == ("c-plain", "c-quoted")
    assert entries.compositions_holding("gamma") == ("c-flow", "c-quoted")
    assert entries.compositions_holding("alpha-beta") == ("c-flow", "c-other")
    assert entries.compositions_holding("nobody") == ()
    everything = Entries.from_index(reg.text, "skills.yaml", parse_index(index_bytes(reg)), registry=reg)
    _, by_member = everything.composition_sets()
    for sid in ("alpha", "beta", "gamma", "alpha-beta"):
        assert entries.compositions_holding(sid) == by_member.get(sid, ())
    assert entries.composition_members_of("c-quoted") == ("gamma", "alpha")
    # and the decision: two candidates of one composition route to it
    d = Router.from_registry(reg).route("alpha work and beta work")
    assert (d.mode, d.reason, d.composition, d.skills) == ("index", "clear_candidate", "c-plain", ("alpha", "beta"))


def test_the_routing_section_is_found_among_the_top_level_lines_only():
    """_verify_settings finds the registry's `routing:` line through the
    top-level lines (a regular expression over the text) at the line an
    editor numbers, as the line-by-line scan did: indented, commented and
    longer keys are no routing section."""
    import random

    from routelens.routing.sections import routing_line as by_regex
    from routelens.text.canonical import editor_lines, holds_key

    def by_lines(text):
        return next((i for i, line in enumerate(editor_lines(text)) if line[:1] not in ("", " ", "\t", "#")
                     and holds_key(line, "routing")), None)

    assert by_regex("skills:\n  routing:\n#routing:\nroutingx: 1\n? routing\n") == 4
    rng = random.Random(5)
    parts = ["routing:", '"routing" :', "? routing", " routing:", "#routing:", "\trouting:", "routingx:", "\r", ""]
    for _ in range(5000):
        t = "\n".join(rng.choice(parts) for _ in range(rng.randint(0, 6))) + rng.choice(["", "\n"])
        assert by_regex(t) == by_lines(t), repr(t)


def test_owners_of_one_text_are_offered_together_in_the_order_of_single_triggers():
    """The skill matcher offers a text's owners together, text by text; the
    hits it collects and the order of their owners (which the evidence's
    span look-ups read first) are the same as when each trigger was taken
    alone in (bound, trigger id) order: "zeta run" is reached first (its
    first trigger is a's), yet b's hit (trigger 1) comes before c's, and
    c's "beta run" (trigger 2) before its "zeta run" (trigger 3)."""
    import pickle

    from routelens.routing.matching import TriggerMatcher, prepare

    m = TriggerMatcher([("a", ["zeta run"]), ("b", ["alpha run"]), ("c", ["beta run", "zeta run"])], floor=60.0)
    for matcher in (m, pickle.loads(pickle.dumps(m))):
        hits: dict = {}
        got = matcher.match(prepare("alpha run, beta run and zeta run"), 80.0, 5, hits)
        assert list(hits) == ["a", "b", "c"]
        assert {o: [(x.trigger, x.span) for x in hs] for o, hs in hits.items()} == {
            "a": [("zeta run", (24, 32))], "b": [("alpha run", (0, 9))],
            "c": [("beta run", (11, 19)), ("zeta run", (24, 32))]}
        assert {o: (x.trigger, x.score) for o, x in got.items()} == {
            "a": ("zeta run", 100.0), "b": ("alpha run", 100.0), "c": ("beta run", 100.0)}


def test_near_misses_stop_where_the_kth_best_score_below_the_threshold_beats_every_bound_left():
    """Below the threshold, triggers are still scored one by one until the
    near misses are known: with one near miss asked for, the matcher stops
    after the best one, and with none after the triggers whose bound reaches
    the threshold ("deploy model" has both its words in the task: it is
    scored, and falls below)."""
    from routelens.routing.matching import TriggerMatcher, prepare

    m = TriggerMatcher([("a", ["deploy model"]), ("b", ["deploy mode"]), ("c", ["deploy"]),
                        ("d", ["deploy modem fleet"])], floor=40.0)
    p = prepare("deploy the model")
    every = m.match(p, 99.0, 10)
    assert every["c"].score == 100.0 and all(every[o].score < 99.0 for o in every if o != "c")
    one = m.match(p, 99.0, 1)
    best_below = max(x.score for o, x in every.items() if o != "c")
    assert sorted(x.score for x in one.values()) [-2:] == [best_below, 100.0]
    assert list(m.match(p, 99.0, 0)) == ["a", "c"]


def test_the_owners_a_text_keeps_between_tasks_give_what_a_fresh_matcher_gives():
    """A reached trigger text keeps its owners (trigger id, owner, order) for
    the next tasks (``TriggerMatcher._text_members``): a matcher that routed
    other tasks first, and one read back from its pickled state after them
    (which keeps none of them), give a task the same matches and hits, in the
    same order, as a fresh matcher."""
    import pickle

    from routelens.routing.matching import TriggerMatcher, prepare

    pairs = [(f"s{i:02d}", ["review", "code review"] if i % 3 == 0 else ["review"]) for i in range(12)]
    pairs += [("t", ["review code"]), ("u", ["deploy"])]
    fresh = TriggerMatcher(pairs)
    used = TriggerMatcher(pairs)
    for task in ("deploy it", "please review the code", "a code review", "review"):
        used.match(prepare(task), 80.0, 5, {})
    assert used._members is not None and sum(x is not None for x in used._members) >= 3
    again = pickle.loads(pickle.dumps(used))
    assert again._members is None and again._bounds is None
    task = prepare("code review, then review the deploy")
    want_hits: dict = {}
    want = fresh.match(task, 80.0, 5, want_hits)
    assert want["s00"].trigger == "code review" and want["s01"].trigger == "review" and "u" in want
    for matcher in (used, again):
        hits: dict = {}
        assert matcher.match(task, 80.0, 5, hits) == want
        assert list(hits) == list(want_hits)
        assert hits == want_hits
