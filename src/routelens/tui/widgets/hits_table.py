"""A table of hits: the decision's matches, or its near misses ("why
not"). Row keys are hit keys (``skills:<id>``); highlighting a row tells
the app to reveal that entry in the panes."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable

from routelens.text.visible import pictured
from routelens.tui.cells import cell
from routelens.tui.model import Hit

__all__ = ["HitsTable"]

_ROLE = {
    "composition": ("composition", "bold $accent"),
    "match": ("", ""),
    "selected": ("selected", "$accent"),
    "rule": ("forced rule", "bold $warning"),
    "near": ("", ""),
}


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

    def __init__(self, *, near: bool = False, threshold: float = 85, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id=id, classes="-near" if near else None)
        self.near = near
        self.threshold = threshold
        self.hits: list[Hit] = []
        self.placeholder = ""
        self._quiet = False

    def on_mount(self) -> None:
        if self.near:
            self.add_column("why not", key="skill")
            self.add_column("score", key="score")
            self.add_column("best trigger", key="trigger")
            self.add_column("lines", key="lines")
        else:
            self.add_column("hit", key="skill")
            self.add_column("score", key="score")
            self.add_column("trigger", key="trigger")
            self.add_column("lines", key="lines")

    def set_hits(self, hits: list[Hit], current: int | None = None, threshold: float | None = None,
                 placeholder: str = "") -> None:
        """Replace the rows; put the cursor on row ``current`` without
        posting a message. ``placeholder`` is a dim row shown when there
        are no hits."""
        self.placeholder = placeholder
        if threshold is not None:
            self.threshold = threshold
        self._quiet = True
        self.clear()
        self.hits = list(hits)
        for h in self.hits:
            self.add_row(*(cell(self, c) for c in self._cells(h)), key=h.key)
        if not self.hits and self.placeholder:
            self.add_row(cell(self, Content.styled(self.placeholder, "italic $text-muted")), "", "", "", key="-none-")
        if current is not None and 0 <= current < len(self.hits):
            self.move_cursor(row=current, animate=False, scroll=True)
        self.call_after_refresh(self._unquiet)

    def _unquiet(self) -> None:
        self._quiet = False

    def _cells(self, h: Hit) -> tuple:
        label, style = _ROLE.get(h.role, ("", ""))
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

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if self._quiet or not self.hits or not self.has_focus:
            return  # only a user moving the cursor changes the current hit
        idx = event.cursor_row
        if 0 <= idx < len(self.hits):
            self.post_message(self.HitHighlighted(self, self.hits[idx], idx))
