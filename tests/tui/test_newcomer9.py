"""Defects two newcomers hit in the TUI (round 9): each test drives the
input that showed it."""

from __future__ import annotations

import pytest

from routelens.tui.widgets.hits_table import HitsTable

from .conftest import make_app, make_registry, settle

#: ten skills of the bundled registry in one task: more hits than the matches table shows at once
MANY_HITS = ("code review, fix the ci is red, write release notes, update the docs, debug the stack trace, "
             "feature flag, cut a release, dockerfile, terraform, merge conflict")


async def _type(app, pilot, text: str) -> None:
    app.query_one("#task").value = text
    await settle(app, pilot)


def _cursor_row_on_screen(app) -> bool:
    """Is the matches table's cursor row painted: inside the table's
    visible part and inside the decision panel's visible part?"""
    table = app.query_one("#matches", HitsTable)
    panel = app.main.decision_panel
    y = table.region.y + table.header_height + table.cursor_row - round(table.scroll_y)
    inside_table = table.region.y + table.header_height <= y < table.region.bottom
    view = panel.scrollable_content_region
    return inside_table and view.y <= y < view.bottom


@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_stepping_through_hits_keeps_the_current_row_in_view(bundled, size):
    app = make_app(bundled)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await _type(app, pilot, MANY_HITS)
        n = len(app.main.hits)
        assert n == 10
        seen = []
        for i in range(1, n + 1):
            await pilot.press("down")
            await settle(app, pilot)
            assert app.main.hit_index == i % n
            assert app.query_one("#matches", HitsTable).cursor_row == i % n
            seen.append(_cursor_row_on_screen(app))
        assert seen == [True] * n
        for i in range(n):  # and back up, wrapping to the last
            await pilot.press("up")
            await settle(app, pilot)
            assert _cursor_row_on_screen(app), app.main.hit_index


# ---------------------------------------------------------------- 2: a dropped disabled skill is never hit 1

def test_a_disabled_candidate_the_fallback_names_comes_after_the_live_one(bundled):
    from routelens.tui.model import Paths, dropped_of, hits_of, load

    snap = load(Paths.make(bundled))
    d = snap.router.route("run capistrano to cut a release")
    # the decision (routelens route --json): a disabled_skill fallback naming both, legacy-deploy dropped
    assert (d.mode, d.reason, d.skills, d.dropped) == ("full", "disabled_skill", (), (("legacy-deploy", "disabled"),))
    assert [m.id for m in d.matches] == ["legacy-deploy", "release"]
    assert dropped_of(d) == {"legacy-deploy": "disabled"}
    assert [(h.id, h.role, h.why, h.start, h.end) for h in hits_of(d, snap.registry)] == [
        ("release", "unselected", None, 350, 359),
        ("legacy-deploy", "dropped", "disabled", 361, 370),
    ]
    # routed past a disabled match: the chosen one first, the dropped one marked
    d = snap.router.route("cut a release with capistrano")
    assert (d.mode, d.skills) == ("index", ("release",))
    assert [(h.id, h.role, h.why) for h in hits_of(d, snap.registry)] == [
        ("release", "match", None), ("legacy-deploy", "dropped", "disabled")]
    # the only candidate disabled: it is the one hit, and says it was dropped
    d = snap.router.route("run the capistrano deploy")
    assert [(h.id, h.role, h.why) for h in hits_of(d, snap.registry)] == [("legacy-deploy", "dropped", "disabled")]


async def test_the_fallback_on_a_disabled_skill_leads_with_the_live_candidate(bundled):
    app = make_app(bundled)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await _type(app, pilot, "run capistrano to cut a release")
        table = app.query_one("#matches", HitsTable)
        assert [(h.id, h.role) for h in table.hits] == [("release", "unselected"), ("legacy-deploy", "dropped")]
        assert table.cursor_row == 0 and app.main.current.id == "release"
        assert table.get_row_at(0)[0].plain == "release  not selected"
        assert table.get_row_at(1)[0].plain == "legacy-deploy  dropped: disabled"
        lines = app.main.decision_panel.selected.content.plain.split("\n")
        assert lines[1:] == ["evidence release · not selected: disabled skill",
                             "evidence legacy-deploy · dropped: the skill is disabled"]
        assert app.main.decision_panel.border_subtitle == "hit 1/2 · ↓↑ move"


# ---------------------------------------------------------------- 3: one Enter in the skill browser acts

async def test_one_enter_in_the_skill_browser_filter_shows_the_skill(registry):
    from routelens.tui.screens.skills import SkillBrowser

    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser) and app.focused.id == "filter"
        await pilot.press(*"deploy")
        await settle(app, pilot)
        assert [s.id for s in browser.shown] == ["deploy-docs", "deploy-staging"]
        await pilot.press("down", "enter")  # the title says "Enter shows the skill in the panes": once
        await settle(app, pilot)
        assert app.screen is app.main
        s = app.snapshot.registry.skills["deploy-staging"]
        assert (app.main.current.key, app.main.current.start, app.main.current.end) == (
            "skills:deploy-staging", s.source_start, s.source_end)


async def test_enter_typed_before_the_filter_answers_means_its_first_skill(registry):
    from routelens.tui.screens.skills import SkillBrowser

    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser) and browser.shown[0].id != "translation"
        browser._filter_pending = True  # as while the worker runs: Enter waits for its answer
        await pilot.press("enter")
        assert app.screen is browser
        browser.query_one("#filter").value = "翻訳"
        await settle(app, pilot)
        assert app.screen is app.main and app.main.current.key == "skills:translation"


# ---------------------------------------------------------------- 4: the stats panel's figures

def _wide_registry(tmp_path, n: int = 120):
    """``n`` skills with 1,000-character descriptions (a listing 15 times
    over Claude Code's estimate) and three deprecated ones without one."""
    lines = ["schema_version: 1", "skills:"]
    for i in range(n):
        lines += [f"  skill-{i:03d}:", f"    path: skills/skill-{i:03d}.md", "    priority: P1",
                  f"    triggers: [topic {i:03d} work]"]
        if i < 3:
            lines.append("    status: deprecated")
        else:
            lines.append("    description: " + ("word " * 200).strip())
    reg = tmp_path / "skills.yaml"
    reg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return reg


def test_claude_codes_listing_counts_a_bare_deprecated_entry_as_the_layer1_block_writes_it(tmp_path):
    from routelens.registry import load_registry
    from routelens.tools.lint import listing_budget
    from routelens.tools.prompt import layer1_block

    reg = load_registry(_wide_registry(tmp_path))
    assert layer1_block(reg).split("\n")[1:4] == [
        "- skill-000: [deprecated]", "- skill-001: [deprecated]", "- skill-002: [deprecated]"]
    lst = listing_budget(reg, env={})
    # no when_to_use, no cap reached, no override: Claude Code's listing is the Layer-1 block (docs/formats.md §16)
    assert lst["capped_chars"] == lst["block_chars"] == len(layer1_block(reg)) == 118_652


def test_pct_has_thousands_separators_like_counts():
    from routelens.text.numbers import pct

    assert (pct(54.825), pct(0.7), pct(0.0)) == ("5,482.5%", "70.0%", "0.0%")


def test_budget_rows_keep_each_share_on_its_row(tmp_path):
    from rich.cells import cell_len

    from routelens.tui.model import Paths, analyze, load
    from routelens.tui.screens.stats import budget_rows

    snap = load(Paths.make(_wide_registry(tmp_path)))
    analysis = analyze(snap)
    rows = [line for line in budget_rows(snap, analysis, 91).plain.split("\n") if line[:6] in (" PASS ", " OVER ")]
    # the bars share what the widest figures leave: 91 - 21 - len("118,652 of ~8,000 chars  1,483.2%") = 37 cells
    assert rows == [
        " PASS  index       " + "━" * 32 + "┃" + "━" * 4 + "  5,913 of 91,002 chars  6.5%",
        " OVER  Claude Code ━━┃" + "━" * 34 + "  118,652 of ~8,000 chars  1,483.2%",
        " OVER  Codex       ━━━━┃" + "━" * 32 + "  118,652 of ~16,000 chars  741.6%",
    ]
    for width in (60, 91, 120):
        assert max(cell_len(line) for line in budget_rows(snap, analysis, width).plain.split("\n")
                   if line[:6] in (" PASS ", " OVER ")) <= width, width


# ---------------------------------------------------------------- 5: after a reload, header and panel agree

async def test_after_a_reload_the_panel_never_passes_off_the_old_decision_as_the_new_files(registry, monkeypatch):
    """At 50,000 skills a reload reads for seconds and the new router takes
    more: the header said LOADING, then STALE with the new count, while the
    panel went on showing the decision of the files before as if it were
    theirs. Now the panel says so in the same frame as the header changes,
    and a decision of the old router never lands on the new registry."""
    import threading

    import routelens.tui.screens.main as main_screen

    parse_gate, router_gate = threading.Event(), threading.Event()
    real_complete, real_router = main_screen.complete, main_screen.make_router
    calls = []

    def slow_complete(pre, with_router=True):
        if calls:  # the reload's parse
            parse_gate.wait(10)
        return real_complete(pre, with_router=with_router)

    def slow_router(reg, fresh, paths):
        calls.append(len(reg.skills))
        if len(calls) > 1:  # the reload's router
            router_gate.wait(10)
        return real_router(reg, fresh, paths)

    monkeypatch.setattr(main_screen, "complete", slow_complete)
    monkeypatch.setattr(main_screen, "make_router", slow_router)
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await _type(app, pilot, "write a blog post about the launch")
        panel = app.main.decision_panel
        assert (app.decision.reason, app.main.header.state.skills, panel.border_title) == (
            "clear_candidate", 11, "Decision")
        old, old_snap = app.decision, app.snapshot
        text = registry.read_text(encoding="utf-8")
        registry.write_text(text.replace("\nskills:\n", "\nskills:\n  zz-new:\n    path: skills/zz.md\n"
                                         "    priority: P2\n    triggers: [zebra crossing]\n", 1), encoding="utf-8")
        app.main.reload()
        await pilot.pause()
        # reading: the header claims nothing, the panel says its decision is of the files before
        assert app.main.header.state.freshness == "loading" and app.decision is old
        assert panel.border_title == "Decision · of the files before they changed; routing again…"
        assert panel.has_class("-superseded")
        parse_gate.set()
        for _ in range(200):
            await pilot.pause(0.01)
            if app.main.header.state.skills == 12:
                break
        # the header shows the new files (12 skills, STALE): in that very frame the panel does not pass off
        # the old decision as theirs
        assert (app.main.header.state.skills, app.main.header.state.freshness) == (12, "stale")
        assert app.decision is None or (panel.has_class("-superseded") and app.main.decision_load is not app.snapshot)
        # a decision of the old router arriving now is not drawn on the new registry's lines
        from routelens.tui.messages import DecisionReady

        app.main.on_decision_ready(DecisionReady(app.main._route_seq, old, old_snap))
        assert app.decision is None or (app.decision is old and app.main.decision_load is old_snap)
        router_gate.set()
        await settle(app, pilot)
        assert (app.decision.reason, app.main.decision_load) == ("index_stale", app.snapshot)
        assert (panel.border_title, panel.has_class("-superseded")) == ("Decision", False)
        assert app.main.header.state.skills == 12


# ---------------------------------------------------------------- 6: the fixes say how many there are

def test_fixes_window_follows_f7_through_every_fix():
    from routelens.tui.model import fixes_window

    assert fixes_window(2) == range(2) and fixes_window(3, 2) == range(3)
    assert [fixes_window(11, c) for c in (-1, 0, 2, 3, 7, 10)] == [
        range(0, 3), range(0, 3), range(0, 3), range(1, 4), range(5, 8), range(8, 11)]


def test_fixes_heading_says_how_many_of_how_many():
    from routelens.tui.words import fixes_heading

    assert fixes_heading(range(0, 3), 11) == (
        "3 of 11 fixes shown · F7 copies the next one and shows where it goes; F7 again steps through all 11")
    assert fixes_heading(range(5, 8), 11) == (
        "3 of 11 fixes shown (fixes 6–8) · F7 copies the next one and shows where it goes; F7 again steps through all 11")
    assert fixes_heading(range(0, 2), 2) == "2 fixes · F7 copies one and shows where it goes"
    assert fixes_heading(range(0, 1), 1) == "1 fix · F7 copies it and shows where it goes"


async def test_the_fix_panel_counts_its_fixes_and_f7_shows_the_rest(bundled):
    app = make_app(bundled)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await _type(app, pilot, "debug the dockerfile")
        assert (app.decision.reason, len(app.main.fixes)) == ("ambiguous", 4)
        box = app.main.decision_panel.fixes
        lines = box.content.plain.split("\n")
        assert lines[0] == ("3 of 4 fixes shown · F7 copies the next one and shows where it goes; "
                            "F7 again steps through all 4")
        assert [line[:8] for line in lines[1:]] == ["  fix 1 ", "  fix 2 ", "  fix 3 "]
        assert box.size.height == 4  # heading and three fixes, one line each: none is cut off
        for _ in range(4):
            await pilot.press("f7")
            await settle(app, pilot)
        lines = box.content.plain.split("\n")
        assert app.main.fix_index == 3
        assert lines[0].startswith("3 of 4 fixes shown (fixes 2–4) · ")
        assert [line[:8] for line in lines[1:]] == ["  fix 2 ", "  fix 3 ", "▶ fix 4 "]


async def test_the_parse_completing_the_early_preview_is_no_change_of_files(tmp_path, monkeypatch):
    """The decision the early router made before the parse is of the same
    bytes as the parse: the panel must not say "of the files before they
    changed" when the parse lands (it did, until the re-route)."""
    import threading

    from routelens.routing.router import Router
    from routelens.tui import model
    from routelens.tui.screens import main as main_screen

    from .conftest import make_registry

    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path / "cache"))
    gate = threading.Event()
    real = model.complete
    monkeypatch.setattr(main_screen, "complete", lambda pre, with_router=True: gate.wait(60) and real(pre, with_router))
    reg = make_registry(tmp_path)
    Router.from_paths(reg)  # the cache file that vouches for the index
    app = make_app(reg, max_textarea_lines=10)
    async with app.run_test(size=(140, 40)) as pilot:
        main = app.main
        for _ in range(3000):
            if main.early is not None:
                break
            await pilot.pause()
        app.query_one("#task").value = "write a blog post about the launch"
        for _ in range(3000):
            if app.decision is not None and not main._route_pending:
                break
            await pilot.pause()
        assert main.decision_load is main.early[0]
        seen = []
        shown = main._show_snapshot

        def show_snapshot(snap):  # what the panel says in the very call that puts the parse on screen
            shown(snap)
            seen.append((main.decision_load is not snap, main.decision_panel.border_title))

        main._show_snapshot = show_snapshot
        gate.set()
        for _ in range(3000):
            if app.snapshot is not None and main.decision_load is app.snapshot and not app.routing_pending:
                break
            await pilot.pause()
        assert seen == [(True, "Decision")]  # the early decision still on screen, of the same bytes: not marked
        assert not main.decision_panel.has_class("-superseded")


# ---------------------------------------------------------------- the summary line names three dropped, counts the rest

async def test_the_summary_line_names_three_dropped_candidates_and_counts_the_rest(tmp_path):
    """A stale index's fallback at 50,000 skills listed hundreds of "dropped
    X (disabled)" on the summary line, pushing the payload off the panel."""
    src = tmp_path / "src.yaml"
    src.write_text("schema_version: 1\nskills:\n" + "".join(
        f"  old-{n}:\n    path: skills/old-{n}.md\n    priority: P1\n    status: disabled\n"
        f"    triggers: [ledger export]\n" for n in range(1, 6)), encoding="utf-8")
    app = make_app(make_registry(tmp_path, src))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await _type(app, pilot, "run the ledger export")
        assert app.main.decision.reason == "disabled_skill"
        assert len(app.main.decision.dropped) == 5
        line = app.main.decision_panel.selected.content.plain.split("\n")[0]
        assert line == ("no skill chosen: the agent reads the whole registry  dropped old-1 (disabled)  "
                        "dropped old-2 (disabled)  dropped old-3 (disabled)  and 2 more dropped  "
                        "payload 541 chars (100.0% of the registry)")
