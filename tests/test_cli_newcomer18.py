"""A newcomer's trial after routing round 18: what it found wrong outside
the matcher, each with the failing input."""

from pathlib import Path

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
                              "on the triggers alone); 2,381 of the index's chars are its header and word lists")
    # within its budget nothing is said of them
    assert main(["build", "--registry", str(ROOT / "skills.yaml"), "--out", str(tmp_path / "gen")]) == 0
    assert "left out" not in capsys.readouterr().out
