"""A fourth newcomer's trial after routing round 21 (their own 16-skill
registry, the CLI and the TUI): what it found wrong, each with the failing
input. A hand-edited index that dropped the rules routed past a forced rule;
``route --log`` appended JSON to a labelled cases file; a low threshold's
loose high-risk match was said to "appear"; a rule without ``forced: true``
did nothing and nothing said so; an unclosed quote in a flow list was
reported as an unclosed bracket."""

import json
import shutil
from pathlib import Path

import pytest

from routelens.routing.router import Router

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def reg(tmp_path, monkeypatch):
    """A copy of the bundled registry and its bodies, built (no matcher cache)."""
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry

    shutil.copytree(ROOT / "skills", tmp_path / "skills")
    shutil.copy(ROOT / "skills.yaml", tmp_path / "skills.yaml")
    write_generated(load_registry(tmp_path / "skills.yaml"), tmp_path / "generated")
    return tmp_path


def _edit_index(folder: Path, edit) -> None:
    path = folder / "generated" / "routing.min.json"
    obj = json.loads(path.read_text(encoding="utf-8"))
    edit(obj)
    path.write_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _route(folder: Path, task: str):
    return Router.from_paths(folder / "skills.yaml", folder / "generated" / "routing.min.json").route(task)


TASK = "rotate the api key in the ci pipeline config and fix ci"


def test_a_rule_the_registry_has_and_the_index_lost_makes_the_index_invalid(reg):
    # before: the index without its rules (hash kept) routed this task to ci-fix, past the forced rule
    # secrets-handling ("api key")
    assert _route(reg, TASK).reason == "forced_rule"

    def drop(obj):
        del obj["rules"], obj["rule_fields"]
    _edit_index(reg, drop)
    d = _route(reg, TASK)
    assert (d.mode, d.reason, d.skills) == ("full", "index_invalid", ())
    assert ('the registry\'s rules "production-change", "secrets-handling" are not in the index: the index does '
            'not match the registry (hand-edited?)') in d.message


def test_one_rule_lost_or_one_rule_made_up_is_named(reg):
    _edit_index(reg, lambda obj: obj.update(rules=[r for r in obj["rules"] if r[0] != "secrets-handling"]))
    d = _route(reg, TASK)
    assert d.reason == "index_invalid"
    assert 'the registry\'s rules "secrets-handling" are not in the index' in d.message


def test_the_index_rules_are_checked_against_the_registry_read_from_its_section_only(reg):
    from routelens.routing.sections import top_level_section

    text = (reg / "skills.yaml").read_text(encoding="utf-8")
    at, lines = top_level_section(text, "rules")
    assert (at + 1, lines[0], len(lines)) == (629, "rules:", 10)
    assert top_level_section("skills: {}\n", "rules") is None


@pytest.mark.parametrize("name, content", [
    ("cases.yaml", "cases:\n  - task: review my diff\n    expect: [code-review]\n"),
    ("skills/code-review.md", None),
    ("notes.txt", "{not json\n"),
])
def test_route_log_refuses_a_file_that_is_not_a_decision_log(reg, cli, name, content):
    path = reg / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    before = path.read_bytes()
    code, out, err = cli("route", "--registry", reg / "skills.yaml", "--log", path, "review my diff")
    assert code == 2
    assert "refusing to log here: the file is not a decision log" in err
    assert path.read_bytes() == before


def test_route_log_appends_to_a_new_an_empty_or_an_existing_log(reg, cli):
    log = reg / "decisions.jsonl"
    for _ in range(2):
        assert cli("route", "--registry", reg / "skills.yaml", "--log", log, "review my diff")[0] == 0
    empty = reg / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert cli("route", "--registry", reg / "skills.yaml", "--log", empty, "review my diff")[0] == 0
    assert [len(p.read_text(encoding="utf-8").splitlines()) for p in (log, empty)] == [2, 1]


def test_a_loose_high_risk_match_says_what_matched(reg):
    # threshold 30: "drop table" matched "dropped" at 42.2, and the message said the term "appears in the task"
    path = reg / "skills.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  threshold: 85\n", "  threshold: 30\n"),
                    encoding="utf-8")
    from routelens.registry import load_registry

    d = Router.from_registry(load_registry(path)).route("Our Lighthouse score dropped to 41")
    assert (d.mode, d.reason) == ("full", "high_risk")
    assert d.message == ('Fell back to the full registry: the high-risk term "drop table" matched "dropped" in the '
                         'task (score 42.2)')


def test_lint_warns_of_a_rule_that_is_not_forced(reg):
    from routelens.registry import load_registry
    from routelens.tools.lint import lint

    path = reg / "skills.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  secrets-handling:\n    forced: true\n",
                                                             "  secrets-handling:\n"), encoding="utf-8")
    found = [(f.code, f.line, f.key_path, f.message) for f in lint(load_registry(path)).findings
             if f.code == "unforced-rule"]
    assert found == [("unforced-rule", 635, "rules.secrets-handling",
                      "rule 'secrets-handling' is not forced: a task matching it still routes, its message only "
                      "adds 'rule \"secrets-handling\" applies'; add `forced: true` to send such tasks to the full "
                      "registry")]


def test_an_unclosed_quote_in_a_flow_list_is_named_not_the_bracket(reg, cli):
    path = reg / "skills.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("triggers: [code review,", 'triggers: ["code review,', 1), encoding="utf-8")
    code, out, err = cli("build", "--registry", path)
    assert code == 2
    assert err.splitlines()[0] == f"{path}:37:16: " + (
        "skills.code-review.triggers[0]: YAML syntax error: the double quote opened on line 37, "
        "column 16 is not closed on its line, so the value runs on: close it with \" (YAML parser: did not find "
        "expected ',' or ']' while parsing a flow sequence, at line 191, column 19)")


def test_a_long_log_is_judged_by_its_first_line_read_through_the_bounded_reader(reg, cli):
    from routelens.fileio import read_bounded

    log = reg / "long.jsonl"
    assert cli("route", "--registry", reg / "skills.yaml", "--log", log, "review my diff")[0] == 0
    first = log.read_bytes()
    log.write_bytes(first * 400)  # over the 64 KiB the check reads
    assert len(first) * 400 > 1 << 16
    assert read_bounded(log, 1 << 16, head=True) == (first * 400)[: 1 << 16]
    assert cli("route", "--registry", reg / "skills.yaml", "--log", log, "review my diff")[0] == 0
    assert log.read_bytes() == first * 400 + log.read_bytes()[len(first) * 400:]
    assert len(log.read_text(encoding="utf-8").splitlines()) == 401


def test_an_entry_id_indented_too_deep_is_named_once_not_its_keys_as_duplicates(reg, cli):
    # before: four "skills.code-review.path: duplicate key (first defined on line 35)" errors (lines 48-56) and
    # not a word of line 47, where "pr-creation:" was indented 4 spaces instead of 2
    path = reg / "skills.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\n  pr-creation:\n", "\n    pr-creation:\n", 1),
                    encoding="utf-8")
    code, out, err = cli("build", "--registry", path)
    assert code == 2
    assert err.splitlines() == [
        f"{path}:47:5: skills.code-review.pr-creation: 'pr-creation' has no value and is indented like the keys "
        "above it, so the keys below it repeat theirs ('path', first on line 35): if 'pr-creation' starts a new "
        "entry, indent it like the other ids",
        f"{path}: 1 error; nothing was written"]


def test_a_duplicate_key_with_no_empty_key_before_it_is_still_a_duplicate(tmp_path, cli):
    path = tmp_path / "skills.yaml"
    path.write_text("schema_version: 1\nskills:\n  a:\n    path: skills/a.md\n    priority: P1\n"
                    "    triggers: [alpha]\n    path: skills/b.md\n", encoding="utf-8")
    code, out, err = cli("build", "--registry", path)
    assert code == 2
    assert err.splitlines()[0] == f"{path}:7:5: skills.a.path: duplicate key (first defined on line 4)"


def test_a_short_option_of_another_command_is_named(reg, capsys):
    # "route -j 2 review" said only "unrecognized arguments: -j 2 review (route read '2' ...)"
    from routelens.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["route", "--registry", str(reg / "skills.yaml"), "-j", "2", "review"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        "unrecognized arguments: -j 2 review (route read '2', the word after -j, as the task); -j is an option of "
        "routelens build, not of route: nothing was done (routelens route --help lists its options)")


def test_an_index_that_is_no_json_at_all_says_so(reg):
    # "--index skills.yaml" read "not valid JSON (truncated?)"
    d = Router.from_paths(reg / "skills.yaml", reg / "skills.yaml").route("review my diff")
    assert d.reason == "index_invalid"
    assert ("is invalid: not JSON at all: it begins '# yaml-language-server: $schema=./src/ro' (YAML or text?); an "
            "index is the JSON file `routelens build` writes, generated/routing.min.json") in d.message


def test_the_starter_registry_shows_not_when(tmp_path, cli):
    # the README says every key, not_when among them, is in the starter's comments; not_when was not
    assert cli("init", tmp_path / "new")[0] == 0
    assert ("    # not_when: [review guidelines]  # optional: phrases that say it is not this work; a task saying one "
            "drops it\n") in (tmp_path / "new" / "skills.yaml").read_text(encoding="utf-8")


def test_a_log_whose_first_line_is_longer_than_the_check_reads_is_still_a_log(reg, cli):
    log = reg / "long-task.jsonl"
    task = "review my diff " + "x" * 70_000
    assert cli("route", "--registry", reg / "skills.yaml", "--log", log, task)[0] == 0
    assert len(log.read_bytes().split(b"\n")[0]) > 1 << 16
    assert cli("route", "--registry", reg / "skills.yaml", "--log", log, "review my diff")[0] == 0
    assert len(log.read_text(encoding="utf-8").splitlines()) == 2
