"""`routelens lint`: every check on one registry, outputs asserted exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from routelens.cli import main
from routelens.registry import load_registry
from routelens.tools.lint import lint, listing_budget

ROOT = Path(__file__).resolve().parents[1]

LONG = "long description " + "x" * 1100  # 1,117 characters
REGISTRY = f"""\
schema_version: 1
extra: 1
skills:
  code-review:
    path: skills/code-review.md
    priority: P0
    triggers: [code review, review]
    description: Do a code review of a diff
  pr-review:
    path: skills/pr-review.md
    priority: P1
    triggers: [review, pull request review]
    description: Review a pull request
  ci:
    path: skills/ci.md
    priority: P1
    triggers: [ci, the, CI]
    description: Fix a broken build pipeline
  old-tool:
    path: skills/missing.md
    priority: P2
    triggers: [old tool]
    status: deprecated
    description: Use the old tool
  gone-tool:
    path: skills/gone.md
    priority: P2
    triggers: [gone tool]
    status: disabled
    description: Use the gone tool
  bad--name:
    path: skills/bad.md
    priority: P2
    triggers: [bad name example]
  long-desc:
    path: skills/long.md
    priority: P2
    triggers: [long description]
    description: {LONG}
    when_to_use: {"y" * 500}
  ja:
    path: skills/ja.md
    priority: P2
    triggers: [調査, 書, して]
    description: 調査する
composition:
  bundle:
    - code-review
    - old-tool
    - gone-tool
rules:
  r1:
    forced: true
    triggers: [pr]
"""

F = "skills.yaml"
EXPECTED = [
    f"{F}:2:1: warning: extra: unknown top-level key (known: schema_version, skills, composition, rules, routing); ignored [registry-warning]",
    f"{F}:7:29: warning: skills.code-review.triggers[1]: trigger 'review' occurs inside 'pull request review', a trigger of pr-review: every task that says 'pull request review' also matches code-review [shadowed-trigger]",
    f"{F}:7:29: warning: skills.code-review.triggers[1]: trigger 'review' is also a trigger of pr-review: a task saying it matches them all (ambiguous) [shared-trigger]",
    f"{F}:12:16: warning: skills.pr-review.triggers[0]: trigger 'review' occurs inside 'code review', a trigger of code-review: every task that says 'code review' also matches pr-review [shadowed-trigger]",
    f"{F}:12:16: warning: skills.pr-review.triggers[0]: trigger 'review' is also a trigger of code-review: a task saying it matches them all (ambiguous) [shared-trigger]",
    f"{F}:17:16: warning: skills.ci.triggers[0]: trigger 'ci' is 2 characters (3 or fewer): short triggers match tasks by accident [short-trigger]",
    f"{F}:17:20: warning: skills.ci.triggers[1]: trigger 'the' is 3 characters (3 or fewer): short triggers match tasks by accident [short-trigger]",
    f"{F}:17:20: warning: skills.ci.triggers[1]: trigger 'the' is only common stop words: it matches almost any task [stop-word-trigger]",
    f"{F}:17:25: warning: skills.ci.triggers[2]: trigger 'CI' repeats triggers[0] of the same skill [duplicate-trigger]",
    f"{F}:17:25: warning: skills.ci.triggers[2]: trigger 'CI' is 2 characters (3 or fewer): short triggers match tasks by accident [short-trigger]",
    f"{F}:18:5: warning: skills.ci.description: none of the skill's triggers matches its own description: a task worded like the description would not route to it [unreachable-description]",
    f"{F}:20:11: error: skills.old-tool.path: body 'skills/missing.md': missing [missing-body]",
    f"{F}:31:3: warning: skills.bad--name: id 'bad--name' must not contain '--' (Agent Skills format) [agentskills-name]",
    f"{F}:31:3: warning: skills.bad--name: no description: the Layer-1 listing shows only the id (Agent Skills requires 1-1,024 characters) [missing-description]",
    f"{F}:39:5: warning: skills.long-desc.description: description is 1,117 characters; the Agent Skills limit is 1,024 [agentskills-description]",
    f"{F}:39:5: warning: skills.long-desc.description: description + when_to_use is 1,618 characters: Claude Code cuts each listing entry at 1,536 [listing-entry-cap]",
    f"{F}:44:20: warning: skills.ja.triggers[1]: trigger '書' is 1 character (1 or fewer): short triggers match tasks by accident [short-trigger]",
    f"{F}:44:23: warning: skills.ja.triggers[2]: trigger 'して' is only common stop words: it matches almost any task [stop-word-trigger]",
    f"{F}:49:7: warning: composition.bundle[1]: old-tool is deprecated: replace it in bundle [deprecated-in-composition]",
    f"{F}:50:7: error: composition.bundle[2]: gone-tool is disabled: the router drops it, so bundle is never served whole [disabled-in-composition]",
    f"{F}:54:16: warning: rules.r1.triggers[0]: trigger 'pr' is 2 characters (3 or fewer): short triggers match tasks by accident [short-trigger]",
]


@pytest.fixture
def reg_dir(tmp_path, monkeypatch):
    (tmp_path / "skills.yaml").write_text(REGISTRY, encoding="utf-8")
    (tmp_path / "skills").mkdir()
    for name in ("code-review", "pr-review", "ci", "gone", "bad", "long", "ja"):
        (tmp_path / "skills" / f"{name}.md").write_text(f"# {name}\n")
    monkeypatch.chdir(tmp_path)  # findings name the registry as given: skills.yaml
    monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)
    return tmp_path


def test_fixture_lengths():
    assert len(LONG) == 1117 and len(LONG) + 1 + 500 == 1618


def test_every_check_exact_output(reg_dir):
    report = lint(load_registry("skills.yaml"), env={})
    assert report.matcher == "router"
    assert [str(f) for f in report.findings] == EXPECTED
    assert (report.errors, report.warnings, report.exit_code) == (2, 19, 1)


def test_cli_text_output_and_exit_code(reg_dir, capsys):
    assert main(["lint", "--registry", "skills.yaml"]) == 1
    out = capsys.readouterr().out.splitlines()
    # Claude Code's listing counts long-desc's when_to_use with its description, cut at 1,536:
    # 1,360 - 1,117 + 1,536 = 1,779
    assert out[-2:] == [
        "listing: Layer-1 block 1,360 chars (7 skills); Claude Code listing 1,779 of ~8,000 chars (estimate: 1% "
        "of a 200,000-token context window = 2,000 tokens at ~4 chars/token): 22.2% used; Codex ~16,000 chars "
        "(2%): 8.5% used; no Claude Code settings file found",
        "lint: 2 errors, 19 warnings",
    ]
    assert out[:-2] == EXPECTED


def test_output_is_deterministic(reg_dir, capsys):
    main(["lint", "--json", "--registry", "skills.yaml"])
    first = capsys.readouterr().out
    main(["lint", "--json", "--registry", "skills.yaml"])
    assert capsys.readouterr().out == first


def test_budget_flag_is_an_error(reg_dir, capsys):
    assert main(["lint", "--registry", "skills.yaml", "--budget", "1000"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{F}:3:1: error: skills: the Layer-1 block is 1,360 chars, over --budget 1,000 by 360 [listing-over-budget]" in out
    assert out[-2].endswith("; --budget 1,000 chars: EXCEEDED")
    assert out[-1] == "lint: 3 errors, 19 warnings"


def test_pinned_claude_code_budget_is_exact(reg_dir):
    report = lint(load_registry("skills.yaml"), env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1800"})
    cc = report.listing["claude_code"]
    assert (cc["budget_chars"], cc["exact"], cc["source"], cc["used"], cc["ok"]) == (
        1800, True, "SLASH_COMMAND_TOOL_CHAR_BUDGET=1800 (environment)", 0.9883, True)
    assert not [f for f in report.findings if f.code == "listing-budget"]
    report = lint(load_registry("skills.yaml"), env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1000"})
    over = [str(f) for f in report.findings if f.code == "listing-budget"]
    # dropping long-desc's description alone gives back more than the 779 chars over: one is the fewest
    assert over == [f"{F}:3:1: warning: skills: the Claude Code listing is 1,779 chars, over its 1,000 "
                    "(SLASH_COMMAND_TOOL_CHAR_BUDGET=1000 (environment)) by 779: Claude Code keeps every name but "
                    "drops descriptions, least-used first; at least 1 of 7 would go (routelens cannot see use; the "
                    "fewest that would fit are the longest: long-desc) [listing-budget]"]
    assert report.exit_code == 1  # the two errors of the registry; the budget itself is a warning


def test_listing_budget_estimate_and_cap(tmp_path):
    body = "d" * 2000
    p = tmp_path / "skills.yaml"
    p.write_text(f"schema_version: 1\nskills:\n  big:\n    path: b.md\n    priority: P0\n    triggers: [big task]\n"
                 f"    description: {body}\n")
    lb = listing_budget(load_registry(p), budget_chars=2100, context_window=100_000, env={})
    header = len("Available skills (id: when to use it), sorted by id:\n")
    block = header + len("- big: ") + 2000 + 1
    assert block == 2061
    assert (lb["skills"], lb["block_chars"], lb["capped_chars"]) == (1, block, block - (2000 - 1536))
    assert lb["claude_code"] == {
        "budget_chars": 4000, "exact": False,
        "source": "estimate: 1% of a 100,000-token context window = 1,000 tokens at ~4 chars/token",
        "used": round((block - 464) / 4000, 4), "ok": True, "entry_cap": 1536, "entry_cap_source": "default",
        "listed": 1, "name_only": [], "hidden": [], "over_chars": 0, "lose_descriptions": []}
    assert lb["codex"] == {
        "budget_chars": 8000, "source": "estimate: 2% of a 100,000-token context window = 2,000 tokens at ~4 "
        "chars/token", "used": round(block / 8000, 4), "ok": True, "over_chars": 0}
    assert lb["user"] == {"budget_chars": 2100, "used": round(block / 2100, 4), "ok": True}
    assert lb["settings"]["files"] == [] and lb["settings"]["entry_cap_source"] == "default"


def test_json_report(reg_dir, capsys):
    assert main(["lint", "--json", "--registry", "skills.yaml", "--context-window", "1000000"]) == 1
    obj = json.loads(capsys.readouterr().out)
    assert (obj["errors"], obj["warnings"], obj["matcher"]) == (2, 19, "router")
    assert obj["findings"][0] == {
        "severity": "warning", "code": "registry-warning", "file": "skills.yaml", "line": 2, "column": 1,
        "key_path": "extra",
        "message": "unknown top-level key (known: schema_version, skills, composition, rules, routing); ignored"}
    assert obj["listing"]["claude_code"]["budget_chars"] == 40000


def test_invalid_registry_exits_2(tmp_path, capsys):
    p = tmp_path / "skills.yaml"
    p.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P9\n    triggers: [x]\n")
    assert main(["lint", "--registry", str(p)]) == 2
    err = capsys.readouterr().err
    assert err == (f"{p}:5:15: skills.a.priority: unknown priority 'P9' (one of P0, P1, P2)\n"
                   f"{p}: 1 error; not linted\n")


def test_bad_budget_argument(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["lint", "--budget", "-5"])
    assert exc.value.code == 2
    assert "argument --budget: must be positive: '-5'" in capsys.readouterr().err


def test_bundled_registry_has_no_lint_errors(capsys, monkeypatch):
    monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)
    assert main(["lint", "--registry", str(ROOT / "skills.yaml")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("lint: 0 errors, ")


def test_not_when_of_its_own_trigger_and_stem_collisions(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  plan:\n    path: p.md\n    priority: P1\n    description: Plan it\n"
                   "    triggers: [plan]\n    not_when: [plan]\n  planning:\n    path: q.md\n    priority: P1\n"
                   "    description: Planning\n    triggers: [planning]\n", encoding="utf-8")
    (tmp_path / "p.md").write_text("# p\n")
    (tmp_path / "q.md").write_text("# q\n")
    rep = lint(load_registry(reg))
    got = sorted((f.code, f.key_path, f.line, f.message) for f in rep.findings
                 if f.code in ("not-when-own-trigger", "stem-collision"))
    assert got == [
        ("not-when-own-trigger", "skills.plan.not_when[0]", 8,
         "not_when 'plan' is also a trigger of plan: every task that says it drops the skill"),
        ("stem-collision", "skills.planning.triggers[0]", 13,
         "trigger 'planning' and 'plan' of plan are inflections of one word: a task saying either matches both"),
    ]


def test_a_short_trigger_the_router_counts_as_a_rare_word_is_no_accident(tmp_path):
    """Issue 13 item 9: the bundled registry's 'k8s' was a short-trigger
    finding although the router scores a short trigger 100 on an equal whole
    word or not at all, and takes 'k8s' (Zipf 1.2, below 2.0: a rare word,
    docs/formats.md §6.10) as strong evidence on its own: it matches no task
    by accident. 'RFC' (Zipf 3.0) and 'CVE' (2.4) are fairly common words
    the router does not trust alone, like 'ec2' (2.3); 'ci' (3.5) is an
    everyday one: still findings."""
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  ops:\n    path: o.md\n    priority: P1\n"
                   "    description: Operate the k8s cluster\n    triggers: [k8s, RFC, CVE, ci, ec2]\n",
                   encoding="utf-8")
    (tmp_path / "o.md").write_text("# o\n")
    got = [(f.key_path, f.message) for f in lint(load_registry(reg), env={}).findings if f.code == "short-trigger"]
    assert got == [
        ("skills.ops.triggers[1]", "trigger 'RFC' is 3 characters (3 or fewer): short triggers match tasks by accident"),
        ("skills.ops.triggers[2]", "trigger 'CVE' is 3 characters (3 or fewer): short triggers match tasks by accident"),
        ("skills.ops.triggers[3]", "trigger 'ci' is 2 characters (3 or fewer): short triggers match tasks by accident"),
        ("skills.ops.triggers[4]", "trigger 'ec2' is 3 characters (3 or fewer): short triggers match tasks by accident"),
    ]


def test_the_bundled_registry_is_lint_clean(capsys, monkeypatch, tmp_path):
    """Issue 13 item 9: the example people copy got 19 warnings (16
    unreachable-description, short triggers 'k8s', 'RFC', 'CVE')."""
    monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no Claude Code settings of this machine
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--registry", str(ROOT / "skills.yaml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "lint: 0 errors, 0 warnings"


def test_a_misspelled_skill_key_is_named_with_the_key_it_resembles(tmp_path):
    # was: `satus: disabled` and `descripton:` passed build and lint silently, and the skill kept routing
    from routelens.registry import parse_registry
    from routelens.tools.lint import lint
    text = ("schema_version: 1\nskills:\n  code-review:\n    description: Review a diff.\n"
            "    triggers: [review my diff]\n    priority: P2\n    when_to_us: later\n    descripton: hello\n"
            "    owner: platform\n    path: code-review.md\n"
            "rules:\n  r1:\n    forced: true\n    triggrs: [x]\n    triggers: [drop the table]\n"
            "routng:\n  threshold: 80\nrouting:\n  colour: 80\n")
    (tmp_path / "code-review.md").write_text("# Code review\n", encoding="utf-8")
    reg = parse_registry(text.encode(), tmp_path / "skills.yaml", "skills.yaml")
    got = [str(f) for f in lint(reg, env={}, settings=None).findings
           if f.code in ("misspelled-key", "registry-warning")]
    assert got == [
        "skills.yaml:7:5: warning: skills.code-review.when_to_us: `when_to_us` is no key routelens reads (it is "
        "kept as metadata): did you mean `when_to_use`? [misspelled-key]",
        "skills.yaml:8:5: warning: skills.code-review.descripton: `descripton` is no key routelens reads (it is "
        "kept as metadata): did you mean `description`? [misspelled-key]",
        "skills.yaml:14:5: warning: rules.r1.triggrs: `triggrs` is no key routelens reads (it is kept as "
        "metadata): did you mean `triggers`? [misspelled-key]",
        "skills.yaml:16:1: warning: routng: unknown top-level key (known: schema_version, skills, composition, "
        "rules, routing); ignored; did you mean `routing`? [registry-warning]",
        "skills.yaml:19:3: warning: routing.colour: unknown routing key; ignored [registry-warning]"]


def test_a_misspelt_safety_setting_is_an_error_not_a_warning(tmp_path, capsys):
    """A newcomer's trial: `highrisk:` in routing: and `force:` in a rule
    were warnings, build exited 0, and "truncate table events" no longer fell
    back high_risk (docs/formats.md §1.1). Far-off keys stay warnings."""
    from routelens.cli import main
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: [alpha]\n"
                   "routing:\n  highrisk: [truncate table]\nrules:\n  prod:\n    force: true\n"
                   "    triggers: [delete the prod]\n", encoding="utf-8")
    assert main(["build", "--registry", str(reg)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{reg}:8:3: routing.highrisk: unknown routing key: did you mean `high_risk`? (as written it would be "
        "ignored and `high_risk` left at its default)",
        f"{reg}:11:5: rules.prod.force: `force` is no key of a rule: did you mean `forced`? (the rule is not "
        "forced without it)",
        f"{reg}: 2 errors; nothing was written"]
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize("registry", ["skills.yaml", "benchmarks/registries/data-platform/skills.yaml",
                                      "benchmarks/registries/hospitality/skills.yaml"])
def test_shadowing_asks_only_the_owners_of_a_token_run_with_the_same_answer(registry):
    """lint took 7 minutes at 20,000 skills (a newcomer's trial): it matched
    every trigger against every trigger. It now scores only the trigger texts
    of a token run of the text, each once on its own; the skills they give,
    and each skill's best trigger, equal the whole matcher's on every trigger,
    not_when and description of the shipped registries."""
    from routelens.routing.matching import prepare
    from routelens.tools.lint import _Matcher

    reg = load_registry(Path(__file__).parents[1] / registry)
    m = _Matcher(reg)
    assert not m.tokenless  # every shipped trigger has tokens: texts_inside answers for all of them
    texts = [t for s in reg.skills.values() for t in (*s.triggers, *s.not_when, s.description or "")]
    shadowed = 0
    for t in texts:
        whole = m.tm.match(prepare(t), 100.0)
        expected = {sid: x.trigger for sid, x in whole.items() if x.score >= 100.0}
        inside = m.texts_inside(t)
        got = {sid for x in inside for sid in m.holders[x]}
        assert got == set(expected), t
        assert all(expected[sid] in inside for sid in expected), t
        shadowed += len(expected) > 1
    assert shadowed > 0  # the set holds triggers inside others' texts: the comparison sees some


def test_a_trigger_inside_many_others_is_one_warning(tmp_path):
    """A trial: on a registry whose words many skills share, lint wrote one
    shadowed-trigger warning per pair of triggers (444,000 lines at 2,000
    skills) and took minutes at 10,000; a shared trigger named every other
    skill. One warning per shorter trigger now, the first few named."""
    from routelens.registry import parse_registry

    lines = ["schema_version: 1", "skills:", "  alert:", "    path: a.md", "    priority: P1", "    triggers: [alert]"]
    for n in range(8):
        lines += [f"  s{n}:", f"    path: s{n}.md", "    priority: P2",
                  f"    triggers: [alert rule {n}, queue depth {n}, shared words]"]
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    for n in range(8):
        (tmp_path / f"s{n}.md").write_text("# s\n", encoding="utf-8")
    reg = parse_registry(("\n".join(lines) + "\n").encode(), tmp_path / "skills.yaml", "skills.yaml")
    found = lint(reg, env={}, settings=None).findings
    shadowed = [str(f) for f in found if f.code == "shadowed-trigger"]
    assert shadowed == [
        "skills.yaml:6:16: warning: skills.alert.triggers[0]: trigger 'alert' occurs inside 8 triggers of 8 other "
        "skills ('alert rule 0' of s0, 'alert rule 1' of s1, 'alert rule 2' of s2, 'alert rule 3' of s3, "
        "'alert rule 4' of s4 and 3 more): every task that says one of them also matches alert [shadowed-trigger]"]
    shared = [str(f) for f in found if f.code == "shared-trigger"]
    assert len(shared) == 8 and shared[0] == (
        "skills.yaml:10:45: warning: skills.s0.triggers[2]: trigger 'shared words' is also a trigger of s1, s2, "
        "s3, s4, s5 and 2 other skills: a task saying it matches them all (ambiguous) [shared-trigger]")


def test_the_text_report_lists_twenty_findings_of_a_kind_then_counts(tmp_path, capsys):
    """A 10,000-skill registry's lint printed 93,775 lines; now the first 20
    of each kind, then one line per kind counting the rest (--all and
    --json keep every one)."""
    from routelens.cli import main

    text = "schema_version: 1\nskills:\n" + "".join(
        f"  s-{i:02d}:\n    path: s{i}.md\n    priority: P2\n    triggers: [deploy, thing {i:02d}]\n"
        "    description: Deploy the thing\n" for i in range(25))
    reg = tmp_path / "skills.yaml"
    reg.write_text(text, encoding="utf-8")
    assert main(["lint", "--registry", str(reg)]) in (0, 1)
    capped = capsys.readouterr().out.splitlines()
    assert main(["lint", "--registry", str(reg), "--all"]) in (0, 1)
    every = capsys.readouterr().out.splitlines()
    bodies = [line for line in every if line.endswith("[missing-body]")]
    assert len(bodies) == 25
    assert [line for line in capped if line.endswith("[missing-body]")] == bodies[:20]
    assert "lint: 5 more missing-body findings (of 25; `routelens lint --all` lists every one)" in capped
    assert capped[-1] == every[-1] and capped[-1].startswith("lint: ")
