"""A newcomer's trial after routing round 18: what it found wrong outside
the matcher, each with the failing input."""

from pathlib import Path

import pytest

from routelens.cli.entry import main

ROOT = Path(__file__).resolve().parents[1]


def test_a_fix_does_not_count_the_task_itself_as_one_more_case(tmp_path, monkeypatch, capsys):
    # "routes 1 more labelled case right (tests/cases/routing.yaml:190)": line 190 was this very task
    cases = tmp_path / "cases.yaml"
    cases.write_text("cases:\n"
                     "  - task: check the signup form for accessibility problems\n"
                     "    expect: [accessibility-audit]\n"
                     "  - task: check   the signup form for accessibility problems\n"
                     "    expect: [accessibility-audit]\n"
                     "  - task: check the login form for accessibility problems\n"
                     "    expect: [accessibility-audit]\n", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    assert main(["route", "check the signup form for accessibility problems", "--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    first = out[out.index("fixes ("):].splitlines()[1:5]
    assert first == ["  1. accessibility-audit: add the trigger:",
                     "       - accessibility problems",
                     "     at skills.yaml:227 (a new line after line 226, the last item of "
                     "skills.accessibility-audit.triggers)",
                     f"     routes this task to accessibility-audit; routes 1 more labelled case right ({cases}:6)"]


def test_a_tight_budget_says_the_terms_were_left_out(tmp_path, capsys):
    # max_index_ratio 0.10 emptied every skill's terms, and build said only "EXCEEDED"
    import shutil

    shutil.copytree(ROOT / "skills", tmp_path / "skills")
    text = (ROOT / "skills.yaml").read_text(encoding="utf-8")
    lines = [("  max_index_ratio: 0.10" if ln.startswith("  max_index_ratio:") else ln) for ln in text.split("\n")]
    (tmp_path / "skills.yaml").write_text("\n".join(lines), encoding="utf-8")
    assert main(["build", "--registry", str(tmp_path / "skills.yaml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("  every skill's domain terms were left out to fit (docs/formats.md §3.7: routing rests "
                              "on the triggers alone); 2,423 of the index's chars are its header and word lists")
    # within its budget nothing is said of them
    assert main(["build", "--registry", str(ROOT / "skills.yaml"), "--out", str(tmp_path / "gen")]) == 0
    assert "left out" not in capsys.readouterr().out


@pytest.mark.parametrize("task, skill", [
    # the phrasings a newcomer tried first on the bundled registry, each of which fell back no_match
    ("fix CI", "ci-fix"),
    ("CI is failing", "ci-fix"),
    ("the build is broken", "ci-fix"),
    ("please fix the failing CI pipeline", "ci-fix"),
    ("CIが落ちたので直して", "ci-fix"),
    ("can you review my pull request for the auth fix?", "code-review"),
    ("このPRをレビューしてください", "code-review"),
    ("古いユーティリティ群のリファクタリングをお願い", "refactoring"),
])
def test_the_bundled_registry_routes_a_newcomers_first_phrasings(task, skill):
    from routelens.routing.router import Router

    d = Router.from_paths(ROOT / "skills.yaml").route(task)
    assert (d.mode, d.skills) == ("index", (skill,))


def test_refactoring_alone_names_its_skill_and_asks_what():
    # it fell back no_match, "リファクタ" inside a longer word; the word alone with a bare request is underspecified,
    # as "テストを直して" is (docs/formats.md §6.10 ``ask``), and the decision now names the skill
    from routelens.routing.router import Router

    d = Router.from_paths(ROOT / "skills.yaml").route("リファクタリングして")
    assert (d.mode, d.reason) == ("full", "weak_evidence")
    assert d.message == ('Fell back to the full registry: the only evidence is the fairly common word "リファクタリング"; '
                         "nothing else in the task is about refactoring")
