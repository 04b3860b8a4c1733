"""The skill browser's list: one row per skill (id, canonical lines,
priority, status), a header and a row cursor.

A line-API view (:class:`~textual.scroll_view.ScrollView` painting only
the visible rows), so 10,000 or 100,000 skills cost nothing to show and a
new filter result is one assignment: a :class:`~textual.widgets.DataTable`
builds every row up front (about 2.5 s for 10,000 skills). Column widths
follow :func:`routelens.tui.fit.fit_widths`: line ranges and priorities
never shrink; statuses, then ids, give up cells behind an ellipsis.
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from routelens.registry import Skill
from routelens.tui.fit import Column, fit_widths

__all__ = ["SkillList"]

#: (header, shrinks to, turn to give): ids and statuses may shrink, lines and priorities never
_COLUMNS = (("skill", 10, 1), ("lines", None, 0), ("prio", None, 0), ("status", 4, 0))
_PAD = 1  # cells on each side of a column


class SkillList(ScrollView, can_focus=True):
    """Shows ``skills[i]`` for each ``i`` of :attr:`order` (set with
    :meth:`show`); :attr:`cursor` is a position in :attr:`order`. Posts
    :class:`SkillList.Highlighted` when the cursor moves and
    :class:`SkillList.Chosen` on Enter or a click on the cursor row."""

    COMPONENT_CLASSES = {
        "skill-list--header",
        "skill-list--id",
        "skill-list--muted",
        "skill-list--flag",
        "skill-list--cursor",
    }

    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "move(-1_000_000_000)", "First", show=False),
        Binding("end", "move(1_000_000_000)", "Last", show=False),
        Binding("enter", "choose", "Show in panes", show=False),
    ]

    DEFAULT_CSS = """
    SkillList {
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
        & > .skill-list--header { background: $panel; color: $text-muted; text-style: bold; }
        & > .skill-list--id { text-style: bold; }
        & > .skill-list--muted { color: $text-muted; }
        & > .skill-list--flag { color: $warning; text-style: bold; }
        & > .skill-list--cursor { background: $accent 30%; }
        &:focus > .skill-list--cursor { background: $accent 60%; }
    }
    """

    class Highlighted(Message):
        """The cursor is on ``skill`` (None: the list is empty)."""

        def __init__(self, skill_list: "SkillList", skill: Skill | None) -> None:
            super().__init__()
            self.skill_list = skill_list
            self.skill = skill

        @property
        def control(self) -> "SkillList":
            return self.skill_list

    class Chosen(Message):
        """Enter (or a click on the cursor row) on ``skill``."""

        def __init__(self, skill_list: "SkillList", skill: Skill) -> None:
            super().__init__()
            self.skill_list = skill_list
            self.skill = skill

        @property
        def control(self) -> "SkillList":
            return self.skill_list

    def __init__(self, skills: Sequence[Skill], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.skills = list(skills)
        self.order: Sequence[int] = range(len(self.skills))
        self.cursor = 0
        #: natural widths: the widest id, line range and status of all skills (computed once)
        ids = [s.id for s in self.skills]  # ids are ASCII (docs/formats.md §1.1): a cell per character
        self._natural = [
            max(5, max(map(len, ids), default=0)),
            max(5, max((len(str(s.source_start)) + len(str(s.source_end)) + 1 for s in self.skills), default=0)),
            4,
            max(6, max((len(s.status) for s in self.skills), default=0)),
        ]
        self._widths = list(self._natural)

    # ------------------------------------------------------------------ content
    @property
    def row_count(self) -> int:
        """Skills shown now."""
        return len(self.order)

    @property
    def current(self) -> Skill | None:
        """The skill under the cursor (None when the list is empty)."""
        return self.skills[self.order[self.cursor]] if self.order else None

    def show(self, order: Sequence[int]) -> None:
        """Show the skills at positions ``order`` (a filter result); the
        cursor goes to the first one."""
        self.order = order
        self.cursor = 0
        self.virtual_size = Size(self.size.width, len(order) + 1)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()
        self.post_message(self.Highlighted(self, self.current))

    def on_resize(self, event: events.Resize) -> None:
        self._widths = self.fit(self.scrollable_content_region.width)
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.order) + 1)
        self.refresh()

    def fit(self, content: int) -> list[int]:
        """The columns' widths in ``content`` cells. When the ids would be
        cut even with the statuses shrunk, the status column goes (width 0:
        the detail pane shows the status, and a skill that is not active
        keeps its flag colour on its id) and its cells go to the ids."""
        columns = [Column(n, c[1], c[2]) for n, c in zip(self._natural, _COLUMNS)]
        widths = fit_widths(columns, max(content - 2 * _PAD * len(columns), 0))
        if widths[0] < self._natural[0]:
            widths = fit_widths(columns[:-1], max(content - 2 * _PAD * (len(columns) - 1), 0)) + [0]
        return widths


    def cells(self, skill: Skill) -> tuple[str, str, str, str]:
        """The texts of a skill's row, as shown before fitting."""
        return skill.id, f"{skill.source_start}–{skill.source_end}", skill.priority, skill.status

    # ------------------------------------------------------------------ cursor
    def move_to(self, position: int) -> None:
        """Put the cursor on row ``position`` (clamped) and scroll it into view."""
        if not self.order:
            return
        position = max(0, min(position, len(self.order) - 1))
        if position == self.cursor:
            return
        self.cursor = position
        rows = max(self.scrollable_content_region.height - 1, 1)  # the header takes the first line
        top = self.scroll_offset.y
        if position < top:
            self.scroll_to(y=position, animate=False, immediate=True)
        elif position >= top + rows:
            self.scroll_to(y=position - rows + 1, animate=False, immediate=True)
        self.refresh()
        self.post_message(self.Highlighted(self, self.current))

    def action_move(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor + direction * max(self.scrollable_content_region.height - 2, 1))

    def action_choose(self) -> None:
        if self.current is not None:
            self.post_message(self.Chosen(self, self.current))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        position = self.scroll_offset.y + event.y - 1
        if 0 <= position < len(self.order):
            if position == self.cursor:
                self.action_choose()
            else:
                self.move_to(position)

    # ------------------------------------------------------------------ painting
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style

        def get(name: str) -> Style:
            # text styles keep the row's background (the cursor's); the header and cursor bring their own
            return self.get_component_rich_style(name, partial=name not in ("skill-list--header", "skill-list--cursor"))

        if y == 0:
            header = base + get("skill-list--header")
            return self._strip(("skill", "lines", "prio", "status"), (header,) * 4, width, header)
        position = self.scroll_offset.y + y - 1
        if position >= len(self.order):
            return Strip.blank(width, base)
        skill = self.skills[self.order[position]]
        row = base + get("skill-list--cursor") if position == self.cursor else base
        muted = row + get("skill-list--muted")
        status = row + get("skill-list--flag") if skill.status != "active" else muted
        ident = row + get("skill-list--id")
        if not self._widths[-1] and skill.status != "active":  # no status column: the id carries the flag
            ident = ident + get("skill-list--flag")
        return self._strip(self.cells(skill), (ident, muted, row, status), width, row)

    def _strip(self, cells: Sequence[str], styles: Sequence[Style], width: int, pad: Style) -> Strip:
        """One row as plain segments (no Rich rendering: ~30 rows a frame,
        every frame while typing)."""
        segments = []
        used = 0
        for value, style, w in zip(cells, styles, self._widths):
            if not w:  # a column given up to fit (the status at narrow widths)
                continue
            n = cell_len(value)
            if n > w:
                value = _cut(value, w)
                n = cell_len(value)
            segments.append(Segment(" " * _PAD, pad))
            segments.append(Segment(value, style))
            segments.append(Segment(" " * (w - n + _PAD), pad))
            used += w + 2 * _PAD
        if used < width:
            segments.append(Segment(" " * (width - used), pad))
        return Strip(segments, max(used, width)).crop(0, width)


def _cut(value: str, width: int) -> str:
    """``value`` cut to ``width`` cells, ending in an ellipsis."""
    if width <= 0:
        return ""
    out = ""
    for ch in value:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"
