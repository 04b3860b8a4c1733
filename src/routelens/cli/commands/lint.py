"""``routelens lint``: registry hygiene and agent listing budgets."""

from __future__ import annotations

from routelens.cli.commands.common import load_or_exit, positive_int, print_json
from routelens.tools.lint import DEFAULT_CONTEXT_WINDOW, lint


#: findings of one kind (code) listed before the rest are counted (a 10,000-skill registry gave 93,775 lines)
PER_CODE = 20


def register(sub, common) -> None:
    p = sub.add_parser(
        "lint", parents=[common], help="registry hygiene: triggers, bodies, compositions, listing budgets",
        description="Check the registry for shared, shadowed, short and stop-word triggers, skills their own "
        "description would not route to, deprecated/disabled skills in compositions, missing bodies, Agent "
        "Skills name/description limits, and the Layer-1 listing against the harnesses' budgets: Claude Code's "
        "(1% of the context window; each entry's description + when_to_use cut at 1,536 characters), read from "
        "its settings files where they exist (.claude/settings.local.json, .claude/settings.json, "
        "~/.claude/settings.json: skillListingBudgetFraction, skillListingMaxDescChars or "
        "maxSkillDescriptionChars, skillOverrides, env) and SLASH_COMMAND_TOOL_CHAR_BUDGET; Codex's 2%; and "
        "--budget. Exit 1 on errors, 0 with warnings only, 2 when the registry is invalid.")
    p.add_argument("--json", action="store_true", help="print the report as JSON (every finding)")
    p.add_argument("--all", action="store_true",
                   help=f"list every finding (default: the first {PER_CODE} of each kind, then how many more)")
    p.add_argument("--budget", type=positive_int, default=None, metavar="CHARS",
                   help="your budget for the Layer-1 block, in characters: exceeding it is an error")
    p.add_argument("--context-window", type=positive_int, default=None, metavar="TOKENS",
                   help="context window assumed for the harnesses' listing budget estimates (default 200000); "
                   "SLASH_COMMAND_TOOL_CHAR_BUDGET, when set, gives Claude Code's exact budget instead")
    p.set_defaults(func=run)


def run(args) -> int:
    reg = load_or_exit(args, outcome="not linted", show_warnings=False).registry  # warnings become findings
    report = lint(reg, args.budget, args.context_window or DEFAULT_CONTEXT_WINDOW)
    if args.json:
        print_json(report.to_dict())
    else:
        for line in report.text_lines(None if args.all else PER_CODE):
            print(line)
    return report.exit_code
