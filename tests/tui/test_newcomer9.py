"""Defects two newcomers hit in the TUI (round 9): each test drives the
input that showed it."""

from __future__ import annotations

from routelens.tui.widgets.hits_table import HitsTable

from .conftest import make_app, settle

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


import pytest


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
