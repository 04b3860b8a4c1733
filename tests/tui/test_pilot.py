"""Pilot tests: drive the app like a user and assert its state."""

from __future__ import annotations

import json
import os
from pathlib import Path

from textual.widgets import DataTable

from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.tui.screens.skills import SkillBrowser
from routelens.tui.screens.stats import StatsScreen
from routelens.tui.widgets.code_pane import CodePane
from routelens.tui.widgets.error_panel import ErrorPanel
from routelens.tui.widgets.header_bar import HeaderBar
from routelens.tui.widgets.hits_table import HitsTable
from routelens.tui.widgets.line_view import LineView
from routelens.tui.widgets.skill_list import SkillList
from routelens.tui.widgets.source_view import SourceView

from .conftest import CASES, make_app, make_registry, settle


async def type_task(app, pilot, text: str) -> None:
    """Put ``text`` in the task input (one change event, like a paste)."""
    app.query_one("#task").value = text
    await settle(app, pilot)


def rows(app, pane: str, kind: str | None = None) -> list[int]:
    """Highlighted 1-based line numbers of a pane."""
    return [r + 1 for r in app.main.pane(pane).highlighted_rows(kind)]


async def test_first_screen_loads_registry_index_and_catalog(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        snap = app.snapshot
        assert snap is not None and snap.freshness.state == "fresh"
        assert app.main.pane("registry").view.text.split("\n")[0] == "# A small registry for the TUI tests: every decision reason has a task."
        assert app.main.pane("registry").view.line_count == snap.registry.line_count == 97
        index_lines = app.main.pane("index").view.text.split("\n")
        assert index_lines[snap.index.rows["skills:blog-post"]].startswith('  ["blog-post",5,13,')
        assert app.main.pane("catalog").view.text.startswith("{\n")
        assert app.decision is None and app.main.hits == []


async def test_typing_routes_and_highlights_the_hit_everywhere(registry):
    app = make_app(registry, route_debounce=0.05)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.click("#task")
        await pilot.press(*"a blog post")  # real key presses, debounced routing
        await settle(app, pilot)
        assert app.main.task_text == "a blog post" and app.decision.task == "a blog post"
        await type_task(app, pilot, "write a blog post about the launch")
        d = app.decision
        assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("blog-post",))
        assert [(h.id, h.role, h.start, h.end) for h in app.main.hits] == [("blog-post", "match", 5, 13)]
        assert rows(app, "registry", "current") == list(range(5, 14))
        assert app.main.pane("registry").view.text.split("\n")[4] == "  blog-post:"
        idx_row = app.snapshot.index.rows["skills:blog-post"]
        assert app.main.pane("index").highlighted_rows("current") == [idx_row]
        s, e = app.snapshot.catalog.entries["skills:blog-post"]
        assert app.main.pane("catalog").highlighted_rows("current") == list(range(s, e + 1))
        assert app.main.pane("catalog").view.text.split("\n")[s].strip() == '"blog-post": {'
        table = app.query_one("#matches", HitsTable)
        assert table.row_count == 1 and table.hits[0].trigger == "blog post"
        assert app.main.hits[0].span == (8, 17)  # "blog post" in the task


async def test_moving_between_hits_moves_the_bands(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post and cite sources")
        assert app.decision.composition == "article-writing"
        assert [h.id for h in app.main.hits] == ["article-writing", "blog-post", "research"]
        comp = app.snapshot.registry.compositions["article-writing"]
        assert rows(app, "registry", "current") == list(range(comp.source_start, comp.source_end + 1))
        await pilot.press("down")  # the task input binds ↓ to the next hit
        await settle(app, pilot)
        assert app.main.current.id == "blog-post" and app.main.hit_index == 1
        assert rows(app, "registry", "current") == list(range(5, 14))
        await pilot.press("down")
        await settle(app, pilot)
        assert app.main.current.id == "research"
        research = app.snapshot.registry.skills["research"]
        assert rows(app, "registry", "current") == list(range(research.source_start, research.source_end + 1))
        # the other hits stay banded as "hit"
        assert set(range(5, 14)) <= set(rows(app, "registry", "hit"))
        await pilot.press("down")  # wraps
        await settle(app, pilot)
        assert app.main.current.id == "article-writing"
        await pilot.press("up")
        await settle(app, pilot)
        assert app.main.current.id == "research"
        assert app.query_one("#matches", HitsTable).cursor_row == 2
        await pilot.press("ctrl+n")
        await settle(app, pilot)
        assert app.main.current.id == "article-writing"


async def test_near_miss_rows_reveal_why_not(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "blogging about release")
        assert app.decision.reason == "no_match" and app.main.hits == []
        near = app.query_one("#near-misses", HitsTable)
        assert [(h.id, h.score, h.trigger) for h in near.hits] == [
            (m.id, m.score, m.trigger) for m in app.decision.near_misses]
        assert (near.hits[0].id, near.hits[0].score, near.hits[0].trigger) == ("release", 68.0, "cut a release")
        near.focus()
        await settle(app, pilot)
        rel = app.snapshot.registry.skills["release"]
        assert app.main.current.id == "release" and app.main.current.role == "near"
        assert rows(app, "registry", "current") == list(range(rel.source_start, rel.source_end + 1))


async def test_skill_browser_filter_select_and_show(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post about the launch")
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser)
        assert len(browser.shown) == 11
        await pilot.press(*"翻訳")
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["translation"]
        filt = browser.query_one("#filter")
        filt.value = "ＳＴＡＧＩＮＧ"  # full-width: NFKC + casefold
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["deploy-staging"]
        filt.value = "primary sources"  # description words
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["research"]
        filt.value = "article"
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["blog-post"]
        assert browser.selected.id == "blog-post"
        assert browser.body_problem is None
        range_pane = browser.query_one("#range-pane", CodePane)
        assert range_pane.view.text.split("\n")[0] == "  blog-post:"
        assert range_pane.view.line_number_start == 5
        entry = json.loads(browser.query_one("#entry-pane", CodePane).view.text)
        assert entry["id"] == "blog-post" and entry["body"]["exists"] is True
        assert "It was selected" in browser.explanation
        await pilot.press("enter")  # Enter in the filter shows the highlighted skill
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0]
        assert app.main.current.id == "blog-post"


async def test_skill_browser_arrows_in_the_filter_move_the_list(registry):
    """↓/↑ typed in the filter move the list's highlight (and the detail
    side) without leaving the filter, like ↓/↑ in the task input (user
    trial: they did nothing)."""
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser)
        table = browser.query_one("#skill-list", SkillList)
        ids = [s.id for s in browser.shown]
        assert app.focused.id == "filter" and browser.selected.id == ids[0]
        await pilot.press("down", "down")
        await settle(app, pilot)
        assert app.focused.id == "filter"
        assert table.cursor == 2 and browser.selected.id == ids[2]
        await pilot.press("up")
        await settle(app, pilot)
        assert table.cursor == 1 and browser.selected.id == ids[1]
        await pilot.press("up", "up")  # clamped at the top
        await settle(app, pilot)
        assert table.cursor == 0 and browser.selected.id == ids[0]
        await pilot.press("pagedown")
        await settle(app, pilot)
        assert browser.selected.id == ids[min(10, len(ids) - 1)]
        # filter, then ↓ moves within the filtered list
        await pilot.press("pageup", *"deploy")
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["deploy-docs", "deploy-staging"]
        await pilot.press("down")
        await settle(app, pilot)
        assert browser.selected.id == "deploy-staging"
        await pilot.press("down")  # clamped at the bottom
        await settle(app, pilot)
        assert browser.selected.id == "deploy-staging" and app.focused.id == "filter"
        # Tab goes to the list; ↓/↑ there move too, Enter chooses
        await pilot.press("tab")
        await settle(app, pilot)
        assert app.focused is table
        await pilot.press("up")
        await settle(app, pilot)
        assert browser.selected.id == "deploy-docs"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0] and app.main.current.id == "deploy-docs"


async def test_skill_browser_refuses_a_body_outside_the_registry(tmp_path):
    reg = make_registry(tmp_path)
    outside = tmp_path / "secret.md"
    outside.write_text("# secret\n", encoding="utf-8")
    body = reg.parent / "skills" / "ci-fix.md"
    body.unlink()
    os.symlink(outside, body)
    (reg.parent / "skills" / "deploy-docs.md").unlink()
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        browser.select(app.snapshot.registry.skills["ci-fix"])
        await settle(app, pilot)
        assert browser.body_problem == "body path 'skills/ci-fix.md' leads outside the registry folder (through a symlink): refused"
        browser.select(app.snapshot.registry.skills["deploy-docs"])
        await settle(app, pilot)
        assert browser.body_problem == "the body file skills/deploy-docs.md is missing"


async def test_file_change_reloads_and_reroutes(registry):
    app = make_app(registry, poll_interval=0.05)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "translate the readme")
        assert [m.id for m in app.decision.matches] == ["translation"]
        loads = app.main.loads
        text = registry.read_text(encoding="utf-8")
        registry.write_text(text.replace("triggers: [translate, 翻訳]", "triggers: [translate the readme, 翻訳]"),
                            encoding="utf-8")
        for _ in range(100):
            await pilot.pause(0.05)
            if app.main.loads > loads and not app.routing_pending:
                break
        await settle(app, pilot)
        assert app.snapshot.freshness.state == "stale"
        assert app.decision.reason == "index_stale"
        assert app.decision.matches[0].trigger == "translate the readme"
        assert "STALE" in app.main.pane("index").notice


async def test_broken_registry_shows_errors_keeps_last_good_and_recovers(registry):
    app = make_app(registry, poll_interval=0.05)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        good_text = registry.read_text(encoding="utf-8")
        shown_before = app.main.pane("registry").view.text
        app.query_one("#task").value = "write a blog post about the launch"
        await settle(app, pilot)

        def summary() -> str:
            return app.main.decision_panel._summary.plain

        assert summary().startswith(" INDEX ") and "LAST GOOD LOAD" not in summary()

        async def wait_loads(n):
            for _ in range(200):
                await pilot.pause(0.05)
                if app.main.loads >= n:
                    break
            await settle(app, pilot)

        # a partially written file
        registry.write_text(good_text[: good_text.index("  release-notes:") + 30], encoding="utf-8")
        await wait_loads(app.main.loads + 1)
        panel = app.query_one(ErrorPanel)
        assert panel.has_class("-shown") and app.main.failure is not None
        assert [(d.line, d.column) for d in app.main.failure.diagnostics][:1] == [(28, 1)] or app.main.failure.diagnostics
        assert app.main.pane("registry").view.text == shown_before  # the last good view stays
        assert app.snapshot.registry.line_count == 97
        # the badge must not claim FRESH for a registry that cannot be read
        header = app.query_one(HeaderBar).render().plain
        assert "FRESH" not in header and "? UNKNOWN" in header and "ERROR" in header
        assert "showing the last good load" in header
        # the decision on screen is the last good load's, which `routelens route` refuses: it says so
        # (a newcomer saw INDEX clear candidate "expanded from skills.yaml lines ..." of a broken file)
        assert summary().startswith(" LAST GOOD LOAD  the registry on disk cannot be loaded now: "
                                    "`routelens route` and the MCP server refuse it (exit 2)")
        assert " INDEX " in summary()
        await pilot.press("f3")
        await settle(app, pilot)
        assert "figures of the last good load" in str(app.screen.query_one("#stats-title").content)
        await pilot.press("escape")
        await settle(app, pilot)
        # deleted, then recreated
        registry.unlink()
        await wait_loads(app.main.loads + 1)
        assert app.main.failure.diagnostics[0].message.startswith("cannot read the registry")
        app.query_one("#task").value = "write a blog post about the launch today"  # routed while it is gone
        await settle(app, pilot)
        assert summary().startswith(" LAST GOOD LOAD ")
        registry.write_text(good_text, encoding="utf-8")
        await wait_loads(app.main.loads + 1)
        assert app.main.failure is None and not panel.has_class("-shown")
        assert summary().startswith(" INDEX ") and "LAST GOOD LOAD" not in summary()
        assert app.snapshot.freshness.state == "fresh"
        header = app.query_one(HeaderBar).render().plain
        assert "✓ FRESH" in header and "UNKNOWN" not in header and "last good" not in header


async def test_error_view_of_a_registry_that_never_loaded(tmp_path):
    reg = make_registry(tmp_path, CASES / "implicit-types-ids.yaml", build=False)
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snapshot is None
        diags = [(d.file, d.line) for d in app.main.failure.diagnostics]
        assert diags == [("skills.yaml", 3), ("skills.yaml", 11)]
        assert rows(app, "registry", "error") == [3, 11]


async def test_rebuild_after_confirmation_makes_the_index_fresh(registry):
    (registry.parent / "generated" / INDEX_NAME).unlink()
    app = make_app(registry)  # its notes never expire: under load the first had gone before the second came
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snapshot.freshness.state == "missing"
        await type_task(app, pilot, "write a blog post about the launch")
        assert app.decision.reason == "index_missing"
        await pilot.press("f5")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("n")
        await settle(app, pilot)
        assert not (registry.parent / "generated" / INDEX_NAME).exists()
        await pilot.press("f5")
        await pilot.pause()
        await pilot.press("y")
        await settle(app, pilot)
        for _ in range(50):
            if app.snapshot.freshness.state == "fresh" and not app.routing_pending:
                break
            await pilot.pause(0.02)
            await settle(app, pilot)
        assert (registry.parent / "generated" / INDEX_NAME).exists()
        assert (registry.parent / "generated" / CATALOG_NAME).exists()
        assert app.snapshot.freshness.state == "fresh"
        assert (app.decision.mode, app.decision.reason) == ("index", "clear_candidate")
        def rebuild_notes() -> list[tuple[str, str]]:
            return [(n.title, n.message) for n in app._notifications if n.title.startswith("Index ")]

        assert rebuild_notes() == [("Index rebuilt", f"Wrote {INDEX_NAME}.")]  # the catalog was there, the same
        # F5 again: nothing to write, said under its own title (was "Index rebuilt" over "nothing to write")
        await settle(app, pilot)
        await pilot.press("f5")
        for _ in range(200):  # under load the question opens a few frames later: "y" went to the task
            if type(app.screen).__name__ == "ConfirmScreen":
                break
            await pilot.pause()
        await pilot.press("y")
        for _ in range(100):  # the rebuild's worker, then its note: wait on state, not a clock
            await settle(app, pilot)
            if len(rebuild_notes()) == 2:
                break
        assert rebuild_notes()[1:] == [("Index up to date", "Already up to date: nothing to write.")]


async def test_after_a_rebuild_the_old_decision_gives_way_while_the_router_is_built(registry, monkeypatch):
    """At 20,000 skills the header said FRESH after F5 while the decision
    panel still showed the "index missing" fallback of the files before,
    for the seconds the new router took. Now the panel says the router is
    being prepared (after the loading delay), then shows the new decision."""
    import threading

    import routelens.tui.screens.main as main_screen

    gate = threading.Event()
    real = main_screen.make_router
    calls = []

    def slow_router(reg, fresh, paths):
        calls.append(fresh.state)
        if len(calls) > 1:  # the router of the load after the rebuild
            gate.wait(10)
        return real(reg, fresh, paths)

    monkeypatch.setattr(main_screen, "make_router", slow_router)
    (registry.parent / "generated" / INDEX_NAME).unlink()
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post about the launch")
        assert app.decision.reason == "index_missing"
        await pilot.press("f5")
        await pilot.pause()
        await pilot.press("y")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.snapshot.freshness.state == "fresh" and app.decision is None:
                break
        assert calls == ["missing", "fresh"]
        assert app.snapshot.freshness.state == "fresh" and app.snapshot.router is None
        assert app.decision is None and app.main.hits == [] and app.routing_pending
        assert str(app.query_one("#decision-summary").content).startswith("Preparing the router for ")
        gate.set()
        for _ in range(100):
            await pilot.pause(0.02)
            if app.decision is not None:
                break
        assert (app.decision.mode, app.decision.reason) == ("index", "clear_candidate")
        assert [h.key for h in app.main.hits] == ["skills:blog-post"]


async def test_copy_decision_json(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "/code-review please")
        await pilot.press("f6")
        await settle(app, pilot)
        data = json.loads(app.clipboard)
        assert (data["mode"], data["reason"], data["skills"]) == ("fast", "explicit", ["code-review"])
        shown = app.screen.query_one(CodePane).view.text
        assert json.loads(shown) == data
        await pilot.press("escape")


async def test_unicode_line_separator_rows_match_canonical_lines(tmp_path):
    reg = make_registry(tmp_path, CASES / "unicode-line-separator.yaml")
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        view = app.main.pane("registry").view
        assert isinstance(view, SourceView)
        # TextArea splits on U+2028 (str.splitlines); the app shows it as one visible mark instead
        assert view.document.line_count == app.snapshot.registry.line_count == 13
        assert view.document.get_line(6) == '      - "paste↵from word"'
        await type_task(app, pilot, "beta task")
        assert app.decision.skills == ("beta",)
        assert rows(app, "registry", "current") == [9, 10, 11, 12, 13]
        assert view.document.get_line(8) == "  beta:"
        assert view.document.get_line(12) == "      - beta task"
        # the catalog and index panes keep one row per line as well
        assert app.main.pane("index").view.text.count("\n") == app.snapshot.index.text.count("\n")


async def test_narrow_terminal_uses_tabs(registry):
    app = make_app(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.main.narrow and app.screen.has_class("-narrow")
        assert [app.main.pane(n).display for n in ("registry", "index", "catalog")] == [True, False, False]
        await pilot.click("#tab-index")
        await settle(app, pilot)
        assert [app.main.pane(n).display for n in ("registry", "index", "catalog")] == [False, True, False]
        await pilot.press("f4")
        await settle(app, pilot)
        assert not app.query_one("#decision").display or app.screen.has_class("-zoomed")


def shown_panes(app) -> list[bool]:
    return [app.main.pane(n).display for n in ("registry", "index", "catalog")]


async def test_layout_follows_every_resize(registry):
    """The breakpoint follows the size the terminal has now, not the one
    before the resize (user trial: the layout lagged one resize behind)."""
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert not app.main.narrow and not app.screen.has_class("-narrow")
        assert shown_panes(app) == [True, True, True]
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        await pilot.pause(0.05)
        assert app.size.width == 80
        assert app.main.narrow and app.screen.has_class("-narrow") and app.screen.has_class("-short")
        assert shown_panes(app) == [True, False, False]
        assert app.query_one("#pane-tabs").display
        await pilot.resize_terminal(140, 40)
        await settle(app, pilot)
        await pilot.pause(0.05)
        assert not app.screen.has_class("-narrow") and not app.screen.has_class("-short")
        assert shown_panes(app) == [True, True, True]
        # just across the breakpoint, both ways
        await pilot.resize_terminal(119, 40)
        await pilot.pause(0.05)
        assert app.screen.has_class("-narrow") and shown_panes(app) == [True, False, False]
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.05)
        assert not app.screen.has_class("-narrow") and shown_panes(app) == [True, True, True]


async def test_palette_jump_and_toggle_pane(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Jump to skill deploy-docs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(app, pilot)
        dd = app.snapshot.registry.skills["deploy-docs"]
        assert app.main.current.id == "deploy-docs"
        assert rows(app, "registry", "current") == list(range(dd.source_start, dd.source_end + 1))
        app.main.toggle_pane("catalog")
        await settle(app, pilot)
        assert not app.main.pane("catalog").display and app.main.pane("index").display


async def test_stats_panel_figures(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        a = screen.analysis
        assert a is not None and a.check.ok
        assert a.stats["registry"]["chars"] == len(app.snapshot.registry.text)
        assert a.stats["budget"]["ok"] is True
        assert a.provenance is None  # a tmp dir is not a git work tree
        assert a.layer1["skills"] == 10  # the disabled skill is not listed


async def test_reduction_reads_like_the_cli_in_words(registry):
    """Header and stats panel state 1 - x/registry as `routelens stats`
    does, with "smaller"/"larger" instead of a sign (user trial: the TUI
    showed the opposite sign, and "−-33.0%" for a bigger index)."""
    from dataclasses import replace

    from routelens.tui.widgets.header_bar import HeaderBar

    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        header = app.query_one(HeaderBar)
        snap = app.snapshot
        expected = f"index {100 * (1 - snap.fresh_index_chars / len(snap.registry.text)):.1f}% smaller"
        text = header.render().plain
        assert expected in text and "−" not in text
        header.state = replace(header.state, reduction=-0.33, budget_ok=False)
        await pilot.pause()
        text = header.render().plain
        assert "index 33.0% larger" in text and "−" not in text and "-" not in text.split("index", 1)[1]
        header.state = replace(header.state, reduction=snap.reduction, budget_ok=True)
        await pilot.press("f3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        st = screen.analysis.stats
        sizes = screen.query_one("#sizes")
        cells = {str(sizes.get_row_at(i)[0]): str(sizes.get_row_at(i)[4]) for i in range(sizes.row_count)}
        for name, key in ((app.paths.show(app.paths.index), "index"), (app.paths.show(app.paths.catalog), "catalog")):
            # from the characters, rounded once: the JSON's 4-place reduction rounded again said 38.4% where the
            # header said 38.3% (a trial)
            red = 1 - st[key]["chars"] / st["registry"]["chars"]
            word = "smaller" if red > 0 else "larger"
            assert cells[name] == f"{abs(red) * 100:.1f}% {word}", (name, cells)
        assert f"index {cells[app.paths.show(app.paths.index)]}" in expected
        assert cells[app.paths.registry_name] == "—"


async def test_big_documents_use_the_line_view(registry):
    app = make_app(registry, max_textarea_lines=50)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.main.pane("registry").view, LineView)
        await type_task(app, pilot, "ship the release with release notes")
        comp = app.snapshot.registry.compositions["release-train"]
        assert rows(app, "registry", "current") == list(range(comp.source_start, comp.source_end + 1))
        view = app.main.pane("registry").view
        assert view.scroll_offset.y <= comp.source_start - 1 <= view.scroll_offset.y + view.size.height


async def test_stale_index_and_damaged_index_fall_back(registry):
    gen = registry.parent / "generated" / INDEX_NAME
    gen.write_text('{"v":1,"skills":[', encoding="utf-8")
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snapshot.freshness.state == "invalid"
        assert "INVALID" in app.main.pane("index").notice
        await type_task(app, pilot, "write a blog post about the launch")
        assert (app.decision.mode, app.decision.reason) == ("full", "index_invalid")
        assert app.main.hits[0].id == "blog-post"  # candidates are still shown


async def test_workers_answer_with_messages_and_stale_answers_are_dropped(registry):
    """Loading, building the router and routing post messages (issue 9);
    an answer to an older keystroke or an older load changes nothing."""
    from routelens.tui import messages

    seen = []
    app = make_app(registry)
    async with app.run_test(size=(140, 40), message_hook=seen.append) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post about the launch")
        kinds = (messages.PreviewReady, messages.RegistryLoaded, messages.LoadFailed, messages.RouterReady,
                 messages.RouterFailed, messages.DecisionReady)
        assert [type(m).__name__ for m in seen if isinstance(m, kinds)] == [
            "PreviewReady", "RegistryLoaded", "RouterReady", "DecisionReady"]
        main, shown = app.main, app.decision
        assert shown.skills == ("blog-post",)
        # a decision for an older keystroke (sequence 0 never is the latest)
        main.post_message(messages.DecisionReady(0, app.snapshot.router.route("translate the readme")))
        await settle(app, pilot)
        assert app.decision is shown and [h.id for h in main.hits] == ["blog-post"]
        # a router for an older load
        old = app.snapshot
        loads = main.loads
        main.reload()
        while main.loads == loads:
            await pilot.pause()
        await settle(app, pilot)
        assert app.snapshot is not old and app.snapshot.router is not None
        router = app.snapshot.router
        main.post_message(messages.RouterReady(old, old.router))
        await settle(app, pilot)
        assert app.snapshot.router is router and app.decision.skills == ("blog-post",)


async def test_an_explicit_composition_hit_reveals_its_lines(registry):
    """Issue 13 item 1: with ``please /code-review and $release-train``
    the composition row read ``?`` and moving to it did not scroll the
    registry to it."""
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "please /code-review and $release-train")
        table = app.query_one("#matches", HitsTable)
        assert [h.key for h in table.hits] == ["skills:code-review", "compositions:release-train",
                                               "skills:release", "skills:release-notes"]
        assert "80–82" in table.get_row_at(1)[3].plain
        await pilot.press("down")
        await settle(app, pilot)
        assert app.main.current.key == "compositions:release-train"
        assert rows(app, "registry", "current") == [80, 81, 82]
        assert app.query_one("#near-misses", HitsTable).hits == []
async def test_current_hit_stays_in_view_after_a_resize(tmp_path):
    """The hit's range is centred for the pane's height when it is revealed;
    when the pane is resized (a smaller terminal, the decision panel growing
    as the layout settles) it is centred again (user trial: after a resize
    to 80x24, ci-fix's lines 170-181 sat below the visible rows; a snapshot
    flaked by two rows under load for the same reason)."""
    reg = make_registry(tmp_path, Path(__file__).parents[2] / "skills.yaml")
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "our ci is red again")
        assert app.decision.skills == ("ci-fix",)
        start, end = app.decision.expansions[0].source_start, app.decision.expansions[0].source_end
        for size in ((80, 24), (120, 40), (100, 30)):
            await pilot.resize_terminal(*size)
            await settle(app, pilot)
            await pilot.pause(0.05)
            view = app.main.pane("registry").view
            top, height = int(view.scroll_y), view.scrollable_content_region.height
            shown = range(top + 1, top + height + 1)  # 1-based lines on screen
            assert start in shown and (end in shown or end - start + 1 > height), (size, start, end, top, height)


async def _footer_keys(registry, width: int) -> tuple[list[str], bool]:
    from textual.widgets._footer import FooterKey

    from routelens.tui.widgets.footer import FittingFooter

    app = make_app(registry)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(app, pilot)
        await pilot.pause(0.2)
        footer = app.screen.query_one(FittingFooter)
        keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
        palette = footer.query_one(".-command-palette", FooterKey)
        shown = [k.key for k in keys if k.display]
        clear = all(k.region.right - (0 if footer.compact else 1) <= palette.region.x for k in keys if k.display)
        # compact, the docked palette key ends a cell short of the edge: nothing may lie under that cell
        return shown, clear and palette.region.right >= width - 1


async def test_the_footer_shows_only_whole_keys_beside_the_palette_key(registry):
    # was: "... f5 Rebuild ▏^p paletteF" at 80 columns, "^p palettee" at 90: keys that did not fit ran on
    # under the docked palette key, which stopped a cell short of the edge
    first = ["up", "down", "f1", "f2", "f3", "f4", "f5"]
    assert await _footer_keys(registry, 80) == (first, True)
    assert await _footer_keys(registry, 90) == (first + ["f6"], True)
    assert await _footer_keys(registry, 160) == (first + ["f6", "f7", "f8", "f9"], True)


async def test_views_of_the_whole_registry_say_why_they_cannot_open_yet(registry):
    """F2/F3 during a 100,000-skill parse said "No valid registry loaded
    yet", as for a broken registry: now it says the registry is being read,
    and whether typed tasks route meanwhile."""
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        main = app.main
        main.failure, main.early = None, None
        assert app._not_loaded() == "The registry is still being read; this opens once it is loaded."
        main.early = object()
        assert app._not_loaded() == ("The registry is still being read; this opens once it is loaded "
                                     "(typed tasks route already).")
        main.early, main.failure = None, object()
        assert app._not_loaded() == "No valid registry loaded yet: fix the errors shown and it reloads."
        main.failure = None


async def test_f5_on_the_bundled_example_is_refused_as_build_demo_is(registry):
    """`build --demo` and `import --demo --write` are refused (--demo is
    read-only); F5 with --demo still rewrote the bundled generated/."""
    from routelens.tui.app import RouteLensApp
    from routelens.tui.model import Paths

    index = registry.parent / "generated" / INDEX_NAME
    before = index.read_bytes()
    index.unlink()
    app = RouteLensApp(Paths.make(registry, demo=True), theme="textual-dark", poll_interval=None, route_debounce=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f5")
        await settle(app, pilot)
        assert type(app.screen).__name__ != "ConfirmScreen"
        assert [(n.title, n.message) for n in app._notifications if n.title == "Example is read-only"] == [
            ("Example is read-only", "--demo shows the bundled example, which is never written: make a registry "
             "of your own with `routelens init` and open it without --demo.")]
    assert not index.exists() and before


async def test_an_open_stats_panel_follows_the_files(registry):
    """A newcomer's trial: with F3 open, an edit of the registry and then a
    rebuild left the panel saying STALE with the first edit's hash; it
    shows each new load now (and which load its figures are)."""
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry

    app = make_app(registry, poll_interval=0.05)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.snapshot.freshness.state == "fresh"

        async def wait_loads(n):
            for _ in range(200):
                await pilot.pause(0.05)
                if app.main.loads >= n and screen.analysis is not None:
                    break
            await settle(app, pilot)

        text = registry.read_text(encoding="utf-8")
        loads = app.main.loads
        registry.write_text(text.replace("triggers: [translate, 翻訳]", "triggers: [translate the readme, 翻訳]"),
                            encoding="utf-8")
        await wait_loads(loads + 1)
        assert app.screen is screen and screen.snapshot is app.snapshot
        assert screen.snapshot.freshness.state == "stale"
        box = screen.query_one("#fresh-box")
        assert box.has_class("-stale") and app.snapshot.registry.source_sha256[:12] in str(box.render())
        assert screen.analysis is app.snapshot.analysis
        loads = app.main.loads
        write_generated(load_registry(registry), registry.parent / "generated")
        await wait_loads(loads + 1)
        assert screen.snapshot is app.snapshot and screen.snapshot.freshness.state == "fresh"
        assert screen.query_one("#fresh-box").has_class("-fresh")


async def test_a_hand_edited_index_is_named_in_the_header(registry):
    """A newcomer's trial: "fix ci" -> "fix  ci" in generated/routing.min.json
    kept the hash, so the header said FRESH while `routelens check` failed
    and the task fell back index_invalid. A fresh index that is not what a
    build writes now reads HAND-EDITED INDEX (found by comparing with a
    build in memory, and by the router's index_invalid)."""
    app = make_app(registry)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        header = app.query_one(HeaderBar)
        assert (app.snapshot.edited, header.state.edited) == (False, False)
        assert "FRESH" in header.render().plain and "HAND-EDITED" not in header.render().plain
    index = registry.parent / "generated" / INDEX_NAME
    text = index.read_text(encoding="utf-8")
    assert text.count('"translate"') == 2  # a trigger, and a word of the index's word lists
    index.write_text(text.replace('"translate"', '"translat"', 1), encoding="utf-8")
    app = make_app(registry)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        header = app.query_one(HeaderBar)
        assert app.snapshot.freshness.state == "fresh"  # by its hash and ranges (docs/formats.md §3.5)
        for _ in range(100):
            if header.state.edited:
                break
            await pilot.pause(0.05)
        assert app.snapshot.edited is True and header.state.edited is True
        assert "▲ HAND-EDITED INDEX" in header.render().plain and "FRESH" not in header.render().plain


async def test_enter_on_a_near_miss_opens_the_skill_browser_on_it(registry):
    """A newcomer pressed Enter on a "why not" row and nothing happened; the
    answer was in F2's explain box, found by typing the id. Enter on a row
    of the matches or near-misses table opens the skill browser on that
    skill, its explanation for the task beside it."""
    app = make_app(registry)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "translate the readme please")
        near = app.main.decision_panel.near_misses
        matches = app.main.decision_panel.matches
        table = near if near.hits else matches
        assert table.hits, "the task has a hit to choose"
        hit = table.hits[min(1, len(table.hits) - 1)]
        table.focus()
        table.move_cursor(row=table.hits.index(hit))
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser)
        assert browser.selected.id == hit.id and browser.skill_list.current.id == hit.id
        for _ in range(100):
            if browser.explanation:
                break
            await pilot.pause(0.05)
        assert f'"{hit.id}"' in browser.explanation
