"""The skill browser: every skill, filterable by id, trigger or
description; the selected one's range, catalog entry, Layer-2 body
(Markdown) and ``explain`` for the current task."""

from __future__ import annotations

import json
import re
import unicodedata

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Markdown, Static, TabbedContent, TabPane

from routelens.artifacts.bodies import read_body as read_body_bytes
from routelens.errors import FileReadError
from routelens.limits import LIMITS
from routelens.registry import Skill
from routelens.text.visible import pictured
from routelens.tui.cells import cell
from routelens.tui.messages import ExplainReady
from routelens.tui.model import Snapshot, display_text
from routelens.tui.widgets.code_pane import CodePane

__all__ = ["SkillBrowser", "FilterInput", "filter_skills", "read_body"]

#: Bodies larger than this are cut (the browser is for reading, not for 10 MB files).
MAX_BODY_CHARS = 200_000


def _fold(s: str) -> str:
    return unicodedata.normalize("NFKC", s).casefold()


def filter_skills(skills: list[Skill], query: str) -> list[Skill]:
    """Skills whose id, a trigger or the description contains every word
    of ``query`` (NFKC + casefold, so full-width and half-width forms
    match); all of them for an empty query. Order is kept."""
    words = _fold(query).split()
    if not words:
        return list(skills)
    out = []
    for s in skills:
        hay = _fold(" ".join([s.id, *s.triggers, s.description or ""]))
        if all(w in hay for w in words):
            out.append(s)
    return out


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


class FilterInput(Input):
    """The browser's filter. ``↓``/``↑`` (and page keys) move the list's
    highlight while typing, like ``↓``/``↑`` in the main screen's task
    input move between hits; Enter moves to the list."""

    BINDINGS = [
        Binding("down", "screen.list_move(1)", "Next skill", id="browser-next"),
        Binding("up", "screen.list_move(-1)", "Prev skill", id="browser-prev"),
        Binding("pagedown", "screen.list_move(10)", "Page down", show=False, id="browser-page-down"),
        Binding("pageup", "screen.list_move(-10)", "Page up", show=False, id="browser-page-up"),
    ]


class SkillBrowser(Screen[str | None]):
    """Dismisses with ``"skills:<id>"`` (Enter: show it in the panes) or
    None (Escape)."""

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
        height: 1fr;
        border: round $panel-lighten-2;
        background: $surface;
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
        border: round $panel-lighten-2;
        border-title-color: $text;
        background: $surface;
        padding: 0 1;
    }
    SkillBrowser TabbedContent { height: 1fr; }
    SkillBrowser TabPane { padding: 0; }
    SkillBrowser #body-scroll { background: $surface; padding: 0 1; }
    SkillBrowser Markdown { margin: 0; padding: 0; }
    """

    def __init__(self, snap: Snapshot, task: str = "") -> None:
        super().__init__()
        self.snap = snap
        self.task_text = task
        self.skills = list(snap.registry.skills.values())
        self.shown: list[Skill] = list(self.skills)
        self.selected: Skill | None = None
        self.body_problem: str | None = None
        self.explanation: str = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="browser-title")
        yield FilterInput(placeholder="Filter by id, trigger or description (↓/↑ move in the list)", id="filter")
        with Horizontal(id="browser-body"):
            yield DataTable(cursor_type="row", id="skill-list")
            with Vertical(id="detail"):
                yield Static("", id="summary")
                yield Static("", id="explain")
                with TabbedContent(id="detail-tabs"):
                    with TabPane("Body", id="tab-body"):
                        with VerticalScroll(id="body-scroll"):
                            yield Markdown("", id="body")
                    with TabPane("Range", id="tab-range"):
                        yield CodePane("range", id="range-pane")
                    with TabPane("Catalog entry", id="tab-catalog"):
                        yield CodePane("catalog entry", id="entry-pane")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#filter", Input).cursor_blink = False
        table = self.query_one("#skill-list", DataTable)
        table.add_column("skill", key="id")
        table.add_column("prio", key="priority")
        table.add_column("lines", key="lines")
        table.add_column("status", key="status")
        self.query_one("#explain").border_title = "explain · for the task on the main screen"
        self._fill()
        self.query_one("#filter", Input).focus()

    # ------------------------------------------------------------------ list
    def _fill(self) -> None:
        table = self.query_one("#skill-list", DataTable)
        table.clear()
        for s in self.shown:
            status = Content.styled(s.status, "$text-muted" if s.status == "active" else "bold $warning")
            table.add_row(cell(table, Content.styled(s.id, "bold")), cell(table, s.priority),
                          cell(table, f"{s.source_start}–{s.source_end}"), cell(table, status), key=s.id)
        n, total = len(self.shown), len(self.skills)
        self.query_one("#browser-title", Static).update(Content.assemble(
            ("Skills ", "bold"), (f"{n} of {total}" if n != total else f"{total}", "bold $accent"),
            ("  ·  filter by id, trigger or description  ·  Enter shows the skill in the panes  ·  Esc back", "$text-muted"),
        ))
        if self.shown:
            self.select(self.shown[0])
        else:
            self.selected = None
            self.query_one("#summary", Static).update(Content.styled("No skill matches the filter.", "$warning"))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            event.stop()
            self.shown = filter_skills(self.skills, event.value)
            self._fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            event.stop()
            self.query_one("#skill-list").focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id != "skill-list" or event.row_key is None:
            return
        skill = self.snap.registry.skills.get(str(event.row_key.value))
        if skill is not None and skill is not self.selected:
            self.select(skill)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "skill-list" and event.row_key is not None:
            self.dismiss(f"skills:{event.row_key.value}")

    # ------------------------------------------------------------------ detail
    def select(self, skill: Skill) -> None:
        """Show ``skill`` in the detail side."""
        self.selected = skill
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
        self.query_one("#summary", Static).update(summary)
        md, problem = read_body(self.snap, skill)
        self.body_problem = problem
        self.query_one("#body", Markdown).update(md)
        rp = self.query_one("#range-pane", CodePane)
        rp.show(display_text(reg.range_text(skill.source_start, skill.source_end).rstrip("\n")), "yaml")
        rp.view.line_number_start = skill.source_start
        rp.border_title = f"{self.snap.paths.registry_name} · lines {skill.source_start}–{skill.source_end}"
        ep = self.query_one("#entry-pane", CodePane)
        entry = self.snap.catalog.entry(f"skills:{skill.id}") if self.snap.catalog else None
        if entry is not None:
            ep.show(display_text(json.dumps(entry, ensure_ascii=False, indent=2)), "json")
            ep.set_notice("▲ catalog.json is stale: built from an older registry." if self.snap.freshness.state == "stale" else None, "warning")
        else:
            ep.show("", None)
            ep.set_notice(self.snap.catalog_error or f"{skill.id} is not in catalog.json (stale?). F5 on the main screen rebuilds.", "error")
        ep.border_title = f"{self.snap.paths.show(self.snap.paths.catalog)} › skills.{skill.id}"
        self._explain(skill.id)

    @work(thread=True, exclusive=True, group="explain", exit_on_error=False)
    def _explain(self, skill_id: str) -> None:
        task = self.task_text
        if not task.strip():
            text = "Type a task on the main screen to see why this skill would or would not be chosen for it."
        elif self.snap.router is None:
            text = "The router is still being prepared: open the browser again in a moment."
        else:
            try:
                text = self.snap.router.explain(task, skill_id).text
            except Exception as exc:  # explain must never take the browser down
                text = f"explain failed: {exc}"
        self.post_message(ExplainReady(skill_id, task, text))

    def on_explain_ready(self, message: ExplainReady) -> None:
        skill_id, task, text = message.skill_id, message.task, message.text
        if self.selected is None or self.selected.id != skill_id:
            return  # another skill was selected meanwhile
        self.explanation = text
        head = Content.assemble(("task ", "$text-muted"), (f"“{pictured(task)}”", "italic"), "\n") \
            if task.strip() else Content("")
        self.query_one("#explain", Static).update(head + Content(pictured(text)))

    # ------------------------------------------------------------------ actions
    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self) -> None:
        if self.selected is not None:
            self.dismiss(f"skills:{self.selected.id}")

    def action_list_move(self, delta: int) -> None:
        """Move the list's highlight by ``delta`` rows (clamped), keeping the
        focus where it is (the filter)."""
        table = self.query_one("#skill-list", DataTable)
        if not table.row_count:
            return
        row = min(max(table.cursor_row + delta, 0), table.row_count - 1)
        if row != table.cursor_row:
            table.move_cursor(row=row, animate=False)

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()
