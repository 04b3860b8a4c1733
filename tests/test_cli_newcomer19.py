"""A newcomer's trial after routing round 19 (a coffee roaster's 16 skills,
``tests/fixtures/newcomer19/skills.yaml``, written from docs/formats.md):
what it found wrong, each with the failing input."""

import shutil
from pathlib import Path

import pytest

from routelens.cli.entry import main
from routelens.registry import load_registry
from routelens.routing.explain import explain
from routelens.routing.router import Router

ROOT = Path(__file__).resolve().parents[1]
ROASTER = ROOT / "tests" / "fixtures" / "newcomer19" / "skills.yaml"


@pytest.fixture
def roaster(tmp_path):
    shutil.copyfile(ROASTER, tmp_path / "skills.yaml")
    return tmp_path / "skills.yaml"


def test_a_registry_of_sixteen_skills_passes_check_right_after_build(roaster, capsys):
    # 3,905 characters: the index's header and word lists alone were 1,173 of them, so a clean build said
    # "EXCEEDED by 74 chars" and `check` failed in CI (docs/formats.md §5.2: not checked below 6,000 now)
    assert len(load_registry(roaster).text) == 3905
    assert main(["build", "--registry", str(roaster)]) == 0
    out = capsys.readouterr().out
    assert "not checked below 6,000 chars of registry" in out and "EXCEEDED" not in out
    assert main(["check", "--registry", str(roaster)]) == 0
    assert capsys.readouterr().out.endswith("and the size budget is not checked below 6,000 chars of registry\n")


def test_routelens_registry_may_name_a_folder(roaster, monkeypatch, capsys):
    # "$ROUTELENS_REGISTRY=/tmp/nc19/myreg": "cannot read the registry: it is a folder with no skills.yaml in it"
    assert main(["build", "-q", "--registry", str(roaster)]) == 0
    monkeypatch.setenv("ROUTELENS_REGISTRY", str(roaster.parent))
    monkeypatch.chdir(roaster.parent.parent)
    assert main(["route", "write up the cupping notes"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == ["mode:     index", "reason:   clear_candidate"]
    assert 'Routed to "cupping"' in out


def test_a_composition_names_the_members_nobody_asked_for(roaster):
    d = Router.from_registry(load_registry(roaster)).route("update the shift schedule and do the stock take")
    assert d.composition == "new-cafe-opening"
    assert d.skills == ("shift-scheduling", "barista-training", "food-safety", "inventory-count")
    assert d.message.startswith('Routed to composition "new-cafe-opening": the candidates "inventory-count" and '
                                '"shift-scheduling" are both members of it; it brings "barista-training" and '
                                '"food-safety" too; expanded from ')


def test_a_rule_named_by_its_id_is_said_to_be_a_rule(roaster):
    # "/recall now" said "no skill or composition has the id "recall"", and recall is the registry's rule
    d = Router.from_registry(load_registry(roaster)).route("/recall now")
    assert (d.mode, d.reason) == ("full", "no_match")
    assert d.message == ('Fell back to the full registry: the task names /recall, but "recall" is a rule, not a '
                         'skill or composition: a rule applies when one of its triggers is in the task, never by name')


def test_eval_says_a_case_that_must_fall_back_wants_a_fallback(roaster, tmp_path, capsys):
    # "want cupping; got cupping" under wrong: `expect` beside `must_fallback: true` lists the skills in play
    cases = tmp_path / "cases.yaml"
    cases.write_text("cases:\n  - task: write up the cupping notes\n    expect: [cupping]\n    must_fallback: true\n",
                     encoding="utf-8")
    assert main(["build", "-q", "--registry", str(roaster)]) == 0
    assert main(["eval", str(cases), "--registry", str(roaster)]) == 1
    want = [ln.strip() for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("want ")]
    assert [ln.split(" (index")[0] for ln in want] == ["want a fallback (in play: cupping); got cupping"]


def test_no_fix_is_a_clause_copied_from_the_task(roaster):
    # "allergen we must label", "carry any allergen" and "milk carry any allergen" were offered as triggers
    from routelens.tools.fixes import fixes_for
    from routelens.tools.suggest import proper_trigger

    reg = load_registry(roaster)
    d = Router.from_registry(reg).route("Does the oat milk carry any allergen we must label?")
    assert (d.reason, [m.id for m in d.matches]) == ("weak_evidence", ["food-safety"])
    assert fixes_for(d, reg) == []
    assert [proper_trigger(t) for t in ("allergen we must label", "carry any allergen", "milk carry any allergen",
                                        "changelog was already updated", "build is broken", "oat milk allergen")
            ] == [False, False, False, False, True, True]


def test_lint_warns_of_a_character_nobody_sees_in_a_trigger(tmp_path, capsys):
    # "alpha\u200btask" matched "alphatask" and "alpha task", and lint said nothing
    reg = tmp_path / "skills.yaml"
    reg.write_text('schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n'
                   '    triggers: ["alpha\\u200btask", beta]\n', encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    assert main(["lint", "--registry", str(reg)]) == 0
    assert (f"{reg}:6:16: warning: skills.a.triggers[0]: holds U+200B (ZERO WIDTH SPACE), which no one sees: the "
            "trigger reads as 'alphatask' and matches as if it were a space or nothing; delete it "
            "[invisible-character]") in capsys.readouterr().out.splitlines()


def test_explain_of_a_skill_that_never_matched_says_it_was_no_candidate():
    # F2 on "rm -rf the build dir and redeploy": "It was not selected because the task holds the high-risk term"
    router = Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")
    e = explain(router, "rm -rf the build dir and redeploy", "accessibility-audit")
    assert e.reasons[1] == ("It was no candidate, since none of its triggers matches the task; besides, the task "
                            'holds the high-risk term "rm -rf": it goes to the full registry.')
    e = explain(router, "rm -rf the build dir and redeploy; the build is broken", "ci-fix")
    assert e.reasons[1] == 'It was not selected because the task holds the high-risk term "rm -rf": it goes to the full registry.'


def test_a_katakana_trigger_inside_a_longer_word_lends_no_context():
    # "焙煎プロファイルとカッピングノート、両方お願いします": cupping's "カッピング" inside "カッピングノート" was refused as
    # cupping's match but counted as "the trigger word カッピング" for roast-profile (docs/formats.md §6.7)
    from conftest import pieces_of

    d = Router.from_registry(load_registry(ROASTER)).route("焙煎プロファイルとカッピングノート、両方お願いします")
    assert (d.reason, d.skills) == ("clear_candidate", ("roast-profile",))
    assert pieces_of(d, "roast-profile") == [("trigger", 2, 'the specific word "焙煎プロファイル" (rare in everyday language)')]


def test_the_evidence_names_the_trigger_the_matches_table_shows():
    # "fix the ci failure and write the release notes": the table said "ci failure" (100), the evidence
    # 'the phrase "fix ci", loose' over "fix the ci"
    router = Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")
    d = router.route("fix the ci failure and write the release notes")
    assert (d.reason, d.skills) == ("multi_need", ("ci-fix", "release-notes"))
    assert [m.trigger for m in d.matches if m.id == "ci-fix"] == ["ci failure"]
    assert [(p.kind, p.detail, p.text) for p in next(c for c in d.evidence if c.id == "ci-fix").pieces] == [
        ("trigger", 'the phrase "ci failure"', "ci failure")]


@pytest.mark.parametrize("task, skills", [
    ("review my code", ("code-review",)),
    ("can you review this code", ("code-review",)),
    ("review my changes", ("code-review",)),
    ("explain this function", ("code-explanation",)),
    ("バグを直して", ("debugging",)),
])
def test_the_bundled_registry_routes_the_first_phrasings_a_newcomer_tried(task, skills):
    # each fell back no_match on the registry a newcomer demoed first
    router = Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")
    d = router.route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", skills)
