"""A fifth newcomer's trial: ctrl+c did nothing in the UI (the task input
took it for copy, with nothing selected) and nothing said that ctrl+q quits."""

from __future__ import annotations

from textual.widgets import Input

from .conftest import make_app, settle


async def test_ctrl_c_says_how_to_quit_and_still_copies_a_selection(registry):
    app = make_app(registry)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        task = app.focused
        assert isinstance(task, Input)
        await pilot.press("ctrl+c")
        await settle(app, pilot)
        notes = [(n.title, n.message, n.markup) for n in app._notifications]
        assert notes == [("Do you want to quit?", "Press ctrl+q to quit", False)]
        # with text selected, ctrl+c is the input's copy: no note
        app._notifications.clear()
        await pilot.press(*"review my diff")
        await pilot.press("shift+home")
        await settle(app, pilot)
        assert task.selected_text == "review my diff"
        await pilot.press("ctrl+c")
        await settle(app, pilot)
        assert [n.message for n in app._notifications] == []
        assert app.clipboard == "review my diff"
        assert app.is_running


async def test_the_decision_tables_follow_the_width_after_a_resize(registry):
    # a second on_resize in DecisionPanel replaced the first (pyflakes: "redefinition of unused 'on_resize'"):
    # after a resize the matches table kept the width it was fitted to, and the sentence its old wrap
    from routelens.tui.widgets.decision_panel import DecisionPanel

    app = make_app(registry)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        app.query_one("#task").value = "review the pull request for the parser and write a blog post about it"
        await settle(app, pilot)
        panel = app.query_one(DecisionPanel)
        assert panel.matches.row_count >= 1

        def cells() -> int:  # the columns of both tables and their padding, as fit_tables shared the width out
            widths = (panel.matches._widths or []) + (panel.near_misses._widths or [])
            return sum(widths) + 2 * panel.matches.cell_padding * len(widths)

        wide = cells()
        assert wide <= panel.scrollable_content_region.width
        await pilot.resize_terminal(70, 40)
        await settle(app, pilot)
        await settle(app, pilot)
        assert cells() < wide
        assert cells() <= panel.scrollable_content_region.width
