"""`routelens lint` reads the harness's real settings (issue 13 item 18):
Claude Code's settings files (``skillListingBudgetFraction``, the
per-entry cap under either name, ``skillOverrides``, an ``env`` pinning
``SLASH_COMMAND_TOOL_CHAR_BUDGET``), Codex's 2%, ``when_to_use`` counted in
the per-entry cap, and which skills lose their descriptions on overflow.
Every test runs with a temporary HOME (tests/conftest.py), never the real
one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from routelens.cli import main
from routelens.registry import load_registry
from routelens.tools.harness import read_settings, settings_files
from routelens.tools.lint import lint, listing_budget

REGISTRY = """\
schema_version: 1
skills:
  alpha:
    path: a.md
    priority: P0
    triggers: [alpha task]
    description: {a}
    when_to_use: {w}
  bravo:
    path: b.md
    priority: P1
    triggers: [bravo task]
    description: {b}
  charlie:
    path: c.md
    priority: P2
    triggers: [charlie task]
    description: Charlie does a small thing
""".format(a="A" * 300, w="W" * 200, b="B" * 120)


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project folder holding the registry (bodies present), as cwd."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "skills.yaml").write_text(REGISTRY, encoding="utf-8")
    for n in "abc":
        (proj / f"{n}.md").write_text("# body\n")
    monkeypatch.chdir(proj)
    return proj


def write_json(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj, encoding="utf-8")


def test_no_settings_files_gives_the_defaults(project):
    st = read_settings(project / "skills.yaml", env={})
    assert (st.budget_chars, st.fraction, st.entry_cap, st.overrides, st.files, st.notes) == (
        None, 0.01, 1536, {}, [], [])
    home = Path.home()
    assert settings_files(project / "skills.yaml") == [
        project / ".claude" / "settings.local.json", project / ".claude" / "settings.json",
        home / ".claude" / "settings.json"]
    assert str(home) != "/root" and "pytest" in str(home)  # the temporary HOME of tests/conftest.py


def test_settings_files_in_precedence_order(project):
    home = Path.home()
    write_json(home / ".claude" / "settings.json", {"skillListingBudgetFraction": 0.02,
                                                     "maxSkillDescriptionChars": 900,
                                                     "env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "5000"}})
    write_json(project / ".claude" / "settings.json", {"skillListingBudgetFraction": 0.005,
                                                        "skillOverrides": {"bravo": "name-only", "nope": "off"}})
    write_json(project / ".claude" / "settings.local.json", {"skillListingMaxDescChars": 250})
    st = read_settings(project / "skills.yaml", env={}, skill_ids={"alpha", "bravo", "charlie"})
    assert st.files == [".claude/settings.local.json", ".claude/settings.json", "~/.claude/settings.json"]
    assert (st.fraction, st.fraction_source) == (0.005, ".claude/settings.json")
    assert (st.entry_cap, st.entry_cap_key, st.entry_cap_source) == (250, "skillListingMaxDescChars",
                                                                     ".claude/settings.local.json")
    assert (st.budget_chars, st.budget_source) == (5000, "env of ~/.claude/settings.json")
    assert st.overrides == {"bravo": "name-only", "nope": "off"}
    assert [(n.file, n.key, n.message) for n in st.notes] == [
        (".claude/settings.json", "skillOverrides.nope", "names no skill of the registry")]
    # the environment wins over a settings file's env
    assert read_settings(project / "skills.yaml", env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "700"}).budget_chars == 700


def test_both_names_of_the_per_entry_cap_are_read(project):
    write_json(project / ".claude" / "settings.json", {"skillListingMaxDescChars": 400, "maxSkillDescriptionChars": 350})
    st = read_settings(project / "skills.yaml", env={})
    assert (st.entry_cap, st.entry_cap_key) == (350, "maxSkillDescriptionChars")
    assert [n.message for n in st.notes] == [
        "both skillListingMaxDescChars and maxSkillDescriptionChars are set: the smaller, 350, is used"]


def test_bad_settings_become_findings(project, capsys):
    write_json(project / ".claude" / "settings.json", '{"skillListingBudgetFraction": 0.02,\n  "skillOverrides": [}')
    write_json(Path.home() / ".claude" / "settings.json", {"skillListingBudgetFraction": 3,
                                                           "skillOverrides": {"alpha": "sometimes"}})
    assert main(["lint", "--registry", "skills.yaml"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "[harness-settings]" in line] == [
        ".claude/settings.json:2:22: warning: not valid JSON (Expecting value): ignored [harness-settings]",
        "~/.claude/settings.json:1:1: warning: skillListingBudgetFraction: 3 is not a fraction in (0, 1]: "
        "ignored [harness-settings]",
        "~/.claude/settings.json:1:1: warning: skillOverrides.alpha: unknown state 'sometimes' (one of on, "
        "name-only, user-invocable-only, off): ignored [harness-settings]",
    ]


def test_when_to_use_counts_in_the_per_entry_cap(project):
    write_json(project / ".claude" / "settings.json", {"maxSkillDescriptionChars": 400})
    reg = load_registry("skills.yaml")
    lb = listing_budget(reg, env={})
    header = len("Available skills (id: when to use it), sorted by id:\n")
    # alpha: description (300) + " " + when_to_use (200) = 501, cut at 400
    alpha = len("- alpha: ") + 400 + 1
    bravo = len("- bravo: ") + 120 + 1
    charlie = len("- charlie: Charlie does a small thing\n")
    assert lb["capped_chars"] == header + alpha + bravo + charlie
    assert lb["claude_code"]["entry_cap"] == 400
    findings = [str(f) for f in lint(reg, env={}).findings if f.code == "listing-entry-cap"]
    assert findings == ["skills.yaml:7:5: warning: skills.alpha.description: description + when_to_use is 501 "
                        "characters: Claude Code cuts each listing entry at 400 (maxSkillDescriptionChars in "
                        ".claude/settings.json) [listing-entry-cap]"]


def test_overflow_names_the_skills_that_lose_their_descriptions(project):
    write_json(project / ".claude" / "settings.json", {"skillListingBudgetFraction": 0.0001,
                                                        "skillOverrides": {"charlie": "off"}})
    reg = load_registry("skills.yaml")
    report = lint(reg, context_window=1_000_000, env={})  # 0.01% of 1,000,000 tokens = 400 chars
    cc = report.listing["claude_code"]
    header = len("Available skills (id: when to use it), sorted by id:\n")
    listed = header + len("- alpha: ") + 501 + 1 + len("- bravo: ") + 120 + 1
    assert (report.listing["capped_chars"], cc["budget_chars"], cc["hidden"]) == (listed, 400, ["charlie"])
    assert cc["over_chars"] == listed - 400 and cc["lose_descriptions"] == ["alpha"]
    (msg,) = [f.message for f in report.findings if f.code == "listing-budget"]
    assert msg == (f"the Claude Code listing is {listed:,} chars, over its ~400 (estimate: 0.01% of a "
                   "1,000,000-token context window (.claude/settings.json) = 100 tokens at ~4 chars/token) by "
                   f"{listed - 400:,}: Claude Code keeps every name but drops descriptions, least-used first; at "
                   "least 1 of 2 would go (routelens cannot see use; the fewest that would fit are the longest: "
                   "alpha)")
    # name-only skills cost their name only
    write_json(project / ".claude" / "settings.json", {"skillOverrides": {"alpha": "name-only"}})
    lb = listing_budget(reg, env={})
    assert lb["claude_code"]["name_only"] == ["alpha"]
    assert lb["capped_chars"] == header + len("- alpha\n") + len("- bravo: ") + 121 + len(
        "- charlie: Charlie does a small thing\n")


def test_codex_two_percent(project):
    reg = load_registry("skills.yaml")
    report = lint(reg, context_window=5_000, env={})  # Codex: 2% of 5,000 tokens = 400 chars
    codex = report.listing["codex"]
    assert (codex["budget_chars"], codex["ok"]) == (400, False)
    (msg,) = [f.message for f in report.findings if f.code == "codex-listing-budget"]
    assert msg == (f"the Layer-1 block is {report.listing['block_chars']:,} chars, over Codex's ~400 (estimate: 2% of "
                   f"a 5,000-token context window = 100 tokens at ~4 chars/token) by "
                   f"{report.listing['block_chars'] - 400:,}: Codex shortens descriptions round-robin, then drops "
                   "skills")
