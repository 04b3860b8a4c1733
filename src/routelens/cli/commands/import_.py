"""``routelens import PATH...``: propose registry entries from Agent Skills
folders (``<name>/SKILL.md``, found below the folders given); ``--write``
appends them and rebuilds."""

from __future__ import annotations

import sys
from pathlib import Path

from routelens.artifacts.write import write_generated
from routelens.cli.commands.common import demo_read_only, load_or_exit, print_json, resolve_paths
from routelens.errors import BuildError, NoRegistryError, SkillImportError
from routelens.paths import REGISTRY_NAME, default_out_dir
from routelens.tools.skill_import import apply_import, entries_yaml, plan_import, write_registry


def register(sub, common) -> None:
    p = sub.add_parser(
        "import", parents=[common], help="propose registry entries from Agent Skills folders (<name>/SKILL.md, found below a folder)",
        description="Read Agent Skills folders (<name>/SKILL.md: YAML frontmatter, then a Markdown body) and "
        "propose one registry entry per skill: id = name, path = the SKILL.md, priority, description, and "
        "triggers from metadata.triggers or proposed from the name, description and when_to_use (marked "
        "`review:`, which lint reports until it is removed; a trigger another skill has is left out and said). "
        "A dry run by default: prints the entries. --write appends them to the registry, leaving every "
        "existing byte of it unchanged and never replacing an existing id, then rebuilds generated/. "
        "A broken SKILL.md is reported as FILE:LINE:COL and the others are still imported; the exit "
        "code is then 2.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="a SKILL.md, a skill folder, or a folder with skill folders anywhere below it (up to 6 levels)")
    p.add_argument("--write", action="store_true", help="append the entries to the registry and rebuild")
    p.add_argument("--priority", choices=("P0", "P1", "P2"), default="P2",
                   help="priority of the new entries (default P2)")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.write:
        demo_read_only(args, "import --write")  # it appends to the registry: never the bundled example
    try:
        reg_path, out = resolve_paths(args)
    except NoRegistryError as exc:
        # importing is how a registry can start: propose a new ./skills.yaml, and say so
        reg_path = Path(REGISTRY_NAME)
        out = args.out or default_out_dir(reg_path)
        print(f"routelens import: {str(exc).split('. ')[0]}: the entries go to a new ./{REGISTRY_NAME}",
              file=sys.stderr)
    reg = load_or_exit(args, outcome="nothing was written").registry if reg_path.exists() else None
    plan = plan_import(args.paths, reg_path, reg, args.priority)
    for d in plan.warnings:
        print(str(d), file=sys.stderr)
    for d in plan.errors:
        print(str(d), file=sys.stderr)
    yaml_text = entries_yaml(plan.proposals, reg) if plan.proposals else ""
    written = False
    problem = None
    target = reg_path
    if plan.proposals:
        # the dry run checks what --write would append, so both say the same
        try:
            old, new, _, new_reg = apply_import(plan, reg)
            if args.write:
                if reg is None:
                    reg_path.parent.mkdir(parents=True, exist_ok=True)
                target = write_registry(reg_path, old, new)
                written = True
                write_generated(new_reg, out)
        except (SkillImportError, BuildError, OSError) as exc:
            problem = str(exc)
            print(f"routelens import: {problem}", file=sys.stderr)
    if args.json:
        print_json({
            "registry": str(reg_path),
            "write": bool(args.write),
            "written": written,
            "proposals": [
                {"id": p.id, "path": p.path, "priority": p.priority, "description": p.description,
                 "triggers": list(p.triggers), "triggers_from": p.triggers_from, "source": str(p.source)}
                for p in plan.proposals
            ],
            "skipped": [{"id": i, "source": str(f), "reason": r} for i, f, r in plan.skipped],
            "errors": [str(d) for d in plan.errors],
            "warnings": [str(d) for d in plan.warnings],
            "yaml": yaml_text,
        })
    else:
        n = len(plan.proposals)
        noun = "skill" if n == 1 else "skills"
        if written:
            through = f" (through the symlink {reg_path})" if target != reg_path and reg_path.is_symlink() else ""
            print(f"appended {n} {noun} to {target if through else reg_path}{through} and rebuilt {out}")
        elif n and not args.write and problem is None:
            verb = "create" if reg is None else "append"
            how = ("--demo is read-only: to add them, make a registry of your own with `routelens init`"
                   if getattr(args, "demo", False) else f"run with --write to {verb} and rebuild {out}")
            print(f"dry run: would {verb} {n} {noun} {'in' if reg is None else 'to'} {reg_path} ({how}):")
        elif not n:
            print(f"nothing to add to {reg_path}")
        width = max((len(p.id) for p in plan.proposals), default=0)
        for p in plan.proposals:
            how = "triggers from metadata.triggers" if p.triggers_from == "metadata.triggers" else \
                "triggers proposed: review them"
            print(f"  {p.id:<{width}}  {how:<32}  {p.source}")
        for sid, f, reason in plan.skipped:
            print(f"skipped {sid} ({f}): {reason}")
        if plan.errors:
            files = len({d.file for d in plan.errors})
            print(f"{files} path{'s' if files != 1 else ''} could not be imported (errors above)")
        if yaml_text and not written:
            print(f"\n# entries to append under `skills:` in {reg_path.name}")
            sys.stdout.write(yaml_text)
    if problem is not None or plan.errors:
        return 2
    return 0
