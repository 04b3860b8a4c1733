"""A sixth newcomer's trial: the labelled-cases screen showed "off-topic
routed 0.0% (0/0)" for a cases file with no off-topic case, where `routelens
eval` says "n/a ... (not measured)"."""

from __future__ import annotations

from routelens.tui.screens.cases import CasesScreen

from .conftest import make_app, settle
from .test_loop import CASES, write_cases


async def test_a_measure_with_no_case_behind_it_reads_not_measured(registry):
    no_offtopic = CASES.split("  - task: the weather is nice today")[0]
    app = make_app(registry, cases=write_cases(registry, no_offtopic))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, CasesScreen)
        text = screen.summary_content().plain
        assert "off-topic routed n/a (0/0, not measured)" in text
        assert "confident precision 100.0% (1/1)" in text


async def test_a_measured_off_topic_rate_still_reads_as_a_share(registry):
    app = make_app(registry, cases=write_cases(registry))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        assert "off-topic routed 0.0% (0/1)" in app.screen.summary_content().plain


def test_a_long_column_gives_its_tail_first_down_to_its_ample_width():
    from routelens.tui.fit import Column, fit_widths

    cols = [Column(4), Column(13), Column(9, 6, 1), Column(22, 8, 1), Column(30, 10, 1), Column(70, 22, 2, 40)]
    assert fit_widths(cols, 118) == [4, 13, 9, 22, 30, 40]  # the ids whole, the task at its ample width
    assert fit_widths(cols, 106) == [4, 13, 9, 20, 20, 40]  # then the ids give (widest first), the task keeps 40
    assert fit_widths(cols, 66) == [4, 13, 6, 8, 10, 25]  # at 80 columns as before: the task in sight
    assert fit_widths(cols, 160) == [4, 13, 9, 22, 30, 70]  # room for all: nothing given


async def test_the_cases_screen_shows_whole_ids_at_120_columns(registry):
    long_task = "review the pull request for the parser before the release goes out to every customer tonight"
    cases = "cases:\n  - task: " + long_task + "\n    expect: [code-review]\n    category: english\n"
    app = make_app(registry, cases=write_cases(registry, cases))
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        # "fallback: no_match" (18) and "code-review" (11) whole; the task keeps 40 cells or more
        assert screen.widths[3:5] == [11, 18] and screen.widths[5] >= 40
