"""The debugging loop in the TUI: labelled cases (F8, ``--cases``), the
decision log (F9, ``--log``), the tune plot (t) and the fixes of a fallback
(F7). Pilot tests assert state; snapshots pin the screens."""

from __future__ import annotations

import os
from pathlib import Path

from routelens.artifacts.write import write_generated
from routelens.registry import load_registry
from routelens.routing.router import Router
from routelens.tools.replay import DecisionLog
from routelens.tui.screens.cases import CasesScreen
from routelens.tui.screens.log import LogScreen
from routelens.tui.screens.path_prompt import PathPrompt
from routelens.tui.screens.tune import TuneScreen

from .conftest import make_app, settle

SIZE = (140, 40)

CASES = """\
cases:
  - task: write a blog post about the launch
    expect: [blog-post]
    category: english
  - task: review the pull request for the parser
    expect: [code-review]
    category: english
  - task: ブログの記事を書いて
    expect: [blog-post]
    category: japanese
  - task: deploy the docs or deploy to staging
    expect: [deploy-docs]
    category: ambiguous
  - task: the weather is nice today
    must_fallback: true
    category: offtopic
"""


def write_cases(registry, text: str = CASES):
    path = registry.parent / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def add_trigger(registry, skill_line: str, new: str) -> None:
    text = registry.read_text(encoding="utf-8")
    assert text.count(skill_line) == 1
    registry.write_text(text.replace(skill_line, skill_line.replace("]", f", {new}]")), encoding="utf-8")
    write_generated(load_registry(registry), registry.parent / "generated")


def outcomes(screen) -> list[tuple[int, str]]:
    return [(r.case.line, r.outcome) for r in screen.rows]


async def test_cases_screen_lists_each_case_with_its_outcome_and_the_metrics(registry):
    cases = write_cases(registry)
    app = make_app(registry, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, CasesScreen) and screen.runs == 1 and screen.problem == []
        # "ブログの記事を書いて": 記事 is an everyday word and the only evidence (docs/formats.md §6.10)
        assert outcomes(screen) == [(2, "correct"), (5, "missed"), (8, "missed"), (11, "missed"), (14, "fallback_ok")]
        rep = screen.summary
        assert (rep.precision, rep.coverage, rep.must_fallback_recall) == (1.0, 0.25, 1.0)
        screen.set_filters("all", "fell back")
        assert [r.case.line for r in screen.shown] == [5, 8, 11]
        screen.set_filters("english", "all")
        assert [r.case.line for r in screen.shown] == [2, 5]
        screen.set_filters("all", "all")
        # Enter on the second row: its task goes into the main screen and is routed
        await pilot.press("down")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is app.main
        assert app.main.task_text == "review the pull request for the parser"
        assert app.decision.reason == "no_match"


async def test_editing_the_registry_reruns_the_cases_live(registry):
    cases = write_cases(registry)
    app = make_app(registry, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert ("review the pull request for the parser", "missed") == (screen.rows[1].case.task,
                                                                         screen.rows[1].outcome)
        add_trigger(registry, "triggers: [code review, review my diff, コードレビュー]", "review the pull request")
        app.main.reload()  # what the file watcher does on a change
        await settle(app, pilot)
        assert app.screen is screen and screen.runs == 2
        assert outcomes(screen)[1] == (5, "correct")
        assert screen.summary.coverage == 0.5


async def test_a_bad_cases_file_says_file_and_line(registry):
    cases = write_cases(registry, "cases:\n  - task: fine\n    expect: [no-such-skill]\n")
    app = make_app(registry, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.screen.problem == [f"{cases}:3:14: cases[0].expect[0]: unknown skill 'no-such-skill'"]
        assert app.screen.rows == []


async def test_the_palette_asks_for_a_cases_file(registry):
    cases = write_cases(registry)
    app = make_app(registry)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.run_action("cases")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path").value = str(cases)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CasesScreen) and len(app.screen.rows) == 5
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main
        await pilot.press("f8")  # the file is remembered
        await settle(app, pilot)
        assert isinstance(app.screen, CasesScreen)


async def test_a_cases_file_that_cannot_be_read_can_be_replaced_in_place(registry):
    """F8 with a mistyped path reopened the same broken file on every F8
    (and from the palette) until the app was restarted (user trial): `o`
    asks for another file, starting from the path typed. A path that names
    no file keeps the prompt open (a newcomer's "nope.yaml" opened the cases
    screen, whose keys then read the next words typed as shortcuts)."""
    cases = write_cases(registry)
    broken = registry.parent / "broken-cases.yaml"
    broken.write_text("cases: [unclosed\n", encoding="utf-8")
    app = make_app(registry)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.run_action("cases")
        await pilot.pause()
        app.screen.query_one("#path").value = "nope.yaml"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PathPrompt)
        assert str(app.screen.query_one("#problem").content) == f"no file nope.yaml (from {Path.cwd()}); Esc cancels"
        app.screen.query_one("#path").value = str(registry.parent)
        await pilot.press("enter")
        await settle(app, pilot)
        assert str(app.screen.query_one("#problem").content) == f"{registry.parent} is a folder, not a file"
        app.screen.query_one("#path").value = str(broken)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CasesScreen) and app.screen.problem
        assert "o: open another file" in str(app.screen.query_one("#list-summary").content)
        await pilot.press("o")
        await settle(app, pilot)
        assert isinstance(app.screen, PathPrompt) and app.screen.query_one("#path").value == str(broken)
        app.screen.query_one("#path").value = str(cases)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CasesScreen) and len(app.screen.rows) == 5 and app.screen.problem == []
        assert app.cases_path == cases


async def test_the_cases_prompt_starts_from_the_cases_file_beside_the_registry(registry):
    """A newcomer's F8 prompt showed only the placeholder "path/to/file"
    while their cases.yaml lay beside the registry: it is filled in, so
    Enter opens it; without one the field stays empty."""
    app = make_app(registry)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.run_action("cases")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt) and app.screen.query_one("#path").value == ""
        await pilot.press("escape")
        cases = write_cases(registry)
        await app.run_action("cases")
        await pilot.pause()
        assert app.screen.query_one("#path").value == os.path.relpath(cases)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CasesScreen) and len(app.screen.rows) == 5


async def test_log_screen_shows_what_a_registry_edit_changed(registry):
    log = registry.parent / "agent.log"
    router = Router.from_paths(registry)
    writer = DecisionLog(log, clock=lambda: "2026-12-01T00:00:00Z")
    for task in ("write a blog post about the launch", "review the pull request for the parser",
                 "the weather is nice today"):
        writer.append(router.route(task))
    add_trigger(registry, "triggers: [code review, review my diff, コードレビュー]", "review the pull request")
    app = make_app(registry, log=log)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LogScreen) and screen.problem == []
        assert [(e.line, LogScreen.changed((e, b, a))) for e, b, a in screen.rows] == [(1, False), (2, True), (3, False)]
        assert screen.summary.transitions == {"no_match -> clear_candidate": 1}
        screen.set_filters("changed", "all")
        assert [e.line for e, _, _ in screen.shown] == [2]
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.main.task_text == "review the pull request for the parser"
        assert app.decision.skills == ("code-review",)


async def test_the_log_and_the_cases_replace_each_other_instead_of_stacking(registry):
    """F9 opened from F8 stacked on it: Esc went back to F8, and a task
    typed there fired its one-letter keys ("o" asked for another file).
    Each replaces the other; Esc goes back to the main screen."""
    cases = write_cases(registry)
    log = registry.parent / "agent.log"
    DecisionLog(log, clock=lambda: "2026-12-01T00:00:00Z").append(
        Router.from_paths(registry).route("write a blog post about the launch"))
    app = make_app(registry, log=log, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f8")
        await settle(app, pilot)
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["CasesScreen"]
        await pilot.press("f9")
        await settle(app, pilot)
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["LogScreen"]
        await pilot.press("escape")
        await settle(app, pilot)
        assert len(app.screen_stack) == 1


async def test_a_bad_log_line_is_named(registry):
    log = registry.parent / "agent.log"
    log.write_text('{"v":1,"task":"x","decision":{"mode":"full","reason":"no_match","skills":[],'
                   '"composition":null}}\nnot json\n', encoding="utf-8")
    app = make_app(registry, log=log)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.screen.problem == [f"{log}:2:1: not a JSON decision line: Expecting value at column 1"]


async def test_tune_plot_marks_the_current_and_recommended_settings(registry):
    cases = write_cases(registry)
    app = make_app(registry, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, TuneScreen) and screen.problem == []
        rep = screen.report
        assert rep.current.setting == (85.0, 5.0)
        assert (rep.current.coverage, rep.recommended.coverage, rep.recommended.precision) == (0.25, 0.25, 1.0)
        await pilot.press("y")
        assert app.clipboard == "routing:\n  threshold: " + f"{rep.recommended.threshold:g}" + \
            f"\n  ambiguity_margin: {rep.recommended.margin:g}\n"


async def test_f7_copies_a_fix_and_lights_up_where_it_goes(registry):
    cases = write_cases(registry)
    app = make_app(registry, cases=cases)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        app.query_one("#task").value = "review the pull request for the parser"
        await settle(app, pilot)
        main = app.main
        assert app.decision.reason == "no_match" and not main.fixes_pending
        first = main.fixes[0]
        assert (first.kind, first.skill, first.where) == ("add_trigger", "code-review", "skills.yaml:36")
        assert first.yaml == "triggers: [code review, review my diff, コードレビュー, review the pull request]"
        # the task is the labelled case at line 5 itself: no "more" case (a newcomer's trial read "1 more" as
        # another case)
        assert first.effect == "routes this task to code-review; no labelled case changes"
        await pilot.press("f7")
        await pilot.pause()
        # the line as it reads in the file: pasted over line 36 it keeps the skill's indentation
        assert first.paste == "    triggers: [code review, review my diff, コードレビュー, review the pull request]"
        assert app.clipboard == first.paste
        assert (main.current.kind, main.current.start, main.current.end) == ("fix", 36, 36)
        assert 36 in [r + 1 for r in main.pane("registry").highlighted_rows()]
        await pilot.press("f7")
        assert app.clipboard == main.fixes[1].paste and main.fixes[1].paste.startswith(" ")
        # a routed task has no fix
        app.query_one("#task").value = "write a blog post about the launch"
        await settle(app, pilot)
        assert main.fixes == []


async def test_on_a_big_registry_f7_checks_the_fixes_instead_of_typing_paying_for_them(registry, monkeypatch):
    """At 100,000 skills a fallback's fixes, started once typing paused,
    parsed patched registries in a thread holding the GIL: every keystroke
    then waited 1-3.5 s (one took 107 s in a benchmark). Above
    AUTO_FIXES_MAX_SKILLS they are checked when F7 asks."""
    import routelens.tui.screens.main as main_screen

    monkeypatch.setattr(main_screen, "AUTO_FIXES_MAX_SKILLS", 5)  # the fixture's 11 skills count as big
    app = make_app(registry)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        app.query_one("#task").value = "review the pull request for the parser"
        await settle(app, pilot)
        main = app.main
        assert app.decision.reason == "no_match"
        assert (main.fixes, main.fixes_pending, main.fixes_on_demand) == ([], False, True)
        assert not [w for w in app.workers if w.name == "_fixes_worker"]
        assert str(main.decision_panel.fixes.content).startswith("F7 checks the fixes of this fallback")
        await pilot.press("f7")
        await settle(app, pilot)
        assert main.fixes_on_demand is False and main.fixes_pending is False
        assert (main.fixes[0].kind, main.fixes[0].skill) == ("add_trigger", "code-review")
        await pilot.press("f7")  # now F7 copies the first, as on a small registry
        await settle(app, pilot)
        assert main.fix_index == 0


async def test_f7_while_fixes_are_checked_and_when_none_was_found(registry, monkeypatch):
    """A trial: F7 within a second of a fallback said "No fix to copy:
    fixes are offered when a task falls back because ..." for exactly such
    a fallback, and 3 fixes appeared just after; a fallback without any fix
    got the same words."""
    import threading

    import routelens.tools.fixes as fixes_mod

    gate = threading.Event()
    real = fixes_mod.fixes_for

    def held(*args, **kw):
        assert kw["max_seconds"] == fixes_mod.FIXES_SECONDS  # the TUI's check has the route command's budget
        gate.wait(10)
        return real(*args, **kw)

    monkeypatch.setattr(fixes_mod, "fixes_for", held)
    app = make_app(registry)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("escape")
        app.query_one("#task").value = "review the pull request for the parser"
        for _ in range(100):
            await pilot.pause(0.02)
            if app.decision is not None and any(w.description == "fixes" for w in app.workers):
                break
        assert app.decision.reason == "no_match" and app.main.fixes_pending
        await pilot.pause(0.6)  # past the moment the panel says the fixes are being checked
        assert str(app.query_one("#decision-fixes").content) == (
            "checking fixes, each on a patched copy of the registry…")
        await pilot.press("f7")
        await pilot.pause()
        assert app._notifications and list(app._notifications)[-1].message == (
            "The fixes of this fallback are being checked, each on a patched copy of the registry (seconds each "
            "on a big one): F7 again in a moment.")
        gate.set()
        await settle(app, pilot)
        assert app.main.fixes and not app.main.fixes_pending
        # a fallback for which no edit makes the task route
        monkeypatch.setattr(fixes_mod, "fixes_for", lambda *a, **k: [])
        app.query_one("#task").value = "what is this? review it"
        await settle(app, pilot)
        assert app.decision.mode == "full" and app.decision.reason in fixes_mod.FIXABLE and app.main.fixes == []
        await pilot.press("f7")
        await pilot.pause()
        assert list(app._notifications)[-1].message == (
            "No verified fix for this task: no candidate edit (a trigger, a not_when phrase, a setting) makes it "
            "route. F2 says, for each skill, why it was not chosen (`routelens explain TASK --skill ID` too).")


# --------------------------------------------------------------------------- snapshots


def test_snapshot_cases_screen(snap_compare, registry):
    app = make_app(registry, cases=write_cases(registry))
    assert snap_compare(app, terminal_size=SIZE, run_before=lambda pilot: settle(app, pilot))


def test_snapshot_log_screen(snap_compare, registry):
    log = registry.parent / "agent.log"
    router = Router.from_paths(registry)
    writer = DecisionLog(log, clock=lambda: "2026-12-01T00:00:00Z")
    for task in ("write a blog post about the launch", "review the pull request for the parser"):
        writer.append(router.route(task))
    add_trigger(registry, "triggers: [code review, review my diff, コードレビュー]", "review the pull request")
    app = make_app(registry, log=log)
    assert snap_compare(app, terminal_size=SIZE, run_before=lambda pilot: settle(app, pilot))


def test_snapshot_tune_plot(snap_compare, registry):
    app = make_app(registry, cases=write_cases(registry))

    async def run_before(pilot):
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_fallback_with_fixes(snap_compare, registry):
    app = make_app(registry, cases=write_cases(registry))

    async def run_before(pilot):
        await settle(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        app.query_one("#task").value = "review the pull request for the parser"
        await settle(app, pilot)
        await pilot.press("f7")
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
