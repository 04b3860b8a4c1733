"""Fixes on fallbacks (docs/formats.md §15): verified registry edits with
where they go and their effect, in ``route``, ``route --json`` and
``explain``; nothing is written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.registry import load_registry
from routelens.routing.router import Router
from routelens.tools.evaluate import load_cases
from routelens.tools.fixes import fixes_for
from routelens.tools.patch import apply_edits

ROOT = Path(__file__).resolve().parents[1]
#: the bundled registry as it was before its code-review skill learnt "review my pull request" (which routes TASK):
#: these tests are about the fixes of a no_match, not about the bundled registry's triggers
REGISTRY = ROOT / "tests" / "fixtures" / "fixes" / "skills.yaml"
TASK = "review the pull request for auth"


@pytest.fixture
def bundled(tmp_path):
    shutil.copyfile(REGISTRY, tmp_path / "skills.yaml")
    write_generated(load_registry(tmp_path / "skills.yaml"), tmp_path / "generated")
    return tmp_path / "skills.yaml"


def test_no_match_gets_a_trigger_and_a_threshold_each_verified():
    reg = load_registry(REGISTRY)
    d = Router.from_registry(reg).route(TASK)
    assert (d.reason, d.near_misses[0].id, d.near_misses[0].score) == ("no_match", "code-review", 73.0)
    cases = load_cases(ROOT / "tests" / "cases" / "routing.yaml")
    fixes = fixes_for(d, reg, cases=cases, cases_file="routing.yaml")
    assert fixes[0].to_dict() == {
        "kind": "add_trigger", "skill": "code-review", "yaml": "- review the pull request",
        "where": f"{reg.display_name}:43", "how": "a new line after line 42, the last item of skills.code-review.triggers",
        "effect": "routes this task to code-review; no labelled case changes", "routes_to": ["code-review"]}
    # a lower threshold alone is no fix any more: a loose match of one phrase is not evidence enough
    # (docs/formats.md §6.10), so only new triggers are offered
    assert [(f.kind, f.skill, f.yaml) for f in fixes[1:]] == [
        ("add_trigger", "pr-creation", "- pull request"), ("add_trigger", "code-review", "- review the pull"),
        ("add_trigger", "pr-creation", "- review the pull request")]
    # each fix does what it says
    raw = REGISTRY.read_bytes()
    for f in fixes:
        patched = load_registry_from(raw, f)
        assert Router.from_registry(patched).route(TASK).skills == tuple(f.routes_to)


def test_no_match_offers_the_skill_whose_own_words_the_task_says_first():
    """A newcomer's "the build is broken, please fix the failing ci pipeline" nearly matched only data-pipeline's
    "data pipeline" (on "pipeline"), and every fix offered taught data-pipeline CI work. ci-fix's description says
    six of the task's words ("Diagnose and fix a failing CI pipeline, broken build or flaky test"): its fix comes
    first (docs/formats.md §15 ``add_trigger``)."""
    from routelens.tools.fixes import related_skills
    from routelens.tools.suggest import vocabulary

    reg = load_registry(REGISTRY)
    task = "the build is broken, please fix the failing ci pipeline"
    d = Router.from_registry(reg).route(task)
    assert (d.reason, [(m.id, m.score) for m in d.near_misses]) == ("no_match", [("data-pipeline", 66.7)])
    own, _ = vocabulary(reg, bodies=False)
    assert related_skills(task, own, set(reg.skills))[:2] == [("ci-fix", 6), ("data-pipeline", 3)]
    fixes = fixes_for(d, reg)
    assert [(f.skill, f.yaml) for f in fixes] == [
        ("ci-fix", "- failing ci pipeline"), ("data-pipeline", "- ci pipeline"), ("ci-fix", "- ci pipeline"),
        ("ci-fix", "- build is broken")]
    raw = REGISTRY.read_bytes()
    for f in fixes:
        assert Router.from_registry(load_registry_from(raw, f)).route(task).skills == (f.skill,)
    # a sentence of the world shares no two words with any skill: no fix, as before
    d = Router.from_registry(reg).route("Investigators have recovered the black box from the crashed airliner.")
    assert d.reason == "no_match" and related_skills(d.task, own, set(reg.skills)) == [] and fixes_for(d, reg) == []


def load_registry_from(raw: bytes, fix):
    from routelens.registry.load import parse_registry

    return parse_registry(apply_edits(raw, [fix.edit]), REGISTRY, "skills.yaml")


def test_ambiguous_gets_a_not_when_for_the_loser(tmp_path):
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_text("schema_version: 1\nskills:\n  refactoring:\n    path: r.md\n    priority: P1\n"
                        "    triggers: [refactor code]\n  terraform:\n    path: t.md\n    priority: P1\n"
                        "    triggers: [terraform plan]\n", encoding="utf-8")
    reg = load_registry(reg_path)
    d = Router.from_registry(reg).route("refactoring code in the terraform plan")
    assert d.reason == "ambiguous" and [m.score for m in d.matches] == [100.0, 96.7]
    fixes = fixes_for(d, reg)
    # two separate readings: no margin separates them, a not_when for the loser does
    assert [(f.kind, f.yaml, f.routes_to) for f in fixes] == [
        ("not_when", "not_when: [terraform plan]", ("terraform",)),
        ("not_when", "not_when: [refactoring code]", ("refactoring",))]
    # "or" weighs the two: a not_when on the other side of it is one of the alternatives (docs §6.3 step 8),
    # so no edit routes the question (a not_when made it route with full confidence before round 12)
    d = Router.from_registry(reg).route("refactoring code or a terraform plan")
    assert d.reason == "ambiguous" and fixes_for(d, reg) == []


def test_only_fixable_reasons_get_fixes():
    reg = load_registry(REGISTRY)
    r = Router.from_registry(reg)
    for task in ("jenkinsfile is broken", "deploy to 本番 today", "rm -rf the build folder"):
        assert fixes_for(r.route(task), reg) == []


def test_route_prints_fixes_and_json_carries_them(bundled, capsys):
    before = bundled.read_bytes()
    # a budget no loaded machine reaches: the default 10 s ran out at load 10 (each check routes 214 cases)
    assert main(["route", TASK, "--registry", str(bundled), "--fixes-seconds", "600"]) == 0
    out = capsys.readouterr().out.splitlines()
    i = out.index("fixes (nothing is written: paste one into the registry, then `routelens build`):")
    assert out[i + 1:i + 5] == [
        "  1. code-review: add the trigger:",
        "       - review the pull request",
        f"     at {bundled}:43 (a new line after line 42, the last item of skills.code-review.triggers)",
        "     routes this task to code-review; check it against labelled cases with `routelens suggest CASES`"]
    assert main(["route", TASK, "--json", "--registry", str(bundled), "--fixes-seconds", "600",
                 "--cases", str(ROOT / "tests" / "cases" / "routing.yaml")]) == 0
    d = json.loads(capsys.readouterr().out)
    assert list(d)[-1] == "fixes" and d["fixes"][0]["yaml"] == "- review the pull request"
    assert d["fixes"][0]["effect"] == "routes this task to code-review; no labelled case changes"
    assert main(["route", "jenkinsfile is broken", "--json", "--registry", str(bundled)]) == 0
    assert "fixes" not in json.loads(capsys.readouterr().out)
    assert bundled.read_bytes() == before


def test_explain_shows_the_fixes_for_its_skill(bundled, capsys):
    assert main(["explain", TASK, "--skill", "code-review", "--registry", str(bundled)]) == 0
    out = capsys.readouterr().out
    assert "1. code-review: add the trigger:\n       - review the pull request\n" in out
    assert "pr-creation" not in out.split("fixes (")[1]


def test_bad_cases_for_fixes_exit_2(bundled, tmp_path, capsys):
    bad = tmp_path / "c.yaml"
    bad.write_text("cases:\n  - task: x\n    expect: [nope]\n", encoding="utf-8")
    assert main(["route", TASK, "--registry", str(bundled), "--cases", str(bad)]) == 2
    assert capsys.readouterr().err == f"{bad}:3:14: cases[0].expect[0]: unknown skill 'nope'\n"


def test_fixes_stop_trying_new_edits_when_the_time_is_up(bundled, monkeypatch):
    # at 10,000 skills each edit costs seconds (a parse and an index each): `route` waited 20-54 s for its fixes
    reg = load_registry(bundled)
    d = Router.from_registry(reg).route(TASK)
    full: dict[str, int] = {}
    every = fixes_for(d, reg, tally=full)
    assert full["tried"] == full["candidates"] >= 3
    # every reading of the clock is 1 s later: the call starts at 0, the base router is built at 1 (a check
    # costs 1 s), the first check starts at 2 and ends at 3, the second runs 4-5, a third would end at 7 > 5
    clock = iter(range(0, 10_000))
    monkeypatch.setattr("routelens.tools.fixes.time.monotonic", lambda: next(clock))
    seen: list[float] = []
    cut: dict[str, int] = {}
    some = fixes_for(d, reg, progress=seen.append, max_seconds=5, tally=cut)
    assert cut == {"candidates": full["candidates"], "tried": 2}
    assert seen == [0.0, 1 / full["candidates"], 1.0]
    assert [(f.skill, f.yaml) for f in every] == [("code-review", "- review the pull request"),
                                                  ("pr-creation", "- pull request"),
                                                  ("code-review", "- review the pull"),
                                                  ("pr-creation", "- review the pull request")]
    # the two code-review phrases were tried first; the pr-creation edits were never tried
    assert [(f.skill, f.yaml) for f in some] == [("code-review", "- review the pull request"),
                                                 ("code-review", "- review the pull")]


def test_an_edit_is_made_only_when_its_check_starts(bundled, monkeypatch):
    """Each candidate edit reads the whole registry to find where it goes
    (about a second at 10,000 skills), and every one was made before the
    first check: `route --fixes-seconds 1` took 29 s there. Now an edit is
    made when its check starts, so none is made when the time is up."""
    from routelens.tools import fixes as fixes_mod

    reg = load_registry(bundled)
    d = Router.from_registry(reg).route(TASK)
    made: list[str] = []
    real = fixes_mod.add_list_item
    monkeypatch.setattr(fixes_mod, "add_list_item", lambda *a: made.append(a[3]) or real(*a))
    tally: dict[str, int] = {}
    assert fixes_for(d, reg, max_seconds=0, tally=tally) == []
    assert made == [] and tally["tried"] == 0 and tally["candidates"] >= 3
    assert [f.yaml for f in fixes_for(d, reg)][:1] == ["- review the pull request"]
    assert made[:2] == ["review the pull request", "review the pull"]  # in the order they are tried


def test_route_says_which_fixes_were_left_untried_and_no_fixes_gives_none(bundled, capsys, monkeypatch):
    # a trial: `--fixes-seconds 1` took 1 min 47 s at 10,000 skills (the first check always ran): now no check
    # starts that would end after the budget, judged by what building the base router took
    clock = iter(range(0, 10_000, 6))
    monkeypatch.setattr("routelens.tools.fixes.time.monotonic", lambda: next(clock))
    assert main(["route", TASK, "--json", "--registry", str(bundled), "--fixes-seconds", "1"]) == 0
    cap = capsys.readouterr()
    d = json.loads(cap.out)
    assert list(d)[-2:] == ["fixes", "fixes_untried"] and d["fixes_untried"] >= 3 and d["fixes"] == []
    assert cap.err == (f"fixes: {d['fixes_untried']} of {d['fixes_untried']} candidate edits left untried after "
                       "1 s (each is checked on a patched copy of the registry); --fixes-seconds N tries longer, "
                       "--no-fixes skips them\n")
    assert main(["route", TASK, "--json", "--registry", str(bundled), "--no-fixes"]) == 0
    cap = capsys.readouterr()
    assert "fixes" not in json.loads(cap.out) and cap.err == ""
    with pytest.raises(SystemExit) as exc:
        main(["route", TASK, "--registry", str(bundled), "--fixes-seconds", "0"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.endswith("argument --fixes-seconds: '0': give a number of seconds above 0\n")


def test_a_new_routing_section_is_shown_and_given_as_both_its_lines(tmp_path, capsys):
    """A trial: on a registry without `routing:`, the threshold fix read
    `threshold: 76` (text and JSON `yaml`); pasted as shown it is an
    unknown top-level key and the task still falls back."""
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  code-review:\n    path: skills/code-review.md\n    priority: P0\n"
                   "    triggers: [code review, review my diff]\n", encoding="utf-8")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "code-review.md").write_text("# cr\n", encoding="utf-8")
    assert main(["build", "-q", "--registry", str(reg)]) == 0
    task = "review my pull request diff please"
    assert main(["route", "--json", task, "--registry", str(reg)]) == 0
    fixes = json.loads(capsys.readouterr().out)["fixes"]
    setting = [f for f in fixes if f["kind"] == "threshold"]
    assert [(f["yaml"], f["where"]) for f in setting] == [("routing:\n  threshold: 76", f"{reg}:8")]
    assert main(["route", task, "--registry", str(reg)]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("  2. routing: set:")
    assert out[at + 1:at + 4] == ["       routing:", "         threshold: 76",
                                  f"     at {reg}:8 (a new `routing:` section at the end of the file)"]


def test_no_fix_joins_two_things_or_feeds_a_deprecated_skill(tmp_path):
    """A newcomer's trial: "write a dockerfile and a threat model" was offered the trigger
    "dockerfile and a threat", and a deprecated skill was offered a phrase of an everyday sentence."""
    from routelens.tools.suggest import proper_trigger
    assert not proper_trigger("dockerfile and a threat") and not proper_trigger("refund or voucher")
    assert proper_trigger("threat model") and proper_trigger("rock and roll playlist") is False
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_text("schema_version: 1\nskills:\n  old-panorama:\n    path: o.md\n    priority: P2\n"
                        "    status: deprecated\n    triggers: [panorama]\n  retouch:\n    path: r.md\n"
                        "    priority: P1\n    triggers: [retouch portraits]\n", encoding="utf-8")
    reg = load_registry(reg_path)
    d = Router.from_registry(reg).route("The panorama from the hotel was beautiful")
    assert d.reason == "weak_evidence" and [m.id for m in d.matches] == ["old-panorama"]
    assert [f.skill for f in fixes_for(d, reg)] == []


def test_a_not_when_fix_spells_the_winner_as_its_triggers_do(tmp_path):
    # a newcomer's trial: "not_when: [injury reprot]" would have written the task's typo into the registry
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_text("schema_version: 1\nskills:\n  injury-report:\n    path: i.md\n    priority: P1\n"
                        "    triggers: [injury report]\n  equipment-maintenance:\n    path: e.md\n    priority: P1\n"
                        "    triggers: [rowing machine]\n", encoding="utf-8")
    reg = load_registry(reg_path)
    d = Router.from_registry(reg).route("Fill in the injury reprot for the member who fell off the rowing machine")
    assert d.reason == "ambiguous"
    assert [(f.kind, f.skill, f.yaml) for f in fixes_for(d, reg)] == [
        ("not_when", "injury-report", "not_when: [rowing machine]"),
        ("not_when", "equipment-maintenance", "not_when: [injury report]")]
