"""Labelled routing cases -> metrics, and the quality bar of issue 3 on the
shipped cases (``tests/cases/routing.yaml`` on the bundled ``skills.yaml``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from routelens.errors import CasesError
from routelens.registry import load_registry, parse_registry
from routelens.routing.router import Router
from routelens.tools.evaluate import QUALITY_BAR, Case, evaluate, load_cases, parse_cases

ROOT = Path(__file__).resolve().parents[1]

REGISTRY = b"""\
schema_version: 1
skills:
  ci-fix:
    path: skills/ci-fix.md
    priority: P0
    triggers: [ci failure]
  refactoring:
    path: skills/refactoring.md
    priority: P1
    triggers: [refactor]
  terraform:
    path: skills/terraform.md
    priority: P1
    triggers: [terraform]
routing:
  high_risk: [rm -rf]
"""

CASES = """\
cases:
  - {task: "the ci failure again", expect: [ci-fix], mode: index, category: english}
  - {task: "refactor the parser", expect: [terraform], mode: index, category: english}
  - {task: "refactor the terraform", expect: [refactoring, terraform], mode: full, must_fallback: true, category: ambiguous}
  - {task: "rm -rf it", mode: full, must_fallback: true, category: high_risk}
  - {task: "tell me a joke", mode: full, must_fallback: true, category: offtopic}
  - {task: "refactor a joke", mode: full, must_fallback: true, category: offtopic}
  - {task: "please migrate the database", expect: [ci-fix], mode: index, category: english}
"""


@pytest.fixture(scope="module")
def router() -> Router:
    return Router.from_registry(parse_registry(REGISTRY, "skills.yaml"))


def test_metrics_have_exact_values(router):
    rep = evaluate(router, parse_cases(CASES, "cases.yaml"))
    assert [r.outcome for r in rep.results] == [
        "correct", "wrong_route", "fallback_ok", "fallback_ok", "fallback_ok", "false_route", "missed"]
    assert rep.precision == pytest.approx(1 / 3)  # 3 routed, 1 right
    assert rep.coverage == pytest.approx(2 / 3)  # 3 routable, 2 routed
    assert rep.must_fallback_recall == pytest.approx(3 / 4)
    assert rep.offtopic_false_route_rate == pytest.approx(1 / 2)
    assert rep.categories["english"] == {"cases": 3, "routed": 2, "correct": 1, "fallback": 1, "wrong": 1, "missed": 1}
    assert rep.categories["offtopic"] == {"cases": 2, "routed": 1, "correct": 1, "fallback": 1, "wrong": 1, "missed": 0}
    assert [r.case.task for r in rep.wrong] == ["refactor the parser", "refactor a joke"]
    assert not rep.passed
    assert rep.failures == [
        "precision 0.333 is not >= 0.99", "coverage 0.667 is not >= 0.9",
        "must_fallback_recall 0.750 is not >= 1.0", "offtopic_false_route_rate 0.500 is not <= 0.0"]


def test_expect_all_needs_every_listed_skill_and_paraphrases_are_counted_apart(router):
    cases = parse_cases(
        "cases:\n"
        "  - {task: \"the ci failure again\", expect: [ci-fix, refactoring], expect_all: true, note: two needs}\n"
        "  - {task: \"the ci failure again\", expect: [ci-fix, refactoring]}\n"
        "  - {task: \"why is the build red\", expect: [ci-fix], category: paraphrase}\n", "cases.yaml")
    assert (cases[0].expect_all, cases[0].note, cases[1].expect_all, cases[1].note) == (True, "two needs", False, None)
    rep = evaluate(router, cases)
    # selecting only some of the listed skills is wrong when every one is needed
    assert [r.outcome for r in rep.results] == ["wrong_route", "correct", "missed"]
    assert (rep.coverage, rep.counts["paraphrase"], rep.counts["paraphrase_routed"]) == (1.0, 1, 0)


def test_expect_all_must_be_a_boolean():
    with pytest.raises(CasesError) as exc:
        parse_cases("cases:\n  - {task: x, expect: [a], expect_all: sometimes}\n", "c.yaml")
    assert [str(d) for d in exc.value.diagnostics] == ["c.yaml:2:40: cases[0].expect_all: expect_all must be true or false"]


def test_must_fallback_must_be_a_plain_boolean_and_each_bad_case_is_named():
    with pytest.raises(CasesError) as exc:
        parse_cases("cases:\n  - {task: x, must_fallback: \"true\"}\n  - {task: y, must_fallback: [true]}\n"
                    "  - {task: z, must_fallback: ~, expect_all: no}\n", "c.yaml")
    assert [str(d) for d in exc.value.diagnostics] == [
        "c.yaml:2:30: cases[0].must_fallback: must_fallback must be true or false",  # a quoted "true" is text
        "c.yaml:3:30: cases[1].must_fallback: must_fallback must be true or false",
        "c.yaml:4:45: cases[2].expect_all: expect_all must be true or false"]  # YAML 1.2: `no` is not a boolean


def test_cases_keep_line_numbers_and_defaults():
    cases = parse_cases(CASES, "cases.yaml")
    assert cases[0] == Case("the ci failure again", ("ci-fix",), None, "index", False, "english", 2)
    assert cases[3].expects_fallback and not cases[3].routable


def test_bad_cases_are_reported_together_with_lines():
    text = ('cases:\n  - task: [1.10]\n    expect: [a]\n  - task: "ok"\n    mode: quick\n  - task: "x"\n'
            '    must_fallback: maybe\n')
    with pytest.raises(CasesError) as exc:
        parse_cases(text, "bad.yaml")
    got = [(d.line, d.column, d.key_path) for d in exc.value.diagnostics]
    assert got == [(2, 11, "cases[0].task"), (5, 11, "cases[1].mode"), (7, 20, "cases[2].must_fallback")]
    assert str(exc.value.diagnostics[0]) == "bad.yaml:2:11: cases[0].task: task must be text (a string), not a list or a mapping"


def test_plain_scalars_are_read_as_written_like_the_registry():
    # user trial: `task: 5` was rejected ("quote it"); the registry reads plain scalars as text
    cases = parse_cases("cases:\n  - task: 5\n    expect: x\n  - task: 1.10\n    must_fallback: TRUE\n  - task:\n",
                        "c.yaml")
    assert [(c.task, c.expect, c.must_fallback, c.line) for c in cases] == [
        ("5", ("x",), False, 2), ("1.10", (), True, 4), ("", (), False, 6)]


def test_lines_are_counted_as_an_editor_shows_them():
    # U+2028 / U+0085 in a comment do not end a line (the old reader counted them as line breaks)
    text = "cases:\n  # see\u2028the notes\u0085here\n  - task: \"x\"\n    mode: quick\n"
    with pytest.raises(CasesError) as exc:
        parse_cases(text.encode("utf-8"), "c.yaml")
    assert [str(d) for d in exc.value.diagnostics] == [
        "c.yaml:4:11: cases[0].mode: unknown mode 'quick' (fast, index or full)"]
    assert parse_cases(text.replace("quick", "full"), "c.yaml")[0].line == 3


def test_unknown_ids_are_errors_in_the_cases_file_not_routing_mistakes(router):
    text = ('cases:\n  - {task: "the ci failure again", expect: [ci-fix], mode: index}\n'
            '  - task: "refactor the parser"\n    expect: [refactoring, refactorng]\n'
            '  - task: "terraform plan"\n    composition: infra-pair\n    expect: [terraform]\n')
    cases = parse_cases(text, "c.yaml")
    with pytest.raises(CasesError) as exc:
        evaluate(router, cases)
    assert [str(d) for d in exc.value.diagnostics] == [
        "c.yaml:4:27: cases[1].expect[1]: unknown skill 'refactorng'; did you mean 'refactoring'?",
        "c.yaml:6:18: cases[2].composition: unknown composition 'infra-pair'"]


def test_yaml_syntax_error_names_the_line(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("cases:\n  - task: [unclosed\n", encoding="utf-8")
    with pytest.raises(CasesError) as exc:
        load_cases(p)
    d = exc.value.diagnostics[0]
    assert (d.file, d.line, d.column) == (str(p), 2, 11)  # the unclosed '[' (the parser stopped on line 3)
    assert d.message.startswith("YAML syntax error: the [ opened on line 2, column 11 is not closed")


def test_quality_bar_on_the_shipped_cases():
    """The bar of issue 3, measured on tests/cases/routing.yaml with the bundled
    registry (index built in memory, so this does not depend on generated/)."""
    cases = load_cases(ROOT / "tests" / "cases" / "routing.yaml")
    assert len(cases) >= 150
    rep = evaluate(Router.from_registry(load_registry(ROOT / "skills.yaml")), cases)
    wrong = [(r.case.line, r.case.task[:60], r.decision.reason, r.decision.skills) for r in rep.wrong]
    assert rep.precision >= QUALITY_BAR["precision"][1], wrong
    assert rep.must_fallback_recall == 1.0, wrong
    assert rep.offtopic_false_route_rate <= QUALITY_BAR["offtopic_false_route_rate"][1], wrong
    # coverage meets the bar of 0.90 since matcher 6 (a fairly common word the task asks for routes: "debug why
    # the worker hangs"; a wish, "このクエリをもっと速くしたい", is no ask); the exact figure is pinned so a change is seen
    # matcher 7: a typo of a fairly common word the task asks for routes ("write the postmortm", "translte this")
    # round 6: "fix the flaky test and update the readme" relabelled from ambiguous to both selected (two requests)
    # and selected (matcher 9: a bare "and" followed by a request verb parts two asks)
    assert (rep.counts["routable_routed"], rep.counts["routable"]) == (159, 168), [r.case.task for r in rep.missed]  # the bundled registry learnt リファクタリング (round 18)
    assert rep.failures == []


def test_a_case_key_close_to_a_known_one_is_an_error_at_the_key():
    # was: `must_falback: true` was ignored and the case scored as a routable one
    with pytest.raises(CasesError) as exc:
        parse_cases("cases:\n  - task: review my diff\n    must_falback: true\n  - {task: x, categroy: y}\n"
                    "  - {task: z, source: a ticket}\n", "c.yaml")
    assert [str(d) for d in exc.value.diagnostics] == [
        "c.yaml:3:5: cases[0].must_falback: unknown key `must_falback`: did you mean `must_fallback`?",
        "c.yaml:4:15: cases[1].categroy: unknown key `categroy`: did you mean `category`?"]


def test_closest_gives_a_hint_only_when_close():
    from routelens.text.words import closest
    assert closest("satus", ["path", "status"]) == "status"
    assert closest("status", ["path", "status"]) is None  # a known key needs no hint
    assert closest("owner", ["path", "priority", "triggers", "status"]) is None


def test_one_run_names_every_mistake_of_every_case():
    """A case stopped at its first mistake, so fixing a cases file took a run
    per mistake (a typo, then the mode, then the flag). Each case now reports
    every field that is wrong, in line order; a `tsk:` typo is not also
    reported as a missing task."""
    text = ("cases:\n"
            "  - task: deploy it\n"
            "    mode: quick\n"
            "    must_falback: true\n"
            "    expect_all: maybe\n"
            "  - tsk: review my diff\n"
            "    category: [a]\n")
    with pytest.raises(CasesError) as exc:
        parse_cases(text, "c.yaml")
    assert [(d.line, d.column, d.key_path, d.message) for d in exc.value.diagnostics] == [
        (3, 11, "cases[0].mode", "unknown mode 'quick' (fast, index or full)"),
        (4, 5, "cases[0].must_falback", "unknown key `must_falback`: did you mean `must_fallback`?"),
        (5, 17, "cases[0].expect_all", "expect_all must be true or false"),
        (6, 5, "cases[1].tsk", "unknown key `tsk`: did you mean `task`?"),
        (7, 15, "cases[1].category", "category must be a label (text)"),
    ]


def test_cases_that_measure_nothing_fail(tmp_path, capsys):
    """A newcomer's trial: `cases: [{task: x}]` (no label) passed the bar with every metric n/a."""
    from routelens.cli import main
    p = tmp_path / "c.yaml"
    p.write_text("cases:\n  - {task: x}\n", encoding="utf-8")
    assert main(["eval", str(p), "--demo"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "FAIL: below the quality bar: nothing measured: no case is routable, must_fallback or off-topic, and none "
        "routed (give cases `expect`, `composition`, `must_fallback: true` or `category: offtopic`) (not measured, "
        "no case behind it: confident precision, coverage, must-fallback recall, off-topic false-route)")
    # one off-topic case is something measured
    p.write_text("cases:\n  - {task: x, category: offtopic}\n", encoding="utf-8")
    assert main(["eval", str(p), "--demo"]) == 0
