"""``routelens suggest CASES [--copy FILE]``: phrases from missed tasks, each
checked against every labelled case; a patched copy whose only change is the
added lines; the registry never written; suggestions that hold out of
sample (docs/formats.md §14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.registry import load_registry
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.routing.router import Router
from routelens.tools.evaluate import evaluate, load_cases
from routelens.tools.suggest import candidate_phrases, suggest

ROOT = Path(__file__).resolve().parents[1]

REGISTRY = """\
schema_version: 1
skills:
  code-review:
    path: skills/code-review.md
    priority: P0
    triggers:
      - code review
      - review my diff
    description: Review a pull request or a diff for correctness and risk
  release-notes:
    path: skills/release-notes.md
    priority: P1
    triggers: [release notes]
    description: Write release notes for a version
  weather:
    path: skills/weather.md
    priority: P2
    triggers: [weather report]
    description: Summarise the weather forecast
"""

CASES = """\
cases:
  - task: "please look over my pull request before lunch"
    expect: [code-review]
  - task: "write the release notes for 2.1"
    expect: [release-notes]
  - task: "summarise the weather forecast for the office"
    expect: [weather]
  - task: "what is the forecast for the weekend"
    expect: [weather]
  - task: "forecast the costs of the pull request process"
    must_fallback: true
"""


@pytest.fixture
def small(tmp_path):
    (tmp_path / "skills").mkdir()
    for sid, body in (("code-review", "Read the pull request and the diff.\n"),
                      ("release-notes", "Group the changes.\n"), ("weather", "Read the forecast.\n")):
        (tmp_path / "skills" / f"{sid}.md").write_text(body, encoding="utf-8")
    reg = tmp_path / "skills.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    cases = tmp_path / "cases.yaml"
    cases.write_text(CASES, encoding="utf-8")
    return reg, cases


def test_candidate_phrases_keep_to_words_and_to_kanji_and_katakana():
    got = [p.text for p in candidate_phrases("Please review the pull-request, then デプロイ手順を確認")]
    assert got == ["review", "review the pull-request", "pull-request", "request", "デプロイ", "デプロイ手", "デプロイ手順",
                   "手順", "確認"]


def test_a_safe_trigger_is_proposed_and_a_harmful_one_is_not(small):
    reg_path, cases_path = small
    raw = read_registry_bytes(reg_path)
    reg = parse_registry(raw, reg_path, str(reg_path))
    rep = suggest(reg, raw, load_cases(cases_path))
    got = [(s.skill, s.trigger, s.edit.where_line, s.edit.yaml) for s in rep.suggestions]
    # a phrase of the skill's own words is proposed (one everyday word, "weather" or "forecast", would not
    # route anything on its own: docs/formats.md §6.10)
    assert got == [("weather", "weather forecast", 18, "triggers: [weather report, weather forecast]")]
    assert rep.suggestions[0].effect.sentence("c.yaml") == "routes c.yaml:6 right; no other labelled case changes"
    # "pull request" would route the must-fallback case: not proposed, and said why
    assert [(r.skill, r.trigger, r.source.line, r.effect.sentence("c.yaml")) for r in rep.rejected] == [
        ("code-review", "pull request", 2, "routes c.yaml:2 right; breaks c.yaml:10 (fallback_ok -> false_route)"),
    ]
    assert (rep.before["missed"], rep.after["missed"], rep.after["coverage"]) == (3, 2, 0.5)
    assert [r.case.line for r in rep.unresolved] == [2, 8]
    assert rep.patched == REGISTRY.replace("[weather report]", "[weather report, weather forecast]").encode()


def test_cli_out_writes_a_patched_copy_and_never_the_registry(small, tmp_path, capsys):
    reg_path, cases_path = small
    before = reg_path.read_bytes()
    out = tmp_path / "elsewhere" / "patched.yaml"
    out.parent.mkdir()
    assert main(["suggest", str(cases_path), "--registry", str(reg_path), "--copy", str(out)]) == 0
    text = capsys.readouterr()
    assert reg_path.read_bytes() == before
    assert out.read_bytes() == before.replace(b"[weather report]", b"[weather report, weather forecast]")
    lines = text.out.splitlines()
    assert lines[0] == f"{cases_path} against {reg_path}: 3 missed, 0 wrong (coverage 25.0%, confident precision 100.0%)"
    assert lines[1] == ("1 trigger proposed for 1 skill; with all of them: coverage 25.0% -> 50.0%, confident "
                        "precision 100.0% -> 100.0%, no labelled case worse")
    assert lines[3] == f"weather  {reg_path}:18  triggers: [weather report, weather forecast]"
    assert f"wrote {out}" in text.err
    # the copy routes the case it was made for
    write_generated(load_registry(out), tmp_path / "gen2")
    d = Router.from_paths(out, tmp_path / "gen2" / "routing.min.json").route("summarise the weather forecast for the office")
    assert d.skills == ("weather",)


def test_cli_json(small, capsys):
    reg_path, cases_path = small
    assert main(["suggest", str(cases_path), "--json", "--registry", str(reg_path)]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["suggestions"] == [{
        "kind": "add_trigger", "skill": "weather", "trigger": "weather forecast",
        "yaml": "triggers: [weather report, weather forecast]",
        "where": f"{reg_path}:18", "how": "replace line 18 with it (`, weather forecast` added inside the brackets)",
        "effect": f"routes {cases_path}:6 right; no other labelled case changes", "fixes": [6], "source_line": 6,
        "in_vocabulary": True}]
    assert [r["trigger"] for r in rep["rejected"]] == ["pull request"]
    assert [u["line"] for u in rep["unresolved"]] == [2, 8]


def test_out_may_not_be_the_registry_or_a_generated_file(small, tmp_path, capsys):
    reg_path, cases_path = small
    link = tmp_path / "link.yaml"
    link.symlink_to(reg_path)
    before = reg_path.read_bytes()
    for target in (reg_path, link, tmp_path / "generated" / "routing.min.json"):
        assert main(["suggest", str(cases_path), "--registry", str(reg_path), "--copy", str(target)]) == 2
        err = capsys.readouterr().err
        assert "refusing to write" in err and "Traceback" not in err
    assert reg_path.read_bytes() == before


def test_bad_cases_exit_2(small, tmp_path, capsys):
    reg_path, _ = small
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - task: [a, list]\n", encoding="utf-8")
    assert main(["suggest", str(bad), "--registry", str(reg_path)]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:2:")


SETS = [
    (ROOT / "skills.yaml", ROOT / "tests" / "cases" / "routing-holdout.yaml"),
    (ROOT / "benchmarks/registries/data-platform/skills.yaml", ROOT / "benchmarks/registries/data-platform/cases.yaml"),
    (ROOT / "benchmarks/registries/hospitality/skills.yaml", ROOT / "benchmarks/registries/hospitality/cases.yaml"),
]


@pytest.mark.parametrize("reg_path, cases_path", SETS, ids=["holdout", "data-platform", "hospitality"])
def test_suggestions_on_one_half_never_cost_precision_on_the_other(reg_path, cases_path):
    raw = read_registry_bytes(reg_path)
    reg = parse_registry(raw, reg_path, str(reg_path))
    cases = load_cases(cases_path)
    train, test = cases[0::2], cases[1::2]
    rep = suggest(reg, raw, train)
    patched = Router.from_registry(parse_registry(rep.patched, reg_path, str(reg_path)))
    base = Router.from_registry(reg)
    inside_before, inside_after = evaluate(base, train), evaluate(patched, train)
    assert inside_after.precision >= inside_before.precision
    assert inside_after.coverage >= inside_before.coverage
    before, after = evaluate(base, test), evaluate(patched, test)
    assert after.precision >= before.precision
    assert after.must_fallback_recall >= before.must_fallback_recall


def test_suggest_never_proposes_one_everyday_word():
    """Issue 12 leftover: a single everyday word ("office", Zipf 4.0+) is weak evidence (docs/formats.md
    §6.10) and cannot route its case alone; a rarer word ("printer", 3.9) and a phrase stay candidates."""
    from routelens.tools.suggest import _everyday_word, candidate_phrases

    got = {ph.text: _everyday_word(ph) for ph in candidate_phrases("the office printer jams, toner smudges")}
    assert (got["office"], got["printer"], got["office printer"], got["toner"]) == (True, False, False, False)
    assert {ph.text: _everyday_word(ph) for ph in candidate_phrases("翻訳")}["翻訳"] is True
