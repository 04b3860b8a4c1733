"""The decision panel: mode and reason in plain words, the task with its
matched spans highlighted, what was selected, the matches table and the
near misses ("why not")."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Region
from textual.widgets import Static

from routelens.text.visible import pictured
from routelens.tui.fit import fit_widths
from routelens.tui.model import Hit, dropped_of, fixes_window
from routelens.tui.widgets.hits_table import HitsTable
from routelens.tui.words import LAST_GOOD_DECISION, MODE_LABEL, REASON_LABEL, fix_line, fixes_heading, num, pct

__all__ = ["DecisionPanel", "task_content", "no_lone_word", "fit_lines"]

_MODE_STYLE = {
    "fast": "bold $text on $primary",
    "index": "bold $text on $success",
    "full": "bold $text on $warning",
}


def fit_lines(content: Content, width: int, lines: int) -> Content:
    """``content`` as it is when it wraps to at most ``lines`` lines of
    ``width`` cells, else cut so that it does, ending in an ellipsis (a
    newcomer's trial: a pasted task of 1,000 characters stopped mid-phrase
    at the panel's two lines, with no mark that more followed)."""
    budget = width * lines
    # a pasted task of 100,000 characters is never wrapped whole: one that cannot fit is cut first
    if width <= 1 or (content.cell_length <= budget and len(content.wrap(width)) <= lines):
        return content
    cut = content.truncate(budget, ellipsis=True)
    while budget > 1 and len(cut.wrap(width)) > lines:
        budget -= max(1, width // 8)
        cut = content.truncate(budget, ellipsis=True)
    return cut


def task_content(task: str, spans: list[tuple[int, int]], current: tuple[int, int] | None,
                 risk: list[tuple[int, int]] | None = None) -> Content:
    """The task text with matched ``spans`` ([start, end) character
    offsets) underlined, ``current`` painted strongest and ``risk`` spans
    (forced rules, high-risk terms) in the error colour. Line breaks and
    other control characters are shown as visible symbols so the panel
    keeps one line per task line: a line break as ↵, a control character
    as its picture (``␛`` for ESC, :func:`~routelens.text.visible.pictured`),
    any other invisible character as ``·``."""
    shown = "".join(c if c.isprintable() or c == " " else "↵" if c in "\n\r\u2028\u2029\x85"
                    else p if (p := pictured(c)) != c else "·" for c in task)
    content = Content(shown)
    n = len(shown)

    def clip(span: tuple[int, int]) -> tuple[int, int]:
        return max(0, min(span[0], n)), max(0, min(span[1], n))

    for s, e in sorted({clip(sp) for sp in spans}):
        if e > s:
            content = content.stylize("bold underline $text on $primary 40%", s, e)
    for s, e in sorted({clip(sp) for sp in risk or []}):
        if e > s:
            content = content.stylize("bold $text on $error 70%", s, e)
    if current is not None:
        s, e = clip(current)
        if e > s:
            content = content.stylize("bold $text on $accent 70%", s, e)
    return content


def no_lone_word(content: Content, width: int) -> Content:
    """``content`` wrapped to ``width`` cells with explicit line breaks so
    that, when it takes more than one line, its last line holds at least
    two words (a lone ``5`` under a sentence reads as a stray figure). The
    content is returned as it is when it fits on one line, or when no
    narrower wrap helps."""
    if width <= 0:
        return content
    lines = content.wrap(width)
    if len(lines) < 2 or len(lines[-1].plain.split()) >= 2:
        return content
    for w in range(width - 1, max(width // 2, 1), -1):
        narrower = content.wrap(w)
        if len(narrower[-1].plain.split()) >= 2:
            return Content("\n").join(line.rstrip() for line in narrower)
    return content

#: how many dropped candidates the summary line names; the rest are counted ("and 412 more dropped")
DROPPED_SHOWN = 3


class DecisionPanel(Vertical):
    """Shows one decision. ``show_decision`` fills it; ``show_hint`` shows
    what to do when no task is typed; ``set_current`` moves the focus hit."""

    DEFAULT_CSS = """
    DecisionPanel {
        height: auto;
        max-height: 20;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        padding: 0 1;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-title-style: bold;
        & > #decision-summary { height: auto; }
        & > #decision-task { height: auto; max-height: 2; color: $text; }
        & > #decision-selected { height: auto; color: $text-muted; }
        & > #decision-fixes { height: auto; max-height: 4; display: none; text-wrap: nowrap; text-overflow: ellipsis; }
        & > #decision-fixes.-shown { display: block; }
        & > #decision-tables { height: auto; margin-top: 1; }
        & > #decision-tables > HitsTable { width: auto; }
        & > #decision-tables > #near-misses { margin-left: 2; width: 1fr; }
        &.-empty > #decision-tables { display: none; }
        &.-empty > #decision-task { display: none; }
        &.-empty > #decision-selected { display: none; }
        &.-empty > #decision-fixes { display: none; }
        &.-superseded { border: round $warning; border-title-color: $warning; }
        &.-superseded > #decision-summary, &.-superseded > #decision-task, &.-superseded > #decision-selected {
            text-opacity: 60%;
        }
    }
    """

    # compose-time references
    summary: Static
    task_line: Static
    selected: Static
    fixes: Static
    matches: HitsTable
    near_misses: HitsTable

    def compose(self) -> ComposeResult:
        self.summary = Static("", id="decision-summary")
        self.task_line = Static("", id="decision-task")
        self.selected = Static("", id="decision-selected")
        self.fixes = Static("", id="decision-fixes")
        self.matches = HitsTable(id="matches")
        self.near_misses = HitsTable(near=True, id="near-misses")
        yield self.summary
        yield self.task_line
        yield self.selected
        yield self.fixes
        with Horizontal(id="decision-tables"):
            yield self.matches
            yield self.near_misses

    def on_mount(self) -> None:
        self.border_title = "Decision"
        self.show_hint()

    _summary: Content | None = None  # the decision's summary line, unwrapped
    _task_args: tuple | None = None  # what the task line was painted from, painted again when the width changes

    # ------------------------------------------------------------------ states
    def set_superseded(self, note: str | None) -> None:
        """``note``: the decision shown was made on files that have changed
        since (the header describes the new ones): the border says so and
        the content is dimmed until the decision of the new files replaces
        it. None: the decision is of the files the header describes."""
        self.set_class(note is not None, "-superseded")
        self.border_title = f"Decision · {note}" if note else "Decision"

    def show_hint(self, text: str | None = None) -> None:
        """No task yet: a one-line invitation."""
        self.set_superseded(None)
        self.add_class("-empty")
        self.border_subtitle = ""
        self._summary = None
        self._task_args = None
        self.summary.update(
            Content.assemble(
                ("Type a task above", "bold"),
                (" — routing runs as you type. Name a skill with ", "$text-muted"),
                ("/id", "bold $accent"),
                (" or ", "$text-muted"),
                ("$id", "bold $accent"),
                (" to route it directly; F1 explains every key.", "$text-muted"),
            )
            if text is None else Content(text)
        )
        self.matches.set_hits([])
        self.near_misses.set_hits([])

    def show_decision(self, decision: Any, hits: list[Hit], near: list[Hit], current: int,
                      registry_chars: int, threshold: float, last_good: bool = False) -> None:
        """Fill the panel from a router ``Decision``. ``last_good``: the
        registry on disk cannot be loaded now (errors, or gone), so the
        decision is the last good load's, which ``routelens route`` would
        refuse (exit 2): the summary opens by saying so."""
        self.remove_class("-empty")
        mode = decision.mode
        badge = Content.styled(f" {MODE_LABEL.get(mode, mode.upper())} ", _MODE_STYLE.get(mode, "reverse"))
        reason = Content.styled(f" {REASON_LABEL.get(decision.reason, decision.reason)} ", "bold $text on $panel")
        self._summary = Content.assemble(badge, reason, " ", Content(pictured(decision.message or "")))
        if last_good:
            self._summary = Content.assemble(
                (" LAST GOOD LOAD ", "bold $text on $error"), " ", (LAST_GOOD_DECISION, "$text-muted"), "\n",
                self._summary)
        self._paint_summary()

        self._paint_task(decision, hits, near, current)

        parts: list[Content | str] = []
        if decision.composition:
            parts += [("composition ", "$text-muted"), (decision.composition, "bold $accent"), ("  ", "")]
        if decision.skills:
            parts += [("skills ", "$text-muted"), (", ".join(decision.skills), "bold"), ("  ", "")]
        elif mode == "full":
            parts += [("no skill chosen: the agent reads the whole registry  ", "$text-muted")]
        if decision.rule:
            parts += [("rule ", "$text-muted"), (decision.rule, "bold $warning"), ("  ", "")]
        if decision.high_risk:
            parts += [("high-risk ", "$text-muted"), (", ".join(decision.high_risk), "bold $error"), ("  ", "")]
        for sid, why in decision.dropped[:DROPPED_SHOWN]:
            parts += [("dropped ", "$text-muted"), (sid, "strike"), (f" ({why})  ", "$text-muted")]
        if len(decision.dropped) > DROPPED_SHOWN:
            # a stale index's fallback at 50,000 skills listed hundreds, pushing the payload off the panel
            parts += [(f"and {num(len(decision.dropped) - DROPPED_SHOWN)} more dropped  ", "$text-muted")]
        share = decision.payload_chars / max(registry_chars, 1)
        parts += [("payload ", "$text-muted"), (f"{num(decision.payload_chars)} chars", "bold"),
                  (f" ({pct(share)} of the registry)", "$text-muted")]
        # the candidates that cleared the threshold, and why each was or was not selected (docs/formats.md
        # §6.10): those the decision is about first, then others up to EVIDENCE_SHOWN lines, then a count
        # (at 10,000 skills hundreds of lines pushed the chosen skill's and the matches table off the panel)
        evidence = list(getattr(decision, "evidence", ()) or ())
        about = set(decision.named() if hasattr(decision, "named") else ())
        gone = dropped_of(decision)
        # stable: router order within each group; a dropped candidate after the live ones, as in the table
        evidence.sort(key=lambda c: (c.id not in about, c.id in gone))
        shown = [c for i, c in enumerate(evidence) if i < self.EVIDENCE_SHOWN or c.id in about]
        # a candidate the router gave no word of its own was passed over by the fallback: say which one
        passed = f"not selected: {REASON_LABEL.get(decision.reason, decision.reason)}" if mode == "full" else (
            "not selected")
        for c in shown:
            parts += [("\nevidence ", "$text-muted"), (c.id, "bold" if c.selected else ""),
                      (f" · {c.why or passed}", "$text-muted")]
        if len(evidence) > len(shown):
            more = len(evidence) - len(shown)
            parts += [(f"\nevidence … and {num(more)} more candidate{'s' * (more != 1)} above the threshold "
                       "(the matches table lists them; F2 says why for each)", "$text-muted")]
        self.selected.update(Content.assemble(*parts))

        thr = f"{threshold:g}"
        self.matches.set_hits(
            hits, current, threshold, placeholder=f"no skill reached the threshold {thr}")
        self.near_misses.set_hits(
            near, None, threshold, placeholder="none" if hits else "no trigger came close")
        self.fit_tables()
        self.border_subtitle = f"hit {current + 1}/{len(hits)} · ↓↑ move" if hits else ""

    #: evidence lines shown besides those of the skills the decision is about (the rest are counted)
    EVIDENCE_SHOWN = 4

    #: cells between the two tables (the near misses' left margin)
    GAP = 2

    def fit_tables(self) -> None:
        """Share the panel's width between the two tables so that every
        score and line range shows whole: triggers, then ids, give up cells
        first (behind an ellipsis). The matches table gets what it needs,
        the near misses the rest."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        m, n = self.matches, self.near_misses
        cm, cn = m.columns_needed(), n.columns_needed()
        pad = 2 * m.cell_padding
        # each table keeps a cell for its own scroll bar
        budget = width - self.GAP - 2 - pad * (len(cm) + len(cn))
        widths = fit_widths(cm + cn, budget)
        m.set_widths(widths[: len(cm)])
        n.set_widths(widths[len(cm):])
        m.styles.width = sum(widths[: len(cm)]) + pad * len(cm) + 1

    def _paint_summary(self) -> None:
        """The mode, reason and sentence, wrapped so that the last line never
        holds a lone word (``... closer than the margin`` / ``5``)."""
        if self._summary is None:
            return
        self.summary.update(no_lone_word(self._summary, self.summary.content_size.width))

    def set_near_current(self, near: list[Hit], index: int) -> None:
        """A near miss ("why not" row ``index``) is the current entry of the panes: say so."""
        if 0 <= index < len(near):
            self.border_subtitle = f"why not {index + 1}/{len(near)}: {near[index].id} · ↓↑ move"
    def show_fixes_on_demand(self) -> None:
        """The fixes line of a fallback on a registry too big to check its
        fixes while typing (``AUTO_FIXES_MAX_SKILLS``): F7 checks them."""
        self.fixes.set_class(True, "-shown")
        self.fixes.update(Content.styled("F7 checks the fixes of this fallback (seconds on a registry this big; "
                                         "not started while you type)", "$text-muted"))

    def show_fixes_checking(self) -> None:
        """The fixes line while the fallback's fixes are being checked."""
        self.fixes.set_class(True, "-shown")
        self.fixes.update(Content.styled("checking fixes, each on a patched copy of the registry…", "$text-muted"))

    def show_fixes(self, fixes: list[Any], current: int = -1) -> None:
        """The verified fixes of a fallback (``tools.fixes.Fix``): a line
        saying how many there are and how to see the rest, then at most
        :data:`~routelens.tui.model.FIXES_SHOWN`, one line each (cut with
        an ellipsis, never wrapped: a wrapped fix pushed the others, and the
        count, out of the box), ``current`` (the one F7 copied last) marked
        and in the list (:func:`~routelens.tui.model.fixes_window`)."""
        self.fixes.set_class(bool(fixes), "-shown")
        if not fixes:
            self.fixes.update("")
            return
        shown = fixes_window(len(fixes), current)
        parts: list[Content | str | tuple[str, str]] = [(fixes_heading(shown, len(fixes)), "$text-muted")]
        for n in shown:
            f = fixes[n]
            mark = "▶ " if n == current else "  "
            parts += [("\n", ""), (mark, "bold $accent"), (f"fix {n + 1} ", "bold $success"),
                      (fix_line(f.kind, f.skill, f.yaml, f.where, f.effect), "")]
        self.fixes.update(Content.assemble(*parts))

    def reveal_row(self, table: HitsTable) -> None:
        """Scroll the panel so that ``table``'s cursor row is inside it.
        The table scrolls itself to its cursor, but its own height may pass
        the panel's bottom (many evidence lines above it): stepping through
        the hits moved the cursor onto a row the panel cut off."""
        row = table.cursor_row
        if not table.hits or not 0 <= row < table.row_count:
            return
        view = self.scrollable_content_region
        if not view.height or not table.region.height:
            return
        header = table.header_height if table.show_header else 0
        # the row's screen line: rows are one line high, below the table's fixed header
        y = table.region.y + header + row - round(table.scroll_y)
        # in the panel's own (virtual) coordinates; the table's header too when both fit
        top = y - view.y + round(self.scroll_y)
        head = table.region.y - view.y + round(self.scroll_y)
        region = Region(0, head, 1, top - head + 1) if 0 <= top - head < view.height else Region(0, top, 1, 1)
        self.scroll_to_region(region, animate=False, immediate=True, force=True)

    def set_current(self, hits: list[Hit], near: list[Hit], current: int, decision: Any) -> None:
        """Move the strongest span highlight to hit ``current``."""
        self._paint_task(decision, hits, near, current)
        self.border_subtitle = f"hit {current + 1}/{len(hits)} · ↓↑ move" if hits else ""

    def on_resize(self) -> None:
        """The tables, the sentence's wrap and the task line's cut follow the
        width (one handler: a second ``on_resize`` further down the class had
        replaced the first, so the tables and the sentence kept the old width)."""
        self.call_after_refresh(self.fit_tables)
        self.call_after_refresh(self._paint_summary)
        args = self._task_args
        if args is not None and not self.has_class("-empty"):
            self.call_after_refresh(lambda: self._paint_task(*args))  # the cut follows the width

    def _paint_task(self, decision: Any, hits: list[Hit], near: list[Hit], current: int) -> None:
        self._task_args = (decision, hits, near, current)
        cur = hits[current] if 0 <= current < len(hits) else None
        spans = [h.span for h in hits if h.span] or [h.span for h in near if h.span]
        risk = [tuple(m.span) for m in getattr(decision, "rule_matches", ()) or ()]
        task = task_content(decision.task, spans, cur.span if cur and cur.span else None, risk)
        self.task_line.update(fit_lines(Content.assemble(("task  ", "$text-muted"), task),
                                        self.task_line.content_region.width or self.size.width, 2))
