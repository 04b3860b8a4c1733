"""``routelens tune CASES``: sweep threshold and ambiguity margin over labelled cases; recommend one."""

from __future__ import annotations

import argparse
import json
import sys

from routelens.cli.commands.common import diagnostics_exit, load_cases_or_exit, pct, tty_progress
from routelens.cli.commands.route import open_router
from routelens.tools.tune import (
    DEFAULT_MARGINS,
    DEFAULT_THRESHOLDS,
    TARGET_PRECISION,
    TuneReport,
    TuneRow,
    frontier,
    parse_grid,
    routing_yaml,
    tune,
)


def _grid(text: str) -> tuple[float, ...]:
    try:
        return parse_grid(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub, common) -> None:
    p = sub.add_parser(
        "tune", parents=[common], help="sweep threshold and ambiguity margin over labelled cases; recommend one",
        description="Route every case of CASES.yaml under every threshold and ambiguity margin of a grid and "
        "print the risk-coverage table (confident-wrong rate against coverage, with confident precision and "
        "must-fallback recall), the setting with the most coverage at confident precision >= 0.99 and "
        "must-fallback recall 1.0, and the routing: YAML to paste. Exit 0 when the registry's setting is the "
        "recommended one, 1 when it is not, 2 on bad input.")
    p.add_argument("cases", metavar="CASES.yaml")
    p.add_argument("--json", action="store_true", help="print every row of the sweep as JSON")
    p.add_argument("--all", action="store_true", help="print every setting, not only the risk-coverage frontier")
    p.add_argument("--thresholds", type=_grid, default=DEFAULT_THRESHOLDS, metavar="GRID",
                   help="thresholds to sweep: START:STOP[:STEP] or a list (default 60:100:1)")
    p.add_argument("--margins", type=_grid, default=DEFAULT_MARGINS, metavar="GRID",
                   help="ambiguity margins to sweep (default 0,1,2,3,4,5,6,8,10,12,15,20)")
    p.add_argument("--index", default=None, metavar="PATH", help="the compact index (default: in the generated folder)")
    p.set_defaults(func=run)


def _cells(row: TuneRow) -> str:
    return (f"{row.threshold:>9g} {row.margin:>6g} {pct(row.coverage):>9} {pct(row.confident_wrong_rate):>15} "
            f"{pct(row.precision):>10} {pct(row.must_fallback_recall):>15} {row.routed:>7}")


def format_report(rep: TuneReport, show_all: bool = False) -> list[str]:
    """The report for people: the table (the frontier, or every row), the
    current and recommended settings, and the YAML to paste."""
    rows = rep.rows if show_all else frontier(rep.rows, rep.preferred)
    marks = {rep.current.setting: "current", rep.recommended.setting: "recommended"}
    if rep.current.setting == rep.recommended.setting:
        marks[rep.current.setting] = "current, recommended"
    shown = {r.setting for r in rows}
    extra = [r for r in {rep.current.setting: rep.current, rep.recommended.setting: rep.recommended}.values()
             if r.setting not in shown]
    n = rep.current.cases
    lines = [f"{n} cases, {len(rep.rows)} settings ({len(rep.thresholds)} thresholds x {len(rep.margins)} margins), "
             f"index {rep.freshness}"]
    lines += [f"note: {note}" for note in rep.notes]
    title = "every setting" if show_all else "risk-coverage frontier (lowest confident-wrong rate for each coverage)"
    lines += ["", title + ":",
              f"{'threshold':>9} {'margin':>6} {'coverage':>9} {'confident-wrong':>15} {'precision':>10} "
              f"{'must-fallback':>15} {'routed':>7}"]
    for r in sorted([*rows, *extra], key=lambda r: (r.coverage, -r.confident_wrong_rate, r.threshold, r.margin)):
        mark = marks.get(r.setting)
        lines.append(_cells(r) + (f"  <- {mark}" if mark else ""))
    cur, rec = rep.current, rep.recommended
    lines.append("")
    if rep.current_is_recommended:
        lines.append(f"The current setting (threshold {cur.threshold:g}, margin {cur.margin:g}) is the recommended one: "
                     f"coverage {pct(cur.coverage)} at confident precision {pct(cur.precision)}.")
    elif rep.met:
        lines.append(f"Recommended: threshold {rec.threshold:g}, margin {rec.margin:g}: coverage {pct(rec.coverage)} "
                     f"(now {pct(cur.coverage)}) at confident precision {pct(rec.precision)} (now {pct(cur.precision)}), "
                     f"must-fallback recall {pct(rec.must_fallback_recall)}.")
    if not rep.met:
        lines.append(f"No setting reaches confident precision {pct(TARGET_PRECISION)} with every must-fallback case "
                     f"kept; the most precise is threshold {rec.threshold:g}, margin {rec.margin:g} "
                     f"(precision {pct(rec.precision)}, coverage {pct(rec.coverage)}). Tuning cannot fix this: the "
                     "wrong routes need trigger edits (`routelens eval` lists them).")
    if not rep.current_is_recommended:
        lines += ["", "Paste into skills.yaml (keep the section's other keys):", ""]
        lines += ["  " + line for line in routing_yaml(rec).splitlines()]
    return lines


def run(args) -> int:
    router = open_router(args)
    cases = load_cases_or_exit(args.cases, router)
    with diagnostics_exit():
        rep = tune(router, cases, args.thresholds, args.margins, progress=tty_progress("tuning"))
    if args.json:
        sys.stdout.write(json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        print("\n".join(format_report(rep, args.all)))
    return 0 if rep.current_is_recommended else 1
