"""The decision log in the TUI: every logged task with its logged decision
and the decision the registry on disk gives now (``routelens replay``),
changed ones marked; filters by change and by the reason now; Enter puts
the task into the main screen. Runs again when the registry changes."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from routelens.routing.matching import MATCHER_VERSION
from routelens.tools.replay import LogEntry, ReplayReport, outcome_key, read_log, replay
from routelens.tui.model import Snapshot
from routelens.tui.screens.cases import ALL, ListScreen, decided, short

__all__ = ["LogScreen"]

Row = tuple[LogEntry, dict[str, Any], dict[str, Any]]


def _side(d: dict[str, Any]) -> str:
    return decided(d.get("skills") or [], d.get("composition"), d.get("mode") or "full", d.get("reason"))


class LogScreen(ListScreen):
    ASK_ACTION = "ask_log"

    """Every decision of the log at ``path``, before (logged) and now."""

    TITLE_TEXT = "Decision log"
    FILTER_TITLES = ("change", "reason now")

    def compute(self, snap: Snapshot) -> tuple[list[Row], ReplayReport]:
        entries = read_log(self.path)
        router = snap.router
        rep = replay(entries, router, after_sha256=router.freshness.registry_sha256,  # type: ignore[union-attr]
                     after_freshness=router.freshness.state, matcher_version=MATCHER_VERSION)  # type: ignore[union-attr]
        return rep.entries, rep

    def columns(self) -> list[tuple[str, int, int | None, int]]:
        # each as wide as its widest cell up to its cap; on a narrow terminal the decisions give cells, the task last
        return [("line", 6, None, 0), ("change", 8, None, 0), ("logged", 44, 12, 1), ("now", 44, 12, 1),
                ("task", 70, 24, 2)]

    @staticmethod
    def changed(row: Row) -> bool:
        """True when the decision now differs from the logged one."""
        return outcome_key(row[1]) != outcome_key(row[2])

    def row_cells(self, row: Row) -> list[Any]:
        entry, before, after = row
        mark = Content.styled("changed", "bold $warning") if self.changed(row) else Content.styled("same", "$text-muted")
        return [str(entry.line), mark, _side(before), _side(after), short(entry.task, 60)]

    def row_task(self, row: Row) -> str:
        return row[0].task

    def filter_options(self, which: int) -> list[str]:
        if which == 0:
            return ["changed", "same"]
        return sorted({str(r[2].get("reason")) for r in self.rows})

    def keep(self, row: Row, change: str, reason: str) -> bool:
        return (change == ALL or (change == "changed") == self.changed(row)) and (
            reason == ALL or row[2].get("reason") == reason)

    def summary_content(self) -> Content:
        rep: ReplayReport = self.summary
        n, k = len(rep.entries), len(rep.changes)
        parts = [(f"{n} logged decisions   ", "bold"), (f"{k} changed", "bold $warning" if k else "bold $success"),
                 (f", {n - k} the same as logged   ", "$text-muted"),
                 (f"index {rep.after_freshness}, registry {(rep.after_sha256 or '')[:12]}", "$text-muted")]
        if rep.transitions:
            top = ", ".join(f"{t} ({c})" for t, c in list(rep.transitions.items())[:4])
            parts.append((f"\n{top}", "$text-muted"))
        for note in rep.notes:
            parts.append((f"\nnote: {note}", "$warning"))
        return Content.assemble(*parts)
