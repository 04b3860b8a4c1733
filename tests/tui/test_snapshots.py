"""Snapshots of the main states at a pinned size (140x40, one at 80x24).

Deterministic: fixture registries copied to tmp dirs (paths are shown
relative to the registry, hashes depend only on fixture bytes), pinned
theme, no cursor blink, no polling, no debounce, no tokenizer.
Update with ``pytest tests/tui/test_snapshots.py --snapshot-update`` after
reading ``snapshot_report.html``.
"""

from __future__ import annotations

from routelens.paths import INDEX_NAME

from .conftest import CASES, make_app, make_registry, settle

SIZE = (140, 40)


def typed(app, task: str):
    async def run_before(pilot) -> None:
        await settle(app, pilot)
        app.query_one("#task").value = task
        await settle(app, pilot)

    return run_before


def make_stale(registry):
    """Edit the registry after the build: one skill added, one trigger changed."""
    text = registry.read_text(encoding="utf-8")
    text = text.replace("triggers: [translate, 翻訳]", "triggers: [translate, 翻訳, localise]")
    text = text.replace("\ncomposition:\n", (
        "\n  release-checklist:\n"
        "    path: skills/release.md\n"
        "    priority: P1\n"
        "    triggers: [release checklist]\n"
        "\ncomposition:\n"), 1)
    registry.write_text(text, encoding="utf-8")


def test_first_screen(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, ""))


def test_clear_route(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "write a blog post about the launch"))


def test_composition_route(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE,
                        run_before=typed(app, "write a blog post about the launch and cite sources"))


def test_fallback_stale_index(snap_compare, registry):
    make_stale(registry)
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "translate the release notes"))


def test_fallback_missing_index(snap_compare, registry):
    (registry.parent / "generated" / INDEX_NAME).unlink()
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "write a blog post about the launch"))


def test_fallback_invalid_index(snap_compare, registry):
    (registry.parent / "generated" / INDEX_NAME).write_text('{"v":1,"skills":[["blog-post",5,', encoding="utf-8")
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "write a blog post about the launch"))


def test_fallback_ambiguous(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "deploy the docs or deploy to staging"))


def test_fallback_no_match(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "blogging about the release"))


def test_fallback_high_risk(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "rm -rf the build folder, then ship the release"))


def test_fallback_forced_rule(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "production deploy of the api"))


def test_fallback_composition_conflict(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "cite sources in the blog post and translate it"))


def test_fallback_disabled_skill(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, "use the legacy tool"))


def test_skill_browser(snap_compare, registry):
    app = make_app(registry)

    async def run_before(pilot) -> None:
        await typed(app, "write a blog post about the launch")(pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        app.screen.query_one("#filter").value = "blog"
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_stats_panel(snap_compare, registry):
    app = make_app(registry)

    async def run_before(pilot) -> None:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_stats_panel_stale(snap_compare, registry):
    make_stale(registry)
    app = make_app(registry)

    async def run_before(pilot) -> None:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_error_view_broken_registry(snap_compare, tmp_path):
    reg = make_registry(tmp_path, CASES / "implicit-types-ids.yaml", build=False)
    app = make_app(reg)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed(app, ""))


def test_error_view_keeps_last_good(snap_compare, registry):
    app = make_app(registry)

    async def run_before(pilot) -> None:
        await typed(app, "write a blog post about the launch")(pilot)
        text = registry.read_text(encoding="utf-8")
        registry.write_text(text.replace("priority: P1\n    triggers: [release notes", "priority: P9\n    triggers: [release notes"),
                            encoding="utf-8")
        loads = app.main.loads
        app.main.reload()
        while app.main.loads == loads:
            await pilot.pause()
        await settle(app, pilot)
        app.clear_notifications()
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_small_terminal_80x24(snap_compare, registry):
    app = make_app(registry)
    assert snap_compare(app, terminal_size=(80, 24),
                        run_before=typed(app, "write a blog post about the launch and cite sources"))


def test_help_screen(snap_compare, registry):
    app = make_app(registry)

    async def run_before(pilot) -> None:
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
