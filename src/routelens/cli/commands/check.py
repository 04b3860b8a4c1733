"""``routelens check``: are the generated files fresh and within budget? Never writes."""

from __future__ import annotations

import sys

from routelens.text.numbers import BUDGET_MIN_REGISTRY_CHARS, budget_checked
from routelens.artifacts.check import check
from routelens.cli.commands.common import DEMO_LABEL, load_or_exit, registry_warning_lines


def register(sub, common) -> None:
    p = sub.add_parser("check", parents=[common], help="exit 0 when generated files are fresh and within budget",
                       description="Compare generated/ with a fresh build, byte for byte, and check the size "
                       "budget. Exit 0 when both hold, 1 otherwise (saying which ids were added, removed or "
                       "changed), 2 when the registry has errors. Never writes; for CI and pre-commit.")
    p.set_defaults(func=run)


def run(args) -> int:
    loaded = load_or_exit(args)
    reg_path, out, reg = loaded.registry_path, loaded.out_dir, loaded.registry
    for line in registry_warning_lines(reg):  # missing bodies, misspelled keys: said, never an error (§4.4, §2.2)
        print(line, file=sys.stderr)
    res = check(reg, out)
    if res.ok:
        which = f"{DEMO_LABEL} {reg_path}" if getattr(args, "demo", False) else str(reg_path)
        budget = ("within the size budget" if budget_checked(len(reg.text)) else
                  f"the size budget is not checked below {BUDGET_MIN_REGISTRY_CHARS:,} chars of registry")
        print(f"ok: {out} is fresh for {which} ({reg.source_sha256[:12]}) and {budget}")
        return 0
    for p in res.problems:
        print(f"routelens check: {p}", file=sys.stderr)
    return 1
