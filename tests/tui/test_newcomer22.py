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
