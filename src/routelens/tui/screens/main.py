"""The main screen: the task input, the decision panel with its hits
tables, and the registry, compact index and debug catalog side by side.

It owns what it shows. Loading (:func:`routelens.tui.model.preview`, then
:func:`~routelens.tui.model.complete`), building the router and routing
run in thread workers that post their results as messages
(:mod:`routelens.tui.messages`); the handlers keep the state and paint.
The registry and the generated files are watched by polling ``(mtime,
size, inode)`` every ``poll_interval`` seconds (no extra dependency, works
on every platform and on network file systems), and by comparing the
sha256 of their bytes in a worker (an edit that keeps size and inode and
puts the mtime back is noticed too). Files are read with the bounded
reader, which never blocks on a FIFO; a read that still does not come back
within ``load_timeout`` seconds is given up and tried again, so polling
never stops, and while a change is being loaded the header shows no
freshness it has not verified.

The app sets what this screen cannot know (the terminal size on a resize)
and calls its methods for the global keys; the screen never reaches up.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Tab, Tabs
from textual.worker import get_current_worker

from routelens.errors import CasesError
from routelens.limits import AUTO_FIXES_MAX_SKILLS
from routelens.tui import words
from routelens.text.numbers import budget_checked
from routelens.tui.messages import (
    DecisionReady,
    FixesReady,
    GlanceReady,
    IndexEdited,
    LoadFailed,
    PreviewReady,
    PreviewRouterReady,
    RegistryLoaded,
    RouterChanged,
    RouterFailed,
    RouterReady,
    WatchChecked,
)
from routelens.tui.model import (
    Glance,
    Hit,
    IndexRanges,
    LoadFailure,
    Paths,
    Preview,
    Snapshot,
    complete,
    content_signature,
    entry_of,
    glance,
    hits_of,
    index_edited,
    make_router,
    near_hits_of,
    preview,
    preview_router,
    signature,
)
from routelens.tui.widgets.footer import FittingFooter
from routelens.tui.widgets.code_pane import CodePane
from routelens.tui.widgets.decision_panel import DecisionPanel
from routelens.tui.widgets.error_panel import ErrorPanel
from routelens.tui.widgets.header_bar import HeaderBar, HeaderState
from routelens.tui.widgets.hits_table import HitsTable
from routelens.tui.widgets.pane_set import PANES, PaneSet
from routelens.tui.widgets.source_view import MAX_TEXTAREA_LINES
from routelens.tui.widgets.task_input import TaskInput, routed_task, shown_task

if TYPE_CHECKING:
    from pathlib import Path

    from routelens.registry import Registry
    from routelens.routing.decision import Decision
    from routelens.routing.router import Router
    from routelens.tools.fixes import Fix

__all__ = ["MainScreen"]


#: the longest wait, in seconds, between two content checks of the watched files
MAX_WATCH_GAP = 5.0

#: seconds the first read may take before the panes show loading indicators
LOADING_DELAY = 0.25

#: seconds a fallback's decision must stay on screen before its fixes are computed (typing goes on meanwhile)
FIXES_DELAY = 0.3
#: Above AUTO_FIXES_MAX_SKILLS skills (routelens.limits, the limit `route` keeps too) a fallback's
#: fixes are checked only when F7 asks: each check parses a patched copy of the registry (seconds at
#: 100,000 skills) in a thread that holds the GIL, and started on their own they made every keystroke
#: wait 1-3.5 s for as long as they ran.


def _same_files(a: Snapshot | Preview | None, b: Snapshot | Preview | None) -> bool:
    """Did loads ``a`` and ``b`` read the same bytes? The same load, or two
    with one content signature (the early preview and the parse that
    completes it; a reload of untouched files)."""
    return a is b or (a is not None and b is not None and a.content is not None and a.content == b.content)


class MainScreen(Screen[None]):
    """The screen the app opens on (its default screen).

    ``paths``: registry and index locations. ``task``: initial task text.
    ``poll_interval``: seconds between file checks (None: no watching).
    ``route_debounce``: seconds of typing pause before routing (0: route
    on every change). ``max_textarea_lines``: documents longer than this
    use the line-API view instead of a TextArea. ``load_timeout``: seconds
    a read of the files may take before it is given up and tried again
    (doubled after each time it is hit). ``cases``: labelled
    cases the fixes of a fallback are checked against (None: none).

    State the app, tests and benchmarks read: :attr:`snapshot` (the last
    good load), :attr:`failure` (why the registry on disk cannot be used,
    or None), :attr:`decision`, :attr:`hits`, :attr:`near`,
    :attr:`current`, :attr:`hit_index`, :attr:`loads`, :attr:`decisions`,
    :attr:`fixes` (the verified fixes of the decision on screen).
    """

    #: Below this width the three panes become tabs.
    NARROW_WIDTH = 120
    #: Below this height the decision panel gets compact.
    SHORT_HEIGHT = 30

    def __init__(
        self,
        paths: Paths,
        *,
        task: str = "",
        poll_interval: float | None = 0.75,
        route_debounce: float = 0.05,
        max_textarea_lines: int = MAX_TEXTAREA_LINES,
        load_timeout: float = 10.0,
        cases: Path | None = None,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.load_timeout = load_timeout
        self.max_textarea_lines = max_textarea_lines
        self.cases_path = cases
        self.fixes: list[Fix] = []
        self.fix_index = -1
        self.fixes_pending = False
        #: the fallback on screen has fixes F7 would check (a registry over AUTO_FIXES_MAX_SKILLS)
        self.fixes_on_demand = False
        #: candidate edits left unchecked when the fixes' time ran out (docs/formats.md §15)
        self.fixes_untried = 0
        self.poll_interval = poll_interval
        self.route_debounce = route_debounce
        self.snapshot: Snapshot | None = None
        self.failure: LoadFailure | None = None
        #: before the first parse finishes: the preview on screen and the router opened from its vouched index
        #: (the CLI's cold route), which routes typed tasks with hits from the index's line ranges
        self.early: tuple[Preview, Router, IndexRanges, int] | None = None
        self.router_ready_at = 0.0  # perf_counter() when a router first could route a typed task
        self.decision: Decision | None = None
        #: the load (snapshot, or the early preview) whose router made the decision on screen: the header and the
        #: panel say the same files' figures, or the panel says its decision is of the files before
        self.decision_load: Snapshot | Preview | None = None
        self.hits: list[Hit] = []
        self.near: list[Hit] = []
        self.hit_index = 0
        self.current: Hit | None = None
        self.hidden_panes: set[str] = set()
        self.active_tab = "registry"
        self.zoomed = False
        self.loads = 0  # completed loads (tests and benchmark read this)
        self.decisions = 0  # decisions shown
        self.last_decision_at = 0.0  # perf_counter() when the last decision was applied
        self.last_decision_painted_at = 0.0  # perf_counter() after the frame showing it
        self.first_paint_at = 0.0  # perf_counter() after the first frame with the panes' text
        self.full_paint_at = 0.0  # ... after the first frame with the whole files and the freshness state
        self._painted = False  # the panes show something: a glance, a preview or a load
        self.load_applied_at = 0.0
        self._task_text = task
        self._route_seq = 0
        self._route_timer: Timer | None = None
        self._route_pending = False
        self._loading = False
        self._load_again = False
        self._sig: tuple | None = None
        self._content: tuple | None = None  # what the load on screen read (content_signature)
        self._load_gen = 0  # the load whose answers are awaited; older ones are dropped
        self._reading_since: float | None = None  # monotonic time the current read started
        self._timeouts = 0  # loads given up so far (each doubles the timeout)
        self._watching_since: float | None = None  # a content check is running since then
        self._unverified = False  # the files changed and the new load is not done yet
        self._next_watch = 0.0  # monotonic time of the next content check
        self.watch_checks = 0  # content checks done (tests read this)
        # the widgets this screen drives, made here so that they exist before
        # the screen is composed (the app lays out on its first resize, earlier)
        self.header = HeaderBar(id="header")
        self.task_input = TaskInput(
            # the initial task is put in on mount: setting an Input's value before
            # the app runs raises NoActiveAppError (`routelens --task x` crashed)
            value="",
            placeholder=words.TASK_HINT,  # an example of the registry's own once it is loaded
            id="task",
        )
        self.error_panel = ErrorPanel(id="errors")
        self.decision_panel = DecisionPanel(id="decision")
        self.pane_tabs = Tabs(*(Tab(label, id=f"tab-{name}") for name, label in PANES.items()), id="pane-tabs")
        self.panes = PaneSet(paths, max_textarea_lines=max_textarea_lines, id="panes")
        self.footer = FittingFooter()

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield self.header
        yield self.task_input
        yield self.error_panel
        yield self.decision_panel
        yield self.pane_tabs
        yield self.panes
        yield self.footer

    def on_mount(self) -> None:
        self.task_input.cursor_blink = False
        if self._task_text:
            with self.task_input.prevent(Input.Changed):
                self.task_input.value = shown_task(self._task_text)
        # the loading indicators only if the first read takes a while: mounting and styling them costs more
        # than the first lines of a big registry take to appear
        self.set_timer(LOADING_DELAY, self._show_loading)
        self.relayout()
        self.reload()
        if self.poll_interval:
            self.set_interval(self.poll_interval, self._poll, name="watch")
        self.task_input.focus()

    def _show_loading(self) -> None:
        if not self._painted:  # nothing on screen yet (a first frame may be shown but not yet marked)
            self.panes.set_panes_loading(True)

    def pane(self, name: str) -> CodePane:
        """The ``registry``, ``index`` or ``catalog`` pane."""
        return self.panes[name]

    @property
    def narrow(self) -> bool:
        """True when the panes are tabs (terminal narrower than NARROW_WIDTH)."""
        return self.app.size.width < self.NARROW_WIDTH

    def relayout(self, size: Size | None = None) -> None:
        """Apply the narrow/short/zoomed layout for ``size`` (default: the
        terminal's current size; the app passes the new one on a resize,
        before it has stored it)."""
        size = size or self.app.size
        narrow = size.width < self.NARROW_WIDTH
        self.set_class(narrow, "-narrow")
        self.set_class(size.height < self.SHORT_HEIGHT, "-short")
        self.set_class(self.zoomed, "-zoomed")
        self.footer.compact = narrow
        if narrow:
            self.panes.show_only({self.active_tab})
        else:  # never hide all three
            self.panes.show_only(set(PANES) - self.hidden_panes or {"registry"})

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tabs is not self.pane_tabs or event.tab is None or event.tab.id is None:
            return
        self.active_tab = event.tab.id.removeprefix("tab-")
        self.relayout()

    def show_pane(self, name: str) -> None:
        """Make pane ``name`` visible (activates its tab when narrow)."""
        self.hidden_panes.discard(name)
        if self.narrow:
            self.pane_tabs.active = f"tab-{name}"
            self.active_tab = name
        self.relayout()

    def toggle_pane(self, name: str) -> None:
        """Hide or show pane ``name`` in the side-by-side layout."""
        if name in self.hidden_panes:
            self.hidden_panes.discard(name)
        else:
            self.hidden_panes.add(name)
        self.relayout()

    def action_zoom(self) -> None:
        """Hide the decision panel so the panes get the whole screen (or back)."""
        self.zoomed = not self.zoomed
        self.relayout()

    def action_focus_task(self) -> None:
        self.task_input.focus()

    # ------------------------------------------------------------------ loading
    def reload(self) -> None:
        """Re-read the registry and generated files in a worker."""
        if self._loading:
            self._load_again = True
            return
        self._loading = True
        self._load_gen += 1
        self._reading_since = time.monotonic()
        if self.snapshot is not None or self.early is not None:
            # the files changed: claim no freshness, and route nothing through the
            # old index, until the new bytes are judged
            self._unverified = True
            if self.header.state.freshness != "loading":
                self._set_header(replace(self.header.state, freshness="loading"))
            else:
                self._sync_decision_mark()
        if self.snapshot is None and self.failure is None and not self.first_paint_at:
            self._glance_worker(self.paths, self._load_gen)
        else:
            self._preview_worker(self.paths, self._load_gen)

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="load")
    def _glance_worker(self, paths: Paths, gen: int) -> None:
        # the first load of a big registry paints its first lines before the
        # whole files are laid out and judged (the preview reads no file again)
        try:
            seen = glance(paths)
        except Exception:  # never crash the UI on a loader bug: the preview says what it is
            seen = None
        if seen is not None and seen.hash_matches and seen.registry_lines > self.max_textarea_lines:
            self.post_message(GlanceReady(seen, gen))
        else:
            self._post_preview(paths, gen, seen)

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="load")
    def _preview_worker(self, paths: Paths, gen: int, seen: Glance | None = None, vouch: bool = False) -> None:
        self._post_preview(paths, gen, seen, vouch)

    def _post_preview(self, paths: Paths, gen: int, seen: Glance | None, vouch: bool = False) -> None:
        try:
            self.post_message(PreviewReady(preview(paths, seen, vouch), gen))
        except Exception as exc:  # never crash the UI on a loader bug
            self.post_message(LoadFailed(LoadFailure.internal(paths, exc), gen))

    def on_glance_ready(self, message: GlanceReady) -> None:
        if message.gen != self._load_gen:
            return  # a read given up after a timeout came back late
        seen = message.glance
        self._painted = True
        if not self.first_paint_at:
            self.call_after_refresh(self._mark_first_paint)
        self.panes.set_panes_loading(False)
        self.panes.show_glance(seen)
        self._set_header(HeaderState(registry=self.paths.registry_name, demo=self.paths.demo, loaded=False,
                                        freshness="checking"))
        self.decision_panel.show_hint(words.reading(self.paths.registry_name, seen.registry_lines))
        # the first frame is on screen: the router's imports may come now (a vouched index routes early)
        self.call_after_refresh(self._preview_worker, seen.paths, message.gen, seen, True)

    def on_preview_ready(self, message: PreviewReady) -> None:
        if message.gen != self._load_gen:
            return  # a read given up after a timeout came back late
        self._reading_since = None
        pre = message.preview
        first = self.snapshot is None and self.failure is None
        if first and pre.freshness is not None and pre.freshness.state == "fresh":
            # paint now, parse after this frame: the index vouches for the
            # registry, and parsing a big one takes a while; an index the
            # matcher cache vouched for routes first, as the CLI's cold route does
            self._show_preview(pre)
            self.call_after_refresh(self._parse_worker, pre, message.gen, pre.vouched is not None)
        else:
            self._parse_worker(pre, message.gen)

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="load")
    def _parse_worker(self, pre: Preview, gen: int, early: bool = False) -> None:
        if early:
            # the router first (a fraction of a second from the matcher cache), then the parse behind it: in
            # one thread, so the two do not share the GIL and typing routes as soon as the CLI's cold route would
            import routelens.tools.evaluate  # noqa: F401 - the first decision's fixes need them (see _router_worker)
            import routelens.tools.fixes  # noqa: F401

            try:
                router = preview_router(pre)
            except Exception:  # the router is then built from the parsed registry, as before
                router = None
            self.post_message(PreviewRouterReady(pre, router, gen))
            if get_current_worker().is_cancelled:
                return
        try:
            result = complete(pre, with_router=False)
        except Exception as exc:  # never crash the UI on a loader bug
            result = LoadFailure.internal(pre.paths, exc)
        self.post_message(LoadFailed(result, gen) if isinstance(result, LoadFailure) else RegistryLoaded(result, gen))

    def on_preview_router_ready(self, message: PreviewRouterReady) -> None:
        pre = message.preview
        if (message.gen != self._load_gen or message.router is None or self.snapshot is not None
                or self.failure is not None or pre.vouched is None or pre.vouched.rows is None):
            return  # a newer load, a router that failed (built after the parse), or the parse came first
        self.early = (pre, message.router, IndexRanges(pre.vouched.rows), message.gen)
        if not self.router_ready_at:
            self.router_ready_at = time.perf_counter()
        self._schedule_route(immediate=True)

    def on_registry_loaded(self, message: RegistryLoaded) -> None:
        if message.gen == self._load_gen:
            self._load_done(message.snapshot)

    def on_load_failed(self, message: LoadFailed) -> None:
        if message.gen == self._load_gen:
            self._load_done(message.failure)

    def _poll(self) -> None:
        now = time.monotonic()
        if self._loading:
            started = self._reading_since
            limit = self.load_timeout * (2 ** min(self._timeouts, 6))
            if started is not None and now - started > limit:
                self._give_up_reading(limit)
            return
        if signature(self.paths) != self._sig:
            self.reload()
            return
        if self._watching_since is not None:
            if now - self._watching_since <= self.load_timeout:
                return
            self._watching_since = None  # a check that never came back: start another one
        if now >= self._next_watch:
            self._watching_since = now
            self._watch_worker(self.paths, self._content)

    def _give_up_reading(self, limit: float) -> None:
        """A read of the files did not come back within ``limit`` seconds (a
        file system that hangs): drop its answer when it comes, say so, and
        read again, so polling goes on."""
        self._timeouts += 1
        self._load_gen += 1
        self._loading = False
        self._reading_since = None
        self._load_again = False
        self.notify(words.read_timed_out(limit), severity="error", timeout=6)
        if self.snapshot is not None:
            self._set_header(replace(self.header.state, freshness="loading"))
        self.reload()

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False, description="watch")
    def _watch_worker(self, paths: Paths, expected: tuple | None) -> None:
        started = time.monotonic()
        try:
            content = content_signature(paths)
        except Exception as exc:  # never crash the UI on a watcher bug
            content = ("watch failed", repr(exc))
        self.post_message(WatchChecked(expected, content, time.monotonic() - started))

    def on_watch_checked(self, message: WatchChecked) -> None:
        self._watching_since = None
        self.watch_checks += 1
        # a big registry is hashed less often: at most ~5% of the time, but an
        # edit is always noticed within MAX_WATCH_GAP seconds (a slow, loaded
        # machine made the gap grow without bound)
        gap = min(max(self.poll_interval or 0.0, 20 * message.seconds), MAX_WATCH_GAP)
        self._next_watch = time.monotonic() + gap
        if message.expected != self._content or self._loading or self._content is None:
            return  # a load happened meanwhile (or none has read the files yet)
        if message.content != self._content:
            self.reload()

    def _load_done(self, result: Snapshot | LoadFailure) -> None:
        self._loading = False
        self._reading_since = None
        self._timeouts = 0
        held = self._unverified and self._route_pending
        self._unverified = False
        self._sig = result.signature
        self._content = result.content
        self._painted = True
        if not self.first_paint_at:
            self.call_after_refresh(self._mark_first_paint)
        if not self.full_paint_at:
            self.call_after_refresh(self._mark_full_paint)
        self.panes.set_panes_loading(False)
        if isinstance(result, LoadFailure) and self.snapshot is None and self.early is not None:
            # the index vouched for bytes that do not parse now (another routelens?): nothing was routed
            # through them but what the router read back and checked; the errors replace the decision
            self.early = None
            self._route_seq += 1
            self.decision = None
            self._clear_hits()
        if isinstance(result, LoadFailure):
            self._show_failure(result)
        else:
            self._show_snapshot(result)
        self.loads += 1
        self.load_applied_at = time.perf_counter()
        if held and isinstance(result, LoadFailure):
            self._schedule_route(immediate=True)  # the routing held back while reading
        if self._load_again:
            self._load_again = False
            self.reload()

    def _show_preview(self, pre: Preview) -> None:
        """First paint of a registry whose index is fresh, before it is
        parsed: the three panes and the header (counts from the index)."""
        self._painted = True
        if not self.first_paint_at:
            self.call_after_refresh(self._mark_first_paint)
        if not self.full_paint_at:
            self.call_after_refresh(self._mark_full_paint)
        if self.early is not None:  # the files changed before the first parse finished: a decision of the
            self.early = None        # old preview's router must not stay under this header
            self._route_seq += 1
            self.decision = None
            self._clear_hits()
        self._unverified = False  # the header below judges exactly these bytes
        self.panes.set_panes_loading(False)
        self.panes.show_preview(pre)
        counts = pre.counts or (0, 0, 0)
        fr = pre.freshness
        reg_chars = max(len(pre.text), 1)
        idx_chars = pre.index_chars
        self._set_header(HeaderState(
            registry=self.paths.registry_name, demo=self.paths.demo,
            skills=counts[0], compositions=counts[1], rules=counts[2],
            freshness=fr.state if fr else "loading", index_sha=fr.index_sha256 if fr else None,
            registry_sha=fr.registry_sha256 if fr else None,
            reduction=1 - idx_chars / reg_chars if idx_chars is not None else None, index_chars=idx_chars,
        ))
        self.decision_panel.show_hint(words.validating(self.paths.registry_name, counts[0]))

    def _mark_first_paint(self) -> None:
        self.first_paint_at = time.perf_counter()

    def _mark_full_paint(self) -> None:
        self.full_paint_at = time.perf_counter()

    def _show_failure(self, failure: LoadFailure) -> None:
        first_error = self.failure is None
        self.failure = failure
        self.error_panel.show_errors(failure.diagnostics, last_good=self.snapshot is not None)
        self._update_header()
        self._update_stats(self.snapshot, last_good=True)
        if self.snapshot is None:
            self.panes.show_failure(failure)
            self.decision_panel.show_hint(words.NOTHING_ROUTED)
        elif first_error:
            title, text = words.LAST_GOOD_KEPT
            self.notify(text, severity="error", title=title)
            if self.decision is not None and not self._route_pending:  # now the last good load's: say so
                chars, threshold = self._panel_scale()
                self.decision_panel.show_decision(self.decision, self.hits, self.near, self.hit_index, chars,
                                                  threshold, last_good=True)

    def _update_stats(self, snap: Snapshot | None, last_good: bool = False) -> None:
        """An open stats panel (F3) shows the new load too, or says its figures are the last good load's."""
        if snap is None:
            return
        from routelens.tui.screens.stats import StatsScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, StatsScreen):
                screen.show_load(snap, last_good=last_good)

    def _show_snapshot(self, snap: Snapshot) -> None:
        recovered = self.failure is not None and self.snapshot is not None
        had = self.snapshot
        self.failure = None
        self.snapshot = snap
        if had is None or had.registry is not snap.registry:
            self.task_input.placeholder = words.task_placeholder(snap.registry.skills)
        self.error_panel.clear_errors()
        self.panes.show_snapshot(snap)
        self._update_header()
        self._update_stats(snap)
        if recovered:
            title, text = words.RECOVERED
            self.notify(text, title=title)
        elif had is not None:
            self.notify(words.reloaded(snap.freshness.state), timeout=2)
        # keep the current entry; route again once the router is built
        self._paint_hits()
        if not self._task_text.strip():
            self.decision_panel.show_hint()
        elif had is not None:
            # the decision on screen came from the files before: if the new router takes a while (seconds on
            # a big registry), say so rather than show a decision the header no longer agrees with
            self.set_timer(LOADING_DELAY, lambda: self._old_decision_waits(snap))
        early, self.early = self.early, None
        if early is not None and had is None and early[0].content == snap.content and snap.router is None:
            # the router opened from this load's vouched index is this load's router (the CLI's): keep it
            self.post_message(RouterReady(snap, early[1]))
            return
        # after the frame: building the router holds the GIL for a while on big registries
        self.call_after_refresh(self._router_worker, snap)

    @work(thread=True, exclusive=True, group="router", exit_on_error=False, description="router")
    def _router_worker(self, snap: Snapshot) -> None:
        # the fixes' tools (tens of ms of imports) are not needed before the first decision: not before the first paint
        import routelens.tools.evaluate  # noqa: F401
        import routelens.tools.fixes  # noqa: F401

        try:
            router = make_router(snap.registry, snap.freshness, snap.paths)
        except Exception as exc:  # never crash the UI on a router bug
            self.post_message(RouterFailed(snap, str(exc)))
            return
        self.post_message(RouterReady(snap, router))

    def _clear_hits(self) -> None:
        """No decision on screen: no hits, near misses or fixes; an entry
        the reader browsed to stays current, a hit does not."""
        self.hits, self.near, self.hit_index = [], [], 0
        self.fixes, self.fix_index, self.fixes_pending, self.fixes_on_demand = [], -1, False, False
        if self.current is not None and self.current.role != "browse":
            self.current = None
        self._paint_hits()

    def _old_decision_waits(self, snap: Snapshot) -> None:
        """The router of load ``snap`` is still being built: the decision on
        screen was made from the files before it (an "index stale" fallback
        under a header that now says FRESH), so the panel says the router is
        being prepared until :meth:`on_router_ready` routes again."""
        if snap is not self.snapshot or snap.router is not None or not self._task_text.strip():
            return
        self._route_seq += 1  # a decision of the old router still on its way is not shown
        self._route_pending = True
        self.decision = None
        self._clear_hits()
        self.decision_panel.show_hint(words.preparing_router(len(snap.registry.skills)))

    def on_router_ready(self, message: RouterReady) -> None:
        if message.snapshot is not self.snapshot:
            return  # a newer load is on its way
        message.snapshot.router = message.router
        if not self.router_ready_at:
            self.router_ready_at = time.perf_counter()
        self._schedule_route(immediate=True)
        self.post_message(RouterChanged(message.snapshot))
        if message.snapshot.freshness.state == "fresh" and message.snapshot.edited is None:
            self._edited_worker(message.snapshot)

    @work(thread=True, exclusive=True, group="edited", exit_on_error=False, description="edited")
    def _edited_worker(self, snap: Snapshot) -> None:
        # after the router: a build in memory (tens of ms for the bundled registry) never delays the first decision
        self.post_message(IndexEdited(snap, index_edited(snap)))

    def on_index_edited(self, message: IndexEdited) -> None:
        if message.edited is not None and message.snapshot.edited is not True:
            message.snapshot.edited = message.edited
        if message.snapshot is self.snapshot:
            self._update_header()

    def on_router_failed(self, message: RouterFailed) -> None:
        self.notify(words.router_failed(message.error), severity="error")

    def _update_header(self) -> None:
        snap = self.snapshot
        errors = len(self.failure.diagnostics) if self.failure else 0
        if snap is None:
            self._set_header(HeaderState(
                registry=self.paths.registry_name, freshness="loading", errors=errors, loaded=False,
                demo=self.paths.demo))
            return
        reg = snap.registry
        fr = snap.freshness
        self._set_header(HeaderState(
            registry=self.paths.registry_name,
            demo=self.paths.demo,
            skills=len(reg.skills),
            compositions=len(reg.compositions),
            rules=len(reg.rules),
            freshness=fr.state,
            index_sha=fr.index_sha256,
            registry_sha=fr.registry_sha256,
            reduction=snap.reduction,
            index_chars=snap.fresh_index_chars,
            budget_ok=snap.budget_ok,
            budget_unchecked=not budget_checked(len(reg.text)),
            errors=errors,
            edited=bool(snap.edited),
        ))

    def _set_header(self, state: HeaderState) -> None:
        """Show ``state`` in the header, and in the same frame tell the
        decision panel whether its decision is of the files the header now
        describes. At 50,000 skills a reload read for seconds, and the new
        router took more, while the panel went on showing the decision of
        the files before under a header that had moved on (a newcomer's
        trial): one source of truth, the load on screen, for both."""
        self.header.state = state
        self._sync_decision_mark()

    def _decision_is_current(self) -> bool:
        """True when the decision on screen (if any) was made by the router
        of the load the header describes, and no change is being read."""
        if self.decision is None:
            return True
        view = self._view()
        return not self._unverified and view is not None and _same_files(self.decision_load, view[0])

    def _sync_decision_mark(self) -> None:
        """Mark the decision panel's decision as one of the files before
        (or not), from :meth:`_decision_is_current`."""
        if self._decision_is_current():
            self.decision_panel.set_superseded(None)
        else:
            self.decision_panel.set_superseded(words.DECISION_OF_FILES_BEFORE)

    # ------------------------------------------------------------------ routing
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input is not self.task_input:
            return
        event.stop()
        task = routed_task(event.value)  # a pasted line break is shown as ↵ and routed as one
        if task == self._task_text and self.decision is not None:
            return
        self._task_text = task
        self._schedule_route()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input is self.task_input:
            event.stop()
            self._schedule_route(immediate=True)

    @property
    def task_text(self) -> str:
        """The task text being routed."""
        return self._task_text

    @property
    def routing_pending(self) -> bool:
        """True while a typed change has not been shown as a decision yet."""
        return self._route_pending or self._loading

    def _schedule_route(self, immediate: bool = False) -> None:
        self._route_pending = True
        if self._route_timer is not None:
            self._route_timer.stop()
            self._route_timer = None
        if immediate or self.route_debounce <= 0:
            self._start_route()
        else:
            self._route_timer = self.set_timer(self.route_debounce, self._start_route, name="route-debounce")

    @property
    def router(self) -> Router | None:
        """The router typed tasks are routed with: the load's, or before the
        first parse finishes the one opened from the preview's vouched index
        (:attr:`early`); None while neither is ready."""
        if self.snapshot is not None:
            return self.snapshot.router
        return self.early[1] if self.early is not None else None

    def _view(self) -> tuple[Snapshot | Preview, Registry | IndexRanges] | None:
        """What hits are drawn on: the load on screen and its registry, or
        the early preview and its index's ranges; None before either."""
        if self.snapshot is not None:
            return self.snapshot, self.snapshot.registry
        if self.early is not None:
            return self.early[0], self.early[2]
        return None

    def _start_route(self) -> None:
        self._route_timer = None
        self._route_seq += 1
        snap = self.snapshot
        if snap is None and self.early is None:
            self._route_pending = False
            return
        if not self._task_text.strip():
            self._show_decision(self._route_seq, None)
            return
        router = self.router
        if router is None:  # still being built: on_router_ready routes again
            self.decision_panel.show_hint(words.preparing_router(len(snap.registry.skills) if snap is not None else 0))
            return
        if self._unverified:  # the files changed: _load_done routes again with what they hold now
            self.decision_panel.show_hint(words.RELOADING)
            return
        view = self._view()
        self._route_worker(router, self._task_text, self._route_seq, view[0] if view is not None else None)

    @work(thread=True, exclusive=True, group="route", exit_on_error=False, description="route")
    def _route_worker(self, router: Router, task: str, seq: int, load: Snapshot | Preview | None = None) -> None:
        decision = router.route(task)
        if get_current_worker().is_cancelled:
            return
        self.post_message(DecisionReady(seq, decision, load))

    def on_decision_ready(self, message: DecisionReady) -> None:
        view = self._view()
        if message.load is not None and (view is None or not _same_files(message.load, view[0])):
            # routed by the router of the files before: its hits would be drawn on the new registry's lines
            if message.seq == self._route_seq and self.router is not None and not self._unverified:
                self._schedule_route(immediate=True)  # the new load's router is ready: route with it
            return  # otherwise on_router_ready (or the end of the load) routes again
        self._show_decision(message.seq, message.decision, message.load)

    def _show_decision(self, seq: int, decision: Decision | None, load: Snapshot | Preview | None = None) -> None:
        if seq != self._route_seq:
            return  # a newer keystroke is being routed
        self._route_pending = False
        previous = self.current
        self.decision = decision
        view = self._view()
        self.decision_load = load if load is not None else (view[0] if view is not None else None)
        panel = self.decision_panel
        view = self._view()
        if decision is None or view is None:
            if self.snapshot is None and self.early is not None:  # the parse goes on: say so, as before typing
                panel.show_hint(words.validating(self.paths.registry_name, (self.early[0].counts or (0,))[0]))
            else:
                panel.show_hint()
            self._clear_hits()
            self.decisions += 1
            self.last_decision_at = time.perf_counter()
            return
        reg = view[1]
        old_keys = [h.key for h in self.hits]
        self.hits = hits_of(decision, reg)
        self.near = near_hits_of(decision, reg)
        keys = [h.key for h in self.hits]
        # same hits (a reload, a re-route): stay on the current one; new hits: start at the first
        if keys == old_keys and previous is not None and previous.key in keys:
            self.hit_index = keys.index(previous.key)
        else:
            self.hit_index = 0
        # no candidate: show the best near miss, so "why not" has a place in the registry
        self.current = self.hits[self.hit_index] if self.hits else (self.near[0] if self.near else None)
        chars, threshold = self._panel_scale()
        panel.show_decision(decision, self.hits, self.near, self.hit_index, chars, threshold,
                            last_good=self.failure is not None)
        snap = self.snapshot
        if (decision.reason == "index_invalid" and snap is not None and self.decision_load is snap
                and snap.freshness.state == "fresh" and not snap.edited):
            snap.edited = True  # the router found the index hand-edited (its hash still matches): the header says so
            self._update_header()
        self._sync_decision_mark()
        self._paint_hits()
        self._start_fixes(seq, decision)
        self.decisions += 1
        self.last_decision_at = time.perf_counter()
        self.call_after_refresh(self._mark_decision_painted)

    def _panel_scale(self) -> tuple[int, float]:
        """The registry's characters (a payload's share) and the threshold the decision panel shows: those of
        the load whose router made the decision (a reload's new registry is not what its payload was part of)."""
        load = self.decision_load
        if load is None:
            load = self.snapshot if self.snapshot is not None else self.early[0]
        if isinstance(load, Snapshot):
            return len(load.registry.text), load.registry.routing.threshold
        # the router's settings are the fresh index's, which are the registry's (docs/formats.md §3.4)
        router = self.early[1] if self.early is not None and self.early[0] is load else self.router
        return len(load.text), router.threshold

    # ------------------------------------------------------------------ fixes
    def _start_fixes(self, seq: int, decision: Decision) -> None:
        self.fixes, self.fix_index = [], -1
        self.decision_panel.show_fixes([])
        snap = self.snapshot
        from routelens.tools.fixes import FIXABLE  # imported after the first paint (see _router_worker)

        # before the parse finishes the fixes wait for it (the load routes again then and starts them here)
        self.fixes_pending = decision.reason in FIXABLE
        self.fixes_on_demand = False
        if self.fixes_pending and snap is not None and len(snap.registry.skills) > AUTO_FIXES_MAX_SKILLS:
            self.fixes_pending, self.fixes_on_demand = False, True
            self.decision_panel.show_fixes_on_demand()
        elif self.fixes_pending and snap is not None:
            # fixes build routers over patched registries (seconds on a big one) in a thread that holds the
            # GIL: started only once typing pauses, so they never slow the next keystroke's decision
            self.set_timer(FIXES_DELAY, lambda: self._fixes_if_current(snap, decision, seq))

    def _fixes_if_current(self, snap: Snapshot, decision: Decision, seq: int) -> None:
        if seq == self._route_seq and snap is self.snapshot:
            self._fixes_worker(snap, decision, seq)
            # on a big registry checking takes seconds: say so then (a line that flashed on every small one
            # would only move the panel)
            self.set_timer(LOADING_DELAY * 2, lambda: self._fixes_still_checking(seq))
        elif seq == self._route_seq:
            self.fixes_pending = False

    def _fixes_still_checking(self, seq: int) -> None:
        if seq == self._route_seq and self.fixes_pending:
            self.decision_panel.show_fixes_checking()

    @work(thread=True, exclusive=True, group="fixes", exit_on_error=False, description="fixes")
    def _fixes_worker(self, snap: Snapshot, decision: Decision, seq: int) -> None:
        from routelens.tools.evaluate import check_ids, load_cases
        from routelens.tools.fixes import fixes_for

        cases = None
        if self.cases_path is not None:
            try:
                cases = load_cases(self.cases_path)
                if check_ids(cases, snap.registry.skills, snap.registry.compositions):
                    cases = None
            except CasesError:
                cases = None
        from routelens.tools.fixes import FIXES_SECONDS

        tally: dict[str, int] = {}
        try:
            fixes = fixes_for(decision, snap.registry, None, cases, self.paths.show(self.cases_path)
                              if self.cases_path is not None else "", max_seconds=FIXES_SECONDS, tally=tally)
        except Exception:  # fixes are advice: never take the screen down
            fixes = []
        if get_current_worker().is_cancelled:
            return
        self.post_message(FixesReady(seq, fixes, max(tally.get("candidates", 0) - tally.get("tried", 0), 0)))

    def on_fixes_ready(self, message: FixesReady) -> None:
        if message.seq != self._route_seq:
            return  # the task changed meanwhile
        self.fixes_pending = False
        self.fixes, self.fix_index = message.fixes, -1
        self.fixes_untried = message.untried
        self.decision_panel.show_fixes(self.fixes)

    def action_copy_fix(self) -> None:
        """Copy the next fix's YAML line to the clipboard and show where it
        goes: its line lights up in the registry pane (F7 again: the next fix)."""
        if not self.fixes:
            from routelens.tools.fixes import FIXABLE

            if self.fixes_pending:
                self.notify(words.FIXES_PENDING, severity="information")
            elif self.fixes_on_demand and self.snapshot is not None and self.decision is not None:
                self.fixes_on_demand, self.fixes_pending = False, True
                self.decision_panel.show_fixes_checking()
                self._fixes_worker(self.snapshot, self.decision, self._route_seq)
                self.notify(words.FIXES_PENDING, severity="information")
            elif self.decision is not None and self.decision.reason in FIXABLE:
                self.notify(words.no_verified_fix(self.fixes_untried), severity="warning")
            else:
                self.notify(words.NO_FIX, severity="warning")
            return
        self.fix_index = (self.fix_index + 1) % len(self.fixes)
        fix = self.fixes[self.fix_index]
        self.app.copy_to_clipboard(fix.paste or fix.yaml)
        line = fix.edit.line
        self.current = Hit("fix", fix.where, "fix", line, line)
        self._paint_hits()
        self.show_pane("registry")
        self.decision_panel.show_fixes(self.fixes, self.fix_index)
        title, text = words.fix_copied(fix.yaml, fix.where, fix.how, self.fix_index, len(self.fixes),
                                       fix.paste or fix.yaml)
        self.notify(text, title=title, timeout=8)

    def set_task(self, text: str) -> None:
        """Put ``text`` in the task input and route it (from the case and log screens)."""
        self.task_input.value = shown_task(text)
        self.task_input.cursor_position = len(self.task_input.value)
        self._task_text = text
        self._schedule_route(immediate=True)
        self.task_input.focus()

    def _mark_decision_painted(self) -> None:
        self.last_decision_painted_at = time.perf_counter()

    def decision_json(self) -> str:
        """The current decision as pretty JSON ("" when none)."""
        if self.decision is None:
            return ""
        return json.dumps(self.decision.to_dict(), ensure_ascii=False, indent=2)

    # ------------------------------------------------------------------ hits
    def _paint_hits(self) -> None:
        """Bands in the three panes for every hit, the current one strongest,
        and scroll the current one into view."""
        view = self._view()
        if view is None:
            return
        self.panes.paint_hits(view[0], self.hits, self.current)
        # the decision panel may change height in this frame: reveal again once laid out
        self.call_after_refresh(self.reveal_current)

    def reveal_current(self) -> None:
        """Scroll the current hit into view in the three panes."""
        view = self._view()
        if view is not None:
            self.panes.reveal(view[0], self.current)

    def set_hit(self, index: int) -> None:
        """Make hit ``index`` (of the matches table) the current one."""
        if not self.hits:
            return
        self.hit_index = index % len(self.hits)
        self.current = self.hits[self.hit_index]
        self.decision_panel.set_current(self.hits, self.near, self.hit_index, self.decision)
        table = self.decision_panel.matches
        if table.cursor_row != self.hit_index and table.row_count > self.hit_index:
            table.move_cursor(row=self.hit_index, animate=False)
        # the table scrolls to its cursor after the next refresh; then the panel, which may cut the table off
        self.call_after_refresh(self.call_after_refresh, self.decision_panel.reveal_row, table)
        self._paint_hits()

    def action_next_hit(self) -> None:
        """Move to the next hit (wraps)."""
        if self.hits:
            self.set_hit(self.hit_index + 1 if self.current in self.hits else self.hit_index)

    def action_prev_hit(self) -> None:
        """Move to the previous hit (wraps)."""
        if self.hits:
            self.set_hit(self.hit_index - 1 if self.current in self.hits else self.hit_index)

    def on_hits_table_hit_chosen(self, event: HitsTable.HitChosen) -> None:
        """Enter on a match or a near miss of a skill: the skill browser opens on it, its explanation for the
        task beside it (a newcomer pressed Enter on a "why not" row and nothing happened)."""
        if event.hit.kind == "skills":
            self.app.action_skills(initial=event.hit.id)

    def on_hits_table_hit_highlighted(self, event: HitsTable.HitHighlighted) -> None:
        if event.table.near:
            self.current = event.hit
            self.decision_panel.set_near_current(self.near, event.index)
            self._paint_hits()
        elif not (self.current is not None and self.current.key == event.hit.key):
            self.set_hit(event.index)

    def reveal_entry(self, kind: str, entry_id: str) -> bool:
        """Show a registry entry as the current one in all panes (from the
        skill browser or the palette). Returns False for an unknown id."""
        snap = self.snapshot
        e = entry_of(snap.registry, kind, entry_id) if snap is not None else None
        if e is None:
            return False
        keys = [h.key for h in self.hits]
        key = f"{kind}:{entry_id}"
        if key in keys:
            self.set_hit(keys.index(key))
            return True
        self.current = Hit(kind, entry_id, "browse", e.source_start, e.source_end)
        self._paint_hits()
        return True

    def jump_to(self, kind: str, entry_id: str) -> None:
        """Reveal an entry and bring the registry pane into view."""
        self.reveal_entry(kind, entry_id)
        self.show_pane("registry")
