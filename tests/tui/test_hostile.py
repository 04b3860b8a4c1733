"""The TUI against hostile files (issue 11): it never blocks, never stops
watching, and never shows FRESH for an index it has not judged against the
registry bytes on disk; data never reaches the terminal as an escape
sequence."""

from __future__ import annotations

import os
import stat
import threading
import time

from routelens.paths import INDEX_NAME
from routelens.tui.screens import main as main_screen
from routelens.tui.widgets.header_bar import HeaderBar

from .conftest import make_app, make_registry, settle


async def wait_for(pilot, condition, seconds: float = 10.0) -> bool:
    """Pause until ``condition()`` holds (True) or ``seconds`` pass (False);
    never waits on the workers (one of them may be blocked on purpose)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        await pilot.pause(0.02)
    return condition()


def badge(app) -> str:
    return app.main.header.state.freshness


async def test_a_fifo_index_is_invalid_at_once_and_watching_goes_on(tmp_path):
    reg = make_registry(tmp_path)
    index = reg.parent / "generated" / INDEX_NAME
    good = index.read_bytes()
    index.unlink()
    os.mkfifo(index)  # nobody ever writes to it: a plain open() would block forever
    app = make_app(reg, poll_interval=0.05)
    async with app.run_test(size=(140, 40)) as pilot:
        assert await wait_for(pilot, lambda: app.main.loads >= 1, 5)
        assert app.snapshot.freshness.state == "invalid"
        assert "is a FIFO, not a regular file" in app.snapshot.freshness.message
        assert app.query_one(HeaderBar).state.freshness == "invalid"
        # the FIFO goes, a real index comes: the watcher notices and the header follows
        index.unlink()
        index.write_bytes(good)
        assert await wait_for(pilot, lambda: app.snapshot.freshness.state == "fresh" and app.main.loads >= 2)
        reg.write_text(reg.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        # content checks come at most MAX_WATCH_GAP (5 s) apart, then the reload
        assert await wait_for(pilot, lambda: app.snapshot.freshness.state == "stale", seconds=30.0)
        await settle(app, pilot)
        assert badge(app) == "stale"


async def test_an_edit_keeping_size_inode_and_mtime_is_noticed(tmp_path):
    reg = make_registry(tmp_path)
    app = make_app(reg, poll_interval=0.05)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert badge(app) == "fresh"
        st = os.stat(reg)
        data = reg.read_bytes()
        edited = data.replace(b"blog post", b"blog Post", 1)
        assert len(edited) == len(data) and edited != data
        with open(reg, "r+b") as fh:  # same inode, same size
            fh.write(edited)
        os.utime(reg, ns=(st.st_atime_ns, st.st_mtime_ns))  # the mtime put back
        after = os.stat(reg)
        assert (after.st_ino, after.st_size, after.st_mtime_ns) == (st.st_ino, st.st_size, st.st_mtime_ns)
        # content checks come at most MAX_WATCH_GAP (5 s) apart, then the reload
        assert await wait_for(pilot, lambda: app.snapshot.freshness.state == "stale", seconds=30.0)
        await settle(app, pilot)
        assert badge(app) == "stale"


async def test_a_read_that_never_returns_is_given_up_and_polling_goes_on(tmp_path, monkeypatch):
    reg = make_registry(tmp_path)
    release = threading.Event()
    calls = []
    real = main_screen.preview

    def stuck_once(paths, seen=None, vouch=False):
        calls.append(time.monotonic())
        if len(calls) == 2:  # the first reload after a change hangs (a file system that never answers)
            release.wait(30)
        return real(paths, seen, vouch)

    monkeypatch.setattr(main_screen, "preview", stuck_once)
    app = make_app(reg, poll_interval=0.05, load_timeout=2.0)  # long enough to look at the hung state
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            assert await wait_for(pilot, lambda: app.main.loads >= 1)
            assert badge(app) == "fresh"
            app.query_one("#task").value = "write a blog post about the launch"
            assert await wait_for(pilot, lambda: app.decision is not None and app.decision.mode == "index")
            reg.write_text(reg.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
            # the change is seen, the read hangs: the header claims nothing, routing waits
            assert await wait_for(pilot, lambda: len(calls) >= 2)
            assert badge(app) == "loading"
            # given up after the timeout and read again: the truth, and the task routed again
            assert await wait_for(pilot, lambda: len(calls) >= 3 and app.main.loads >= 2)
            assert await wait_for(pilot, lambda: app.decision is not None and app.decision.reason == "index_stale")
            assert app.snapshot.freshness.state == "stale" and badge(app) == "stale"
            # polling did not stop: a later change is loaded too
            loads = app.main.loads
            reg.write_text(reg.read_text(encoding="utf-8") + "# again\n", encoding="utf-8")
            assert await wait_for(pilot, lambda: app.main.loads > loads)
            # the hung read comes back late: its answer is dropped
            release.set()
            await pilot.pause(0.2)
            assert app.snapshot.freshness.state == "stale"
            assert reg.read_bytes().endswith(b"# again\n") and app.snapshot.registry.text.endswith("# again\n")
    finally:
        release.set()


def make_zero_device(path) -> bool:
    """A character device like /dev/zero at ``path`` (needs the right to
    make device nodes); False when this machine does not allow it."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except (PermissionError, OSError, AttributeError):
        return False
    return True


async def test_skill_browser_never_blocks_on_a_fifo_or_device_body(tmp_path):
    reg = make_registry(tmp_path)
    body = reg.parent / "skills" / "ci-fix.md"
    body.unlink()
    os.mkfifo(body)
    link = reg.parent / "skills" / "deploy-docs.md"
    link.unlink()
    os.symlink("/dev/zero", link)
    dev = reg.parent / "skills" / "docs-update.md"
    dev.unlink()
    device = make_zero_device(dev)
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        # the body is read in a worker (issue 13: F2 at 10,000 skills): wait for it
        browser.select(app.snapshot.registry.skills["ci-fix"])
        await settle(app, pilot)
        assert browser.body_problem == "skills/ci-fix.md is a FIFO, not a regular file: not read"
        browser.select(app.snapshot.registry.skills["deploy-docs"])
        await settle(app, pilot)
        assert browser.body_problem == ("body path 'skills/deploy-docs.md' leads outside the registry folder "
                                        "(through a symlink): refused")
        if device:  # a device node inside the folder (where this machine lets a test make one)
            browser.select(app.snapshot.registry.skills["docs-update"])
            await settle(app, pilot)
            assert browser.body_problem == "skills/docs-update.md is a character device, not a regular file: not read"
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is app.main
        await pilot.press("ctrl+q")  # the UI thread was never blocked: quitting works
        await pilot.pause()
        assert app.return_code == 0


async def test_escape_sequences_in_data_never_reach_the_screen(tmp_path):
    reg = make_registry(tmp_path)
    text = reg.read_text(encoding="utf-8")
    plain = "    description: Draft a blog post or technical article for a stated audience\n"
    assert plain in text
    # YAML escapes put ESC and BEL in the value: a title change, a screen clear, an OSC 52 clipboard write
    text = text.replace(plain, '    description: "Write a post \\e]0;pwned\\a\\e[2J\\e]52;c;aGk=\\a now"\n')
    reg.write_text(text, encoding="utf-8")
    body = reg.parent / "skills" / "blog-post.md"
    body.write_text("# Blog post\n\x1b]0;pwned\x07 \x1b[2J \x9b31m\n", encoding="utf-8")
    app = make_app(reg)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snapshot is not None, app.main.failure and app.main.failure.diagnostics
        assert app.snapshot.registry.skills["blog-post"].description.startswith("Write a post \x1b]0;")
        registry_pane = app.main.pane("registry").view.text
        assert "\x1b" not in registry_pane
        await pilot.press("f2")
        await settle(app, pilot)
        browser = app.screen
        browser.select(app.snapshot.registry.skills["blog-post"])
        await settle(app, pilot)
        summary = str(browser.query_one("#summary").content)
        assert "\x1b" not in summary and "␛]0;pwned␇" in summary
        markdown = browser.query_one("#body").source
        assert "\x1b" not in markdown and "\x9b" not in markdown and "␛]0;pwned␇" in markdown
        # nothing the app draws holds an escape character from the data
        shot = app.export_screenshot()
        assert "pwned" in shot and "]0;pwned" in shot.replace("␛", "")


async def test_the_ui_opens_with_a_task_given_on_the_command_line(tmp_path):
    """`routelens --task x` (and `routelens tui --task x`) raised NoActiveAppError."""
    reg = make_registry(tmp_path)
    app = make_app(reg, task="write a blog post about the launch")
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.query_one("#task").value == "write a blog post about the launch"
        assert app.decision is not None and app.decision.skills == ("blog-post",)
