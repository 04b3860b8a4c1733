"""Start-up on an index the matcher cache vouches for (issue 14, TUI round
2): the header's freshness verdict is taken as the CLI's cold route takes it
(docs/formats.md §11.4), a router opened from that index routes typed tasks
before the registry is parsed, its hits drawn from the index's line ranges,
and the parse's router is that same router. Each state is waited on, never
timed: the parse is held on an event until the test lets it go."""

from __future__ import annotations

import threading

import pytest

from routelens.routing.router import Router
from routelens.tui import model
from routelens.tui.screens import main as main_screen

from .conftest import make_app, make_registry

TASK = "write a blog post about the launch"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A matcher cache folder of this test only (empty)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(folder))
    return folder


@pytest.fixture
def held(monkeypatch):
    """The registry's parse waits until ``held.set()``; ``held.calls``
    counts the parses started."""
    gate = threading.Event()
    gate.calls = 0
    real = model.complete

    def complete(pre, with_router=True):
        gate.calls += 1
        assert gate.wait(60), "the test never let the parse go"
        return real(pre, with_router)

    monkeypatch.setattr(main_screen, "complete", complete)
    yield gate
    gate.set()


async def _until(pilot, check, what: str, rounds: int = 3000) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause()
    raise AssertionError(f"never: {what}")


async def test_a_vouched_index_routes_before_the_parse_with_the_index_ranges(tmp_path, cache, held):
    reg = make_registry(tmp_path)
    Router.from_paths(reg)  # the CLI's first open writes the cache file that vouches for the index
    app = make_app(reg, max_textarea_lines=10)  # a big registry: a glance first
    async with app.run_test(size=(140, 40)) as pilot:
        main = app.main
        await _until(pilot, lambda: main.early is not None, "the router of the preview")
        assert app.snapshot is None and held.calls == 1  # the parse is still waiting
        state = main.header.state
        assert (state.freshness, state.skills, state.compositions, state.rules) == ("fresh", 11, 3, 1)
        assert main.early[0].vouched is not None
        assert main.early[0].freshness.message == model._relative_messages(
            model.freshness(reg, reg.parent / "generated" / "routing.min.json"), app.paths).message
        app.query_one("#task").value = TASK
        await _until(pilot, lambda: app.decision is not None and not main._route_pending, "a decision")
        assert (app.decision.mode, app.decision.reason, app.decision.skills) == ("index", "clear_candidate",
                                                                                ("blog-post",))
        assert [(h.kind, h.id, h.role, h.start, h.end) for h in main.hits] == [
            ("skills", "blog-post", "match", 5, 13)]
        # the band lies on the registry's own lines 5-12, whose first holds the key; the index row is banded;
        # the catalog's entry rows are not known before the parse, so the catalog has no band yet
        reg_pane = main.pane("registry").view
        assert [(b.start, b.end, b.kind) for b in reg_pane.bands] == [(4, 12, "current")]
        assert main.early[0].display_text.split("\n")[4] == "  blog-post:"
        assert [(b.kind, b.label) for b in main.pane("index").view.bands] == [("current", "blog-post")]
        assert main.pane("catalog").view.bands == ()
        assert main.fixes == [] and not main.fixes_pending
        early_router = main.early[1]
        held.set()
        await _until(pilot, lambda: app.snapshot is not None and app.snapshot.router is not None
                     and not app.routing_pending, "the parse and the decision again")
        assert main.early is None
        assert app.snapshot.router is early_router  # not opened a second time
        assert app.decision.skills == ("blog-post",)
        assert [(h.kind, h.id, h.role, h.start, h.end) for h in main.hits] == [
            ("skills", "blog-post", "match", 5, 13)]
        assert [(b.start, b.end) for b in main.pane("catalog").view.bands] == [
            app.snapshot.catalog.entries["skills:blog-post"]]


async def test_without_a_cache_file_the_index_is_checked_in_full_and_nothing_routes_before_the_parse(
        tmp_path, cache, held):
    reg = make_registry(tmp_path)
    app = make_app(reg, max_textarea_lines=10)  # a big registry: a glance first
    async with app.run_test(size=(140, 40)) as pilot:
        main = app.main
        await _until(pilot, lambda: main.full_paint_at and held.calls == 1, "the preview")
        assert main.header.state.freshness == "fresh"
        app.query_one("#task").value = TASK
        for _ in range(20):
            await pilot.pause()
        assert main.early is None and main.router is None and app.decision is None
        held.set()
        await _until(pilot, lambda: app.decision is not None and not app.routing_pending, "a decision")
        assert app.decision.skills == ("blog-post",)
        assert main.router is app.snapshot.router


async def test_a_stale_index_is_not_vouched_for(tmp_path, cache):
    reg = make_registry(tmp_path)
    Router.from_paths(reg)
    with reg.open("a", encoding="utf-8") as f:
        f.write("# edit\n")
    pre = model.preview(model.Paths.make(reg), vouch=True)
    assert pre.vouched is None and pre.freshness.state == "stale"
    assert model.preview_router(pre) is None
    with reg.open("rb+") as f:  # back to the bytes the cache vouches for
        f.truncate(len(reg.read_bytes()) - len("# edit\n"))
    assert model.preview(model.Paths.make(reg), vouch=True).vouched is not None
    assert model.preview(model.Paths.make(reg)).vouched is None  # a small registry's first frame: checked in full


async def test_a_parse_that_fails_after_a_vouched_preview_takes_its_decision_away(tmp_path, cache, monkeypatch):
    reg = make_registry(tmp_path)
    Router.from_paths(reg)
    gate = threading.Event()

    def complete(pre, with_router=True):
        assert gate.wait(60)
        return model.LoadFailure(pre.paths, [model.Diagnostic("skills.yaml", 3, 5, "skills", "broken on purpose")],
                                 pre.text, pre.signature, pre.content)

    monkeypatch.setattr(main_screen, "complete", complete)
    app = make_app(reg, max_textarea_lines=10)  # a big registry: a glance first
    async with app.run_test(size=(140, 40)) as pilot:
        main = app.main
        await _until(pilot, lambda: main.early is not None, "the router of the preview")
        app.query_one("#task").value = TASK
        await _until(pilot, lambda: app.decision is not None and not main._route_pending, "a decision")
        gate.set()
        await _until(pilot, lambda: main.failure is not None, "the failure")
        await pilot.pause()
        assert main.early is None and main.router is None and app.decision is None and main.hits == []
        assert main.header.state.errors == 1
        assert [(b.start, b.kind) for b in main.pane("registry").view.bands] == [(2, "error")]


def test_vouch_gives_the_full_checks_verdict_and_the_index_rows(tmp_path, cache):
    from routelens.artifacts.freshness import freshness
    from routelens.routing.router import vouch

    reg = make_registry(tmp_path)
    index = reg.parent / "generated" / "routing.min.json"
    raw, data = reg.read_bytes(), index.read_bytes()
    assert vouch(raw, data) is None  # no cache file yet
    full = Router.from_paths(reg)
    v = vouch(raw, data)
    want = freshness(reg, index)
    assert (v.freshness.state, v.freshness.message, v.freshness.registry_sha256, v.freshness.index_sha256) == (
        want.state, want.message, want.registry_sha256, want.index_sha256)
    assert v.counts == (11, 3, 1)
    assert v.rows["skill"]["blog-post"] == (5, 13)
    assert type(v.freshness.index).__name__ == "_VouchedIndex"
    assert v.text == raw.decode("utf-8")
    early = Router.from_vouched(v, str(reg), base=reg.parent)
    for task in (TASK, "please /code-review and $release-train", "deploy to production", "zz"):
        a, b = early.route(task).to_dict(), full.route(task).to_dict()
        assert a == b, task
    assert vouch(raw + b"# edit\n", data) is None  # another registry: judged in full
    assert vouch(raw, data + b" ") is None  # other index bytes: no file vouches for them


def _ids(v) -> dict[str, list[str]]:
    return {section: list(v.rows[kind]) for section, kind in
            (("skills", "skill"), ("compositions", "composition"), ("rules", "rule"))}


@pytest.mark.parametrize("trigger, cut", [
    ("blog post", (True, True, True)),
    # a gap and a section end inside a string: the cut is checked, the skills are cut tuple by tuple
    ("tail]],[\\\"blog-post\\\",1]]]", (False, True, True)),
    ("tail]]]", (False, True, True)),
])
def test_the_index_pane_is_cut_at_its_tuples_with_the_vouched_ids(tmp_path, cache, trigger, cut):
    from routelens.routing.router import vouch

    src = (make_registry(tmp_path / "src", build=False)).read_text(encoding="utf-8")
    assert "      - blog post\n" in src
    reg = make_registry(tmp_path, build=False)
    reg.write_text(src.replace("      - blog post\n", f'      - "{trigger}"\n', 1), encoding="utf-8")
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry

    write_generated(load_registry(reg), reg.parent / "generated")
    Router.from_paths(reg)
    raw = (reg.parent / "generated" / "routing.min.json").read_bytes()
    ids = _ids(vouch(reg.read_bytes(), raw))
    text = raw.decode("utf-8")
    got = tuple(model._cut_section(text, text.index(f'"{s}":[') + len(s) + 3, s, ids[s]) is not None
                for s in ("skills", "compositions", "rules"))
    assert got == cut
    fast, slow = model.format_index(raw, ids), model.format_index(raw)
    assert fast.text == slow.text and fast.rows == slow.rows
    assert (fast.rows["skills:blog-post"], fast.rows["compositions:release-train"], fast.rows["rules:production-change"],
            len(fast.rows)) == (5, 21, 25, 15)
    lines = fast.text.split("\n")
    assert lines[5].startswith('  ["blog-post",5,13,["') and lines[21] == '  ["release-train",80,82]'
    assert (lines[4], lines[16], lines[22]) == (' "skills":[', " ],", " ],")


async def test_a_big_panes_lazy_line_index_is_made_exact_behind_the_parse(tmp_path, cache, monkeypatch):
    from .conftest import settle

    monkeypatch.setattr(model, "LAZY_STARTS_CHARS", 0)  # every pane is "big"
    reg = make_registry(tmp_path)
    app = make_app(reg, max_textarea_lines=10)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        for name, text in (("registry", app.snapshot.display_text), ("index", app.snapshot.index.text),
                           ("catalog", app.snapshot.catalog.text)):
            view = app.main.pane(name).view
            exact, widest = model.line_starts(text)
            assert type(view._starts).__name__ == "array", name
            assert list(view._starts) == list(exact)
            assert view.virtual_size.width == view.gutter_width + widest
