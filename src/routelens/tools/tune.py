"""``routelens tune CASES``: sweep the router's settings over labelled cases
and recommend one (docs/formats.md §13).

Every case is routed under every setting of a grid (the ``threshold`` and
the ``ambiguity_margin`` of the registry's ``routing:`` section). Each
setting gets the metrics of docs/formats.md §7.3 and one more, the
**confident-wrong rate**: decisions that did not fall back and were wrong
(``wrong_route`` and ``false_route``), over all cases. Plotted against
coverage it is the risk-coverage curve of selective classification: how
much a router gets wrong for how much it dares to route.

The recommendation is the setting with the most coverage among those whose
confident precision is at least :data:`TARGET_PRECISION` and whose
must-fallback recall is 1.0; ties go to the higher precision, then to the
setting that changes fewer values and lies closest to the current one, then
to the higher threshold and the larger margin (the more careful one). When no
setting reaches the target, the most precise one is named, and the report
says the target is not met.

The evidence of a task (what the matchers find) depends on the threshold
only, so it is found once per threshold and decided under every margin
(:meth:`~routelens.routing.router.Router.decision_for`). Nothing in this
module imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from routelens.routing.router import Router
from routelens.tools.evaluate import Case, CasesError, check_ids, score

__all__ = ["TARGET_PRECISION", "DEFAULT_THRESHOLDS", "DEFAULT_MARGINS", "TuneRow", "TuneReport", "tune",
           "frontier", "routing_yaml", "parse_grid"]

#: The confident precision a recommended setting must reach.
TARGET_PRECISION = 0.99
#: Thresholds swept by default: 60 to 100 in steps of 1 (a score below 60 is not even a near miss).
DEFAULT_THRESHOLDS: tuple[float, ...] = tuple(float(t) for t in range(60, 101))
#: Ambiguity margins swept by default.
DEFAULT_MARGINS: tuple[float, ...] = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0)


@dataclass(frozen=True)
class TuneRow:
    """One setting and its metrics (shares in [0, 1]): ``threshold`` and
    ``margin`` (0-100 scores); ``coverage``, ``precision`` (confident
    precision), ``must_fallback_recall``, ``offtopic_false_route_rate`` as
    in docs/formats.md §7.3; ``confident_wrong_rate``: routed and wrong,
    over all cases; ``routed``, ``wrong`` and ``cases``: the counts."""

    threshold: float
    margin: float
    coverage: float
    precision: float
    must_fallback_recall: float
    offtopic_false_route_rate: float
    confident_wrong_rate: float
    routed: int
    wrong: int
    cases: int

    @property
    def setting(self) -> tuple[float, float]:
        """``(threshold, margin)``."""
        return (self.threshold, self.margin)

    @property
    def eligible(self) -> bool:
        """Confident precision at least :data:`TARGET_PRECISION` and every
        must-fallback case kept."""
        return self.precision >= TARGET_PRECISION and self.must_fallback_recall >= 1.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict, keys in field order (scores as numbers)."""
        return {"threshold": _num(self.threshold), "ambiguity_margin": _num(self.margin), "coverage": self.coverage,
                "confident_wrong_rate": self.confident_wrong_rate, "precision": self.precision,
                "must_fallback_recall": self.must_fallback_recall,
                "offtopic_false_route_rate": self.offtopic_false_route_rate, "routed": self.routed,
                "wrong": self.wrong, "cases": self.cases}


def _num(x: float) -> float | int:
    return int(x) if x == int(x) else x


@dataclass
class TuneReport:
    """The sweep: ``rows`` (every setting, thresholds ascending, then
    margins), ``current`` and ``recommended`` (rows of the grid),
    ``met`` (the recommended row is :attr:`TuneRow.eligible`)."""

    rows: list[TuneRow]
    current: TuneRow
    recommended: TuneRow
    met: bool
    thresholds: tuple[float, ...] = ()
    margins: tuple[float, ...] = ()
    freshness: str = "fresh"
    notes: list[str] = field(default_factory=list)

    @property
    def current_is_recommended(self) -> bool:
        """True when the registry's setting is the recommended one (``tune`` exits 0)."""
        return self.current.setting == self.recommended.setting

    @property
    def preferred(self) -> tuple[tuple[float, float], ...]:
        """The settings the frontier shows on a tie: the recommended, the current."""
        return (self.recommended.setting, self.current.setting)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON (``routelens tune --json``, docs/formats.md §13)."""
        return {"target_precision": TARGET_PRECISION, "met": self.met,
                "current": self.current.to_dict(), "recommended": self.recommended.to_dict(),
                "current_is_recommended": self.current_is_recommended,
                "routing_yaml": routing_yaml(self.recommended), "freshness": self.freshness, "notes": self.notes,
                "frontier": [r.to_dict() for r in frontier(self.rows, self.preferred)],
                "rows": [r.to_dict() for r in self.rows]}


def _row(t: float, m: float, cases: list[Case], decisions) -> TuneRow:
    rep = score(cases, decisions)
    c = rep.counts
    wrong = c["routed"] - c["routed_correct"]
    return TuneRow(t, m, rep.coverage, rep.precision, rep.must_fallback_recall, rep.offtopic_false_route_rate,
                   wrong / c["cases"] if c["cases"] else 0.0, c["routed"], wrong, c["cases"])


def _rank(row: TuneRow, current: tuple[float, float]) -> tuple:
    """Sort key, best first, among rows of equal eligibility: more coverage,
    higher precision, fewer settings changed, closer to the current one,
    then the more careful (higher threshold, larger margin)."""
    changed = (row.threshold != current[0]) + (row.margin != current[1])
    distance = abs(row.threshold - current[0]) + abs(row.margin - current[1])
    return (-row.coverage, -row.precision, changed, distance, -row.threshold, -row.margin)


def tune(router: Router, cases: Sequence[Case], thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
         margins: Sequence[float] = DEFAULT_MARGINS, progress: Callable[[float], None] | None = None) -> TuneReport:
    """Sweep ``thresholds`` x ``margins`` (0-100 scores) over ``cases`` with
    ``router``'s registry and index, and recommend a setting (see the
    module docstring). The router's own setting is always part of the grid.
    ``progress(fraction)`` is called after each threshold. Raises
    :class:`CasesError` when a case names an id the registry does not have,
    ``ValueError`` for a setting outside [0, 100]."""
    cases = list(cases)
    bad = check_ids(cases, router.skill_ids, router.composition_ids)
    if bad:
        raise CasesError(bad)
    current = (float(router.threshold), float(router.margin))
    ts = sorted({float(t) for t in thresholds} | {current[0]})
    ms = sorted({float(m) for m in margins} | {current[1]})
    for x in (*ts, *ms):
        if not 0 <= x <= 100:
            raise ValueError(f"a setting must be a score in [0, 100], got {x:g}")
    rows: list[TuneRow] = []
    for i, t in enumerate(ts):
        r = router.with_settings(threshold=t)
        evs = [r.evidence(c.task) for c in cases]
        for m in ms:
            settings = replace(r.settings, ambiguity_margin=m)
            rows.append(_row(t, m, cases, [r.decision_for(ev, settings) for ev in evs]))
        if progress is not None:
            progress((i + 1) / len(ts))
    by_setting = {row.setting: row for row in rows}
    cur = by_setting[current]
    eligible = [row for row in rows if row.eligible]
    if eligible:
        best = min(eligible, key=lambda row: _rank(row, current))
    else:
        best = min(rows, key=lambda row: (-row.precision, -row.must_fallback_recall) + _rank(row, current)[1:])
    notes = []
    if router.freshness.state != "fresh":
        notes.append(f"the index is {router.freshness.state}: every case falls back under every setting; "
                     "run `routelens build` first")
    return TuneReport(rows, cur, best, bool(eligible), tuple(ts), tuple(ms), router.freshness.state, notes)


def frontier(rows: Sequence[TuneRow], prefer: Sequence[tuple[float, float]] = ()) -> list[TuneRow]:
    """The risk-coverage frontier: for each coverage reached, the row with
    the lowest confident-wrong rate (ties: higher precision, a ``prefer``
    setting, higher threshold, larger margin), keeping only rows that lower
    the risk of every row of higher coverage. Sorted by coverage, ascending."""
    def key(r: TuneRow) -> tuple:
        return (r.confident_wrong_rate, -r.precision, r.setting not in prefer, -r.threshold, -r.margin)

    best: dict[float, TuneRow] = {}
    for row in rows:
        have = best.get(row.coverage)
        if have is None or key(row) < key(have):
            best[row.coverage] = row
    out: list[TuneRow] = []
    lowest = float("inf")
    for cov in sorted(best, reverse=True):
        row = best[cov]
        if row.confident_wrong_rate < lowest:
            out.append(row)
            lowest = row.confident_wrong_rate
    return sorted(out, key=lambda r: r.coverage)


def routing_yaml(row: TuneRow) -> str:
    """The ``routing:`` lines to paste into ``skills.yaml`` for ``row``'s
    setting (keep the section's other keys, such as ``high_risk``)."""
    return f"routing:\n  threshold: {row.threshold:g}\n  ambiguity_margin: {row.margin:g}\n"


def parse_grid(text: str) -> tuple[float, ...]:
    """A sweep axis from the command line: ``"70:100:2"`` (start, stop,
    step; stop included) or ``"0,2,5,10"``. Raises ``ValueError`` with a
    sentence for people."""
    text = text.strip()
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError
            start, stop = parts[0], parts[1]
            step = parts[2] if len(parts) == 3 else 1.0
            if step <= 0 or stop < start:
                raise ValueError
            out = []
            k = 0
            while start + k * step <= stop + 1e-9:
                out.append(round(start + k * step, 6))
                k += 1
            values = tuple(out)
        else:
            values = tuple(float(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"not a grid: {text!r} (write START:STOP[:STEP] or a list such as 0,2,5)") from None
    if not values or len(values) > 1000:
        raise ValueError(f"not a grid: {text!r} (1 to 1000 values)")
    for v in values:
        if not 0 <= v <= 100:
            raise ValueError(f"not a grid: {text!r} ({v:g} is outside 0-100)")
    return values
