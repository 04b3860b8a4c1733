"""What a newcomer tripped on in the TUI (issue 13), each as the input
that showed it: tables that cut line ranges, F2 and F3 at 80 columns,
keys that did nothing, words that wrapped badly."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from routelens.tui.screens.skills import SkillBrowser
from routelens.tui.screens.stats import StatsScreen
from routelens.tui.widgets.hits_table import HitsTable
from routelens.tui.widgets.skill_list import SkillList

from .conftest import make_app, settle


def shown(widget) -> list[str]:
    """The rows of a widget as painted (its own width, scrolled as it is)."""
    return [widget.render_line(y).text for y in range(widget.size.height)]


async def type_task(app, pilot, text: str) -> None:
    app.query_one("#task").value = text
    await settle(app, pilot)


@pytest.mark.parametrize("size", [(160, 48), (120, 40), (110, 40), (100, 40), (90, 30), (80, 24)])
async def test_hit_tables_show_whole_line_ranges(bundled, size):
    """At 120x40 the hits table showed ``604-60``, at 110 columns ``6``;
    at 100 or fewer the column was gone while "why not" had room."""
    app = make_app(bundled)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "please /code-review and $release-train; use panda for this")
        for table_id in ("#matches", "#near-misses"):
            table = app.query_one(table_id, HitsTable)
            text = "\n".join(shown(table))
            assert table.hits, table_id
            for h in table.hits[: table.size.height - 1]:
                assert f"{h.start}–{h.end}" in text, (size, table_id, h.id, text)
        assert app.query_one("#near-misses", HitsTable).hits[0].id == "data-analysis"


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_skill_browser_list_shows_whole_line_ranges(bundled, size):
    """F2 at 80 columns showed lines ``2``/``5``/``4``."""
    app = make_app(bundled)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert isinstance(browser, SkillBrowser)
        table = browser.query_one("#skill-list", SkillList)
        text = shown(table)
        for s, line in zip(browser.shown, text[1:]):
            assert f"{s.source_start}–{s.source_end}" in line, (size, s.id, line)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_stats_sizes_show_whole_numbers(bundled, size):
    """F3 at 80x24 showed ``16,94`` for the registry's 16,941 characters."""
    app = make_app(bundled)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        st = stats.analysis.stats
        text = "\n".join(shown(stats.query_one("#sizes", DataTable)))
        for part in ("registry", "index", "catalog"):
            assert f"{st[part]['chars']:,}" in text, (size, part, text)


async def test_f6_in_the_json_view_copies_again(registry):
    """F6 in the JSON view did nothing although help says it copies again."""
    from routelens.tui.screens.json_view import JsonScreen

    app = make_app(registry)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post about the launch")
        app.main.pane("registry").view.focus()  # a TextArea, whose own F6 selects a line
        await pilot.press("f6")
        await settle(app, pilot)
        assert isinstance(app.screen, JsonScreen)
        copied = []
        app.copy_to_clipboard = copied.append
        await pilot.press("f6")
        await settle(app, pilot)
        assert copied == [app.main.decision_json()]
        assert str(app.screen.query_one("#note").content) == "Copied to the clipboard again."


async def test_a_filter_matching_nothing_shows_no_skill(registry):
    """In F2, a filter with zero matches ("0 of 11") still showed a
    skill's details."""
    app = make_app(registry)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "write a blog post about the launch")
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        assert browser.selected is not None
        browser.query_one("#filter").value = "zzzq"
        await settle(app, pilot)
        assert browser.shown == [] and browser.selected is None
        assert "0 of 11" in str(browser.query_one("#browser-title").content)
        assert str(browser.query_one("#summary").content).startswith("No skill matches the filter “zzzq”.")
        assert not browser.query_one("#explain").display and not browser.query_one("#detail-tabs").display
        await pilot.press("enter", "enter")  # nothing to choose: the browser stays
        await settle(app, pilot)
        assert app.screen is browser
        browser.query_one("#filter").value = "blog"
        await settle(app, pilot)
        assert browser.selected.id == "blog-post" and browser.query_one("#explain").display


async def test_help_keeps_reason_names_whole_and_says_at_or_above(registry):
    """F1 help: reason names wrapped mid-name at 80 columns; "no match" said
    "above" where the router means "at or above"."""
    from textual.widgets._markdown import MarkdownTableCellContents

    from routelens.tui.screens.help import HELP_MARKDOWN
    from routelens.tui.words import REASON_LABEL

    assert "above the threshold" not in HELP_MARKDOWN.replace("at or above the threshold", "")
    app = make_app(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)
        cells = {tuple(line.strip() for line in shown(c) if line.strip())
                 for c in app.screen.query(MarkdownTableCellContents)}
        for code, label in REASON_LABEL.items():
            assert (code,) in cells, code  # the code, whole, on one line
            assert any(c[0].startswith(label + ":") for c in cells), label  # the panel's label, whole


async def test_tabbing_into_why_not_says_which_row_is_shown(bundled):
    """Tabbing into the why-not table moved the panes while the panel
    still said "hit 2/4"."""
    app = make_app(bundled)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "please /code-review and $release-train; use panda for this")
        panel = app.main.decision_panel
        assert panel.border_subtitle == "hit 1/5 · ↓↑ move"
        app.query_one("#near-misses", HitsTable).focus()
        await settle(app, pilot)
        assert app.main.current.id == "data-analysis" and app.main.current.role == "near"
        assert panel.border_subtitle == "why not 1/1: data-analysis · ↓↑ move"
        app.query_one("#matches", HitsTable).focus()
        await settle(app, pilot)
        assert panel.border_subtitle == "hit 1/5 · ↓↑ move"


@pytest.mark.parametrize("width", range(80, 161, 4))
async def test_the_decision_sentence_never_ends_with_a_lone_word(bundled, width):
    """The ambiguous screenshot's message wrapped with a lone "5"."""
    app = make_app(bundled)
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(app, pilot)
        await type_task(app, pilot, "refactor the parser and add unit tests")
        assert app.decision.reason == "ambiguous"
        lines = [ln.rstrip() for ln in shown(app.main.decision_panel.summary) if ln.strip()]
        assert len(lines) == 1 or len(lines[-1].split()) >= 2, (width, lines)


async def test_screenshot_without_a_downloads_folder_is_saved_here_and_says_where(registry, tmp_path, monkeypatch):
    """The palette's "Screenshot" said "Failed to save screenshot" when
    there is no ~/Downloads."""
    home, here = tmp_path / "home", tmp_path / "here"
    home.mkdir()
    here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("ROUTELENS_SCREENSHOTS", raising=False)
    monkeypatch.chdir(here)
    app = make_app(registry)
    notes = []
    app.notify = lambda message, **kw: notes.append(message)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        app.deliver_screenshot("shot.svg")
        for _ in range(100):
            await pilot.pause(0.02)
            if notes:
                break
    assert (here / "shot.svg").read_text(encoding="utf-8").startswith("<svg")
    assert notes == [f"Saved screenshot to [$text-success]{str(here / 'shot.svg')!r}"]
