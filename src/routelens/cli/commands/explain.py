"""``routelens explain``: why a skill was or was not chosen for a task, in plain words."""

from __future__ import annotations

import json
import sys

from routelens.cli.commands.common import path_arg
from routelens.cli.commands.route import fixes_of, format_fixes, open_router
from routelens.tools.fixes import FIXABLE


def register(sub, common) -> None:
    p = sub.add_parser("explain", parents=[common], help="say why a skill was or was not chosen",
                       description="Route TASK and say in plain words why skill ID was or was not chosen: its "
                       "best trigger and score against the threshold, its evidence (a phrase, a rare or everyday "
                       "word, a typo, a negation, a sentence about private life: docs/formats.md §6.10), and "
                       "whether staleness, an explicit id, a forced rule, a high-risk term, its not_when, weak "
                       "evidence, ambiguity, a composition conflict or its status stopped it.")
    p.add_argument("task", metavar="TASK", help="the task to route, as the agent would get it (quote it)")
    p.add_argument("--skill", required=True, metavar="ID", help="the skill id to explain")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")
    p.add_argument("--index", type=path_arg, default=None, metavar="PATH", help="the compact index (default: in the generated folder)")
    p.add_argument("--cases", type=path_arg, default=None, metavar="CASES.yaml",
                   help="labelled cases to predict each fix's effect on")
    p.set_defaults(func=run)


def run(args) -> int:
    router = open_router(args)
    ex = router.explain(args.task, args.skill)
    if not ex.known:
        # an unknown (or empty) id is a usage error, not an explanation: say so and exit 2
        print(f"routelens explain: {ex.reasons[0]}", file=sys.stderr)
        return 2
    # only the fixes that route the task to this skill: a setting that routes it elsewhere answers another question
    # (a newcomer's `explain --skill supplier-emails` offered "threshold: 61 ... routes this task to customer-faq")
    fixes = [f for f in fixes_of(args, ex.decision) if args.skill in f.routes_to]
    if args.json:
        out = ex.to_dict()
        if ex.decision.reason in FIXABLE:
            out["fixes"] = [f.to_dict() for f in fixes]
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    else:
        print("\n".join([ex.text, *format_fixes(fixes)]))
    return 0
