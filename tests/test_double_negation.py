"""A negation of a verb that itself leaves something out asks for the work
("don't forget to update the changelog", "never skip the code review",
忘れないで, 忘れずに), "rather not" negates, and Japanese "せずに" negates
(docs/formats.md §6.10 `negated`). The failing inputs come from a
newcomer's trial on the bundled registry: "don't forget to" made the
changelog negative evidence and the decision dropped it."""

from pathlib import Path

import pytest

from routelens.routing.router import Router
from routelens.routing.negation import negated

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def router():
    return Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")


@pytest.mark.parametrize("task, expected", [
    # two negations cancel: nothing is negated
    ("Write the release notes and don't forget to update the changelog", []),
    ("never skip the code review before merging", []),
    ("without skipping the tests, deploy it", []),
    ("Don't hesitate to page the on-call", []),
    ("changelogの更新も忘れないで", []),
    ("changelogの更新も忘れずに", []),
    ("テストを省略せずに書いてください", []),
    ("テストをスキップしないで", []),
    # a single negation still reaches as before
    ("Don't deploy the hotfix yet", [(5, 27, "Don't")]),
    ("forget about the refund", [(12, 23, "forget about")]),
    ("I'd rather not translate it; summarize it", [(14, 27, "rather not")]),
    ("翻訳せずに、要約してください", [(0, 2, "せずに")]),
    ("翻訳はせず、要約してください", [(0, 3, "せず")]),
])
def test_negated_spans(task, expected):
    assert negated(task) == expected


@pytest.mark.parametrize("task, mode, reason, skills, composition", [
    # "don't forget to update the changelog" asks for the changelog: the release train is chosen
    ("Write the release notes and don't forget to update the changelog", "index", "clear_candidate",
     ["release", "release-notes", "changelog"], "release-train"),
    ("never skip the code review before merging", "index", "clear_candidate", ["code-review"], None),
    ("Fix the login bug, and don't forget to write unit tests", "index", "clear_candidate", ["test-writing"], None),
    # "rather not" negates translate; "summarize it" alone is one fairly common word with no object
    ("I'd rather not translate it; summarize it", "full", "weak_evidence", [], None),
    ("翻訳せずに、要約してください", "index", "clear_candidate", ["summarization"], None),
])
def test_decisions(router, task, mode, reason, skills, composition):
    d = router.route(task)
    assert (d.mode, d.reason, list(d.skills), d.composition) == (mode, reason, skills, composition)


def test_rather_not_is_negative_evidence_in_the_decision(router):
    d = router.route("I'd rather not translate it; summarize it")
    pieces = {c.id: [(p.kind, p.text, p.weight) for p in c.pieces] for c in d.evidence}
    assert pieces["translation"][0] == ("negated", "translate", 0)
