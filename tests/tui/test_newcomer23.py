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
