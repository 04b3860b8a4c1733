"""``routelens eval``: run labelled routing cases and check the quality bar (docs/formats.md §7.4)."""

from __future__ import annotations

import json
import sys
import unicodedata

from routelens.cli.commands.common import diagnostics_exit, load_cases_or_exit, path_arg, pct
from routelens.cli.commands.route import open_router
from routelens.tools.evaluate import QUALITY_BAR, evaluate


def register(sub, common) -> None:
    p = sub.add_parser("eval", parents=[common], help="measure routing quality on labelled cases",
                       description="Route every case of CASES.yaml and print confident precision, coverage, "
                       "must-fallback recall, the off-topic false-route rate, a per-category table and the wrong "
                       "cases. Exit 1 when below the quality bar (precision >= 0.99, coverage of the routable "
                       "cases that hold a trigger >= 0.90, must-fallback recall = 1.0, off-topic false-route rate "
                       "= 0), 2 on bad input.")
    p.add_argument("cases", metavar="CASES.yaml")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--index", type=path_arg, default=None, metavar="PATH", help="the compact index (default: in the generated folder)")
    p.set_defaults(func=run)


def run(args) -> int:
    router = open_router(args)
    cases = load_cases_or_exit(args.cases, router)
    with diagnostics_exit():  # expect/composition ids the registry does not have
        rep = evaluate(router, cases)
    if args.json:
        sys.stdout.write(json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n")
        return 0 if rep.passed else 1
    c = rep.counts
    print(f"{c['cases']} cases, index {router.freshness.state}, threshold {router.threshold:g}, "
          f"margin {router.margin:g}")
    rows = [
        ("confident precision", rep.precision, f"{c['routed_correct']}/{c['routed']} routed decisions right", "precision"),
        ("coverage", rep.coverage, f"{c['routable_routed']}/{c['routable']} routable cases routed"
         + (f" (paraphrases apart: {c['paraphrase_routed']}/{c['paraphrase']})" if c["paraphrase"] else ""), "coverage"),
        ("must-fallback recall", rep.must_fallback_recall, f"{c['must_fallback_ok']}/{c['must_fallback']} fell back",
         "must_fallback_recall"),
        ("off-topic false-route", rep.offtopic_false_route_rate, f"{c['offtopic_routed']}/{c['offtopic']} routed",
         "offtopic_false_route_rate"),
    ]
    failing = " ".join(rep.failures)
    # a measure with no cases behind it (0/0) meets the bar vacuously (§7.4): it says so instead of "ok"
    behind = {"precision": c["routed"], "coverage": c["routable"], "must_fallback_recall": c["must_fallback"],
              "offtopic_false_route_rate": c["offtopic"]}
    untested = [label for label, _v, _d, key in rows if not behind[key]]
    for label, value, detail, key in rows:
        op, bound = QUALITY_BAR[key]
        mark = "FAIL" if key in failing else "-" if label in untested else "ok"
        shown = "n/a" if label in untested else pct(value)
        print(f"  {label:<22} {shown:>7}  (bar {op} {pct(bound)})  {mark:<4}  {detail}"
              + (" (not measured)" if label in untested else ""))
    print()
    # padded by display width: a Japanese category ("私生活") is two cells a character (a newcomer's trial)
    wide = max([14, *(_cells(cat) + 1 for cat in rep.categories)])
    print(f"  {'category'.ljust(wide)}{'cases':>6}{'routed':>8}{'right':>7}{'wrong':>7}{'missed':>8}")
    for cat, v in rep.categories.items():
        print(f"  {cat}{' ' * (wide - _cells(cat))}{v['cases']:>6}{v['routed']:>8}{v['correct']:>7}{v['wrong']:>7}"
              f"{v['missed']:>8}")
    # "right" beside "routed" read as a share of the routed cases (a newcomer's trial): say what each counts
    print("  right: the expected outcome, a right route or a fallback that was due; wrong: routed where it should "
          "not, or to another skill; missed: fell back on a routable case")
    for title, items in (("wrong", rep.wrong), ("missed (fell back on a routable case)", rep.missed)):
        if not items:
            continue
        print()
        print(f"{title}:")
        for r in items:
            d = r.decision
            # a case that must fall back may list the skills in play in `expect` ("translate the sql query
            # comments": translation, sql-query): it wants a fallback ("want cupping; got cupping" read as nonsense)
            in_play = r.case.composition or ",".join(r.case.expect)
            want = (f"a fallback (in play: {in_play})" if in_play else "a fallback") if r.case.expects_fallback \
                else in_play
            got = d.composition or ",".join(d.skills) or "(none)"
            task = r.case.task.replace("\n", " ")
            task = task if len(task) <= 70 else task[:69] + "…"
            print(f"  {args.cases}:{r.case.line}: [{r.case.category}] {json.dumps(task, ensure_ascii=False)}")
            mode = f" (mode {r.case.mode})" if r.case.mode else ""  # a case's mode when it names one
            print(f"      want {want}{mode}; got {got} ({d.mode}, {d.reason}): {d.message}")
    print()
    verdict = "PASS: meets the quality bar" if rep.passed else "FAIL: below the quality bar: " + "; ".join(rep.failures)
    print(verdict + (f" (not measured, no case behind it: {', '.join(untested)})" if untested else ""))
    return 0 if rep.passed else 1


def _cells(text: str) -> int:
    """Terminal cells ``text`` takes: two for a wide or full-width character
    (East Asian width W or F), one for any other."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
