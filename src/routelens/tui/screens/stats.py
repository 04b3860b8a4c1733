"""The stats panel: sizes of registry, index and catalog (chars, bytes,
lines), each one's reduction against the registry, the size budget,
the biggest contributors to the index, and freshness — fresh, stale (with
what changed since the index was built), missing or invalid — with short
hashes and, in a git work tree, the commit the index was built from."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from routelens.text.numbers import budget_max_chars
from routelens.tui.cells import cell
from routelens.tui.messages import AnalysisDone
from routelens.tui.model import Analysis, Snapshot, analyze
from routelens.tui.widgets.header_bar import FRESHNESS_STYLE
from routelens.tui.words import FRESHNESS_GLYPH, FRESHNESS_LABEL, num, pct, short, size_vs_registry

__all__ = ["StatsScreen", "budget_bar", "freshness_lines"]


def budget_bar(ratio: float, limit: float, width: int = 40) -> Content:
    """A bar of ``width`` cells: filled up to ``ratio`` (index chars /
    registry chars), with ``┃`` at ``limit`` (max_index_ratio); green
    below the limit, red at or above it."""
    filled = max(0, min(width, round(ratio * width)))
    mark = max(0, min(width - 1, round(limit * width)))
    ok = ratio < limit
    cells = []
    for i in range(width):
        if i == mark:
            cells.append(("┃", "bold $text"))
        elif i < filled:
            cells.append(("━", "bold $success" if ok else "bold $error"))
        else:
            cells.append(("━", "$panel-lighten-2"))
    return Content.assemble(*cells)


def freshness_lines(snap: Snapshot, analysis: Analysis | None) -> Content:
    """The freshness block: badge and sentence, short hashes, what changed
    since the index was built (``+added ~changed -removed``) and where it
    came from in git."""
    fr = snap.freshness
    state = fr.state
    out = Content.assemble(
        (f" {FRESHNESS_GLYPH[state]} {FRESHNESS_LABEL[state]} ", FRESHNESS_STYLE[state]), "  ", (fr.message, "bold"), "\n",
        ("registry ", "$text-muted"), (short(fr.registry_sha256, 12), "bold"),
        ("   index built from ", "$text-muted"), (short(fr.index_sha256, 12), "bold"),
    )
    if analysis is None:
        return out + Content.styled("\ncomputing what changed…", "$text-muted")
    chk = analysis.check
    a, c, r = len(chk.added), len(analysis.changed), len(chk.removed)
    if analysis.provenance:
        where = Content.styled(analysis.provenance, "bold")
    else:
        where = Content.styled("not in a git work tree: no commit to trace", "$text-muted")
    delta_style = "bold $success" if a + c + r == 0 else "bold $warning"
    out = out + Content.assemble("\n", where)
    if a + c + r or analysis.moved or state != "fresh":
        out = out + Content.assemble(
            ("\nthe index on disk against the registry now ", "$text-muted"), (f"+{a} ~{c} -{r}", delta_style),
            (f"  ({len(analysis.moved)} more only moved)" if analysis.moved else "", "$text-muted"))
    details = []
    for label, ids in (("added", chk.added), ("changed", analysis.changed), ("removed", chk.removed),
                       ("moved", analysis.moved)):
        if ids:
            shown = ", ".join(ids[:6]) + (f" … (+{len(ids) - 6})" if len(ids) > 6 else "")
            details.append(Content.assemble((f"{label}: ", "$text-muted"), (shown, "bold" if label != "moved" else "")))
    if details:
        out = out + Content("\n") + Content("   ").join(details)
    if state == "fresh" and not chk.ok:
        hand = [p for p in chk.problems if "hand-edited" in p or "differs" in p]
        if hand:
            out = out + Content.styled("\n" + hand[0], "$warning")
    return out


class StatsScreen(Screen[None]):
    """Opened with F3 on ``snapshot``; Escape or F3 closes it. Figures come
    from :func:`routelens.tui.model.analyze` in a worker, once per load
    (kept in ``snapshot.analysis``)."""

    BINDINGS = [Binding("escape,f3,q", "close", "Back")]

    DEFAULT_CSS = """
    StatsScreen { layout: vertical; background: $background; }
    StatsScreen #stats-title { height: 1; background: $panel; padding: 0 1; }
    StatsScreen #fresh-box {
        height: auto;
        border: round $success;
        border-title-style: bold;
        padding: 0 1;
        background: $surface;
        &.-stale { border: heavy $warning; background: $warning 12%; }
        &.-missing, &.-invalid { border: heavy $error; background: $error 12%; }
    }
    StatsScreen #stats-body { height: 1fr; }
    StatsScreen #stats-left { width: 1fr; height: 1fr; }
    StatsScreen #stats-right { width: 1fr; height: 1fr; }
    StatsScreen .box {
        height: auto;
        border: round $panel-lighten-2;
        border-title-style: bold;
        border-title-color: $text;
        background: $surface;
        padding: 0 1;
    }
    StatsScreen DataTable { height: auto; max-height: 16; background: $surface; scrollbar-size-horizontal: 0; }
    StatsScreen #contrib-box { height: 1fr; }
    StatsScreen #contrib { max-height: 100%; height: 1fr; }
    """

    def __init__(self, snapshot: Snapshot, *, last_good: bool = False) -> None:
        super().__init__()
        #: the load whose figures are shown (fixed while the panel is open)
        self.snapshot = snapshot
        #: True when the registry on disk has errors and ``snapshot`` is the last good load
        self.last_good = last_good
        self.analysis: Analysis | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="stats-title")
        yield Static("", id="fresh-box")
        with Horizontal(id="stats-body"):
            with VerticalScroll(id="stats-left"):
                with Vertical(classes="box", id="sizes-box"):
                    yield DataTable(id="sizes", cursor_type="none", zebra_stripes=False)
                with Vertical(classes="box", id="budget-box"):
                    yield Static("", id="budget")
                with Vertical(classes="box", id="layer1-box"):
                    yield Static("", id="layer1")
            with Vertical(classes="box", id="contrib-box"):
                yield DataTable(id="contrib", cursor_type="none", zebra_stripes=False)
        yield Footer()

    def on_mount(self) -> None:
        snap = self.snapshot
        self.query_one("#sizes-box").border_title = "Sizes · fresh build vs the registry"
        self.query_one("#budget-box").border_title = "Size budget"
        self.query_one("#layer1-box").border_title = "Layer 1 · what an agent's system prompt carries"
        self.query_one("#contrib-box").border_title = "Biggest contributors to the index"
        self.query_one("#fresh-box").border_title = "Freshness"
        self.query_one("#stats-title", Static).update(Content.assemble(
            ("Stats ", "bold"), (snap.paths.registry_name, "bold $accent"),
            *((("  the registry on disk has errors: these are the figures of the last good load ",
                "bold $text on $warning"),) if self.last_good else ()),
            (f"  ·  {num(len(snap.registry.skills))} skills  ·  figures of a fresh in-memory build, like `routelens stats`"
             "  ·  Esc back", "$text-muted"),
        ))
        sizes = self.query_one("#sizes", DataTable)
        for label, key in (("file", "file"), ("chars", "chars"), ("bytes", "bytes"), ("lines", "lines"),
                           ("vs registry", "red")):
            sizes.add_column(label, key=key)
        contrib = self.query_one("#contrib", DataTable)
        for label, key in (("entry", "id"), ("kind", "kind"), ("chars", "chars"), ("share", "share"), ("", "bar")):
            contrib.add_column(label, key=key)
        if snap.analysis is not None:
            self.show_analysis(snap.analysis)
            return
        self._show_freshness(snap, None)
        for box in ("#sizes-box", "#budget-box", "#contrib-box"):
            self.query_one(box).loading = True
        self._analysis_worker(snap)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analysis_worker(self, snap: Snapshot) -> None:
        self.post_message(AnalysisDone(snap, analyze(snap)))

    def on_analysis_done(self, message: AnalysisDone) -> None:
        message.snapshot.analysis = message.analysis  # kept with its load: opening the panel again is instant
        self.show_analysis(message.analysis)

    def _show_freshness(self, snap: Snapshot, analysis: Analysis | None) -> None:
        box = self.query_one("#fresh-box", Static)
        box.set_classes(f"-{snap.freshness.state}")
        box.update(freshness_lines(snap, analysis))

    def show_analysis(self, analysis: Analysis) -> None:
        """Fill the panel (called on the UI thread when figures are ready)."""
        if not self.is_attached:
            return
        self.analysis = analysis
        snap = self.snapshot
        for box in ("#sizes-box", "#budget-box", "#contrib-box"):
            self.query_one(box).loading = False
        self._show_freshness(snap, analysis)
        st = analysis.stats
        paths = snap.paths
        sizes = self.query_one("#sizes", DataTable)
        sizes.clear()
        rows = [
            (paths.registry_name, st["registry"], None),
            (paths.show(paths.index), st["index"], st["index"]["reduction"]),
            (paths.show(paths.catalog), st["catalog"], st["catalog"]["reduction"]),
        ]
        for name, m, red in rows:
            if red is None:
                rel = Content.styled("—", "$text-muted")
            else:  # 1 - chars/registry, as `routelens stats`, in words rather than a sign
                rel = Content.styled(size_vs_registry(red), "bold $success" if red > 0 else "$warning")
            sizes.add_row(*(cell(sizes, c) for c in (Content.styled(name, "bold"), num(m["chars"]), num(m["bytes"]),
                                                     num(m["lines"]), rel)))
        b = st["budget"]
        ok = b["ok"]
        verdict = Content.styled(" PASS ", "bold $text on $success") if ok else Content.styled(" FAIL ", "bold $text on $error")
        most = budget_max_chars(st["registry"]["chars"], b["max_index_ratio"])
        self.query_one("#budget", Static).update(Content.assemble(
            verdict, "  ", ("index ", "$text-muted"), (f"{num(b['index_chars'])} chars", "bold"),
            (" = ", "$text-muted"), (pct(b["ratio"]), "bold"), (" of the registry; ", "$text-muted"),
            (f"max_index_ratio {b['max_index_ratio']}", "bold"), (f" allows at most {num(most)} chars", "$text-muted"),
            "\n", budget_bar(b["ratio"], b["max_index_ratio"], 30),
            ("  to spare " if ok else "  over by ", "$text-muted"),
            (f"{num(abs(most - b['index_chars']))} chars", "bold" if ok else "bold $error"),
        ))
        layer1 = analysis.layer1
        if layer1:
            tokens = (Content.assemble((num(layer1["tokens"]), "bold"), (f" tokens ({layer1['encoding']})", "$text-muted"))
                      if layer1.get("tokens") is not None
                      else Content.styled(f"tokens unavailable ({layer1.get('tokens_unavailable') or 'no tokenizer'})",
                                          "$text-muted"))
            self.query_one("#layer1", Static).update(Content.assemble(
                (num(layer1["skills"]), "bold"), (" skills listed · ", "$text-muted"),
                (num(layer1["chars"]), "bold"), (" chars · ", "$text-muted"),
                (num(layer1["bytes"]), "bold"), (" bytes · ", "$text-muted"), tokens,
                ("\n`routelens prompt` prints it; ids and one-line descriptions, sorted, byte-stable", "$text-muted"),
            ))
        else:
            self.query_one("#layer1", Static).update(Content.styled(
                "Layer-1 block size unavailable: " + "; ".join(analysis.errors), "$text-muted"))
        contrib = self.query_one("#contrib", DataTable)
        contrib.clear()
        top = st["top_contributors"]
        biggest = max((r["share"] for r in top), default=0) or 1
        for r in top:
            bar = "█" * max(1, round(r["share"] / biggest * 16))
            contrib.add_row(*(cell(contrib, c) for c in (Content.styled(r["id"], "bold"), Content.styled(r["kind"], "$text-muted"),
                                                         num(r["chars"]), pct(r["share"]), Content.styled(bar, "$accent"))),
                            key=f"{r['kind']}:{r['id']}")

    def action_close(self) -> None:
        self.dismiss(None)
