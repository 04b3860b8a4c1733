"""A table of hits: the decision's matches, or its near misses ("why
not"). Row keys are hit keys (``skills:<id>``); highlighting a row tells
the app to reveal that entry in the panes.

Column widths are set from outside (:meth:`HitsTable.columns_needed`,
:meth:`HitsTable.set_widths`): the decision panel fits both tables into
its width together, so a line range or a score is never cut; triggers and
then ids give up cells first, behind an ellipsis."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable

from routelens.text.visible import pictured
from routelens.tui.cells import cell
from routelens.tui.fit import Column
from routelens.tui.model import Hit

__all__ = ["HitsTable"]

_ROLE = {
    "composition": ("composition", "bold $accent"),
    "match": ("", ""),
    "unselected": ("not selected", "$text-muted"),
    "selected": ("selected", "$accent"),
    "rule": ("forced rule", "bold $warning"),
    "near": ("", ""),
    "dropped": ("dropped", "$text-muted"),
}

#: ``(key, label of the matches table, label of the near misses table)``, in order
_COLUMNS = (
    ("skill", "hit", "why not"),
    ("score", "score", "score"),
    ("trigger", "trigger", "best trigger"),
    ("lines", "lines", "lines"),
)
#: the smallest width a shrinking column keeps, and its turn to give (lower first);
#: scores and line ranges never shrink
_SHRINK = {"trigger": (6, 0), "skill": (8, 1)}


class HitsTable(DataTable):
    """Matches (``near=False``) or near misses (``near=True``).

    Posts :class:`HitsTable.HitHighlighted` when the row cursor moves.
    """

    DEFAULT_CSS = """
    HitsTable {
        height: auto;
        max-height: 8;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
        & > .datatable--header { background: $panel; color: $text-muted; text-style: bold; }
        &:blur > .datatable--cursor { background: $accent 30%; }
        &.-near:blur > .datatable--cursor { background: $surface; text-style: none; }
    }
    """

    class HitHighlighted(Message):
        """The row cursor moved to ``hit``; ``near`` tells which table."""

        def __init__(self, table: "HitsTable", hit: Hit, index: int) -> None:
            super().__init__()
            self.table = table
            self.hit = hit
            self.index = index

        @property
        def control(self) -> "HitsTable":
            return self.table

    BINDINGS = [Binding("enter", "select_cursor", "Why (skills)")]

    class HitChosen(Message):
        """Enter on a row: the user asks why ``hit`` was (not) chosen."""

        def __init__(self, table: "HitsTable", hit: Hit) -> None:
            super().__init__()
            self.table = table
            self.hit = hit

        @property
        def control(self) -> "HitsTable":
            return self.table

    def __init__(self, *, near: bool = False, threshold: float = 85, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id=id, classes="-near" if near else None)
        self.near = near
        self.threshold = threshold
        self.hits: list[Hit] = []
        self.placeholder = ""
        self._quiet = False
        self._cells: list[tuple[Content, ...]] = []
        self._widths: list[int] | None = None
        self._current: int | None = None

    def on_mount(self) -> None:
        self._add_columns()

    def _add_columns(self) -> None:
        for i, (key, label, near_label) in enumerate(_COLUMNS):
            width = self._widths[i] if self._widths is not None else None
            header = Text(near_label if self.near else label, no_wrap=True, overflow="ellipsis", end="")
            self.add_column(header, key=key, width=width)

    def set_hits(self, hits: list[Hit], current: int | None = None, threshold: float | None = None,
                 placeholder: str = "") -> None:
        """Replace the rows; put the cursor on row ``current`` without
        posting a message. ``placeholder`` is a dim row shown when there
        are no hits."""
        self.placeholder = placeholder
        if threshold is not None:
            self.threshold = threshold
        self.hits = list(hits)
        self._cells = [self._row_cells(h) for h in self.hits]
        self._current = current
        self._fill()

    def _fill(self) -> None:
        self._quiet = True
        self.clear()
        for h, cells in zip(self.hits, self._cells):
            self.add_row(*(cell(self, c) for c in cells), key=h.key)
        if not self.hits and self.placeholder:
            self.add_row(cell(self, Content.styled(self.placeholder, "italic $text-muted")), "", "", "", key="-none-")
        current = self._current
        if current is not None and 0 <= current < len(self.hits):
            self.move_cursor(row=current, animate=False, scroll=True)
        self.call_after_refresh(self._unquiet)

    def _unquiet(self) -> None:
        self._quiet = False

    # ------------------------------------------------------------------ widths
    def columns_needed(self) -> list[Column]:
        """Each column's natural width (its widest cell or label), and how
        far it may shrink (:mod:`routelens.tui.fit`)."""
        out = []
        for i, (key, label, near_label) in enumerate(_COLUMNS):
            widest = cell_len(near_label if self.near else label)
            for cells in self._cells:
                widest = max(widest, cell_len(cells[i].plain))
            if i == 0 and not self.hits and self.placeholder:
                widest = max(widest, cell_len(self.placeholder))
            minimum, give = _SHRINK.get(key, (None, 0))
            if not self.hits and key == "trigger":
                minimum, give = 4, -1  # an empty table's trigger column holds only its header: it gives first
            out.append(Column(widest, minimum, give))
        return out

    def set_widths(self, widths: list[int] | None) -> None:
        """Fix the columns' widths (cells, padding not included; None: each
        as wide as its content). Rows are laid out again, the cursor kept."""
        if widths == self._widths:
            return
        self._widths = list(widths) if widths is not None else None
        if self.cursor_row is not None and 0 <= self.cursor_row < len(self.hits):
            self._current = self.cursor_row
        self.clear(columns=True)
        self._add_columns()
        self._fill()

    @property
    def widths(self) -> list[int] | None:
        """The fixed column widths (None: as wide as the content)."""
        return self._widths

    def _row_cells(self, h: Hit) -> tuple[Content, ...]:
        label, style = _ROLE.get(h.role, ("", ""))
        if h.role == "dropped":  # as the summary line shows it: struck out, and why (the JSON's `dropped`)
            name = Content.styled(h.id, "strike")
            label = f"{label}: {h.why}" if h.why else label
        else:
            name = Content.styled(h.id, "bold" if h.role != "near" else "")
        if label:
            name = name + Content.styled(f"  {label}", style)
        if h.score is None:
            score = Content.styled("—", "$text-muted")
        else:
            ok = h.score >= self.threshold
            score = Content.styled(f"{h.score:5.1f}", "bold $success" if ok else "$warning")
        trigger = Content(pictured(h.trigger or "")) if h.trigger else Content.styled("—", "$text-muted")
        lines = Content.styled(f"{h.start}–{h.end}" if h.start else "?", "$text-muted")
        return name, score, trigger, lines

    def on_focus(self) -> None:
        """Focusing the table makes its cursor row the current hit."""
        if self.hits and 0 <= self.cursor_row < len(self.hits):
            self.post_message(self.HitHighlighted(self, self.hits[self.cursor_row], self.cursor_row))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self.hits and 0 <= event.cursor_row < len(self.hits):
            self.post_message(self.HitChosen(self, self.hits[event.cursor_row]))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if self._quiet or not self.hits or not self.has_focus:
            return  # only a user moving the cursor changes the current hit
        idx = event.cursor_row
        if 0 <= idx < len(self.hits):
            self.post_message(self.HitHighlighted(self, self.hits[idx], idx))
