"""Do the triggers `routelens suggest` proposes generalise?

For each case set, the cases are split deterministically by position (even
and odd index). `suggest` runs on one half (in-sample); the registry with
every proposal applied (what `suggest --copy` writes) is then evaluated on
the other half (out-of-sample), against the unpatched registry on the same
half. Both directions are run. Prints a Markdown table (the README's
"Closing the loop" figures).

    python benchmarks/suggest_generalisation.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from routelens.registry.load import parse_registry, read_registry_bytes  # noqa: E402
from routelens.routing.router import Router  # noqa: E402
from routelens.tools.evaluate import evaluate, load_cases  # noqa: E402
from routelens.tools.suggest import suggest  # noqa: E402

SETS = [
    ("routing.yaml", ROOT / "skills.yaml", ROOT / "tests" / "cases" / "routing.yaml"),
    ("routing-holdout.yaml", ROOT / "skills.yaml", ROOT / "tests" / "cases" / "routing-holdout.yaml"),
    ("data-platform", ROOT / "benchmarks/registries/data-platform/skills.yaml",
     ROOT / "benchmarks/registries/data-platform/cases.yaml"),
    ("hospitality", ROOT / "benchmarks/registries/hospitality/skills.yaml",
     ROOT / "benchmarks/registries/hospitality/cases.yaml"),
]


def halves(cases):
    """(even, odd) cases by position in the file."""
    return cases[0::2], cases[1::2]


def run(reg_path: Path, cases_path: Path, train_first: bool = True) -> dict:
    """Suggest on one half, evaluate the patched registry on both."""
    raw = read_registry_bytes(reg_path)
    reg = parse_registry(raw, reg_path, str(reg_path))
    even, odd = halves(load_cases(cases_path))
    train, test = (even, odd) if train_first else (odd, even)
    rep = suggest(reg, raw, train)
    patched = parse_registry(rep.patched, reg_path, str(reg_path))
    base, new = Router.from_registry(reg), Router.from_registry(patched)
    out = {"triggers": len(rep.suggestions)}
    for name, half in (("in", train), ("out", test)):
        b, a = evaluate(base, half), evaluate(new, half)
        out[name] = (b, a)
    return out


def fmt(rep) -> str:
    c = rep.counts
    return f"{c['routed_correct']}/{c['routed']} = {rep.precision:.3f} | {rep.coverage:.3f}"


def main() -> int:
    print("| case set | suggest on | triggers | in-sample precision before -> after | in-sample coverage "
          "before -> after | out-of-sample precision before -> after | out-of-sample coverage before -> after |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    t0 = time.perf_counter()
    for name, reg, cases in SETS:
        for first in (True, False):
            r = run(reg, cases, first)
            (ib, ia), (ob, oa) = r["in"], r["out"]
            worst = min(worst, oa.precision - ob.precision)
            print(f"| {name} | {'even' if first else 'odd'} half | {r['triggers']} | "
                  f"{ib.precision:.3f} -> {ia.precision:.3f} | {ib.coverage:.3f} -> {ia.coverage:.3f} | "
                  f"{ob.precision:.3f} -> {oa.precision:.3f} | {ob.coverage:.3f} -> {oa.coverage:.3f} |")
    print(f"\nlargest out-of-sample precision change: {worst:+.3f} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
