"""The tune plot: the risk-coverage curve of ``routelens tune`` for the
labelled cases, every setting a dot, the frontier a line, the registry's
current setting and the recommended one marked; the sentence and the
``routing:`` YAML beside it (``y`` copies it).

The plot is textual-plotext's ``PlotextPlot`` (a Textual widget over
plotext): axes, ticks, markers and a legend that Textual's own widgets do
not draw. The sweep runs in a thread worker.
"""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual_plotext import PlotextPlot

from routelens.tools.evaluate import load_cases
from routelens.tools.tune import TuneReport, frontier, routing_yaml, tune
from routelens.tui.messages import ListFailed, TuneReady
from routelens.tui.model import Snapshot
from routelens.tui.words import pct

__all__ = ["TuneScreen"]


class TuneScreen(Screen[None]):
    """The sweep of ``cases`` against ``snapshot``'s router.
    ``thresholds``/``margins``: the grid (default: ``routelens tune``'s);
    ``display``: the cases file as shown.
    Tests read :attr:`report` and :attr:`problem`."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("y", "copy_yaml", "Copy routing YAML"),
    ]

    DEFAULT_CSS = """
    TuneScreen { layout: vertical; background: $background; }
    TuneScreen #tune-title { height: 1; background: $panel; padding: 0 1; }
    TuneScreen #tune-body { height: 1fr; }
    TuneScreen PlotextPlot { width: 2fr; height: 1fr; border: round $panel-lighten-2; }
    TuneScreen #tune-text { width: 1fr; height: 1fr; padding: 0 1; border: round $panel-lighten-2;
                            background: $surface; }
    """

    def __init__(self, cases: Path, snapshot: Snapshot, thresholds: tuple[float, ...] | None = None,
                 margins: tuple[float, ...] | None = None, display: str | None = None) -> None:
        super().__init__()
        self.cases = Path(cases)
        self.shown_path = display or str(cases)
        self.snapshot = snapshot
        self.thresholds = thresholds
        self.margins = margins
        self.report: TuneReport | None = None
        self.problem: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(Content.assemble(("Tune ", "bold"), (self.shown_path, "bold $accent"),
                                      ("  ·  confident-wrong rate against coverage, one dot per setting  ·  y copies "
                                       "the routing YAML  ·  Esc back", "$text-muted")), id="tune-title")
        with Horizontal(id="tune-body"):
            yield PlotextPlot(id="tune-plot")
            yield Static(Content.styled("Sweeping the settings…", "$text-muted"), id="tune-text")
        yield Footer()

    def on_mount(self) -> None:
        self._worker()

    @work(thread=True, exclusive=True, group="tune", exit_on_error=False, description="tune")
    def _worker(self) -> None:
        router = self.snapshot.router
        if router is None:
            self.post_message(ListFailed(["the router is still being prepared: open the tune plot again"]))
            return
        try:
            cases = load_cases(self.cases)
            kw = {}
            if self.thresholds is not None:
                kw["thresholds"] = self.thresholds
            if self.margins is not None:
                kw["margins"] = self.margins
            # the sweep takes seconds on a few hundred cases: say how far it is (a newcomer waited 15 s on
            # "Sweeping the settings…" alone)
            rep = tune(router, cases, progress=lambda f: self.app.call_from_thread(self.show_progress, f), **kw)
        except Exception as exc:  # a bad cases file must not take the screen down
            lines = [str(d) for d in getattr(exc, "diagnostics", [])] or [str(exc)]
            self.post_message(ListFailed(lines))
            return
        self.post_message(TuneReady(rep))

    def show_progress(self, fraction: float) -> None:
        """Say how much of the sweep is done (``fraction``, 0-1), until the report replaces it."""
        if self.report is None and not self.problem:
            self.query_one("#tune-text", Static).update(
                Content.styled(f"Sweeping the settings… {fraction:.0%} of the thresholds", "$text-muted"))

    def on_list_failed(self, message: ListFailed) -> None:
        self.problem = message.lines
        self.query_one("#tune-text", Static).update(Content.styled("\n".join(message.lines[:10]), "$error"))

    def on_tune_ready(self, message: TuneReady) -> None:
        rep = self.report = message.report
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        xs = [r.coverage * 100 for r in rep.rows]
        ys = [r.confident_wrong_rate * 100 for r in rep.rows]
        plt.scatter(xs, ys, marker="dot", color="gray", label="settings")
        front = frontier(rep.rows, rep.preferred)
        plt.plot([r.coverage * 100 for r in front], [r.confident_wrong_rate * 100 for r in front],
                 color="cyan", label="frontier")
        cur, best = rep.current, rep.recommended
        plt.scatter([best.coverage * 100], [best.confident_wrong_rate * 100], marker="*", color="green",
                    label=f"recommended {best.threshold:g}/{best.margin:g}")
        plt.scatter([cur.coverage * 100], [cur.confident_wrong_rate * 100], marker="x", color="red",
                    label=f"current {cur.threshold:g}/{cur.margin:g}")
        plt.xlabel("coverage %")
        plt.ylabel("confident-wrong %")
        plt.xlim(0, 100)
        plt.ylim(0, max(5.0, max(ys) * 1.1 if ys else 5.0))
        plot.refresh()
        self.query_one("#tune-text", Static).update(self.text_content())

    def text_content(self) -> Content:
        """The sentence, both settings' figures and the YAML to paste."""
        rep = self.report
        assert rep is not None
        cur, best = rep.current, rep.recommended

        def row(name: str, r) -> list[tuple[str, str]]:
            return [(f"{name}\n", "bold"), (f"  threshold {r.threshold:g}, margin {r.margin:g}\n", ""),
                    (f"  coverage {pct(r.coverage)}, confident-wrong {pct(r.confident_wrong_rate)}\n", ""),
                    (f"  precision {pct(r.precision)}, must-fallback {pct(r.must_fallback_recall)}\n", "")]

        parts: list[tuple[str, str]] = [(f"{cur.cases} cases, {len(rep.rows)} settings\n\n", "$text-muted")]
        parts += row("current", cur)
        parts += [("\n", "")] + row("recommended", best)
        if rep.current_is_recommended:
            parts.append(("\nThe current setting is the recommended one.", "bold $success"))
        else:
            if not rep.met:
                parts.append(("\nNo setting reaches confident precision 99%: the wrong routes need trigger "
                              "edits.\n", "$warning"))
            parts += [("\nPaste into skills.yaml (y copies):\n", "$text-muted"), (routing_yaml(best), "bold")]
        return Content.assemble(*parts)

    def action_copy_yaml(self) -> None:
        if self.report is None:
            return
        self.app.copy_to_clipboard(routing_yaml(self.report.recommended))
        self.notify("Copied the routing: YAML; paste it into skills.yaml (keep its other keys).", timeout=4)

    def action_close(self) -> None:
        self.dismiss(None)
