"""Column widths that fit a width: which columns give up cells, and which
never do. No Textual here.

Tables in the TUI show figures that must never be cut — a line range
``604–607`` cut to ``604–60`` reads as another number — next to text that
can lose its end behind an ellipsis (a trigger, an id). :func:`fit_widths`
takes each column's natural width (its widest cell), the smallest width it
may shrink to (None: never shrinks) and its turn to give (lower gives
first), and takes cells away until the columns fit.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Column", "fit_widths"]


@dataclass(frozen=True)
class Column:
    """One column: ``natural`` cells (its widest cell, header included);
    ``minimum`` cells it may shrink to (None: it never shrinks, as for line
    ranges, scores and counts); ``give``: its turn to give up cells, lower
    first (columns of the same turn give alternately, the widest first)."""

    natural: int
    minimum: int | None = None
    give: int = 0
    #: cells it gives before any other column does, down to this width (None: none): a long text column that
    #: reads well at this width gives up its tail before the ids beside it are cut
    ample: int | None = None


def fit_widths(columns: list[Column], available: int) -> list[int]:
    """Widths (cells, in the order of ``columns``) whose sum is at most
    ``available`` when the columns can shrink that far, else as small as
    their minimums allow. Columns that fit keep their natural widths.

    >>> fit_widths([Column(20, 6), Column(7)], 20)
    [13, 7]
    """
    widths = [c.natural for c in columns]
    over = sum(widths) - available
    for i, c in enumerate(columns):  # first what the long columns can spare and still read well
        if over > 0 and c.ample is not None and widths[i] > c.ample:
            spare = min(widths[i] - c.ample, over)
            widths[i] -= spare
            over -= spare
    for turn in sorted({c.give for c in columns if c.minimum is not None}):
        if over <= 0:
            break
        idx = [i for i, c in enumerate(columns) if c.give == turn and c.minimum is not None]
        while over > 0:
            room = [i for i in idx if widths[i] > max(columns[i].minimum or 0, 1)]
            if not room:
                break
            widest = max(room, key=lambda i: (widths[i], -i))
            widths[widest] -= 1
            over -= 1
    return widths
