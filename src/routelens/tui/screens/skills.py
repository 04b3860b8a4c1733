"""The skill browser: every skill, filterable by id, trigger or
description; the selected one's range, catalog entry, Layer-2 body
(Markdown) and ``explain`` for the current task.

Built for 10,000 skills and more: the list paints only its visible rows
(:class:`~routelens.tui.widgets.skill_list.SkillList`), the filter runs in
a thread worker (:class:`~routelens.tui.filtering.SkillFilter`) that posts
its result, and the selected skill's body, range, catalog entry and
explanation are read in another worker, after a pause in typing, while
the summary line follows every key at once."""

from __future__ import annotations

import re
import time

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Markdown, Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from routelens.artifacts.bodies import read_body as read_body_bytes
from routelens.errors import FileReadError
from routelens.limits import LIMITS
from routelens.registry import Skill
from routelens.text.visible import pictured
from routelens.tui.filtering import SkillFilter
from routelens.tui.messages import DetailReady, FilterDone
from routelens.tui.model import Snapshot, display_text
from routelens.tui.widgets.code_pane import CodePane
from routelens.tui.widgets.footer import FittingFooter
from routelens.tui.widgets.line_input import LineInput
from routelens.tui.widgets.skill_list import SkillList
from routelens.tui.words import num

__all__ = ["SkillBrowser", "FilterInput", "filter_skills", "read_body"]

#: Bodies larger than this are cut (the browser is for reading, not for 10 MB files).
MAX_BODY_CHARS = 200_000


def filter_skills(skills: list[Skill], query: str) -> list[Skill]:
    """Skills whose id, a trigger or the description contains every word
    of ``query`` (NFKC + casefold, so full-width and half-width forms
    match); all of them for an empty query. Order is kept
    (:class:`~routelens.tui.filtering.SkillFilter`, which the browser keeps
    between keys)."""
    return [skills[i] for i in SkillFilter(skills).match(query)]


_FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.S)


def read_body(snap: Snapshot, skill: Skill) -> tuple[str, str | None]:
    """``(markdown, problem)`` for a skill's Layer-2 body, read through
    :func:`routelens.artifacts.bodies.resolve_body_path` so a path escaping the
    registry folder (``..``, absolute, symlink) is refused. ``problem`` is
    None when the body was read; otherwise it says what is wrong and the
    markdown explains it. YAML frontmatter is shown as a code block. The
    file is read with the bounded reader (a FIFO or a device is refused at
    once, so the UI thread never blocks on it)."""
    try:
        raw = read_body_bytes(snap.registry, skill.path, LIMITS["max_body_bytes"])
    except ValueError as exc:
        return f"**Body not shown.** {exc}\n", str(exc)
    except FileReadError as exc:
        if exc.kind in ("missing", "not_a_folder"):
            msg = f"the body file {skill.path} is missing"
            return f"**No body.** {msg[0].upper() + msg[1:]}.\n", msg
        if exc.kind == "directory":
            msg = f"{skill.path} is a directory"
        elif exc.kind == "not_regular":
            msg = f"{skill.path} is {exc.detail}, not a regular file: not read"
        elif exc.kind == "too_big":
            msg = f"{skill.path} is larger than {exc.limit:,} bytes: not read"
        else:
            msg = f"{skill.path} cannot be read: {exc.detail or exc}"
        return f"**No body.** {msg}.\n", msg
    # control characters from a third-party body never reach the terminal (ESC ] 0 ; ... BEL, OSC 52)
    text = pictured(raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff"))
    note = ""
    if len(text) > MAX_BODY_CHARS:
        text, note = text[:MAX_BODY_CHARS], f"\n\n*… cut at {MAX_BODY_CHARS:,} characters.*\n"
    m = _FRONTMATTER.match(text)
    if m:
        text = f"```yaml\n{m.group(1)}```\n\n" + text[m.end():]
    return text + note, None


class FilterInput(LineInput):
    """The browser's filter. ``↓``/``↑`` (and page keys) move the list's
    highlight while typing, like ``↓``/``↑`` in the main screen's task
    input move between hits; Enter shows the highlighted skill in the
    panes, as Enter in the list does (it took two: the first only moved
    to the list); Tab moves to the list."""

    BINDINGS = [
        Binding("down", "screen.list_move(1)", "Next skill", id="browser-next"),
        Binding("up", "screen.list_move(-1)", "Prev skill", id="browser-prev"),
        Binding("pagedown", "screen.list_move(10)", "Page down", show=False, id="browser-page-down"),
        Binding("pageup", "screen.list_move(-10)", "Page up", show=False, id="browser-page-up"),
    ]


class SkillBrowser(Screen[str | None]):
    """Dismisses with ``"skills:<id>"`` (Enter: show it in the panes) or
    None (Escape).

    ``snap``: the load to browse; ``task``: the main screen's task (the
    explanation is for it); ``debounce``: seconds of typing pause before
    the selected skill's body, range, entry and explanation are read (0:
    at every change, as in the tests).

    State tests and benchmarks read: :attr:`shown` (the skills listed),
    :attr:`selected`, :attr:`body_problem`, :attr:`explanation`,
    :attr:`applied_filter` and :attr:`filter_applied_at` (the filter text
    of the list on screen, and ``perf_counter()`` after the frame showing
    it), :attr:`opened_at`, :attr:`pending` (a filter or a detail is on its
    way).
    """

    #: seconds of typing pause before the selected skill's body, range, entry and explanation are read
    DETAIL_PAUSE = 0.2

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("f2", "close", "Back", show=False),
        Binding("enter", "choose", "Show in panes", priority=False),
        Binding("ctrl+f", "focus_filter", "Filter"),
    ]

    DEFAULT_CSS = """
    SkillBrowser { layout: vertical; background: $background; }
    SkillBrowser #browser-title { height: 1; background: $panel; padding: 0 1; }
    SkillBrowser #filter { border: tall $accent; background: $surface; }
    SkillBrowser #browser-body { height: 1fr; }
    SkillBrowser #skill-list {
        width: 44%;
        min-width: 34;
        height: 1fr;
        border: round $panel-lighten-2;
        &:focus { border: round $accent; }
    }
    SkillBrowser #detail { width: 1fr; height: 1fr; }
    SkillBrowser #summary {
        height: auto;
        border: round $panel-lighten-2;
        background: $surface;
        padding: 0 1;
    }
    SkillBrowser #explain {
        height: auto;
        max-height: 50%;
        border: round $panel-lighten-2;
        border-title-color: $text;
        background: $surface;
        padding: 0 1;
        overflow-y: auto;
    }
    SkillBrowser #detail.-empty > #explain { display: none; }
    SkillBrowser #detail.-empty > TabbedContent { display: none; }
    SkillBrowser TabbedContent { height: 1fr; }
    SkillBrowser TabPane { padding: 0; }
    SkillBrowser #body-scroll { background: $surface; padding: 0 1; }
    SkillBrowser Markdown { margin: 0; padding: 0; }
    """

    def __init__(self, snap: Snapshot, task: str = "", *, debounce: float = 0.0, initial: str | None = None) -> None:
        super().__init__()
        self.snap = snap
        #: the id of the skill to open on (Enter on a hit of the main screen), else the first
        self.initial = initial
        self.task_text = task
        self.debounce = debounce
        self.skills = list(snap.registry.skills.values())
        self.shown: list[Skill] = list(self.skills)
        self.selected: Skill | None = None
        self.body_problem: str | None = None
        self.explanation: str = ""
        self.filter_text = ""
        self.filter_applied_at = 0.0
        #: the filter text of the list on screen
        self.applied_filter = ""
        #: ``perf_counter()`` after the first frame with the list and the summary painted
        self.opened_at = 0.0
        self._filter = SkillFilter(self.skills)
        self._filter_seq = 0
        self._filter_pending = False
        self._choose_when_filtered = False  # Enter came while the filter was on its way
        self._detail_timer: Timer | None = None
        self._detail_for: str | None = None  # the skill id whose detail is shown
        self._tabs_ready = False
        self._summary_height = 0
        self._detail_waiting: DetailReady | None = None  # arrived before the tabs were mounted
        self.skill_list = SkillList(self.skills, id="skill-list")

    def compose(self) -> ComposeResult:
        yield Static("", id="browser-title")
        yield FilterInput(placeholder="Filter by id, trigger or description (↓/↑ move in the list)", id="filter")
        with Horizontal(id="browser-body"):
            yield self.skill_list
            with Vertical(id="detail"):
                yield Static("", id="summary")
                yield Static("", id="explain")
        yield FittingFooter()

    async def _mount_tabs(self) -> None:
        """The body, range and catalog-entry tabs, mounted after the first
        frame: they cost more than the rest of the screen together (a
        TextArea each, Markdown), and the list and summary come first."""
        tabs = TabbedContent(id="detail-tabs")
        await self.query_one("#detail").mount(tabs)
        for pane in (TabPane("Body", VerticalScroll(Markdown("", id="body"), id="body-scroll"), id="tab-body"),
                     TabPane("Range", CodePane("range", id="range-pane"), id="tab-range"),
                     TabPane("Catalog entry", CodePane("catalog entry", id="entry-pane"), id="tab-catalog")):
            await tabs.add_pane(pane)
        self._tabs_ready = True
        if self._detail_waiting is not None:
            message, self._detail_waiting = self._detail_waiting, None
            self._apply_detail(message)

    def on_mount(self) -> None:
        self.query_one("#filter", Input).cursor_blink = False
        self.query_one("#explain").border_title = "explain · for the task on the main screen"
        self._title()
        at = next((i for i, s in enumerate(self.skills) if s.id == self.initial), 0) if self.initial else 0
        if self.skills:
            self.select(self.skills[at])
            if at:
                self.call_after_refresh(self.skill_list.move_to, at)
        else:
            self._show_none()
        self.query_one("#filter", Input).focus()
        self.call_after_refresh(self._mark_opened)

    def _mark_opened(self) -> None:
        self.opened_at = time.perf_counter()
        self.call_later(self._mount_tabs)
        self._prepare_filter()

    @work(thread=True, group="filter-prepare", exit_on_error=False, description="filter-prepare")
    def _prepare_filter(self) -> None:
        """Fold every skill's text before the first key (about 30 ms for
        10,000 skills), off the UI thread."""
        self._filter.haystacks

    @property
    def pending(self) -> bool:
        """True while a filter result or the selected skill's detail is on its way."""
        return self._filter_pending or self._detail_timer is not None or not self._tabs_ready or (
            self.selected is not None and self._detail_for != self.selected.id)

    # ------------------------------------------------------------------ list
    def _title(self) -> None:
        n, total = len(self.shown), len(self.skills)
        count = f"{num(n)} of {num(total)}" if n != total else num(total)
        self.query_one("#browser-title", Static).update(Content.assemble(
            ("Skills ", "bold"), (count, "bold $accent"),
            ("  ·  filter by id, trigger or description  ·  Enter shows the skill in the panes  ·  Esc back", "$text-muted"),
        ), layout=False)  # one line, always: no layout pass per key

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            event.stop()
            self.filter_text = event.value
            self._filter_seq += 1
            self._filter_pending = True
            self._filter_worker(event.value, self._filter_seq)

    @work(thread=True, exclusive=True, group="filter", exit_on_error=False, description="filter")
    def _filter_worker(self, query: str, seq: int) -> None:
        order = self._filter.match(query)
        if get_current_worker().is_cancelled:
            return
        self.post_message(FilterDone(seq, query, order))

    def on_filter_done(self, message: FilterDone) -> None:
        if message.seq != self._filter_seq:
            return  # a newer key is being filtered
        self._filter_pending = False
        self.applied_filter = message.query
        skills = self.skills
        self.shown = [skills[i] for i in message.order]
        self._title()
        self.skill_list.show(message.order)  # posts Highlighted: the first skill, or none
        self.call_after_refresh(self._mark_filter_painted)
        if self._choose_when_filtered:
            self._choose_when_filtered = False
            self._choose_current()

    def _mark_filter_painted(self) -> None:
        self.filter_applied_at = time.perf_counter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter shows the highlighted skill in the panes; a
        filter still on its way is waited for (its first skill is the one
        Enter means, not the one highlighted before the last key)."""
        if event.input.id == "filter":
            event.stop()
            if self._filter_pending:
                self._choose_when_filtered = True
            else:
                self._choose_current()

    def _choose_current(self) -> None:
        skill = self.skill_list.current
        if skill is not None:
            self.dismiss(f"skills:{skill.id}")

    def on_skill_list_highlighted(self, event: SkillList.Highlighted) -> None:
        if event.skill is None:
            self._show_none()
        elif event.skill is not self.selected:
            self.select(event.skill)

    def on_skill_list_chosen(self, event: SkillList.Chosen) -> None:
        self.dismiss(f"skills:{event.skill.id}")

    # ------------------------------------------------------------------ detail
    def _show_none(self) -> None:
        """No skill matches the filter: say so, and show no skill's details."""
        self.selected = None
        self._cancel_detail()
        self.query_one("#detail").add_class("-empty")
        words = f" “{self.filter_text.strip()}”" if self.filter_text.strip() else ""
        self.query_one("#summary", Static).update(Content.assemble(
            (f"No skill matches the filter{words}.", "bold $warning"),
            ("\nThe filter looks for every word in the ids, triggers and descriptions; "
             "remove a word (ctrl+w) or clear it (ctrl+u).", "$text-muted")))

    def select(self, skill: Skill) -> None:
        """Show ``skill`` in the detail side: the summary now; its body,
        range, catalog entry and explanation once typing pauses."""
        self.selected = skill
        self.query_one("#detail").remove_class("-empty")
        reg = self.snap.registry
        comps = reg.compositions_of(skill.id)
        status_style = "$success" if skill.status == "active" else "bold $warning"
        summary = Content.assemble(
            (skill.id, "bold $accent"), "  ", (f" {skill.priority} ", "bold $text on $primary"), "  ",
            (skill.status, status_style), "  ", (f"lines {skill.source_start}–{skill.source_end}", "bold"),
            ("" if skill.self_contained else "  (not self-contained: uses an alias from elsewhere)", "$warning"),
            "\n", (pictured(skill.description or "(no description)"), "" if skill.description else "$text-muted"),
            "\n", ("triggers ", "$text-muted"), pictured(" · ".join(skill.triggers)),
            "\n", ("body ", "$text-muted"), pictured(skill.path),
            ("   compositions ", "$text-muted"), (", ".join(comps) if comps else "—"),
        )
        box = self.query_one("#summary", Static)
        # a layout pass only when the summary's height changes (every key while typing selects a skill)
        height = summary.get_height(box.styles, box.content_size.width) if box.content_size.width else 0
        box.update(summary, layout=height != self._summary_height or not height)
        self._summary_height = height
        self._cancel_detail()
        if self.debounce > 0:
            self._detail_timer = self.set_timer(self.debounce, self._start_detail, name="detail-debounce")
        else:
            self._start_detail()

    def _cancel_detail(self) -> None:
        if self._detail_timer is not None:
            self._detail_timer.stop()
            self._detail_timer = None

    def _start_detail(self) -> None:
        self._detail_timer = None
        if self.selected is not None:
            self._detail_worker(self.selected, self.task_text)

    @work(thread=True, exclusive=True, group="detail", exit_on_error=False, description="detail")
    def _detail_worker(self, skill: Skill, task: str) -> None:
        snap = self.snap
        md, problem = read_body(snap, skill)
        if get_current_worker().is_cancelled:
            return
        range_text = display_text(snap.registry.range_text(skill.source_start, skill.source_end).rstrip("\n"))
        entry = snap.catalog.entry_text(f"skills:{skill.id}") if snap.catalog is not None else None
        if entry is not None:
            notice = (("▲ catalog.json is stale: built from an older registry.", "warning")
                      if snap.freshness.state == "stale" else (None, "warning"))
        else:
            notice = (snap.catalog_error or f"{skill.id} is not in catalog.json (stale?). F5 on the main screen "
                      "rebuilds.", "error")
        if get_current_worker().is_cancelled:
            return
        if not task.strip():
            text = "Type a task on the main screen to see why this skill would or would not be chosen for it."
        elif snap.router is None:
            text = "The router is still being prepared: open the browser again in a moment."
        else:
            try:
                text = snap.router.explain(task, skill.id).text
            except Exception as exc:  # explain must never take the browser down
                text = f"explain failed: {exc}"
        self.post_message(DetailReady(skill.id, md, problem, range_text, entry, notice, task, text))

    def on_detail_ready(self, message: DetailReady) -> None:
        skill = self.selected
        if skill is None or skill.id != message.skill_id:
            return  # another skill was selected meanwhile
        if not self._tabs_ready:
            self._detail_waiting = message
            return
        self._apply_detail(message)

    def _apply_detail(self, message: DetailReady) -> None:
        skill = self.selected
        if skill is None or skill.id != message.skill_id:
            return
        self._detail_for = skill.id
        self.body_problem = message.body_problem
        self.query_one("#body", Markdown).update(message.body)
        rp = self.query_one("#range-pane", CodePane)
        rp.show(message.range_text, "yaml")
        rp.view.line_number_start = skill.source_start
        rp.border_title = f"{self.snap.paths.registry_name} · lines {skill.source_start}–{skill.source_end}"
        ep = self.query_one("#entry-pane", CodePane)
        if message.entry is not None:
            ep.show(display_text(message.entry), "json")
        else:
            ep.show("", None)
        ep.set_notice(*message.entry_notice)
        ep.border_title = f"{self.snap.paths.show(self.snap.paths.catalog)} › skills.{skill.id}"
        self.explanation = message.explain
        task = message.task
        head = Content.assemble(("task ", "$text-muted"), (f"“{pictured(task)}”", "italic"), "\n") \
            if task.strip() else Content("")
        self.query_one("#explain", Static).update(head + Content(pictured(message.explain)))

    # ------------------------------------------------------------------ actions
    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self) -> None:
        """Show the highlighted skill in the panes (closes the browser)."""
        self._choose_current()

    def action_list_move(self, delta: int) -> None:
        """Move the list's highlight by ``delta`` rows (clamped), keeping the
        focus where it is (the filter)."""
        self.skill_list.move_to(self.skill_list.cursor + delta)

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()
