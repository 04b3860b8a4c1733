"""The TUI's Textual-free helpers: display text, index and catalog layout,
hits, skill filtering, body reading, change splitting."""

from __future__ import annotations

import json
import subprocess
import sys

from routelens.artifacts.check import check
from routelens.registry import load_registry
from routelens.tui.model import (
    Paths,
    display_text,
    format_catalog,
    format_index,
    hits_of,
    load,
    near_hits_of,
)
from routelens.tui.screens.skills import filter_skills, read_body
from routelens.tui.widgets.decision_panel import task_content

from .conftest import CASES, make_registry


def test_display_text_keeps_one_row_per_canonical_line():
    text = 'a: "x\u2028y"\nb: "p\u2029q\x85r\x0bs\x0ct"\nc: 1'
    shown = display_text(text)
    assert shown.splitlines() == ['a: "x↵y"', 'b: "p¶q␤r␋s␌t"', "c: 1"]
    assert len(shown) == len(text)
    assert display_text("plain\ntext") == "plain\ntext"


def test_format_index_one_tuple_per_line_and_rows(registry):
    raw = (registry.parent / "generated" / "routing.min.json").read_bytes()
    disp = format_index(raw)
    lines = disp.text.split("\n")
    assert lines[disp.rows["skills:blog-post"]] == '  ["blog-post",5,13,["blog post","write an article","記事"],[],["reader","routelens"]],'
    assert lines[disp.rows["compositions:article-writing"]] == '  ["article-writing",77,79],'
    assert lines[disp.rows["rules:production-change"]] == '  ["production-change",88,91,["production deploy","本番"]]'
    assert json.loads(disp.text) == json.loads(raw)  # still the same JSON
    assert disp.formatted
    bad = format_index(b'{"v":1,"skills":[')
    assert (bad.formatted, bad.rows, bad.text) == (False, {}, '{"v":1,"skills":[')


def test_format_catalog_entry_rows(registry):
    raw = (registry.parent / "generated" / "catalog.json").read_bytes()
    cat = format_catalog(raw)
    lines = cat.text.split("\n")
    s, e = cat.entries["skills:research"]
    assert (lines[s], lines[e]) == ('    "research": {', "    },")
    assert json.loads("{" + "\n".join(lines[s:e + 1]).rstrip(",") + "}")["research"]["source_start"] == 15
    s, e = cat.entries["rules:production-change"]
    assert lines[s] == '    "production-change": {' and lines[e] == "    }"
    assert cat.entry("skills:research")["triggers"] == ["cite sources", "grounded research", "出典"]
    assert len(cat.entries) == 11 + 3 + 1
    assert format_catalog(b"{not json").error.startswith("not valid JSON")


def test_hits_of_orders_composition_matches_rule(registry):
    snap = load(Paths.make(registry))
    d = snap.router.route("write a blog post and cite sources")
    assert [(h.kind, h.id, h.role, h.start, h.end) for h in hits_of(d, snap.registry)] == [
        ("compositions", "article-writing", "composition", 77, 79),
        ("skills", "blog-post", "match", 5, 13),
        ("skills", "research", "match", 15, 19),
    ]
    d = snap.router.route("production deploy of the api")
    (rule,) = hits_of(d, snap.registry)
    assert (rule.key, rule.role, rule.score, rule.trigger, rule.span) == (
        "rules:production-change", "rule", 100.0, "production deploy", (0, 17))


def test_filter_skills_by_id_trigger_description_width_forms():
    reg = load_registry(CASES.parent.parent / "tui" / "fixtures" / "routing" / "skills.yaml")
    skills = list(reg.skills.values())
    assert [s.id for s in filter_skills(skills, "deploy")] == ["deploy-docs", "deploy-staging"]
    assert [s.id for s in filter_skills(skills, "ｄｅｐｌｏｙ ＳＴＡＧＩＮＧ")] == ["deploy-staging"]
    assert [s.id for s in filter_skills(skills, "翻訳")] == ["translation"]
    assert [s.id for s in filter_skills(skills, "primary sources")] == ["research"]
    assert len(filter_skills(skills, "  ")) == 11
    # ranked by the id: the exact id, then ids that begin with the word, then the rest
    # (at 10,000 skills a typed exact id was somewhere in registry order)
    assert [s.id for s in filter_skills(skills, "docs")] == ["docs-update", "deploy-docs"]
    assert [s.id for s in filter_skills(skills[::-1], "release")] == ["release", "release-notes"]
    assert [s.id for s in filter_skills(skills[::-1], "release notes")][:1] == ["release-notes"]


def test_read_body_frontmatter_missing_and_refused(tmp_path):
    reg_path = make_registry(tmp_path)
    snap = load(Paths.make(reg_path))
    md, problem = read_body(snap, snap.registry.skills["blog-post"])
    assert problem is None
    assert md.startswith("```yaml\nname: blog-post\ndescription: Draft a blog post or technical article\n```\n\n# Blog post\n")
    (reg_path.parent / "skills" / "ci-fix.md").unlink()
    md, problem = read_body(snap, snap.registry.skills["ci-fix"])
    assert problem == "the body file skills/ci-fix.md is missing"
    outside = tmp_path / "outside.md"
    outside.write_text("x", encoding="utf-8")
    (reg_path.parent / "skills" / "release.md").unlink()
    (reg_path.parent / "skills" / "release.md").symlink_to(outside)
    md, problem = read_body(snap, snap.registry.skills["release"])
    assert "refused" in problem and "outside the registry folder" in md


def test_check_splits_moved_from_changed(registry):
    text = registry.read_text(encoding="utf-8").replace("triggers: [translate, 翻訳]", "triggers: [translate, 翻訳, localise]")
    text = text.replace("# A small registry", "# Edited.\n# A small registry")
    registry.write_text(text, encoding="utf-8")
    res = check(load_registry(registry), registry.parent / "generated")
    assert res.changed == ["translation"]
    assert "translation" not in res.moved and {"blog-post", "research", "article-writing"} <= set(res.moved)


def test_task_content_marks_spans_current_and_risk():
    c = task_content("rm -rf then ship it\u2028now", [(11, 15)], (11, 15), [(0, 5)])
    assert c.plain == "rm -rf then ship it↵now"
    styled = {(s.start, s.end): str(s.style) for s in c.spans}
    assert (0, 5) in styled and (11, 15) in styled


def test_textarea_yaml_and_json_grammars_do_not_crash():
    """tree-sitter 0.26 segfaults on a JSON TextArea (textual 8.2): run it in a
    subprocess so a crash fails this test instead of the whole run."""
    code = (
        "import asyncio\n"
        "from textual.app import App\n"
        "from textual.widgets import TextArea\n"
        "class A(App):\n"
        "    def compose(self):\n"
        "        yield TextArea('a: [1, 2]\\n', language='yaml')\n"
        "        yield TextArea('{\"a\": [1, 2]}', language='json')\n"
        "async def main():\n"
        "    async with A().run_test() as pilot:\n"
        "        await pilot.pause()\n"
        "asyncio.run(main())\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout.strip()) == (0, "ok"), out.stderr[-2000:]


def test_size_vs_registry_words():
    from routelens.tui.words import size_vs_registry

    assert size_vs_registry(0.695) == "69.5% smaller"
    assert size_vs_registry(-1.173) == "117.3% larger"
    assert size_vs_registry(-0.33) == "33.0% larger"
    assert size_vs_registry(0.0) == size_vs_registry(-0.0001) == "same size"


def test_help_lists_every_key_of_every_screen():
    """The footer is cut off at 80 columns: F1 help must list every
    binding, in the section of the screen it works on (user trial)."""
    from routelens.tui.app import RouteLensApp
    from routelens.tui.screens.cases import CasesScreen
    from routelens.tui.screens.confirm import ConfirmScreen
    from routelens.tui.screens.log import LogScreen
    from routelens.tui.screens.path_prompt import PathPrompt
    from routelens.tui.screens.tune import TuneScreen
    from routelens.tui.screens.help import KEY_SECTIONS, HelpScreen
    from routelens.tui.screens.json_view import JsonScreen
    from routelens.tui.screens.skills import FilterInput, SkillBrowser
    from routelens.tui.screens.stats import StatsScreen
    from routelens.tui.widgets.task_input import TaskInput

    label = {"escape": "Esc", "question_mark": "?", "down": "↓", "up": "↑", "enter": "Enter",
             "pagedown": "PgDn", "pageup": "PgUp"}
    where = {
        RouteLensApp: "Main screen", TaskInput: "Main screen",
        SkillBrowser: "Skill browser (F2)", FilterInput: "Skill browser (F2)",
        StatsScreen: "Stats (F3)", JsonScreen: "Decision JSON (F6)",
        ConfirmScreen: "Rebuild question (F5)", HelpScreen: "This help",
        CasesScreen: "Labelled cases (F8)", LogScreen: "Decision log (F9)", TuneScreen: "Tune plot (t)",
        PathPrompt: "File question",
    }
    sections = {title: " | ".join(k for k, _ in keys) for title, keys in KEY_SECTIONS}
    missing = []
    for cls, title in where.items():
        for b in cls.BINDINGS:
            for key in b.key.split(","):
                shown = label.get(key, key.upper() if key[:1] == "f" and key[1:].isdigit() else key)
                if shown not in sections[title]:
                    missing.append((cls.__name__, key))
    assert missing == []


def test_pane_notices_say_what_the_index_and_catalog_state_means(registry):
    """The sentences of the index and catalog notices (tui/words.py, the
    one place they are built) for a fresh, a stale, a missing and an
    invalid index, and for a stale and a missing catalog."""
    from routelens.tui.words import catalog_notice, index_notice

    gen = registry.parent / "generated"
    snap = load(Paths.make(registry))
    assert index_notice(snap) == (None, "info") and catalog_notice(snap) == (None, "info")
    built_from = snap.registry.source_sha256
    registry.write_text(registry.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    stale = load(Paths.make(registry))
    now = stale.registry.source_sha256
    assert index_notice(stale) == (
        f"▲ STALE: built from registry {built_from[:8]}, the registry is now {now[:8]}. "
        "Routing falls back to the full registry. F5 rebuilds.", "warning")
    assert catalog_notice(stale) == (
        f"▲ STALE: built from registry {built_from[:8]}, the registry is now {now[:8]}.", "warning")
    (gen / "routing.min.json").unlink()
    (gen / "catalog.json").unlink()
    missing = load(Paths.make(registry))
    assert index_notice(missing) == (
        "✗ NO INDEX: generated/routing.min.json does not exist. Routing falls back to the full registry. "
        "F5 builds it.", "error")
    assert catalog_notice(missing) == ("✗ generated/catalog.json is missing. F5 builds it.", "error")
    (gen / "routing.min.json").write_text('{"v":1,"skills":[', encoding="utf-8")
    invalid = load(Paths.make(registry))
    text, level = index_notice(invalid)
    assert level == "error" and text.startswith("✗ INVALID INDEX: ")
    assert text.endswith(". Routing falls back to the full registry. F5 rebuilds.")
    # the detail is the core's freshness message after its "the index <path> is invalid" head
    assert text.removeprefix("✗ INVALID INDEX: ").removesuffix(". Routing falls back to the full registry. F5 rebuilds.") \
        == invalid.freshness.message.split(": ", 1)[1]


def test_hits_of_an_explicit_composition_is_one_row_with_its_lines(registry):
    """Issue 13 item 1: ``$release-train`` gave a duplicate hit row with
    ``?`` for its lines (the named composition was taken for a skill)."""
    snap = load(Paths.make(registry))
    d = snap.router.route("$release-train")
    assert [(h.kind, h.id, h.role, h.start, h.end, h.score, h.trigger, h.span) for h in hits_of(d, snap.registry)] == [
        ("compositions", "release-train", "composition", 80, 82, 100.0, "$release-train", (0, 14)),
        ("skills", "release", "selected", 21, 25, None, None, None),
        ("skills", "release-notes", "selected", 27, 31, None, None, None),
    ]
    # two names: no composition is "the" composition, but the named one is still one with lines
    d = snap.router.route("please /code-review and $release-train")
    assert [(h.kind, h.id, h.role, h.start, h.end) for h in hits_of(d, snap.registry)] == [
        ("skills", "code-review", "match", 33, 37),
        ("compositions", "release-train", "composition", 80, 82),
        ("skills", "release", "selected", 21, 25),
        ("skills", "release-notes", "selected", 27, 31),
    ]
    # "why not" never lists a skill that was selected
    assert [m.id for m in d.near_misses] == [] and near_hits_of(d, snap.registry) == []


def test_catalog_entries_are_found_on_first_use_not_at_format(registry, monkeypatch):
    """The first paint does not wait for the catalog's entry rows (0.3 s at
    10,000 skills): format_catalog only decodes; the rows are found on
    first use, and the loading worker (complete) asks for them."""
    from routelens.tui import model

    calls = []
    real = model.catalog_entries
    monkeypatch.setattr(model, "catalog_entries", lambda text: calls.append(1) or real(text))
    raw = (registry.parent / "generated" / "catalog.json").read_bytes()
    cat = format_catalog(raw)
    assert calls == []
    assert cat.entries["skills:research"] == cat.entries["skills:research"]
    assert calls == [1]  # once, then kept
    pre = model.preview(Paths.make(registry))
    assert len(calls) == 1
    snap = model.complete(pre, with_router=False)
    assert len(calls) == 2 and snap.catalog is pre.catalog
    assert len(snap.catalog.entries) == 11 + 3 + 1


def test_fresh_index_is_measured_on_disk_a_stale_one_as_built(registry, monkeypatch):
    """With a fresh index the header's size is the index file's (no second
    render of the index: most of a 100,000-skill load); a stale one is
    measured as a build would write it now."""
    from routelens.artifacts.index_file import index_bytes
    from routelens.tui import model

    on_disk = (registry.parent / "generated" / "routing.min.json").read_text(encoding="utf-8")
    renders = []
    real = model.index_bytes
    monkeypatch.setattr(model, "index_bytes", lambda reg: renders.append(1) or real(reg))
    snap = load(Paths.make(registry), with_router=False)
    assert snap.freshness.state == "fresh"
    assert snap.fresh_index_chars == len(on_disk) == 1683
    assert renders == []
    registry.write_text(registry.read_text(encoding="utf-8").replace("  blog-post:", "  blog-post:  # edited", 1),
                        encoding="utf-8")
    snap = load(Paths.make(registry), with_router=False)
    assert snap.freshness.state == "stale"
    assert renders == [1]
    assert snap.fresh_index_chars == len(index_bytes(load_registry(registry)).decode("utf-8"))


def test_format_index_cuts_the_file_as_the_slow_layout_would(registry):
    """The index pane's layout cuts the file's own text (the C scanner)
    instead of decoding it and encoding every tuple again: for an index
    routelens wrote, the same text and rows as the slow layout."""
    from pathlib import Path

    from routelens.tui.model import _format_index_slow

    root = Path(__file__).parents[2]
    for path in [registry.parent / "generated" / "routing.min.json", root / "generated" / "routing.min.json",
                 *sorted((root / "benchmarks" / "registries").glob("*/generated/routing.min.json"))]:
        raw = path.read_bytes()
        fast, slow = format_index(raw), _format_index_slow(raw.decode("utf-8"))
        assert (fast.text, fast.rows, fast.formatted) == (slow.text, slow.rows, True), path
    # not JSON objects, or cut short: shown as they are
    for bad in (b"[]", b"null", b'{"a":1}x', b'{"v":1,"skills":['):
        disp = format_index(bad)
        assert (disp.text, disp.rows, disp.formatted) == (bad.decode(), {}, False)
    assert format_index(b"{}").text == "{\n}"
    # a hand-written index keeps its own spacing inside a tuple, one tuple a line
    spaced = format_index(b'  {"a" : [1, 2] , "skills" : [ ["x",1,2] , ["y",3,4] ] }  ')
    assert spaced.text == '{\n "a":[1, 2],\n "skills":[\n  ["x",1,2],\n  ["y",3,4]\n ]\n}'
    assert spaced.rows == {"skills:x": 3, "skills:y": 4}
    odd = format_index(b'{"skills":[["a",1],2,[3]],"rules":{"r":1}}')
    assert odd.text == '{\n "skills":[\n  ["a",1],\n  2,\n  [3]\n ],\n "rules":{"r":1}\n}'
    assert odd.rows == {"skills:a": 2}


def test_the_skill_list_gives_up_its_status_column_before_cutting_ids():
    """At 80x24 the browser's list has 33 cells: ids were cut to 10
    ("accessibi…") to keep a 4-cell "sta…" column. Now the status column
    goes first (the detail pane shows it; a non-active id keeps its flag
    colour), ids get its cells; wide enough, every column is whole."""
    from routelens.tui.widgets.skill_list import SkillList

    reg = load_registry(CASES.parent.parent.parent / "skills.yaml")
    table = SkillList(list(reg.skills.values()))
    assert table._natural == [21, 7, 4, 10]  # the longest id, a line range, prio, "deprecated"
    assert table.fit(33) == [16, 7, 4, 0]
    assert table.fit(45) == [21, 7, 4, 5]  # ids whole: the status shrinks behind an ellipsis
    assert table.fit(62) == [21, 7, 4, 10]


def test_paths_show_never_names_a_folder_as_dot(tmp_path, monkeypatch):
    """`--log FOLDER` titled its screen "Decision log ." (the folder was the
    registry's): a path is shown relative only when that names something."""
    from routelens.tui.model import Paths

    reg = tmp_path / "reg" / "skills.yaml"
    paths = Paths.make(reg)
    monkeypatch.chdir(tmp_path)
    assert paths.show(tmp_path / "reg" / "generated" / "routing.min.json") == "generated/routing.min.json"
    assert paths.show(tmp_path / "reg") == "reg"  # relative to the current folder instead
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert paths.show(tmp_path / "reg") == str(tmp_path / "reg")


def test_freshness_block_says_a_body_edit_fails_check(bundled):
    # a newcomer's trial: the header said FRESH (the registry's hash, docs/formats.md §3.5) while `routelens check`
    # failed on a body edited since the build; the F3 block says so beside the badge
    from routelens.tui.model import analyze
    from routelens.tui.screens.stats import freshness_lines

    body = bundled.parent / "skills" / "debugging.md"
    body.write_text(body.read_text(encoding="utf-8") + "\nReproduce on a clean checkout first.\n", encoding="utf-8")
    snap = load(Paths.make(bundled), with_router=False)
    assert snap.freshness.state == "fresh"
    shown = freshness_lines(snap, analyze(snap)).plain
    assert ("a skill's body changed since it was built (the registry did not). `routelens check` fails until F5 "
            "rebuilds.") in shown
