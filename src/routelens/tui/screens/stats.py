"""The stats panel (F3): what a release reviewer needs.

- **Freshness**: fresh, stale (with what changed since the index was
  built), missing or invalid, short hashes and, in a git work tree, the
  commit the index was built from.
- **Budgets**: the index against ``max_index_ratio``, and the Layer-1
  listing against the agent harnesses' limits (Claude Code's, read from its
  settings where they exist, and Codex's 2%; docs/formats.md §16), each a
  bar with its limit marked, the figures in whole characters and a verdict;
  when Claude Code's is exceeded, which skills would lose their descriptions.
- **What changed**: since the last build (the files in ``generated/``:
  ids added, changed, removed, moved; the index's size then and now) and
  since a git revision (``HEAD`` unless another is typed): the index's and
  the Layer-1 block's sizes, how much of their start is unchanged (the
  prompt-cache prefix that survives), ids added, changed, removed.
- **Sizes**: registry, index and catalog in chars, bytes and lines, each
  against the registry in words.
- **Biggest contributors**: the entries that cost the most in the index and
  in the Layer-1 listing, with their share and the running total (ten
  entries of about 2% each say more as "the top 10 are 21%").

Below :data:`StatsScreen.NARROW_WIDTH` columns the boxes stack in one column.
"""

from __future__ import annotations

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from routelens.artifacts.sizes import exact_reduction
from routelens.errors import HistoryError
from routelens.text.numbers import BUDGET_MIN_REGISTRY_CHARS, budget_checked, budget_max_chars
from routelens.tui.cells import cell
from routelens.tui.messages import AnalysisDone
from routelens.tui.model import Analysis, Snapshot, analyze, since_revision
from routelens.tui.widgets.footer import FittingFooter
from routelens.tui.widgets.header_bar import FRESHNESS_STYLE
from routelens.tui.widgets.line_input import LineInput
from routelens.tui.words import FRESHNESS_GLYPH, FRESHNESS_LABEL, num, pct, short, size_vs_registry

__all__ = ["StatsScreen", "budget_bar", "freshness_lines", "budget_rows", "since_lines"]


def budget_bar(ratio: float, limit: float, width: int = 40, checked: bool = True) -> Content:
    """A bar of ``width`` cells: filled up to ``ratio`` of the scale, with
    ``┃`` at ``limit`` (both fractions of the same scale); green below the
    limit, red at or above it, muted when the budget is not ``checked``."""
    filled = max(0, min(width, round(ratio * width)))
    mark = max(0, min(width - 1, round(limit * width)))
    ok = ratio < limit
    cells = []
    for i in range(width):
        if i == mark:
            cells.append(("┃", "bold $text"))
        elif i < filled:
            cells.append(("━", "bold $success" if ok else "bold $error" if checked else "bold $text-muted"))
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
    if analysis.provenance:
        where = Content.styled(analysis.provenance, "bold")
    else:
        where = Content.styled("not in a git work tree: no commit to trace", "$text-muted")
    out = out + Content.assemble("\n", where)
    chk = analysis.check
    if state == "fresh" and not chk.ok:
        # fresh is the registry's hash (docs/formats.md §3.5); a body edited since the build changes the index's
        # terms all the same, and `routelens check` fails: say so beside the badge, not only in "what changed"
        hand = [p for p in chk.problems if "hand-edited" in p or "differs" in p or "body changed" in p]
        if hand:
            out = out + Content.styled("\n" + hand[0] + " `routelens check` fails until F5 rebuilds.", "$warning")
    return out


#: cells of a budget row besides its bar and figures: the verdict, a space, the label, two spaces
_ROW_FIXED = 6 + 1 + 12 + 2


def _figures(used: int, limit: int, approx: bool, ok: bool) -> Content:
    """A budget row's figures: ``used of limit chars  share``."""
    return Content.assemble((f"{num(used)}", "bold"), (f" of {'~' if approx else ''}{num(limit)} chars", "$text-muted"),
                            ("  ", ""), (pct(used / max(limit, 1)), "bold" if ok else "bold $error"))


def _row(label: str, used: int, limit: int, approx: bool, note: str, width: int, checked: bool = True) -> Content:
    """One budget row: label, bar ``width`` cells wide, ``used of limit
    chars``, share, verdict (``N/A`` when the budget is not ``checked``)."""
    ok = used <= limit or not checked
    scale = max(used, limit) * 1.15 or 1
    bar = budget_bar(used / scale, limit / scale, max(width, 3), checked)
    verdict = (Content.styled(" N/A  ", "bold $text on $panel") if not checked
               else Content.styled(" PASS ", "bold $text on $success") if ok
               else Content.styled(" OVER ", "bold $text on $error"))
    return Content.assemble(verdict, " ", (f"{label:<12}", "bold"), bar, "  ", _figures(used, limit, approx, ok),
                            ("\n  " + note, "$text-muted") if note else "")


def budget_rows(snap: Snapshot, analysis: Analysis, width: int) -> Content:
    """The budgets box: the index against ``max_index_ratio``, the Layer-1
    listing against Claude Code's and Codex's limits (docs/formats.md §5.2,
    §16), for a box ``width`` cells wide; then, when Claude Code's is
    exceeded, the skills that would lose their descriptions."""
    st = analysis.stats
    b = st["budget"]
    most = budget_max_chars(st["registry"]["chars"], b["max_index_ratio"])
    checked = budget_checked(st["registry"]["chars"])
    lst = analysis.listing
    # the bars share what the widest figures leave, so no share wraps onto a line of its own
    # (a 10,000-skill registry's "1,232,480 of 1,760,184 chars  70.0%" pushed "70.0%" down)
    figures = [_figures(b["index_chars"], most, False, True)]
    if lst is not None:
        figures += [_figures(lst["capped_chars"], lst["claude_code"]["budget_chars"], not lst["claude_code"]["exact"], True),
                    _figures(lst["block_chars"], lst["codex"]["budget_chars"], True, True)]
    bar_width = max(min(width - _ROW_FIXED - max(f.cell_length for f in figures), 40), 3)
    rows = [_row("index", b["index_chars"], most, False,
                 f"max_index_ratio {b['max_index_ratio']} of the registry's {num(st['registry']['chars'])} chars, "
                 "rounded down" + ("" if checked else f"; not checked below {BUDGET_MIN_REGISTRY_CHARS:,} chars of registry"),
                 bar_width, checked)]
    if lst is not None:
        cc, codex = lst["claude_code"], lst["codex"]
        files = lst["settings"]["files"]
        where = ("settings: " + ", ".join(files)) if files else "settings: no file found"
        rows.append(_row("Claude Code", lst["capped_chars"], cc["budget_chars"], not cc["exact"],
                         f"{cc['source']}; {where}", bar_width))
        rows.append(_row("Codex", lst["block_chars"], codex["budget_chars"], True, codex["source"], bar_width))
        if not cc["ok"]:
            lose = cc["lose_descriptions"]
            shown = ", ".join(lose[:8]) + (f" and {num(len(lose) - 8)} more" if len(lose) > 8 else "")
            rows.append(Content.assemble(
                ("Claude Code keeps every name and drops descriptions, least-used first: at least ", "$warning"),
                (f"{num(len(lose))} of {num(cc['listed'])}", "bold $warning"),
                (" would go; the fewest that would fit are the longest: ", "$warning"), (shown, "bold")))
    return Content("\n").join(rows)


def since_lines(analysis: Analysis, since: dict | None, error: str | None, rev: str) -> Content:
    """The "what changed" box: since the last build (the index on disk
    against a fresh build of the registry), then since git revision ``rev``
    (``since``: :func:`routelens.tools.history.since`, or ``error``)."""
    chk = analysis.check
    a, c, r, m = len(chk.added), len(analysis.changed), len(chk.removed), len(analysis.moved)
    now = analysis.stats["index"]["chars"]
    before = analysis.index_on_disk_chars
    delta_style = "bold $success" if a + c + r == 0 else "bold $warning"
    parts: list = [("since the build ", "bold"), ("(generated/ on disk)  ", "$text-muted")]
    if before is None:
        parts += [("no index on disk", "$warning")]
    else:
        parts += [(f"+{num(a)} ~{num(c)} -{num(r)}", delta_style), (f", {num(m)} only moved" if m else "", "$text-muted"),
                  ("   index ", "$text-muted"), (f"{num(before)} → {num(now)} chars", "bold"),
                  (f" ({now - before:+,})" if now != before else " (same size)", "$text-muted")]
    details = []
    for label, ids in (("added", chk.added), ("changed", analysis.changed), ("removed", chk.removed)):
        if ids:
            shown = ", ".join(ids[:6]) + (f" … (+{num(len(ids) - 6)})" if len(ids) > 6 else "")
            details.append(Content.assemble((f"{label}: ", "$text-muted"), (shown, "bold")))
    out = Content.assemble(*parts)
    if details:
        out = out + Content("\n  ") + Content("   ").join(details)
    head = Content.assemble("\n", ("since ", "bold"), (rev, "bold $accent"), "  ")
    if error is not None:
        return out + head + Content.styled(error, "$text-muted")
    if since is None:
        return out + head + Content.styled("comparing…", "$text-muted")
    sa, sc, sr = len(since["added"]), len(since["changed"]), len(since["removed"])
    lines = [out, head + Content.assemble(
        (f"({since['commit'][:12]})  ", "$text-muted"),
        (f"+{num(sa)} ~{num(sc)} -{num(sr)}", "bold $success" if sa + sc + sr == 0 else "bold $warning"))]
    for key, label in (("index", "index"), ("layer1", "Layer-1 block")):
        f = since[key]
        lines.append(Content.assemble(
            (f"  {label:<14}", "$text-muted"), (f"{num(f['old_bytes'])} → {num(f['new_bytes'])} bytes", "bold"),
            (f" ({f['new_bytes'] - f['old_bytes']:+,}), ", "$text-muted"), ("unchanged start ", "$text-muted"),
            (pct(f["unchanged_share_of_new"]), "bold")))
    lines.append(Content.styled("  (the unchanged start is the prompt-cache prefix that survives the edits)",
                                "$text-muted"))
    return Content("\n").join(lines)


class _Fitted(Static):
    """A Static painted for its width: ``paint`` runs again on every resize."""

    def __init__(self, paint, *, id: str) -> None:
        super().__init__("", id=id)
        self._paint = paint

    def on_resize(self) -> None:
        self.call_after_refresh(self._paint)


class StatsScreen(Screen[None]):
    """Opened with F3 on ``snapshot``; Escape or F3 closes it. Figures come
    from :func:`routelens.tui.model.analyze` in a worker, once per load
    (kept in ``snapshot.analysis``); the comparison with a git revision
    (``HEAD`` first; type another in the box and press Enter) in another."""

    BINDINGS = [Binding("escape,f3", "close", "Back")]

    #: Below this width the boxes stack in one column (two need ~150 cells to keep each row on one line).
    NARROW_WIDTH = 150

    DEFAULT_CSS = """
    StatsScreen { layout: vertical; background: $background; }
    StatsScreen #stats-title { height: 1; background: $panel; padding: 0 1; }
    StatsScreen #stats-body { height: 1fr; }
    StatsScreen #stats-columns { height: auto; }
    StatsScreen #stats-left { width: 1fr; height: auto; }
    StatsScreen #stats-right { width: auto; height: auto; }
    StatsScreen #stats-right .box, StatsScreen #stats-right DataTable { width: auto; }
    StatsScreen.-narrow #stats-right .box { width: 1fr; }
    StatsScreen.-narrow #stats-columns { layout: vertical; }
    StatsScreen.-narrow #stats-left, StatsScreen.-narrow #stats-right { width: 1fr; }
    StatsScreen #fresh-box {
        height: auto;
        border: round $success;
        border-title-style: bold;
        padding: 0 1;
        background: $surface;
        &.-stale { border: heavy $warning; background: $warning 12%; }
        &.-missing, &.-invalid { border: heavy $error; background: $error 12%; }
    }
    StatsScreen .box {
        height: auto;
        border: round $panel-lighten-2;
        border-title-style: bold;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }
    StatsScreen #since-ask { height: 1; margin: 1 0 0 0; }
    StatsScreen #since-label, StatsScreen #since-enter { width: auto; color: $text-muted; }
    StatsScreen #since-rev { width: 24; height: 1; border: none; padding: 0 1; background: $boost; }
    StatsScreen DataTable { height: auto; background: $surface; scrollbar-size-horizontal: 0; }
    """

    class SinceDone(Message, bubble=False):
        """The comparison of load ``snapshot`` with git revision ``rev`` (``result`` or ``error``)."""

        def __init__(self, rev: str, result: dict | None, error: str | None, snapshot: Snapshot) -> None:
            super().__init__()
            self.rev, self.result, self.error, self.snapshot = rev, result, error, snapshot

    def __init__(self, snapshot: Snapshot, *, last_good: bool = False) -> None:
        super().__init__()
        #: the load whose figures are shown (fixed while the panel is open)
        self.snapshot = snapshot
        #: True when the registry on disk has errors and ``snapshot`` is the last good load
        self.last_good = last_good
        self.analysis: Analysis | None = None
        #: the git revision compared with, and its result (or why there is none)
        self.rev = "HEAD"
        self.since: dict | None = None
        self.since_error: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="stats-title")
        with VerticalScroll(id="stats-body"):
            yield Static("", id="fresh-box")
            with Horizontal(id="stats-columns"):
                with Vertical(id="stats-left"):
                    with Vertical(classes="box", id="budget-box"):
                        yield _Fitted(self._paint_budget, id="budget")
                    with Vertical(classes="box", id="since-box"):
                        yield Static("", id="since")
                        with Horizontal(id="since-ask"):
                            yield Static("compare with the git revision ", id="since-label")
                            yield LineInput(self.rev, placeholder="HEAD, a tag, a commit…", id="since-rev")
                            yield Static(" Enter", id="since-enter")
                    with Vertical(classes="box", id="sizes-box"):
                        yield DataTable(id="sizes", cursor_type="none", zebra_stripes=False)
                    with Vertical(classes="box", id="layer1-box"):
                        yield Static("", id="layer1")
                with Vertical(id="stats-right"):
                    with Vertical(classes="box", id="contrib-box"):
                        yield DataTable(id="contrib", cursor_type="none", zebra_stripes=False)
                    with Vertical(classes="box", id="listing-box"):
                        yield DataTable(id="listing-contrib", cursor_type="none", zebra_stripes=False)
        yield FittingFooter()

    def on_mount(self) -> None:
        snap = self.snapshot
        self.query_one("#since-rev", Input).cursor_blink = False
        self.query_one("#budget-box").border_title = "Budgets · the index and the agents' skill listings"
        self.query_one("#since-box").border_title = "What changed · since the build and since a git revision"
        self.query_one("#sizes-box").border_title = "Sizes · a fresh build against the registry"
        self.query_one("#layer1-box").border_title = "Layer 1 · what an agent's system prompt carries"
        self.query_one("#contrib-box").border_title = "Biggest in the index"
        self.query_one("#listing-box").border_title = "Biggest in the Layer-1 listing"
        self.query_one("#fresh-box").border_title = "Freshness"
        self._paint_title()
        sizes = self.query_one("#sizes", DataTable)
        for label, key in (("file", "file"), ("chars", "chars"), ("bytes", "bytes"), ("lines", "lines"),
                           ("vs registry", "red")):
            sizes.add_column(label, key=key)
        contrib = self.query_one("#contrib", DataTable)
        for label, key in (("entry", "id"), ("kind", "kind"), ("chars", "chars"), ("share", "share"),
                           ("running", "total")):
            contrib.add_column(label, key=key)
        listing = self.query_one("#listing-contrib", DataTable)
        for label, key in (("skill", "id"), ("chars", "chars"), ("share", "share"), ("running", "total")):
            listing.add_column(label, key=key)
        self._relayout(self.app.size.width)
        self._load(snap)

    def _paint_title(self) -> None:
        snap = self.snapshot
        self.query_one("#stats-title", Static).update(Content.assemble(
            ("Stats ", "bold"), (snap.paths.registry_name, "bold $accent"),
            *((("  the registry on disk has errors: these are the figures of the last good load ",
                "bold $text on $warning"),) if self.last_good else ()),
            # "Esc back" before the long words: at 80 columns the title was cut before it (a fifth newcomer's trial)
            (f"  ·  {num(len(snap.registry.skills))} skills  ·  Esc back  ·  figures of a fresh in-memory build, like "
             "`routelens stats`", "$text-muted"),
        ))

    def _load(self, snap: Snapshot) -> None:
        """Paint the figures of ``snap``: at once when its analysis is kept, else in a worker."""
        if snap.analysis is not None:
            self.show_analysis(snap.analysis)
        else:
            self._show_freshness(snap, None)
            for box in ("#budget-box", "#sizes-box", "#contrib-box", "#since-box", "#listing-box"):
                self.query_one(box).loading = True
            self._analysis_worker(snap)
        self._since_worker(snap, self.rev)

    def show_load(self, snapshot: Snapshot, *, last_good: bool = False) -> None:
        """Show the figures of a new load while the panel is open: the
        registry or the index changed on disk and the app loaded it again
        (a newcomer's panel kept saying STALE with the old hash after a
        rebuild). ``last_good``: the registry on disk has errors and
        ``snapshot`` is still the last good load (only the title changes)."""
        changed = snapshot is not self.snapshot
        self.snapshot, self.last_good = snapshot, last_good
        self._paint_title()
        if changed:
            self.analysis = None
            self.since, self.since_error = None, None
            self._load(snapshot)

    def on_resize(self, event: events.Resize) -> None:
        self._relayout(event.size.width)

    def _relayout(self, width: int) -> None:
        self.set_class(width < self.NARROW_WIDTH, "-narrow")
        if self.analysis is not None:
            self.call_after_refresh(self._paint_budget)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False, description="analysis")
    def _analysis_worker(self, snap: Snapshot) -> None:
        self.post_message(AnalysisDone(snap, analyze(snap)))

    def on_analysis_done(self, message: AnalysisDone) -> None:
        message.snapshot.analysis = message.analysis  # kept with its load: opening the panel again is instant
        if message.snapshot is self.snapshot:  # not the figures of a load replaced meanwhile
            self.show_analysis(message.analysis)

    @work(thread=True, exclusive=True, group="since", exit_on_error=False, description="since")
    def _since_worker(self, snap: Snapshot, rev: str) -> None:
        try:
            result, error = since_revision(snap, rev), None
        except HistoryError as exc:  # the header names the registry: its file name is enough here
            result, error = None, str(exc).replace(str(snap.paths.registry), snap.paths.registry.name)
        except Exception as exc:  # git is optional: never break the panel
            result, error = None, f"git history: {exc}"
        self.post_message(self.SinceDone(rev, result, error, snap))

    def on_stats_screen_since_done(self, message: "StatsScreen.SinceDone") -> None:
        if message.rev != self.rev or message.snapshot is not self.snapshot:
            return  # another revision, or another load, was asked for meanwhile
        self.since, self.since_error = message.result, message.error
        self._paint_since()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "since-rev":
            event.stop()
            self.rev = event.value.strip() or "HEAD"
            self.since, self.since_error = None, None
            self._paint_since()
            self._since_worker(self.snapshot, self.rev)

    def _show_freshness(self, snap: Snapshot, analysis: Analysis | None) -> None:
        box = self.query_one("#fresh-box", Static)
        box.set_classes(f"-{snap.freshness.state}")
        box.update(freshness_lines(snap, analysis))

    def _paint_budget(self) -> None:
        if self.analysis is None or not self.is_attached:
            return
        box = self.query_one("#budget", Static)
        if box.content_size.width:
            box.update(budget_rows(self.snapshot, self.analysis, box.content_size.width))

    def _paint_since(self) -> None:
        if self.analysis is None or not self.is_attached:
            return
        self.query_one("#since", Static).update(since_lines(self.analysis, self.since, self.since_error, self.rev))

    def show_analysis(self, analysis: Analysis) -> None:
        """Fill the panel (called on the UI thread when figures are ready)."""
        if not self.is_attached:
            return
        self.analysis = analysis
        snap = self.snapshot
        for box in ("#budget-box", "#sizes-box", "#contrib-box", "#since-box", "#listing-box"):
            self.query_one(box).loading = False
        self._show_freshness(snap, analysis)
        self._paint_budget()
        self._paint_since()
        st = analysis.stats
        paths = snap.paths
        sizes = self.query_one("#sizes", DataTable)
        sizes.clear()
        rows = [
            (paths.registry_name, st["registry"], None),
            (paths.show(paths.index), st["index"], exact_reduction(st["index"], st["registry"])),
            (paths.show(paths.catalog), st["catalog"], exact_reduction(st["catalog"], st["registry"])),
        ]
        for name, m, red in rows:
            if red is None:
                rel = Content.styled("—", "$text-muted")
            else:  # 1 - chars/registry, as `routelens stats`, in words rather than a sign
                rel = Content.styled(size_vs_registry(red), "bold $success" if red > 0 else "$warning")
            sizes.add_row(*(cell(sizes, c) for c in (Content.styled(name, "bold"), num(m["chars"]), num(m["bytes"]),
                                                     num(m["lines"]), rel)))
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
        # running totals are the listed chars over the whole, not a sum of rounded shares (ten shares
        # rounded to 0.0002 each summed to 0.2% where the chars make 0.17%)
        contrib = self.query_one("#contrib", DataTable)
        contrib.clear()
        total, running = max(st["index"]["chars"], 1), 0
        for r in st["top_contributors"]:
            running += r["chars"]
            contrib.add_row(*(cell(contrib, c) for c in (
                Content.styled(r["id"], "bold"), Content.styled(r["kind"], "$text-muted"), num(r["chars"]),
                pct(r["share"]), Content.styled(pct(running / total), "$accent"))), key=f"{r['kind']}:{r['id']}")
        self.query_one("#contrib-box").border_subtitle = (
            f"top {len(st['top_contributors'])}: {pct(running / total)} of {num(st['index']['chars'])} chars")
        listing = self.query_one("#listing-contrib", DataTable)
        listing.clear()
        total, running = max(analysis.listing["capped_chars"], 1) if analysis.listing is not None else 1, 0
        for r in analysis.layer1_top:
            running += r["chars"]
            listing.add_row(*(cell(listing, c) for c in (
                Content.styled(r["id"], "bold"), num(r["chars"]), pct(r["share"]),
                Content.styled(pct(running / total), "$accent"))), key=f"skill:{r['id']}")
        if analysis.listing is not None:
            self.query_one("#listing-box").border_subtitle = (
                f"top {len(analysis.layer1_top)}: {pct(running / total)} of {num(analysis.listing['capped_chars'])} chars")

    def action_close(self) -> None:
        self.dismiss(None)
