"""``routelens route`` / ``explain`` / ``eval`` through the CLI entry point."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.registry import load_registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "cases"

REGISTRY = """\
schema_version: 1
skills:
  ci-fix:
    path: skills/ci-fix.md
    priority: P0
    triggers: [ci, ci failure]
  refactoring:
    path: skills/refactoring.md
    priority: P1
    triggers: [refactor, リファクタ]
  terraform:
    path: skills/terraform.md
    priority: P1
    triggers: [terraform]
routing:
  high_risk: [rm -rf]
"""


@pytest.fixture()
def reg_path(tmp_path: Path) -> Path:
    p = tmp_path / "skills.yaml"
    p.write_text(REGISTRY, encoding="utf-8")
    (tmp_path / "skills").mkdir()
    for sid in ("ci-fix", "refactoring", "terraform"):
        (tmp_path / "skills" / f"{sid}.md").write_text(f"# {sid}\n", encoding="utf-8")
    write_generated(load_registry(p), tmp_path / "generated")
    return p


def test_route_json(reg_path, capsys):
    assert main(["route", "fix the CI failure", "--json", "--registry", str(reg_path)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["mode"], d["reason"], d["skills"], d["freshness"]) == ("index", "clear_candidate", ["ci-fix"], "fresh")
    assert d["matches"] == [{"id": "ci-fix", "score": 100.0, "trigger": "ci failure", "span": [8, 18]}]
    assert d["evidence"] == [{"id": "ci-fix", "score": 100.0, "weight": 2, "supported": True, "selected": True,
                              "why": 'selected: "ci-fix": the phrase "ci failure"',
                              "pieces": [{"kind": "trigger", "text": "CI failure", "span": [8, 18], "weight": 2,
                                          "detail": 'the phrase "ci failure"', "trigger": "ci failure"}]}]
    assert d["expansions"][0]["source_start"] == 3 and d["expansions"][0]["source_end"] == 6


def test_route_human_output(reg_path, capsys):
    # matcher 6: "terraform" is rare (Zipf 1.99), so its typo at 93.3 is strong evidence too: ambiguous
    assert main(["route", "refactor the terrafrom", "--registry", str(reg_path), "--no-fixes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "mode:     full",
        "reason:   ambiguous",
        '          Fell back to the full registry: "refactoring" and "terraform" both have evidence ("refactoring": '
        'the specific word "refactor" (rare in everyday language); "terraform": a typo of the specific word '
        '"terraform" (93.3)) and the task does not say which it wants',
        "selected: (none: the agent reads the full registry)",
    ]
    assert '     100  refactoring              0-8         7-10      "refactor" ~ "refactor"' in out
    assert '    93.3  terraform                13-22       11-14     "terraform" ~ "terrafrom"' in out


def test_route_batch_from_stdin_keeps_order(reg_path, capsys, monkeypatch):
    tasks = ["fix the CI failure", "", "rm -rf build", "リファクタして", "refactor the terraform"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(tasks) + "\n"))
    assert main(["route", "--json", "-", "--registry", str(reg_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    decisions = [json.loads(line) for line in lines]
    assert [d["task"] for d in decisions] == tasks
    assert [(d["mode"], d["reason"]) for d in decisions] == [
        ("index", "clear_candidate"), ("full", "no_match"), ("full", "high_risk"),
        ("index", "clear_candidate"), ("full", "ambiguous")]


def test_route_batch_in_a_real_process(reg_path):
    proc = subprocess.run(
        [sys.executable, "-m", "routelens", "route", "--json", "-", "--registry", str(reg_path)],
        input="リファクタして\r\nfix the CI failure\n", capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(x)["skills"] for x in proc.stdout.splitlines()] == [["refactoring"], ["ci-fix"]]


def test_route_batch_names_lines_that_are_not_utf8(reg_path, capsys, monkeypatch):
    """Undecodable bytes on standard input were replaced by U+FFFD without a
    word: the batch goes on, and standard error names each such line (byte
    column, 1-based), the first five, then a count."""
    data = b"fix the CI failure\n\xff\xfe refactor\nok \xe3\x81\n" + b"a\xff\n" * 4
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["route", "--json", "-", "--registry", str(reg_path)]) == 0
    out = capsys.readouterr()
    decisions = [json.loads(line) for line in out.out.splitlines()]
    assert [d["task"] for d in decisions] == ["fix the CI failure", "\ufffd\ufffd refactor", "ok \ufffd"] + ["a\ufffd"] * 4
    assert decisions[0]["skills"] == ["ci-fix"]
    tail = "routed with U+FFFD in place of the undecodable bytes\n"
    assert out.err == (f"routelens: <stdin>:2:1: not UTF-8 (byte 0xff): {tail}"
                       f"routelens: <stdin>:3:4: not UTF-8 (byte 0xe3): {tail}"
                       f"routelens: <stdin>:4:2: not UTF-8 (byte 0xff): {tail}"
                       f"routelens: <stdin>:5:2: not UTF-8 (byte 0xff): {tail}"
                       f"routelens: <stdin>:6:2: not UTF-8 (byte 0xff): {tail}"
                       "routelens: <stdin>: 6 lines were not UTF-8 (1 more than named above); each was routed "
                       "with U+FFFD in place of the undecodable bytes\n")


def test_explain(reg_path, capsys):
    assert main(["explain", "refactor the terraform", "--skill", "terraform", "--registry", str(reg_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == 'Its best trigger "terraform" scored 100 on "terraform" (characters 13-22), at or above the threshold 85.'
    assert out[1].startswith("It was not selected because the choice was ambiguous")


@pytest.mark.parametrize("skill, message", [
    ("nope", 'There is no skill "nope" in {reg} (3 skills).'),
    ("terrafrom", 'There is no skill "terrafrom" in {reg} (3 skills). Did you mean "terraform"?'),
    ("", "No skill id was given: name one of the registry's skills."),
])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_explain_unknown_skill_exits_2(reg_path, capsys, skill, message, json_flag):
    # user trial: `explain TASK --skill nope` exited 0
    assert main(["explain", "x", "--skill", skill, *json_flag, "--registry", str(reg_path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "routelens explain: " + message.format(reg=reg_path) + "\n"


def test_broken_registry_exits_2_with_positions(tmp_path, capsys):
    p = tmp_path / "skills.yaml"
    shutil.copy(FIXTURES / "python-tag.yaml", p)
    assert main(["route", "anything", "--registry", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:6:" in err and "Traceback" not in err


def test_missing_registry_exits_2(tmp_path, capsys):
    assert main(["route", "anything", "--registry", str(tmp_path / "none.yaml")]) == 2
    assert "cannot read the registry" in capsys.readouterr().err


def test_eval_shipped_cases_report_the_bar(tmp_path, capsys):
    write_generated(load_registry(ROOT / "skills.yaml"), tmp_path)
    code = main(["eval", str(ROOT / "tests" / "cases" / "routing.yaml"),
                 "--registry", str(ROOT / "skills.yaml"), "--index", str(tmp_path / "routing.min.json")])
    out = capsys.readouterr().out
    # every figure meets the bar since matcher 6 (README, "Routing quality")
    assert code == 0, out
    assert out.rstrip().endswith("PASS: meets the quality bar")
    assert "confident precision     100.0%  (bar >= 99.0%)  ok    159/159 routed decisions right" in out
    assert "coverage                 94.6%  (bar >= 90.0%)  ok    159/168 routable cases routed" in out
    # "right" counts the fallbacks that were due too (ambiguous: 0 routed, 8 right): the table says so
    lines = out.splitlines()
    assert "  ambiguous          8       0      8      0       0" in lines
    assert lines[lines.index("  typo              12      10     10      0       2") + 1] == (
        "  right: the expected outcome, a right route or a fallback that was due; wrong: routed where it should not, "
        "or to another skill; missed: fell back on a routable case")


def test_eval_without_an_index_exits_1(capsys):
    code = main(["eval", str(ROOT / "tests" / "cases" / "routing.yaml"), "--json",
                 "--registry", str(ROOT / "skills.yaml"), "--index", "/nonexistent/routing.min.json"])
    rep = json.loads(capsys.readouterr().out)
    # without an index every case falls back: precision is vacuous, coverage 0 -> exit 1
    assert code == 1
    assert rep["metrics"]["coverage"] == 0.0 and rep["metrics"]["must_fallback_recall"] == 1.0


def test_eval_below_the_bar_exits_1_and_lists_wrong_cases(reg_path, tmp_path, capsys):
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - {task: "refactor it", expect: [terraform], mode: index, category: english}\n'
                     '  - {task: "fix the ci failure", expect: [ci-fix], mode: index, category: english}\n',
                     encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 1
    out = capsys.readouterr().out
    assert "confident precision      50.0%  (bar >= 99.0%)  FAIL  1/2 routed decisions right" in out
    assert f"{cases}:2: [english] \"refactor it\"" in out
    # a measure with no cases behind it says so instead of "100.0% ok" (it read as a pass)
    assert "  must-fallback recall       n/a  (bar >= 100.0%)  -     0/0 fell back (not measured)\n" in out
    assert "  off-topic false-route      n/a  (bar <= 0.0%)  -     0/0 routed (not measured)\n" in out
    assert out.rstrip().endswith("FAIL: below the quality bar: precision 0.500 is not >= 0.99 "
                                 "(not measured, no case behind it: must-fallback recall, off-topic false-route)")


@pytest.mark.parametrize("command", ["eval", "tune", "suggest"])
def test_an_empty_cases_file_measures_nothing_and_exits_2(reg_path, tmp_path, capsys, command):
    """`cases: []` printed "0 cases ... PASS: meets the quality bar", exit 0:
    a CI gate on an emptied file passed."""
    cases = tmp_path / "cases.yaml"
    cases.write_text("cases: []\n", encoding="utf-8")
    assert main([command, str(cases), "--registry", str(reg_path)]) == 2
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", f"{cases}:1:1: cases: the `cases:` list is empty: there is nothing to measure\n")


def test_eval_bad_cases_file_exits_2(reg_path, tmp_path, capsys):
    cases = tmp_path / "cases.yaml"
    cases.write_text("cases:\n  - task: [3.10]\n", encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 2
    assert f"{cases}:2:11: cases[0].task: task must be text (a string), not a list or a mapping" in capsys.readouterr().err


def test_eval_unknown_expected_ids_exit_2_naming_the_case(reg_path, tmp_path, capsys):
    # user trial: a misspelt expected id was counted as a routing mistake (exit 1)
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - task: 5\n    expect: [ci-fix]\n    must_fallback: true\n'
                     '  - task: "refactor it"\n    expect: [refactoring, x]\n    composition: nope\n', encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 2
    out = capsys.readouterr()
    assert out.err.splitlines() == [f"{cases}:6:27: cases[1].expect[1]: unknown skill 'x'",
                                    f"{cases}:7:18: cases[1].composition: unknown composition 'nope'",
                                    f"{cases}: 2 errors; nothing was done"]
    assert out.out == ""


def test_eval_reports_unknown_ids_with_the_files_other_mistakes_at_once(reg_path, tmp_path, capsys):
    # a newcomer's trial: the unknown ids came only after the misspelt key and the bad mode were fixed
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - task: "refactor the parser"\n    expect: [refactorng]\n'
                     '  - task: "x"\n    must_falback: true\n  - task: "y"\n    mode: indexed\n', encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{cases}:3:14: cases[0].expect[0]: unknown skill 'refactorng'; did you mean 'refactoring'?",
        f"{cases}:5:5: cases[1].must_falback: unknown key `must_falback`: did you mean `must_fallback`?",
        f"{cases}:7:11: cases[2].mode: unknown mode 'indexed' (fast, index or full)",
        f"{cases}: 3 errors; nothing was done"]


def test_eval_checks_the_ids_of_a_case_that_has_another_mistake(reg_path, tmp_path, capsys):
    # a newcomer's trial: a case with both `composition: new-puppy` and `mode: quick` was reported for its mode
    # only; the unknown composition came on the next run
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - task: "book a puppy"\n    composition: new-puppy\n    mode: quick\n'
                     '  - task: "x"\n    expect: [refactorng]\n    must_fallback: maybe\n', encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{cases}:3:18: cases[0].composition: unknown composition 'new-puppy'",
        f"{cases}:4:11: cases[0].mode: unknown mode 'quick' (fast, index or full)",
        f"{cases}:6:14: cases[1].expect[0]: unknown skill 'refactorng'; did you mean 'refactoring'?",
        f"{cases}:7:20: cases[1].must_fallback: must_fallback must be true or false",
        f"{cases}: 4 errors; nothing was done"]


def test_eval_lists_what_each_case_wanted_without_an_unexplained_mark(reg_path, tmp_path, capsys):
    # a newcomer's trial: "want (fallback) (-); got ..." - the "(-)" was a case's mode, unset
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - task: "what is the weather tomorrow"\n    expect: [terraform]\n'
                     '  - task: "please fix the ci failure on main"\n    expect: [refactoring]\n    mode: index\n',
                     encoding="utf-8")
    assert main(["eval", str(cases), "--registry", str(reg_path)]) == 1
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("want ")]
    assert [ln.split(":")[0] for ln in lines] == [
        "want refactoring (mode index); got ci-fix (index, clear_candidate)",
        "want terraform; got (none) (full, no_match)"]


def test_an_empty_task_says_so_and_offers_no_fix(reg_path, capsys):
    # a newcomer's trial: `route ""` advised "add a trigger that says this work to the skill you meant"
    assert main(["route", "  ", "--registry", str(reg_path)]) == 0
    out = capsys.readouterr().out
    assert "Fell back to the full registry: the task is empty: there is nothing to route" in out
    assert "fixes" not in out


def test_route_high_risk_beyond_the_match_limit_falls_back(tmp_path, capsys, monkeypatch):
    # user trial: the forced rule / high-risk terms after 10,000 characters were ignored -> index "debugging"
    write_generated(load_registry(ROOT / "skills.yaml"), tmp_path)
    task = "debug this stack trace. " + "lorem ipsum " * 1000 + " then rm -rf / and drop table users on 本番"
    monkeypatch.setattr(sys, "stdin", io.StringIO(task + "\n"))
    assert main(["route", "--json", "-", "--registry", str(ROOT / "skills.yaml"),
                 "--index", str(tmp_path / "routing.min.json")]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["mode"], d["reason"], d["skills"], d["rule"]) == ("full", "forced_rule", [], "production-change")
    assert d["high_risk"] == ["rm -rf", "drop table"] and d["truncated"] is True
    assert d["message"].endswith("(skills were matched on the first 10,000 of 12,065 characters of the task; "
                                 "forced rules and high-risk terms on all of it)")


def test_route_near_misses_leave_out_selected_skills(tmp_path, capsys):
    """Issue 13 item 1: "why not" listed a member that was selected."""
    shutil.copytree(ROOT / "tests" / "tui" / "fixtures" / "routing", tmp_path / "reg")
    reg = tmp_path / "reg" / "skills.yaml"
    write_generated(load_registry(reg), tmp_path / "reg" / "generated")
    assert main(["route", "$release-train", "--json", "--registry", str(reg)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["skills"] == ["release", "release-notes"] and d["near_misses"] == []
    assert main(["route", "$release-train", "--registry", str(reg)]) == 0
    out = capsys.readouterr().out
    assert "near misses" not in out
    assert "     100  release-train            0-14        80-82     " in out


def test_route_says_when_no_fix_was_found(reg_path, capsys):
    """A newcomer's trial: a fixable fallback with no fix said nothing about fixes."""
    assert main(["route", "バックアップを取ってください", "--registry", str(reg_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "reason:   no_match"
    assert out[-1] == ("fixes: none found: no skill came close enough to propose an edit from the task; if it is "
                       "work for one of your skills, add a trigger that says this work to that skill, then `routelens "
                       "build`; a sentence that asks no work of this registry is right to fall back")
    # with --no-fixes nothing is said about them
    assert main(["route", "バックアップを取ってください", "--registry", str(reg_path), "--no-fixes"]) == 0
    assert "fixes" not in capsys.readouterr().out


def test_route_checks_no_fixes_on_a_big_registry_unless_asked(reg_path, capsys, monkeypatch):
    """A newcomer's trial: on a registry of 10,000 skills a route that fell
    back waited the whole 10 s of fixes (each checked on a patched copy of
    the registry). Above AUTO_FIXES_MAX_SKILLS they are checked only when
    asked (docs/formats.md §15); here the limit is lowered below the
    registry's 3 skills."""
    from routelens.cli.commands import route as route_cmd

    monkeypatch.setattr(route_cmd, "AUTO_FIXES_MAX_SKILLS", 2)
    assert main(["route", "バックアップを取ってください", "--registry", str(reg_path)]) == 0
    got = capsys.readouterr()
    assert "fixes" not in got.out
    assert got.err == ("fixes: not checked on a registry of 3 skills (each candidate edit is checked on a patched "
                       "copy of the whole registry, seconds each); --fixes checks them for up to 10 s\n")
    assert main(["route", "--json", "バックアップを取ってください", "--registry", str(reg_path)]) == 0
    got = capsys.readouterr()
    assert "fixes" not in json.loads(got.out)
    assert got.err.startswith("fixes: not checked on a registry of 3 skills")
    # asked for: checked as on a small registry
    for flag in (["--fixes"], ["--fixes-seconds", "5"]):
        assert main(["route", "バックアップを取ってください", "--registry", str(reg_path), *flag]) == 0
        got = capsys.readouterr()
        assert got.out.splitlines()[-1].startswith("fixes: none found: ")
        assert got.err == ""
