"""The first frame of a big registry (issue 14: first paint): the first
lines of each pane from one read of the files, before the index is judged
and the whole files are laid out (``model.glance``); then the whole files
replace them, at the same scroll position, and the header says the
freshness the full check found."""

from __future__ import annotations

import json
import threading

from routelens.tui import model
from routelens.tui.model import Paths
from routelens.tui.screens import main as main_screen

from .conftest import make_app, make_registry, settle
from .test_hostile import wait_for


def test_the_heads_are_the_first_lines_of_the_whole_panes(tmp_path, monkeypatch):
    monkeypatch.setattr(model, "GLANCE_LINES", 40)
    reg = make_registry(tmp_path)
    paths = Paths.make(reg)
    seen = model.glance(paths)
    pre = model.preview(paths, seen)
    assert seen.hash_matches and pre.freshness.state == "fresh"
    assert seen.registry_sha256 == pre.freshness.registry_sha256
    assert seen.registry_lines == pre.display_text.count("\n") + 1 == 97
    for head, full in ((seen.registry_head, pre.display_text), (seen.index_head, pre.index.text),
                       (seen.catalog_head, pre.catalog.text)):
        assert head.split("\n") == full.split("\n")[:40]
    assert (len(seen.registry_head.split("\n")), len(seen.catalog_head.split("\n"))) == (40, 40)
    assert seen.index_head == pre.index.text  # 31 lines: all of it
    # the preview judged the very bytes the glance read
    assert pre.content == model.content_signature(paths, seen.states)


def test_heads_cut_from_a_prefix_end_at_a_whole_line(tmp_path, monkeypatch):
    reg = make_registry(tmp_path)
    paths = Paths.make(reg)
    full = model.preview(paths)
    monkeypatch.setattr(model, "_GLANCE_BYTES", 700)  # the prefix ends inside one of the index's tuples
    seen = model.glance(paths)
    index_lines = full.index.text.split("\n")
    assert seen.index_head.split("\n") == index_lines[:len(seen.index_head.split("\n"))]
    assert len(seen.index_head.split("\n")) == 11 < len(index_lines)  # the tuples whole in 700 bytes
    catalog = seen.catalog_head.split("\n")
    assert catalog[:-1] == full.catalog.text.split("\n")[:len(catalog) - 1]


def test_the_hint_is_false_for_a_stale_registry_or_an_index_routelens_did_not_write(tmp_path):
    reg = make_registry(tmp_path)
    paths = Paths.make(reg)
    reg.write_text(reg.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert not model.glance(paths).hash_matches  # stale: the written hash is another registry's
    reg2 = make_registry(tmp_path / "two")
    paths2 = Paths.make(reg2)
    idx = json.loads(paths2.index.read_text(encoding="utf-8"))
    paths2.index.write_text(json.dumps(idx, indent=1), encoding="utf-8")  # same hash, not routelens's layout
    seen = model.glance(paths2)
    assert not seen.hash_matches
    assert seen.index_head.split("\n")[:2] == ["{", ' "v":2,']


def test_a_missing_registry_gives_no_glance(tmp_path):
    assert model.glance(Paths.make(tmp_path / "nope.yaml")) is None


async def test_a_big_registry_paints_its_first_lines_before_the_files_are_judged(tmp_path, monkeypatch):
    reg = make_registry(tmp_path)
    gate = threading.Event()
    real = main_screen.preview
    calls = []

    def held(paths, seen=None, vouch=False):
        calls.append(seen)
        gate.wait(30)
        return real(paths, seen, vouch)

    monkeypatch.setattr(main_screen, "preview", held)
    monkeypatch.setattr(model, "GLANCE_LINES", 40)
    from routelens.tui.widgets import line_view

    split = []

    def counted(text):
        split.append(text.count("\n") + 1)
        return model.line_starts(text)

    monkeypatch.setattr(line_view, "line_starts", counted)
    app = make_app(reg, max_textarea_lines=50)  # 97 lines: "big" for this app
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            main = app.main
            assert await wait_for(pilot, lambda: main.first_paint_at and calls)
            assert calls[0] is not None  # the preview reads nothing again: it judges the glance's bytes
            assert main.snapshot is None and main.full_paint_at == 0
            state = main.header.state
            assert (state.loaded, state.freshness) == (False, "checking")
            view = main.pane("registry").line_view
            assert view.display and view.line_count == 40
            assert view.text == calls[0].registry_head
            assert main.pane("registry").border_subtitle == "97 lines · canonical"
            # the loading indicators' timer firing after the heads were shown, before their frame was marked
            # (a busy machine): they must not cover the heads
            painted, main.first_paint_at = main.first_paint_at, 0.0
            main._show_loading()
            main.first_paint_at = painted
            await pilot.pause()
            assert not any(main.pane(name).loading for name in ("registry", "index", "catalog"))
            assert await wait_for(pilot, lambda: view.max_scroll_y >= 5)  # laid out (slow on a busy machine)
            view.scroll_to(y=5, animate=False, immediate=True)
            await pilot.pause()
            assert view.scroll_y == 5
            gate.set()
            await settle(app, pilot)
            assert main.full_paint_at > main.first_paint_at
            assert main.snapshot.freshness.state == "fresh" and main.header.state.freshness == "fresh"
            assert view.text == main.snapshot.display_text and view.line_count == 97
            assert view.scroll_y == 5  # the whole text replaced the heads where the reader was
            assert len(calls) == 1
            assert (view._starts, view._gutter) == (model.line_starts(view.text)[0], 4)
            # only the heads were split on the UI thread; the worker split the whole files
            assert split and all(n <= 40 for n in split)
    finally:
        gate.set()


async def test_a_small_registry_is_painted_whole_at_once(tmp_path):
    from routelens.tui import messages

    reg = make_registry(tmp_path)
    seen = []
    app = make_app(reg)  # 97 lines is small for the default
    async with app.run_test(size=(140, 40), message_hook=seen.append) as pilot:
        await settle(app, pilot)
        assert 0 < app.main.first_paint_at <= app.main.full_paint_at
    assert not [m for m in seen if isinstance(m, messages.GlanceReady)]
    assert [m for m in seen if isinstance(m, messages.PreviewReady)]


async def test_workers_never_format_their_arguments(tmp_path, monkeypatch):
    """Textual names a worker after its arguments' repr unless given a
    description: the repr of a load (the registry's text and bytes) took
    seconds at 100,000 skills, on the UI thread, before the worker started."""
    formatted = []

    def counted(self):  # Textual swallows an error raised here: count the calls instead
        formatted.append(type(self).__name__)
        return "..."

    for cls in (model.Glance, model.Preview, model.Snapshot):
        monkeypatch.setattr(cls, "__repr__", counted)
    reg = make_registry(tmp_path)
    app = make_app(reg, max_textarea_lines=50)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snapshot is not None and app.snapshot.router is not None
        app.query_one("#task").value = "write a blog post about the launch"
        await settle(app, pilot)
        assert app.decision.skills == ("blog-post",)
        app.query_one("#task").value = "zzz qqq"
        await settle(app, pilot)
        assert app.decision.mode == "full"  # a fallback: its fixes' worker ran too
        from routelens.tools.fixes import FIXABLE

        assert app.decision.reason in FIXABLE and not app.main.fixes_pending
    assert formatted == []
