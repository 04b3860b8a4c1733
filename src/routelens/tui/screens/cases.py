"""Labelled cases in the TUI: every case with its outcome, the metrics on
top, filters by category and outcome; Enter puts the task into the main
screen. :class:`ListScreen` is the shape the decision log screen shares
(:mod:`routelens.tui.screens.log`).

The rows are computed in a thread worker from the snapshot the app hands
down (:meth:`ListScreen.rerun`); the app calls it again whenever the main
screen has a router for a new load, so editing ``skills.yaml`` in an editor
turns cases right or wrong on this screen as the file is saved. The file
listed is watched too (``poll_interval``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Select, Static

from routelens.tui.widgets.footer import FittingFooter
from routelens.errors import CasesError
from routelens.tools.evaluate import CaseResult, EvalReport, evaluate, load_cases
from routelens.tui.cells import cell
from routelens.tui.fit import Column, fit_widths
from routelens.tui.messages import ListFailed, ListReady
from routelens.tui.model import Snapshot
from routelens.tui.words import OUTCOME_LABEL, pct

__all__ = ["ListScreen", "CasesScreen", "ALL", "short", "picked", "decided"]

#: The filter value that keeps every row.
ALL = "all"
_TASK_CHARS = 70


def short(text: str, n: int = _TASK_CHARS) -> str:
    """``text`` on one line, cut to ``n`` characters with an ellipsis."""
    one = " ".join(text.split())
    return one if len(one) <= n else one[: n - 1] + "…"


def picked(skills: list[str] | tuple[str, ...], composition: str | None, mode: str) -> str:
    """What a decision selected, in words: a composition, skills, or the full registry."""
    if composition:
        return f"composition {composition}"
    return ", ".join(skills) if skills else ("(full registry)" if mode == "full" else "—")


def decided(skills: list[str] | tuple[str, ...], composition: str | None, mode: str, reason: str | None) -> str:
    """What a decision did, the selection first so that a narrow column
    still shows it: ``code-review (clear_candidate)``, ``composition
    release-train (composition)``, or ``fallback: weak_evidence`` (a
    newcomer's trial: ``clear_candidat…`` on every row hid the skill)."""
    if mode == "full" or not (skills or composition):
        return f"fallback: {reason}"
    return f"{picked(skills, composition, mode)} ({reason})"


class ListScreen(Screen[str | None]):
    """A list of tasks with an outcome each, two filters and a summary;
    dismisses with the task of the row chosen (Enter) or None (Esc).

    ``path``: the file listed; ``snapshot``: the load to compute against
    (its router must be built; :meth:`rerun` gives a newer one);
    ``poll_interval``: seconds between checks of ``path`` (None: no
    watching); ``display``: the path as shown. Subclasses give :attr:`TITLE`, :meth:`compute` (in a
    thread), :meth:`columns`, :meth:`row_cells`, :meth:`filter_options`,
    :meth:`keep` and :meth:`summary_content`. Tests read :attr:`rows`,
    :attr:`shown`, :attr:`runs` and :attr:`problem`."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("enter", "choose", "Inspect task", priority=False),
        Binding("ctrl+r", "rerun", "Run again"),
        Binding("o", "other_file", "Other file"),
    ]
    #: the app's action asking for a file of this kind (``ask_cases`` / ``ask_log``)
    ASK_ACTION = ""

    DEFAULT_CSS = """
    ListScreen { layout: vertical; background: $background; }
    ListScreen #list-title { height: 1; background: $panel; padding: 0 1; }
    ListScreen #list-summary { height: auto; padding: 0 1; background: $surface; }
    ListScreen #list-filters { height: 3; }
    ListScreen #list-filters > Select { width: 1fr; }
    ListScreen #list-table { height: 1fr; border: round $panel-lighten-2; background: $surface; }
    ListScreen #list-table:focus { border: round $accent; }
    """

    TITLE_TEXT = "List"
    FILTER_TITLES = ("filter", "filter")

    def __init__(self, path: Path, snapshot: Snapshot | None, poll_interval: float | None = None,
                 display: str | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.shown_path = display or str(path)
        self.snapshot = snapshot
        self.poll_interval = poll_interval
        self.rows: list[Any] = []
        self.shown: list[Any] = []
        self.summary: Any = None
        self.problem: list[str] = []
        self.runs = 0
        self._sig: tuple | None = None
        self._filters = [ALL, ALL]
        self._widths: list[int] = []
        self._state = ""
        self._broken = False

    # ---------------------------------------------------------------- to give
    def compute(self, snap: Snapshot) -> tuple[list[Any], Any]:
        """``(rows, summary)`` for ``snap`` (in a thread). Raise
        :class:`~routelens.errors.DiagnosticError` for a bad file."""
        raise NotImplementedError

    def columns(self) -> list[tuple]:
        """``(label, widest in cells, narrowest width or None: never
        narrower, turn to give cells, lower first[, cells it gives first
        down to this width])`` of each column
        (:func:`routelens.tui.fit.fit_widths`: on a narrow terminal the
        columns give cells so that the last one, the task, stays in sight)."""
        raise NotImplementedError

    def row_cells(self, row: Any) -> list[Any]:
        raise NotImplementedError

    def row_task(self, row: Any) -> str:
        raise NotImplementedError

    def filter_options(self, which: int) -> list[str]:
        """The values of filter ``which`` (0 or 1) for the current rows."""
        raise NotImplementedError

    def keep(self, row: Any, first: str, second: str) -> bool:
        raise NotImplementedError

    def summary_content(self) -> Content:
        raise NotImplementedError

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static("", id="list-title")
        yield Static("", id="list-summary")
        with Horizontal(id="list-filters"):
            for which, title in enumerate(self.FILTER_TITLES):
                yield Select([(f"{title}: {ALL}", ALL)], value=ALL, allow_blank=False, prompt=title,
                             id=f"filter-{which}")
        yield DataTable(cursor_type="row", id="list-table")
        yield FittingFooter()

    def on_mount(self) -> None:
        table = self.query_one("#list-table", DataTable)
        self._widths = [Content(c[0]).cell_length for c in self.columns()]
        self._add_columns(table)
        self._title("running…")
        self.query_one("#list-summary", Static).update(Content.styled("Running…", "$text-muted"))
        self.rerun(self.snapshot)
        if self.poll_interval:
            self._sig = self._signature()
            self.set_interval(self.poll_interval, self._poll, name="watch-list")
        table.focus()

    def _add_columns(self, table: DataTable) -> None:
        for n, ((name, *_), width) in enumerate(zip(self.columns(), self._widths)):
            table.add_column(name, width=width, key=f"c{n}")

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_columns)

    def _fit_columns(self) -> None:
        """Give the columns the widths that fit the table (a newcomer's
        trial: at 80 columns the task column began beyond the edge)."""
        self._fill()

    def _widths_for(self, cells: list[list[Any]], table: DataTable) -> list[int]:
        """Each column as wide as its widest cell (its label at least, its
        cap from :meth:`columns` at most), then narrowed to fit the table
        (:func:`routelens.tui.fit.fit_widths`): short ids take no room from
        the task, and a wide terminal shows whole ids (a newcomer read
        "appoint…" beside twenty empty columns)."""
        cols = self.columns()
        natural = []
        for i, (label, cap, *_rest) in enumerate(cols):
            widest = max((c.cell_length if isinstance(c, Content) else Content(str(c)).cell_length
                          for row in cells for c in row[i:i + 1]), default=0)
            natural.append(max(Content(label).cell_length, min(cap, widest)))
        room = table.scrollable_content_region.width - 2 * table.cell_padding * len(cols)
        if room <= 0:
            return natural
        return fit_widths([Column(w, *c[2:]) for w, c in zip(natural, cols)], room)

    @property
    def widths(self) -> list[int]:
        """The columns' widths now (cells, padding not included)."""
        return list(self._widths)

    def _title(self, state: str | None = None) -> None:
        if state is None:
            state = self._state
        self._state = state
        self._broken = self._registry_broken()
        # the rows are of the last good load while the registry on disk cannot be read: say so first (a newcomer
        # broke skills.yaml and read the old results under "index fresh", Ctrl+R changing nothing)
        broken = (("  ·  the registry on disk has errors: these are the last good load's results (Esc shows the errors)",
                   "bold $error"),) if self._broken else ()
        self.query_one("#list-title", Static).update(Content.assemble(
            (f"{self.TITLE_TEXT} ", "bold"), (self.shown_path, "bold $accent"), (f"  ·  {state}", "$text-muted"),
            *broken, ("  ·  Enter puts the task into the main screen  ·  Esc back", "$text-muted")))

    def _registry_broken(self) -> bool:
        """Whether the main screen holds a registry that cannot be loaded now, and an older good load."""
        main = getattr(self.app, "main", None)
        return main is not None and getattr(main, "failure", None) is not None and main.snapshot is not None

    # ---------------------------------------------------------------- running
    def _signature(self) -> tuple | None:
        try:
            st = os.stat(self.path)
            return (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            return None

    def _poll(self) -> None:
        if self._registry_broken() != self._broken:
            self._title()
        sig = self._signature()
        if sig != self._sig:
            self._sig = sig
            self.rerun(self.snapshot)

    def rerun(self, snapshot: Snapshot | None = None) -> None:
        """Compute the rows again for ``snapshot`` (default: the last one)."""
        if snapshot is not None:
            self.snapshot = snapshot
        if self.snapshot is None or self.snapshot.router is None:
            self._title("waiting for the registry to load")
            return
        self._worker(self.snapshot)

    def action_rerun(self) -> None:
        self.rerun()

    @work(thread=True, exclusive=True, group="list", exit_on_error=False, description="list")
    def _worker(self, snap: Snapshot) -> None:
        try:
            rows, summary = self.compute(snap)
        except CasesError as exc:
            self.post_message(ListFailed([str(d) for d in exc.diagnostics]))
            return
        except Exception as exc:  # a bad file must never take the screen down
            lines = [str(d) for d in getattr(exc, "diagnostics", [])] or [f"{self.path}: {exc}"]
            self.post_message(ListFailed(lines))
            return
        self.post_message(ListReady(snap, rows, summary))

    def on_list_ready(self, message: ListReady) -> None:
        if message.snapshot is not self.snapshot:
            return  # a newer load is on its way
        self.problem = []
        self.rows, self.summary = message.rows, message.summary
        self.runs += 1
        for which in (0, 1):
            select = self.query_one(f"#filter-{which}", Select)
            options = [ALL, *self.filter_options(which)]
            if self._filters[which] not in options:
                self._filters[which] = ALL
            # each option says which filter it is: two bare "all" boxes side by side said nothing
            select.set_options([(f"{self.FILTER_TITLES[which]}: {o}", o) for o in options])
            select.value = self._filters[which]
        self.query_one("#list-summary", Static).update(self.summary_content())
        self._fill()

    def on_list_failed(self, message: ListFailed) -> None:
        self.problem = message.lines
        self.runs += 1
        self.rows, self.shown = [], []
        self.query_one("#list-table", DataTable).clear()
        self.query_one("#list-summary", Static).update(
            Content.assemble(Content.styled("\n".join(message.lines[:8]) + (
                f"\n… {len(message.lines) - 8} more" if len(message.lines) > 8 else ""), "$error"),
                ("\no: open another file  ·  Esc: back", "$text-muted")))
        self._title("cannot be used")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("filter-0", "filter-1") and event.value is not Select.NULL:
            which = int(event.select.id[-1])
            if self._filters[which] != event.value:
                self._filters[which] = str(event.value)
                self._fill()

    def set_filters(self, first: str | None = None, second: str | None = None) -> None:
        """Set the filters (``None`` keeps one) and refill the table (tests, keys)."""
        for which, value in ((0, first), (1, second)):
            if value is not None:
                self._filters[which] = value
                self.query_one(f"#filter-{which}", Select).value = value
        self._fill()

    def _fill(self) -> None:
        table = self.query_one("#list-table", DataTable)
        self.shown = [r for r in self.rows if self.keep(r, *self._filters)]
        cells = [self.row_cells(r) for r in self.shown]
        widths = self._widths_for(cells, table)
        if widths != self._widths:
            self._widths = widths
            table.clear(columns=True)
            self._add_columns(table)
        else:
            table.clear()
        for n, row in enumerate(cells):
            table.add_row(*[cell(table, c) for c in row], key=str(n))
        state = f"{len(self.shown)} of {len(self.rows)} shown" if len(self.shown) != len(self.rows) else \
            f"{len(self.rows)} rows"
        self._title(state)

    # ---------------------------------------------------------------- actions
    def action_close(self) -> None:
        self.dismiss(None)

    def action_other_file(self) -> None:
        """Close this list and ask for another file of its kind (the path
        asked for starts as this one: a mistyped name is fixed in place; as
        the path was given, which the prompt reads from the working folder,
        not as shown, which may be from the registry's folder)."""
        app, path = self.app, str(self.path)
        self.dismiss(None)
        app.call_later(getattr(app, self.ASK_ACTION), path)

    def action_choose(self) -> None:
        table = self.query_one("#list-table", DataTable)
        if self.shown and 0 <= table.cursor_row < len(self.shown):
            self.dismiss(self.row_task(self.shown[table.cursor_row]))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "list-table":
            self.action_choose()


_OUTCOME_STYLE = {"right": "$success", "fell back": "$warning", "wrong": "bold $error", "fallback kept": "$success"}


class CasesScreen(ListScreen):
    ASK_ACTION = "ask_cases"

    """Every labelled case of ``path`` with its outcome (docs/formats.md
    §7.2): right, fell back, wrong, fallback kept; the metrics (§7.3) on
    top; filters by category and by outcome. ``t`` opens the tune plot for
    these cases (the app's action)."""

    TITLE_TEXT = "Labelled cases"
    FILTER_TITLES = ("category", "outcome")
    BINDINGS = [*ListScreen.BINDINGS, Binding("t", "app.tune", "Tune plot")]

    def compute(self, snap: Snapshot) -> tuple[list[CaseResult], EvalReport]:
        cases = load_cases(self.path)
        rep = evaluate(snap.router, cases)  # type: ignore[arg-type]
        return rep.results, rep

    def columns(self) -> list[tuple]:
        # each as wide as its widest cell up to its cap; on a narrow terminal the words give cells, the task last
        # ... but first the task's tail beyond 40 cells, so ids are seen whole at 120 columns (a newcomer read
        # "loan-re…" beside a task column of 60 cells)
        return [("line", 6, None, 0), ("outcome", 13, None, 0), ("category", 16, 6, 1), ("expected", 32, 8, 1),
                ("got", 44, 10, 1), ("task", 70, 22, 2, 40)]

    def row_cells(self, r: CaseResult) -> list[Any]:
        label = OUTCOME_LABEL[r.outcome]
        c, d = r.case, r.decision
        expected = picked(c.expect, c.composition, "full" if c.expects_fallback else "index")
        if c.expects_fallback:
            expected = "fallback"
        got = decided(d.skills, d.composition, d.mode, d.reason)
        return [str(c.line), Content.styled(label, _OUTCOME_STYLE[label]), c.category, expected, got, short(c.task)]

    def row_task(self, r: CaseResult) -> str:
        return r.case.task

    def filter_options(self, which: int) -> list[str]:
        if which == 0:
            return sorted({r.case.category for r in self.rows})
        return [o for o in ("right", "fell back", "wrong", "fallback kept")
                if any(OUTCOME_LABEL[r.outcome] == o for r in self.rows)]

    def keep(self, r: CaseResult, category: str, outcome: str) -> bool:
        return (category == ALL or r.case.category == category) and (
            outcome == ALL or OUTCOME_LABEL[r.outcome] == outcome)

    def summary_content(self) -> Content:
        rep: EvalReport = self.summary
        c = rep.counts
        router = self.snapshot.router if self.snapshot is not None else None
        setting = f"threshold {router.threshold:g}, margin {router.margin:g}, index {router.freshness.state}" \
            if router is not None else ""

        def metric(name: str, value: float, got: int, of: int, ok: bool) -> tuple:
            if not of:  # no case behind it: not measured, as `eval` says (a newcomer read "0.0% (0/0)")
                return ((f"{name} ", "$text-muted"), ("n/a", "bold"),
                        (f" ({got}/{of}, not measured)   ", "$text-muted"))
            return ((f"{name} ", "$text-muted"), (pct(value), "bold $success" if ok else "bold $error"),
                    (f" ({got}/{of})   ", "$text-muted"))

        failing = " ".join(rep.failures)
        parts = [(f"{c['cases']} cases   ", "bold")]
        parts += metric("confident precision", rep.precision, c["routed_correct"], c["routed"],
                        "precision" not in failing)
        parts += metric("coverage", rep.coverage, c["routable_routed"], c["routable"], "coverage" not in failing)
        parts += metric("must-fallback recall", rep.must_fallback_recall, c["must_fallback_ok"], c["must_fallback"],
                        "must_fallback" not in failing)
        parts += metric("off-topic routed", rep.offtopic_false_route_rate, c["offtopic_routed"], c["offtopic"],
                        "offtopic" not in failing)
        parts.append((f"\n{setting}  ·  " + ("meets the quality bar" if rep.passed else "below the quality bar: "
                                              + "; ".join(rep.failures)), "$text-muted"))
        return Content.assemble(*parts)
