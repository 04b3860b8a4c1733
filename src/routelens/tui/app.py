"""The routelens Textual app: registry, compact index and debug catalog side
by side; live routing of the task typed at the top; why it fell back.

Threads: loading and parsing (:func:`routelens.tui.model.load`), routing,
rebuilding and the stats figures run in thread workers; the UI thread only
paints. Files are watched by polling ``(mtime, size, inode)`` every
``poll_interval`` seconds (no extra dependency, works on every platform
and on network file systems).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.geometry import Size
from textual.timer import Timer
from textual.widgets import Footer, Input, Tab, Tabs
from textual.worker import get_current_worker

from routelens.index import BuildError, write_generated
from routelens.registry import RegistryError, load_registry
from routelens.tui.commands import RouteLensCommands
from routelens.tui.highlight import Band
from routelens.tui.model import (
    Analysis,
    Hit,
    LoadFailure,
    Paths,
    Preview,
    Snapshot,
    analyze,
    display_text,
    hits_of,
    complete,
    make_router,
    near_hits_of,
    preview,
    signature,
)
from routelens.tui.widgets.code_pane import CodePane
from routelens.tui.widgets.decision_panel import DecisionPanel
from routelens.tui.widgets.error_panel import ErrorPanel
from routelens.tui.widgets.header_bar import HeaderBar, HeaderState
from routelens.tui.widgets.hits_table import HitsTable
from routelens.tui.widgets.source_view import MAX_TEXTAREA_LINES
from routelens.tui.widgets.task_input import TaskInput
from routelens.tui import words

__all__ = ["RouteLensApp", "run", "PANES"]

#: Pane ids in display order, with their tab labels.
PANES = {"registry": "Registry", "index": "Index", "catalog": "Catalog"}


class RouteLensApp(App[None]):
    """The TUI.

    ``paths``: registry and index locations. ``theme``: a Textual theme
    name (pinned in tests). ``poll_interval``: seconds between file checks
    (None: no watching). ``route_debounce``: seconds of typing pause before
    routing (0: route on every change). ``task``: initial task text.
    ``max_textarea_lines``: documents longer than this use the line-API
    view instead of a TextArea.
    """

    CSS_PATH = "app.tcss"
    TITLE = "routelens"
    COMMANDS = App.COMMANDS | {RouteLensCommands}
    #: Below this width the three panes become tabs.
    NARROW_WIDTH = 120
    #: Below this height the decision panel gets compact.
    SHORT_HEIGHT = 30
    #: Actions that only make sense on the main screen.
    MAIN_ONLY = frozenset({"zoom", "copy_json", "next_hit", "prev_hit", "focus_task"})

    BINDINGS = [
        Binding("f1", "help", "Help", id="help"),
        Binding("f2", "skills", "Skills", id="skills"),
        Binding("f3", "stats", "Stats", id="stats"),
        Binding("f4", "zoom", "Zoom", id="zoom"),
        Binding("f5", "rebuild", "Rebuild", id="rebuild"),
        Binding("f6", "copy_json", "JSON", id="copy-json"),
        Binding("ctrl+n", "next_hit", "Next hit", show=False, id="next-hit-global"),
        Binding("ctrl+o", "prev_hit", "Previous hit", show=False, id="prev-hit-global"),
        Binding("ctrl+l", "focus_task", "Task", show=False, id="focus-task"),
        Binding("question_mark", "help", "Help", show=False, id="help-alt"),
    ]

    def __init__(
        self,
        paths: Paths,
        *,
        theme: str = "textual-dark",
        poll_interval: float | None = 0.75,
        route_debounce: float = 0.05,
        task: str = "",
        max_textarea_lines: int = MAX_TEXTAREA_LINES,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.theme = theme
        self.poll_interval = poll_interval
        self.route_debounce = route_debounce
        self.max_textarea_lines = max_textarea_lines
        self.snapshot: Snapshot | None = None
        self.failure: LoadFailure | None = None
        self.decision: Any = None
        self.hits: list[Hit] = []
        self.near: list[Hit] = []
        self.hit_index = 0
        self.current: Hit | None = None
        self.analysis: Analysis | None = None
        self.hidden_panes: set[str] = set()
        self.active_tab = "registry"
        self.zoomed = False
        self.loads = 0  # completed loads (tests and benchmark read this)
        self.decisions = 0  # decisions shown
        self.last_decision_at = 0.0  # perf_counter() when the last decision was applied
        self.last_decision_painted_at = 0.0  # perf_counter() after the frame showing it
        self.first_paint_at = 0.0
        self.load_applied_at = 0.0
        self._task_text = task
        self._route_seq = 0
        self._route_timer: Timer | None = None
        self._route_pending = False
        self._loading = False
        self._load_again = False
        self._sig: tuple | None = None
        self._shown: dict[str, tuple] = {}

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield HeaderBar(id="header")
        yield TaskInput(
            value=self._task_text,
            placeholder="Type a task to route, e.g. “write a blog post about the new release”",
            id="task",
        )
        yield ErrorPanel(id="errors")
        yield DecisionPanel(id="decision")
        yield Tabs(*(Tab(label, id=f"tab-{name}") for name, label in PANES.items()), id="pane-tabs")
        with Horizontal(id="panes"):
            yield CodePane(self.paths.registry_name, id="registry-pane", max_textarea_lines=self.max_textarea_lines)
            yield CodePane(self.paths.show(self.paths.index), id="index-pane", max_textarea_lines=self.max_textarea_lines)
            yield CodePane(self.paths.show(self.paths.catalog), id="catalog-pane", max_textarea_lines=self.max_textarea_lines)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TaskInput).cursor_blink = False
        for name in PANES:
            self.pane(name).loading = True
        self._relayout()
        self.reload()
        if self.poll_interval:
            self.set_interval(self.poll_interval, self._poll, name="watch")
        self.query_one(TaskInput).focus()

    def on_resize(self, event: events.Resize) -> None:
        # This handler runs before App._on_resize stores the new size (the
        # subclass comes first in the MRO), so self.size is still the old
        # one here: lay out for the size in the event.
        self._relayout(event.size)
        self.call_after_refresh(self.reveal_current)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Actions about the decision and the panes only apply on the main
        screen (they are hidden from the footer elsewhere)."""
        if action in self.MAIN_ONLY and self.screen_stack and self.screen is not self.screen_stack[0]:
            return False
        return True

    def pane(self, name: str) -> CodePane:
        """The ``registry``, ``index`` or ``catalog`` pane."""
        return self.query_one(f"#{name}-pane", CodePane)

    @property
    def narrow(self) -> bool:
        """True when the panes are tabs (terminal narrower than NARROW_WIDTH)."""
        return self.size.width < self.NARROW_WIDTH

    def _relayout(self, size: Size | None = None) -> None:
        """Apply the narrow/short/zoomed layout for ``size`` (default: the
        app's current size)."""
        size = size or self.size
        narrow = size.width < self.NARROW_WIDTH
        is_short = size.height < self.SHORT_HEIGHT
        screen = self.screen_stack[0] if self.screen_stack else None
        if screen is None:
            return
        screen.set_class(narrow, "-narrow")
        screen.set_class(is_short, "-short")
        screen.set_class(self.zoomed, "-zoomed")
        for footer in screen.query(Footer):
            footer.compact = narrow
        for name in PANES:
            if narrow:
                shown = name == self.active_tab
            else:
                shown = name not in self.hidden_panes
            self.pane(name).display = shown
        if not narrow and all(n in self.hidden_panes for n in PANES):
            self.pane("registry").display = True

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tabs.id != "pane-tabs" or event.tab is None or event.tab.id is None:
            return
        self.active_tab = event.tab.id.removeprefix("tab-")
        self._relayout()

    def show_pane(self, name: str) -> None:
        """Make pane ``name`` visible (activates its tab when narrow)."""
        self.hidden_panes.discard(name)
        if self.narrow:
            self.query_one("#pane-tabs", Tabs).active = f"tab-{name}"
            self.active_tab = name
        self._relayout()

    def toggle_pane(self, name: str) -> None:
        """Hide or show pane ``name`` in the side-by-side layout."""
        if name in self.hidden_panes:
            self.hidden_panes.discard(name)
        else:
            self.hidden_panes.add(name)
        self._relayout()

    # ------------------------------------------------------------------ loading
    def reload(self) -> None:
        """Re-read the registry and generated files in a worker."""
        if self._loading:
            self._load_again = True
            return
        self._loading = True
        self._load_worker(self.paths)

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load_worker(self, paths: Paths) -> None:
        try:
            pre = preview(paths)
            first = self.snapshot is None and self.failure is None
            if first and pre.freshness is not None and pre.freshness.state == "fresh":
                # paint now; parsing a big registry takes a while (the index vouches for it)
                self.call_from_thread(self._apply_preview, pre)
            result = complete(pre, with_router=False)
        except Exception as exc:  # never crash the UI on a loader bug
            from routelens.registry import Diagnostic

            result = LoadFailure(paths, [Diagnostic(paths.registry_name, 1, 1, "", f"internal error: {exc!r}")],
                                 None, signature(paths))
        self.call_from_thread(self._apply_load, result)

    def _poll(self) -> None:
        if self._loading:
            return
        if signature(self.paths) != self._sig:
            self.reload()

    def _apply_load(self, result: Snapshot | LoadFailure) -> None:
        self._loading = False
        self._sig = result.signature
        if not self.first_paint_at:
            self.call_after_refresh(self._mark_first_paint)
        for name in PANES:
            self.pane(name).loading = False
        if isinstance(result, LoadFailure):
            self._apply_failure(result)
        else:
            self._apply_snapshot(result)
        self.loads += 1
        self.load_applied_at = time.perf_counter()
        if self._load_again:
            self._load_again = False
            self.reload()

    def _apply_preview(self, pre: Preview) -> None:
        """First paint of a registry whose index is fresh, before it is
        parsed: the three panes and the header (counts from the index)."""
        if self.snapshot is not None or self.failure is not None:
            return
        if not self.first_paint_at:
            self.call_after_refresh(self._mark_first_paint)
        for name in PANES:
            self.pane(name).loading = False
        self._show("registry", pre.display_text, "yaml")
        self.pane("registry").border_subtitle = words.registry_subtitle(pre.display_text.count("\n") + 1)
        if pre.index is not None:
            self._show("index", pre.index.text, "json" if pre.index.formatted else None)
        if pre.catalog is not None:
            self._show("catalog", pre.catalog.text, "json")
        counts = pre.counts or (0, 0, 0)
        fr = pre.freshness
        reg_chars = max(len(pre.text), 1)
        idx_chars = pre.index_chars
        self.query_one(HeaderBar).state = HeaderState(
            registry=self.paths.registry_name, skills=counts[0], compositions=counts[1], rules=counts[2],
            freshness=fr.state if fr else "loading", index_sha=fr.index_sha256 if fr else None,
            registry_sha=fr.registry_sha256 if fr else None,
            reduction=1 - idx_chars / reg_chars if idx_chars is not None else None, index_chars=idx_chars,
        )
        self.query_one(DecisionPanel).show_hint(words.validating(self.paths.registry_name, counts[0]))

    def _mark_first_paint(self) -> None:
        self.first_paint_at = time.perf_counter()

    def _apply_failure(self, failure: LoadFailure) -> None:
        first_error = self.failure is None
        self.failure = failure
        self.query_one(ErrorPanel).show_errors(failure.diagnostics, last_good=self.snapshot is not None)
        self._update_header()
        if self.snapshot is None:
            reg = self.pane("registry")
            text = display_text(failure.text.removesuffix("\n")) if failure.text is not None else ""
            self._show("registry", text, "yaml")
            reg.set_notice(words.REGISTRY_UNUSABLE, "error")
            bands = [Band(d.line - 1, d.line - 1, "error", f"line {d.line}") for d in failure.diagnostics]
            reg.set_bands(bands)
            if bands:
                reg.reveal(bands[0].start, bands[0].end)
            for name in ("index", "catalog"):
                self._show(name, "", None)
                self.pane(name).set_notice(words.WAITING_FOR_REGISTRY, "info")
            self.query_one(DecisionPanel).show_hint(words.NOTHING_ROUTED)
        elif first_error:
            title, text = words.LAST_GOOD_KEPT
            self.notify(text, severity="error", title=title)

    def _apply_snapshot(self, snap: Snapshot) -> None:
        recovered = self.failure is not None and self.snapshot is not None
        had = self.snapshot
        self.failure = None
        self.snapshot = snap
        self.analysis = None
        self.query_one(ErrorPanel).clear_errors()
        reg = snap.registry
        # registry pane
        rp = self.pane("registry")
        self._show("registry", snap.display_text, "yaml")
        rp.border_title = self.paths.registry_name
        rp.border_subtitle = words.registry_subtitle(reg.line_count)
        rp.set_notice(words.warnings_notice(reg.warnings), "warning")
        # index pane
        ip = self.pane("index")
        fr = snap.freshness
        if snap.index is not None:
            self._show("index", snap.index.text, "json" if snap.index.formatted else None)
        else:
            self._show("index", "", None)
        ip.border_subtitle = (
            words.index_subtitle(len(snap.index.rows)) if snap.index is not None and snap.index.formatted else ""
        )
        ip.set_notice(*words.index_notice(snap))
        # catalog pane
        cp = self.pane("catalog")
        if snap.catalog is not None:
            self._show("catalog", snap.catalog.text, "json")
        else:
            self._show("catalog", "", None)
        cp.set_notice(*words.catalog_notice(snap))
        self._update_header()
        if recovered:
            title, text = words.RECOVERED
            self.notify(text, title=title)
        elif had is not None:
            self.notify(words.reloaded(fr.state), timeout=2)
        # keep the current entry; route again once the router is built
        self._paint_hits()
        if not self._task_text.strip():
            self.query_one(DecisionPanel).show_hint()
        # after the frame: building the router holds the GIL for a while on big registries
        self.call_after_refresh(self._router_worker, snap)

    @work(thread=True, exclusive=True, group="router", exit_on_error=False)
    def _router_worker(self, snap: Snapshot) -> None:
        try:
            router = make_router(snap.registry, snap.freshness, snap.paths)
        except Exception as exc:  # never crash the UI on a router bug
            self.call_from_thread(self.notify, words.router_failed(str(exc)), severity="error")
            return
        self.call_from_thread(self._router_ready, snap, router)

    def _router_ready(self, snap: Snapshot, router: Any) -> None:
        if snap is not self.snapshot:
            return  # a newer load is on its way
        snap.router = router
        self._schedule_route(immediate=True)

    def _show(self, name: str, text: str, language: str | None) -> None:
        """Load ``text`` into a pane unless it already shows exactly that."""
        key = (language, len(text), hash(text))  # not the text itself: no extra copy of big files
        if self._shown.get(name) == key:
            return
        self._shown[name] = key
        self.pane(name).show(text, language)

    def _update_header(self) -> None:
        snap = self.snapshot
        errors = len(self.failure.diagnostics) if self.failure else 0
        if snap is None:
            self.query_one(HeaderBar).state = HeaderState(
                registry=self.paths.registry_name, freshness="loading", errors=errors, loaded=False)
            return
        reg = snap.registry
        fr = snap.freshness
        self.query_one(HeaderBar).state = HeaderState(
            registry=self.paths.registry_name,
            skills=len(reg.skills),
            compositions=len(reg.compositions),
            rules=len(reg.rules),
            freshness=fr.state,
            index_sha=fr.index_sha256,
            registry_sha=fr.registry_sha256,
            reduction=snap.reduction,
            index_chars=snap.fresh_index_chars,
            budget_ok=snap.budget_ok,
            errors=errors,
        )

    # ------------------------------------------------------------------ routing
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "task":
            return
        event.stop()
        if event.value == self._task_text and self.decision is not None:
            return
        self._task_text = event.value
        self._schedule_route()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "task":
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

    def _start_route(self) -> None:
        self._route_timer = None
        self._route_seq += 1
        snap = self.snapshot
        if snap is None:
            self._route_pending = False
            return
        if not self._task_text.strip():
            self._apply_decision(self._route_seq, None)
            return
        if snap.router is None:  # still being built: _router_ready routes again
            self.query_one(DecisionPanel).show_hint(words.preparing_router(len(snap.registry.skills)))
            return
        self._route_worker(snap.router, self._task_text, self._route_seq)

    @work(thread=True, exclusive=True, group="route", exit_on_error=False)
    def _route_worker(self, router: Any, task: str, seq: int) -> None:
        decision = router.route(task)
        if get_current_worker().is_cancelled:
            return
        self.call_from_thread(self._apply_decision, seq, decision)

    def _apply_decision(self, seq: int, decision: Any) -> None:
        if seq != self._route_seq:
            return  # a newer keystroke is being routed
        self._route_pending = False
        previous = self.current
        self.decision = decision
        panel = self.query_one(DecisionPanel)
        snap = self.snapshot
        if decision is None or snap is None:
            self.hits, self.near, self.hit_index = [], [], 0
            panel.show_hint()
            self.current = previous if previous is not None and previous.role == "browse" else None
            self._paint_hits()
            self.decisions += 1
            self.last_decision_at = time.perf_counter()
            return
        reg = snap.registry
        old_keys = [h.key for h in self.hits]
        self.hits = hits_of(decision, reg)
        self.near = near_hits_of(decision, reg)
        keys = [h.key for h in self.hits]
        # same hits (a reload, a re-route): stay on the current one; new hits: start at the first
        same = keys == old_keys and previous is not None and previous.key in keys
        self.hit_index = keys.index(previous.key) if same else 0
        # no candidate: show the best near miss, so "why not" has a place in the registry
        self.current = self.hits[self.hit_index] if self.hits else (self.near[0] if self.near else None)
        panel.show_decision(decision, self.hits, self.near, self.hit_index, len(reg.text), reg.routing.threshold)
        self._paint_hits()
        self.decisions += 1
        self.last_decision_at = time.perf_counter()
        self.call_after_refresh(self._mark_decision_painted)

    def _mark_decision_painted(self) -> None:
        self.last_decision_painted_at = time.perf_counter()

    # ------------------------------------------------------------------ hits
    def _paint_hits(self) -> None:
        """Bands in the three panes for every hit, the current one strongest,
        and scroll the current one into view."""
        snap = self.snapshot
        if snap is None:
            return
        cur = self.current
        shown = list(self.hits)
        if cur is not None and cur.key not in {h.key for h in shown}:
            shown.append(cur)
        rb, ib = [], []
        for h in shown:
            kind = "current" if cur is not None and h.key == cur.key else "hit"
            if h.start:
                rb.append(Band(h.start - 1, h.end - 1, kind, h.id))
            if snap.index is not None and h.key in snap.index.rows:
                row = snap.index.rows[h.key]
                ib.append(Band(row, row, kind, h.id))
        rp, ip, cp = self.pane("registry"), self.pane("index"), self.pane("catalog")
        rp.set_bands(rb)
        ip.set_bands(ib)
        cb: list[Band] = []
        if cur is not None and snap.catalog is not None and cur.key in snap.catalog.entries:
            s, e = snap.catalog.entries[cur.key]
            cb.append(Band(s, e, "current", cur.id))
        cp.set_bands(cb)
        if cur is not None:
            rp.border_subtitle = words.entry_subtitle(cur.id, cur.start, cur.end)
            cp.border_subtitle = f"{cur.kind}.{cur.id}" if cb else ""
        else:
            rp.border_subtitle = words.registry_subtitle(snap.registry.line_count)
            cp.border_subtitle = ""
        self.reveal_current()
        # the decision panel may change height in this frame: reveal again once laid out
        self.call_after_refresh(self.reveal_current)

    def reveal_current(self) -> None:
        """Scroll the current hit into view in the three panes."""
        snap, cur = self.snapshot, self.current
        if snap is None or cur is None:
            return
        if cur.start:
            self.pane("registry").reveal(cur.start - 1, cur.end - 1)
        if snap.index is not None and cur.key in snap.index.rows:
            row = snap.index.rows[cur.key]
            self.pane("index").reveal(row, row)
        if snap.catalog is not None and cur.key in snap.catalog.entries:
            s, e = snap.catalog.entries[cur.key]
            self.pane("catalog").reveal(s, e)

    def set_hit(self, index: int) -> None:
        """Make hit ``index`` (of the matches table) the current one."""
        if not self.hits:
            return
        self.hit_index = index % len(self.hits)
        self.current = self.hits[self.hit_index]
        self.query_one(DecisionPanel).set_current(self.hits, self.near, self.hit_index, self.decision)
        table = self.query_one("#matches", HitsTable)
        if table.cursor_row != self.hit_index and table.row_count > self.hit_index:
            table.move_cursor(row=self.hit_index, animate=False)
        self._paint_hits()

    def action_next_hit(self) -> None:
        """Move to the next hit (wraps)."""
        if self.hits:
            self.set_hit(self.hit_index + 1 if self.current in self.hits else self.hit_index)

    def action_prev_hit(self) -> None:
        """Move to the previous hit (wraps)."""
        if self.hits:
            self.set_hit(self.hit_index - 1 if self.current in self.hits else self.hit_index)

    def on_hits_table_hit_highlighted(self, event: HitsTable.HitHighlighted) -> None:
        if event.table.near:
            self.current = event.hit
            self._paint_hits()
        elif not (self.current is not None and self.current.key == event.hit.key):
            self.set_hit(event.index)

    def reveal_entry(self, kind: str, entry_id: str) -> bool:
        """Show a registry entry as the current one in all panes (from the
        skill browser or the palette). Returns False for an unknown id."""
        snap = self.snapshot
        if snap is None:
            return False
        table = {"skills": snap.registry.skills, "compositions": snap.registry.compositions,
                 "rules": snap.registry.rules}[kind]
        e = table.get(entry_id)
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

    # ------------------------------------------------------------------ actions
    def action_focus_task(self) -> None:
        self.query_one(TaskInput).focus()

    def action_help(self) -> None:
        from routelens.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def action_skills(self) -> None:
        """Open the skill browser."""
        from routelens.tui.screens.skills import SkillBrowser

        if self.snapshot is None:
            self.notify("No valid registry loaded yet.", severity="warning")
            return
        self.push_screen(SkillBrowser(self.snapshot, self._task_text), callback=self._browser_closed)

    def _browser_closed(self, result: str | None) -> None:
        if result:
            kind, _, eid = result.partition(":")
            self.reveal_entry(kind, eid)
            self.show_pane("registry")

    def action_stats(self) -> None:
        """Open the stats panel."""
        from routelens.tui.screens.stats import StatsScreen

        if self.snapshot is None:
            self.notify("No valid registry loaded yet.", severity="warning")
            return
        self.push_screen(StatsScreen())

    def action_zoom(self) -> None:
        """Hide the decision panel so the panes get the whole screen (or back)."""
        self.zoomed = not self.zoomed
        self._relayout()

    def action_copy_json(self) -> None:
        """Copy the decision as JSON (OSC 52 clipboard) and show it."""
        from routelens.tui.screens.json_view import JsonScreen

        if self.decision is None:
            self.notify("Type a task first: there is no decision to copy.", severity="warning")
            return
        text = self.decision_json()
        self.copy_to_clipboard(text)
        self.push_screen(JsonScreen(text, "Decision as JSON · copied to the clipboard"))

    def decision_json(self) -> str:
        """The current decision as pretty JSON ("" when none)."""
        if self.decision is None:
            return ""
        return json.dumps(self.decision.to_dict(), ensure_ascii=False, indent=2)

    def action_rebuild(self) -> None:
        """Ask, then rebuild generated/ from the registry on disk."""
        from routelens.tui.screens.confirm import ConfirmScreen

        self.push_screen(
            ConfirmScreen(words.REBUILD_QUESTION,
                          words.rebuild_detail(self.paths.registry_name, self.paths.show(self.paths.out_dir)),
                          confirm="Rebuild"),
            callback=self._rebuild_answer,
        )

    def _rebuild_answer(self, ok: bool | None) -> None:
        if ok:
            self.rebuild_now()

    @work(thread=True, exclusive=True, group="build", exit_on_error=False)
    def rebuild_now(self) -> None:
        """Rebuild without asking (the confirmed action; tests call it)."""
        try:
            reg = load_registry(self.paths.registry, self.paths.registry_name)
        except RegistryError as exc:
            self.call_from_thread(self.notify, words.rebuild_refused(len(exc.diagnostics)),
                                  severity="error", title="Rebuild refused")
            return
        try:
            _, written = write_generated(reg, self.paths.out_dir)
        except BuildError as exc:
            self.call_from_thread(self.notify, str(exc), severity="error", title="Rebuild failed")
            return
        self.call_from_thread(self._rebuilt, words.rebuilt(list(written)))

    def _rebuilt(self, msg: str) -> None:
        self.notify(msg, title="Index rebuilt")
        self.reload()

    # ------------------------------------------------------------------ stats
    def request_analysis(self, callback) -> None:
        """Compute (or reuse) the stats figures for the current snapshot and
        call ``callback(analysis)`` on the UI thread."""
        snap = self.snapshot
        if snap is None:
            return
        if self.analysis is not None:
            callback(self.analysis)
            return
        self._analysis_worker(snap, callback)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analysis_worker(self, snap: Snapshot, callback) -> None:
        result = analyze(snap)
        self.call_from_thread(self._analysis_done, snap, result, callback)

    def _analysis_done(self, snap: Snapshot, result: Analysis, callback) -> None:
        if snap is self.snapshot:
            self.analysis = result
        callback(result)


def run(registry: str | Path, index: str | Path | None = None, out_dir: str | Path | None = None) -> int:
    """Open the app on ``registry`` (and its generated folder). Returns
    the exit code (0)."""
    app = RouteLensApp(Paths.make(registry, index, out_dir))
    app.run()
    return 0
