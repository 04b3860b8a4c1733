"""A newcomer's trial after routing round 14 (the bundled registry, the CLI
and the TUI): each fault found, with its input."""

from pathlib import Path

import pytest

from routelens.registry.load import load_registry
from routelens.routing.router import Router
from routelens.routing.safety import destructive

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundled():
    return Router.from_registry(load_registry(ROOT / "skills.yaml"))


@pytest.mark.parametrize("task, span", [
    # "delete all the migrations" routed to database-migration: the object was longer than the bulk word's reach
    ("全てのマイグレーションを削除して", (0, 14, "全てのマイグレーションを削除")),
    ("全ての振り返り資料を削除して", (0, 12, "全ての振り返り資料を削除")),
    ("全マイグレーションを削除して", (0, 12, "全マイグレーションを削除")),
    ("すべてのフィーチャーフラグを削除して", (0, 16, "すべてのフィーチャーフラグを削除")),
])
def test_a_japanese_bulk_word_on_a_long_object_is_destructive(bundled, task, span):
    assert destructive(task) == [span]
    d = bundled.route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "high_risk", [])


@pytest.mark.parametrize("task", [
    "全部終わったら古いログを削除して",      # "when everything is done, delete the old logs": no bulk object
    "全体の設計を見直して、古いログを削除して",
    "全額返金でお願いします",
])
def test_no_bulk_object_no_destructive_intent(task):
    assert destructive(task) == []


@pytest.mark.parametrize("task, skill, trigger, word", [
    # explain said "None of the triggers ... appears in the task, even approximately" of a trigger written in it
    ("マイグレーションツールを直して", "database-migration", "マイグレーション", "マイグレーションツール"),
    ("アクセスログ解析して", "log-analysis", "ログ解析", "アクセスログ解析"),
])
def test_explain_names_a_trigger_inside_a_longer_word(bundled, task, skill, trigger, word):
    e = bundled.explain(task, skill)
    assert e.reasons[0] == (
        f'Its trigger "{trigger}" stands inside the longer word "{word}" of the task: a trigger matches whole words '
        'only, not part of a longer one ("ログ" is no part of "ブログ", docs/formats.md §6.7). '
        f'If "{word}" is this skill\'s work, add it as a trigger (the threshold is 85).')
    assert e.reasons[1] == "It was not selected because none of its triggers matches a word of the task."


def test_explain_of_a_skill_with_no_trigger_in_sight_says_so(bundled):
    e = bundled.explain("the weather is nice today", "refactoring")
    assert e.reasons[0] == ('None of the triggers of "refactoring" appears in the task, even approximately '
                            "(the threshold is 85).")


def test_route_says_why_a_match_was_not_chosen(capsys):
    from routelens.cli import main

    assert main(["route", "--registry", str(ROOT / "skills.yaml"), "--no-fixes",
                 "don't write a blog post, write release notes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "mode:     index"
    blog = next(line for line in out if "article-draft" in line)
    assert blog.endswith('"blog post" ~ "blog post"  (not selected: its trigger is negated)')
    notes = next(line for line in out if "release-notes " in line)
    assert notes.endswith('"release notes" ~ "release notes"')


def test_route_heads_the_rules_table_as_rules(capsys):
    from routelens.cli import main

    main(["route", "--registry", str(ROOT / "skills.yaml"), "--no-fixes", "rm -rf everything in the repo"])
    out = capsys.readouterr().out.splitlines()
    i = out.index("rules and high-risk terms:")
    assert out[i + 1] == "   score  rule or term             span        lines     trigger / text"
    assert out[i + 2] == '     100  rm -rf                   0-6                   "rm -rf" ~ "rm -rf"'


def test_no_fix_note_for_a_japanese_sentence_reads_as_english():
    from routelens.cli.commands.route import no_fix_note

    assert no_fix_note({"candidates": 0}, True) == (
        "fixes: none found: the words that matched are triggers already, and the task has no longer phrase around "
        "them to propose; if it is work for one of your skills, add a trigger that says this work to that skill, "
        "then `routelens build`; a sentence that asks no work of this registry is right to fall back")


@pytest.mark.parametrize("key, said", [
    ("compositions", "did you mean `composition`? (as written the whole section would be ignored: no composition "
                     "would be served)"),
    ("rule", "did you mean `rules`? (as written the whole section would be ignored: no rule would force a fallback)"),
])
def test_a_misspelt_optional_section_is_an_error(tmp_path, capsys, key, said):
    # `compositions:` for `composition:` was a warning: build wrote an index with no compositions and exited 0
    from routelens.cli import main

    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: [alpha job]\n"
                   f"{key}:\n  ab:\n    - a\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    assert main(["build", "--registry", str(reg)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{reg}:7:1: {key}: unknown top-level key: {said}", f"{reg}: 1 error; nothing was written"]
    assert not (tmp_path / "generated").exists()


def test_a_stray_key_beside_the_section_stays_a_warning(tmp_path, capsys):
    from routelens.cli import main

    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: [alpha job]\n"
                   "composition:\n  ab:\n    - a\ncompositions: 1\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    assert main(["build", "-q", "--registry", str(reg)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{reg}:10:1: warning: compositions: unknown top-level key (known: schema_version, skills, composition, "
        "rules, routing); ignored; did you mean `composition`?"]


def test_check_names_the_body_that_changed(tmp_path, capsys):
    # a deleted body gave "stale: it differs from a fresh build although its hash matches (hand-edited, or a body
    # changed?)" and "changed: bug-triage", while route said "index: fresh"
    from routelens.cli import main

    assert main(["init", str(tmp_path / "r")]) == 0
    (tmp_path / "r" / "skills" / "bug-triage.md").unlink()
    with open(tmp_path / "r" / "skills" / "code-review.md", "a", encoding="utf-8") as f:
        f.write("One more line.\n")
    capsys.readouterr()
    assert main(["check", "--registry", str(tmp_path / "r" / "skills.yaml")]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("routelens check:")]
    assert err == [
        f"routelens check: {tmp_path / 'r' / 'generated' / 'routing.min.json'} is stale: a skill's body changed since "
        "it was built (the registry did not).",
        f"routelens check: {tmp_path / 'r' / 'generated' / 'catalog.json'} is stale: a skill's body changed since it "
        "was built (the registry did not).",
        "routelens check: Since the build: changed: bug-triage (its body skills/bug-triage.md is missing now), "
        "code-review (its body skills/code-review.md changed). Run `routelens build`."]


@pytest.mark.parametrize("task, span", [
    # a dental clinic's "cancel all of Friday's appointments" routed to its cancellation skill; in English it fell back
    ("金曜日の予約を全部キャンセルして", (7, 14, "全部キャンセル")),
    ("金曜の予約を一括キャンセル", (6, 13, "一括キャンセル")),
    ("全ての予約をキャンセルして", (0, 11, "全ての予約をキャンセル")),
    ("全部の契約を解約してください", (0, 8, "全部の契約を解約")),
])
def test_a_japanese_bulk_cancel_is_destructive(task, span):
    assert destructive(task) == [span]


@pytest.mark.parametrize("task", ["予約をキャンセルして", "全額キャンセル料を確認して", "キャンセルを全部確認して"])
def test_one_cancellation_is_no_destructive_intent(task):
    assert destructive(task) == []


@pytest.mark.parametrize("text, first", [
    # "schema_versoin: 1" was said at 1:1, a comment line
    ("# my registry\n# more\n\nschema_versoin: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n"
     "    triggers: [alpha job]\n",
     "skills.yaml:4:1: schema_version: missing required key (schema_version: 1); `schema_versoin` here looks like "
     "a misspelling of it"),
    # a composition member one letter from a skill id got no hint
    ("schema_version: 1\nskills:\n  patient-reminder:\n    path: a.md\n    priority: P1\n    triggers: [alpha job]\n"
     "  b:\n    path: a.md\n    priority: P1\n    triggers: [beta job]\ncomposition:\n  ab:\n    - patient-reminders\n"
     "    - b\n",
     "skills.yaml:13:7: composition.ab[0]: unknown skill 'patient-reminders'; did you mean 'patient-reminder'?"),
    # a trigger list written as one string got no example of the fix
    ("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: payroll, timesheet\n",
     "skills.yaml:6:15: skills.a.triggers: triggers must be a non-empty list of strings, not the string "
     "'payroll, timesheet': write `triggers: [payroll, timesheet]`"),
])
def test_an_error_says_where_to_fix_and_how(tmp_path, capsys, text, first):
    from routelens.cli import main

    (tmp_path / "skills.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    assert main(["build", "-q", "--registry", str(tmp_path / "skills.yaml")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == first.replace("skills.yaml:", f"{tmp_path / 'skills.yaml'}:", 1)


def test_a_rules_misspelt_triggers_key_is_named(tmp_path, capsys):
    # a rule's `trigger:` gave "missing required key `triggers`" at the rule's id, with no hint
    from routelens.cli import main

    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: [alpha job]\n"
                   "rules:\n  r1:\n    forced: true\n    trigger: [drop table]\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n", encoding="utf-8")
    assert main(["build", "-q", "--registry", str(reg)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{reg}:10:5: rules.r1.triggers: missing required key `triggers` (`trigger` here looks like a misspelling "
        "of it)")
