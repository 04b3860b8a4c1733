"""``routelens explain``: why a skill was or was not chosen for a task, in plain words."""

from __future__ import annotations

import json
import sys

from routelens.cli.commands.common import path_arg
from routelens.cli.commands.route import open_router


def register(sub, common) -> None:
    p = sub.add_parser("explain", parents=[common], help="say why a skill was or was not chosen",
                       description="Route TASK and say in plain words why skill ID was or was not chosen: its "
                       "best trigger and score against the threshold, and whether staleness, an explicit id, a "
                       "forced rule, a high-risk term, ambiguity, a composition conflict or its status stopped it.")
    p.add_argument("task", metavar="TASK")
    p.add_argument("--skill", required=True, metavar="ID", help="the skill id to explain")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")
    p.add_argument("--index", type=path_arg, default=None, metavar="PATH", help="the compact index (default: in the generated folder)")
    p.set_defaults(func=run)


def run(args) -> int:
    router = open_router(args)
    ex = router.explain(args.task, args.skill)
    if not ex.known:
        # an unknown (or empty) id is a usage error, not an explanation: say so and exit 2
        print(f"routelens explain: {ex.reasons[0]}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(json.dumps(ex.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        print(ex.text)
    return 0
