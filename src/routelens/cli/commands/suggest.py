"""``routelens suggest CASES``: triggers from the labelled cases the router misses, each checked against every case."""

from __future__ import annotations

import json
import sys

from routelens.cli.commands.common import (
    CommandExit, diagnostics_exit, load_cases_or_exit, path_arg, pct, report_registry_error, resolve_paths,
    tty_progress,
)
from routelens.errors import RegistryError
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.tools.patch import PatchError, same_file, write_copy
from routelens.tools.suggest import SuggestReport, suggest


def register(sub, common) -> None:
    # the common options mean here what they mean everywhere (--out/--generated: the generated folder, which
    # suggest reads but never writes); the patched copy has its own name, --copy
    p = sub.add_parser(
        "suggest", parents=[common], help="propose triggers from the labelled cases the router misses",
        description="For every labelled case that should route but falls back, propose a trigger for its "
        "skill, taken from the case's task; each is tried on a patched copy of the registry against every "
        "labelled case and dropped when it would make any case worse. Prints each with its predicted effect. "
        "--copy FILE writes the registry with every proposal applied to FILE (every other byte unchanged); the "
        "registry and its generated folder are never written.")
    p.add_argument("cases", metavar="CASES.yaml")
    p.add_argument("--json", action="store_true", help="print the proposals as JSON")
    p.add_argument("--copy", dest="copy_file", type=path_arg, default=None, metavar="FILE",
                   help="write the patched copy of the registry to FILE (never the registry itself nor a "
                   "generated file)")
    p.set_defaults(func=run)


def _fail(message: str) -> CommandExit:
    print(f"routelens suggest: {message}", file=sys.stderr)
    return CommandExit(2)


def format_report(rep: SuggestReport) -> list[str]:
    """The proposals for people, each with where it goes and its effect."""
    b, a = rep.before, rep.after
    file = rep.file
    lines = [f"{file} against {rep.registry}: {b['missed']} missed, {b['wrong']} wrong "
             f"(coverage {pct(b['coverage'])}, confident precision {pct(b['precision'])})"]
    n = len(rep.suggestions)
    skills = len({s.skill for s in rep.suggestions})
    if n:
        lines.append(f"{n} trigger{'s' * (n != 1)} proposed for {skills} skill{'s' * (skills != 1)}; with all of them: "
                     f"coverage {pct(b['coverage'])} -> {pct(a['coverage'])}, confident precision {pct(b['precision'])} "
                     f"-> {pct(a['precision'])}, no labelled case worse")
    else:
        lines.append("no trigger proposed")
    for s in rep.suggestions:
        lines += ["", f"{s.skill}  {rep.registry}:{s.edit.where_line}  {s.edit.yaml}",
                  f"    {s.edit.how}", f"    {s.effect.sentence(file)}"]
        if not s.in_vocabulary:
            lines.append("    (its words come from the skill's body, not its triggers or description: check it reads "
                         "like this skill)")
    if rep.rejected:
        lines += ["", "not proposed (each would make a labelled case worse):"]
        for r in rep.rejected:
            lines.append(f"  {r.skill} {json.dumps(r.trigger, ensure_ascii=False)} (from {file}:{r.source.line}): "
                         f"{r.effect.sentence(file)}")
    if rep.unresolved:
        where = ", ".join(f"{file}:{r.case.line}" if k == 0 else f":{r.case.line}"
                          for k, r in enumerate(rep.unresolved))
        lines += ["", f"no safe trigger found for {len(rep.unresolved)} missed case"
                      f"{'s' * (len(rep.unresolved) != 1)}: {where}"]
    return lines


def run(args) -> int:
    reg_path, out_dir = resolve_paths(args)
    protected = [reg_path, out_dir / INDEX_NAME, out_dir / CATALOG_NAME]
    if args.out is not None and args.out.is_file():
        # `--out FILE` named the copy before --copy did: --out is the generated folder, as everywhere
        raise _fail(f"--out {args.out} names a file: --out (--generated) is the generated folder, which suggest "
                    f"never writes; the patched copy is --copy FILE")
    if args.copy_file is not None:
        for p in protected:
            if same_file(args.copy_file, p):
                raise _fail(f"refusing to write {args.copy_file}: it is {p}, which suggest never writes; "
                            "choose another file for the patched copy")
    try:
        raw = read_registry_bytes(reg_path)
        reg = parse_registry(raw, reg_path, str(reg_path))
    except RegistryError as exc:
        report_registry_error(reg_path, exc)
        return 2
    cases = load_cases_or_exit(args.cases, registry=reg)  # its unknown ids said with its other mistakes
    with diagnostics_exit():
        rep = suggest(reg, raw, cases, progress=tty_progress("trying triggers"))
    if args.json:
        sys.stdout.write(json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        print("\n".join(format_report(rep)))
    if args.copy_file is not None:
        try:
            write_copy(args.copy_file, rep.patched, protected)
        except PatchError as exc:
            raise _fail(str(exc)) from None
        except OSError as exc:
            raise _fail(f"cannot write {args.copy_file}: {exc.strerror or exc}") from None
        added = len(rep.suggestions)
        print(f"wrote {args.copy_file}: {reg_path} with {added} trigger{'s' * (added != 1)} added, every other byte "
              "unchanged. To try it without touching generated/: routelens build --registry FILE --out OTHER_DIR, "
              "then routelens eval CASES --registry FILE --out OTHER_DIR", file=sys.stderr)
    return 0
