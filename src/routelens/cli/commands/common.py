"""What every subcommand shares: the common options, and the one preamble
"resolve the paths, load the registry or report every error, exit 2".

A command that cannot go on raises :class:`CommandExit` with its exit code
after saying why on standard error; :func:`routelens.cli.main` returns
that code. Bad input never shows a traceback (``FILE:LINE:COL: key.path:
message`` lines, docs/formats.md §1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from routelens.artifacts.bodies import body_problems, body_warnings
from routelens.errors import LIMIT_NOTE, CasesError, DiagnosticError, RegistryError
from routelens.paths import REGISTRY_ENV, REGISTRY_NAME, bundled_registry, default_out_dir, default_registry
from routelens.registry.keys import misspelled_keys
from routelens.registry.notices import warning_lines as registry_notices
from routelens.registry.load import load_registry
from routelens.registry.model import Registry
from routelens.text.numbers import pct as _pct

if TYPE_CHECKING:  # the cases reader imports the router: only the commands that read cases load it
    from routelens.tools.evaluate import Case

__all__ = [
    "CommandExit",
    "Loaded",
    "common_options",
    "path_arg",
    "registry_of",
    "resolve_paths",
    "DEMO_LABEL",
    "LIMIT_NOTE",
    "demo_read_only",
    "load_or_exit",
    "report_registry_error",
    "positive_int",
    "registry_warning_lines",
    "body_warning_lines",
    "body_summary_line",
    "print_json",
    "diagnostics_exit",
    "load_cases_or_exit",
    "tty_progress",
    "pct",
    "leave_to_exit",
    "free_at_exit",
]


class CommandExit(SystemExit):
    """Stop the command with exit ``code`` (it has reported why already)."""


@dataclass(frozen=True)
class Loaded:
    """A command's registry: where it is, the generated folder, and the
    validated registry."""

    registry_path: Path
    out_dir: Path
    registry: Registry


def path_arg(text: str) -> Path:
    """argparse type: a path that is not empty (``--out ''`` would mean the
    current folder, never what was meant)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (give a file or folder name)")
    return Path(text)


def common_options() -> argparse.ArgumentParser:
    """Options every subcommand accepts (a parent parser)."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--registry", type=path_arg, default=None, metavar="PATH",
                   help=f"the canonical registry, or a folder holding its skills.yaml (default: ${REGISTRY_ENV}, else "
                   "skills.yaml in this folder or the nearest parent, up to the top of the git work tree)")
    p.add_argument("--demo", action="store_true",
                   help="use the bundled example registry (53 skills, English and Japanese) instead of yours; "
                   "every output says so")
    p.add_argument("--out", "--generated", dest="out", type=path_arg, default=None, metavar="DIR",
                   help="folder of routing.min.json and catalog.json (default: generated/ beside the registry)")
    return p


#: what every output of a --demo run says about its registry
DEMO_LABEL = "the bundled example registry (--demo)"


def registry_of(args: argparse.Namespace) -> Path:
    """The registry a command works on: ``--demo`` -> the bundled example
    (said once on standard error: "routelens: using the bundled example
    registry (--demo): PATH"); ``--registry`` as given; else
    :func:`routelens.paths.default_registry` (``$ROUTELENS_REGISTRY``, then
    ``skills.yaml`` here or in a parent folder). Raises
    :class:`~routelens.errors.NoRegistryError` when there is none, and
    :class:`CommandExit` (2) for ``--demo`` together with ``--registry``."""
    if getattr(args, "demo", False):
        if args.registry is not None:
            print("routelens: --demo and --registry name two registries: give one", file=sys.stderr)
            raise CommandExit(2)
        path = bundled_registry()
        if not getattr(args, "_demo_said", False):
            print(f"routelens: using {DEMO_LABEL}: {path}", file=sys.stderr)
            args._demo_said = True
        return path
    if args.registry is not None:
        folder = Path(args.registry)
        if folder.is_dir() and (folder / REGISTRY_NAME).is_file():  # `--registry my-skills`, the folder init made
            return folder / REGISTRY_NAME
        return args.registry
    return default_registry()


def demo_read_only(args: argparse.Namespace, doing: str, out: Path | None = None) -> None:
    """``--demo`` is read-only (docs/formats.md §11.3): a command that would
    write the bundled example registry, or its generated folder, says so
    on standard error and raises :class:`CommandExit` (2) before anything
    is written. ``doing``: what the command would do (``import --write``);
    ``out``: the generated folder it would write, refused only when it is
    the bundled example's (``build --demo --out DIR`` elsewhere writes
    only ``DIR``); None: the command writes the registry itself, always
    refused. Does nothing without ``--demo``."""
    if not getattr(args, "demo", False):
        return
    if out is not None:
        bundled_out = default_out_dir(bundled_registry())
        try:
            same = Path(out).resolve() == bundled_out.resolve()
        except OSError:
            same = False
        if not same:
            return
        what = f"the bundled example's generated files ({bundled_out})"
        other = "; give --out DIR to write them elsewhere, or"
    else:
        what = f"the bundled example registry ({bundled_registry()})"
        other = ":"
    print(f"routelens: --demo is read-only: {doing} would write {what}{other} make a registry of your own "
          "with `routelens init` and use it without --demo", file=sys.stderr)
    raise CommandExit(2)


def resolve_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """(registry path, generated folder) from parsed arguments
    (:func:`registry_of`, and ``generated/`` beside the registry when
    ``--out`` is not given)."""
    reg = registry_of(args)
    return reg, args.out or default_out_dir(reg)




def report_registry_error(path: Path, exc: RegistryError, outcome: str = "") -> None:
    """Print every diagnostic of ``exc`` to stderr, then its warnings (they
    often explain an error), then ``PATH: N errors``
    (``; outcome`` appended, e.g. ``nothing was written``), and how to name
    a registry when there is no file at ``path``. ``N`` counts the errors
    only: the reader's note that it stopped (:data:`LIMIT_NOTE`) is not one
    of them, and adds `` (reading stopped there: there may be more)``."""
    for d in exc.diagnostics:
        print(str(d), file=sys.stderr)
    for w in exc.warnings:  # "unknown top-level key `skils`" explains "missing required key `skills`"
        print(str(w), file=sys.stderr)
    # the reader's closing "too many errors: stopped after N" is a note, not an error of the file
    n = exc.error_count
    tail = f"; {outcome}" if outcome else ""
    more = " (reading stopped there: there may be more)" if exc.stopped else ""
    print(f"{path}: {n} error{'s' if n != 1 else ''}{more}{tail}", file=sys.stderr)
    if not os.path.lexists(path):  # a symlink loop is there, and said so above
        print(f"routelens: no registry there: {_named_by(path)}", file=sys.stderr)
    elif os.path.isdir(path):  # a folder with no skills.yaml (the first line said so) got no hint of what to do
        print(f"routelens: no registry in that folder: {_named_by(path)}", file=sys.stderr)
    elif Path(path).suffix.lower() not in (".yaml", ".yml", ""):
        # a skill body passed by mistake ("a second YAML document" said nothing of that: a newcomer's trial)
        print(f"routelens: {path} is no YAML file; --registry names the registry (skills.yaml), not a skill's "
              "body or another file", file=sys.stderr)


def _named_by(path: Path) -> str:
    """How to name another registry, from where ``path`` came: the one
    named by ``--registry`` or ``$ROUTELENS_REGISTRY`` is not asked for again."""
    env = os.environ.get(REGISTRY_ENV)
    if env and Path(env) == Path(path):
        return (f"${REGISTRY_ENV} names {env}; correct it or unset it, pass --registry PATH, "
                "or create one with `routelens init`")
    return ("check the path given with --registry, run routelens in a folder that holds skills.yaml, "
            "or create one with `routelens init`")


#: what :func:`free_at_exit` keeps until the process ends, or None: nothing is kept (see :func:`leave_to_exit`)
_AT_EXIT: list[Any] | None = None


def leave_to_exit() -> None:
    """From now on :func:`free_at_exit` keeps what it is given until the
    process ends. Called by :func:`routelens.cli.entry.run` before a command
    whose process leaves with ``os._exit`` (``build``, ``check``, ``stats``:
    no teardown of the interpreter's objects), so that the registry and the
    files a command made are not freed one object at a time when the command
    returns, just before the exit (a 10,000-skill registry: about 10-15 ms
    of CPU, the last step of ``build``). Never raises."""
    global _AT_EXIT
    if _AT_EXIT is None:
        _AT_EXIT = []


def free_at_exit(*objects: Any) -> None:
    """Keep ``objects`` alive until the process ends, when
    :func:`leave_to_exit` was called; otherwise (``main()`` called in-process:
    the tests, the TUI's rebuild) do nothing, so they are freed as usual.
    Never raises."""
    if _AT_EXIT is not None:
        _AT_EXIT.extend(objects)


def load_or_exit(args: argparse.Namespace, *, outcome: str = "", show_warnings: bool = True,
                 progress: Callable[[float], None] | None = None, jobs: int = 1) -> Loaded:
    """The preamble of a command that needs the registry: resolve the paths,
    load and validate the registry (``progress(fraction)`` and ``jobs``, the
    processes that may read it, are passed on: see
    :func:`routelens.registry.load.parse_registry`),
    print its warnings to stderr as
    :func:`routelens.registry.notices.warning_lines` gives them (unless
    ``show_warnings`` is False: lint reports them as findings). On errors, report them
    (:func:`report_registry_error` with ``outcome``) and raise
    :class:`CommandExit` (2)."""
    reg_path, out = resolve_paths(args)
    try:
        reg = load_registry(reg_path, progress=progress, jobs=jobs)
    except RegistryError as exc:
        report_registry_error(reg_path, exc, outcome)
        raise CommandExit(2) from None
    free_at_exit(reg)  # freed by the exit, when the process leaves with os._exit (leave_to_exit)
    if show_warnings:  # many entries that are not self-contained in one line, then disabled members (§1.3)
        for line in registry_notices(reg):
            print(line, file=sys.stderr)
    return Loaded(reg_path, out, reg)


#: the most skills whose body cannot be loaded that build and check name one by one; more are summed up
MAX_BODY_WARNINGS = 20
#: the most folders the summary of many bodies that cannot be loaded names (the rest are counted)
MAX_BODY_FOLDERS = 3


def registry_warning_lines(reg: Registry, problems: list[tuple[Any, str]] | None = None) -> list[str]:
    """The warnings ``build`` and ``check`` print about a valid registry
    (``str`` lines, no line break): the skill bodies that cannot be loaded
    (docs/formats.md §1.3, §4.4), then each metadata key that looks like a
    misspelled key routelens reads (§2.2: ``satus: disabled`` never
    disables a skill; :func:`routelens.registry.keys.misspelled_keys`,
    which lint reports as ``misspelled-key``).

    Up to :data:`MAX_BODY_WARNINGS` bodies are named one by one, as
    ``FILE:LINE:COL`` warnings at each ``path:`` value
    (:func:`~routelens.artifacts.bodies.body_warnings`); more are summed
    up in one line (:func:`body_summary_line`), which names their folders
    and points to ``routelens lint`` for the list. ``problems``:
    :func:`~routelens.artifacts.bodies.body_problems` of ``reg``, when the
    caller has them (found here otherwise)."""
    return body_warning_lines(reg, problems) + [str(w) for w in misspelled_keys(reg)]


def body_warning_lines(reg: Registry, problems: list[tuple[Any, str]] | None = None) -> list[str]:
    """The first part of :func:`registry_warning_lines`: the lines about the
    skill bodies that cannot be loaded (docs/formats.md §1.3, §4.4), named
    one by one up to :data:`MAX_BODY_WARNINGS`, else summed up in one line.
    ``problems``: as for :func:`registry_warning_lines`."""
    if problems is None:
        problems = body_problems(reg)
    if len(problems) > MAX_BODY_WARNINGS:
        return [body_summary_line(reg, problems)]
    return [str(w) for w in body_warnings(reg, None, problems)]


#: body_state's words (their first part) -> how the summary counts them
_BODY_KINDS = {"missing": "missing", "is a directory": "that are folders", "not a regular file": "that are not regular "
               "files", "unreadable": "unreadable"}


def _folder_of(rel: str) -> str:
    """The folder of a body path as the registry writes it (``\\`` as ``/``),
    with its final ``/``; ``""`` for a body beside the registry."""
    head, sep, _ = rel.replace("\\", "/").rpartition("/")
    return head + sep


def body_summary_line(reg: Registry, problems: list[tuple[Any, str]]) -> str:
    """One warning line for many skills whose body cannot be loaded
    (docs/formats.md §1.3): how many of the registry's skills, then their
    folders (relative to the registry's folder, most skills first, at most
    :data:`MAX_BODY_FOLDERS`, the rest counted), each with its count and
    what is wrong (``the folder 'skills/' does not exist``, ``10 missing in
    'skills/'``, ``2 refused``), and a pointer to ``routelens lint``, which
    lists each one. ``problems``: ``(skill, problem)`` as
    :func:`~routelens.artifacts.bodies.body_problems` gives them."""
    by_folder: dict[str, dict[str, int]] = {}
    refused = 0
    # counted by (folder, words) in C: 10,000 skills share a folder and a few words
    for (folder, problem), n in Counter(zip(map(_folder_of, [s.path for s, _ in problems]),
                                            [p for _, p in problems])).items():
        if problem.startswith("body path"):  # a refusal names its own path: counted apart
            refused += n
            continue
        kind = _BODY_KINDS.get(problem.split(":")[0].split(" (")[0], "unreadable")
        kinds = by_folder.setdefault(folder, {})
        kinds[kind] = kinds.get(kind, 0) + n
    base = reg.base_dir
    parts = []
    ranked = sorted(by_folder.items(), key=lambda fk: (-sum(fk[1].values()), fk[0]))
    for folder, kinds in ranked[:MAX_BODY_FOLDERS]:
        n = sum(kinds.values())
        shown = repr(folder or "./")
        if folder and set(kinds) == {"missing"} and not os.path.isdir(os.path.join(base, folder)):
            parts.append(f"the folder {shown} does not exist ({n:,} skill{'s' if n != 1 else ''})")
        else:
            parts.append(", ".join(f"{k:,} {kind}" for kind, k in sorted(kinds.items(), key=lambda x: (-x[1], x[0])))
                         + f" in {shown}")
    rest = ranked[MAX_BODY_FOLDERS:]
    if rest:
        n = sum(sum(k.values()) for _, k in rest)
        parts.append(f"{n:,} in {len(rest):,} other folder{'s' if len(rest) != 1 else ''}")
    if refused:
        parts.append(f"{refused:,} path{'s' if refused != 1 else ''} refused")
    n = len(problems)
    return (f"{reg.display_name}: warning: {n:,} of the {len(reg.skills):,} skills have a body that cannot be "
            f"loaded: {'; '.join(parts)}. They still route, and their decisions say the body cannot be loaded; "
            "`routelens lint` lists every one")


@contextmanager
def diagnostics_exit(*kinds: type[DiagnosticError]) -> Iterator[None]:
    """Inside the block, an error of one of ``kinds`` (default
    :class:`~routelens.errors.CasesError`; e.g. also ``DecisionLogError``)
    is reported on standard error, one ``FILE:LINE:COL: key.path: message``
    line per diagnostic (docs/formats.md §8, §12), then, for two errors or
    more, ``FILE: N errors; nothing was done``, and the command stops with
    :class:`CommandExit` (2)."""
    try:
        yield
    except (kinds or (CasesError,)) as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        errors = [d for d in exc.diagnostics if d.severity == "error"]
        if len(errors) > 1:  # counted as build counts a registry's (a newcomer missed the count after eval's list)
            print(f"{errors[0].file}: {len(errors):,} errors; nothing was done", file=sys.stderr)
        raise CommandExit(2) from None


def load_cases_or_exit(path: Path, router=None, registry=None) -> list[Case]:
    """The labelled cases of ``path`` (:func:`routelens.tools.evaluate.load_cases`);
    a bad file, or one whose ``cases:`` list is empty (an emptied file would
    pass every bar: docs/formats.md §7.1), is reported and
    :class:`CommandExit` (2) raised. Given the ``router`` or the
    ``registry`` (a :class:`~routelens.registry.model.Registry`), ids the
    registry does not have are reported with the file's other mistakes, at
    once (eval, tune, suggest and route's fixes say the same list)."""
    from routelens.tools.evaluate import check_ids, load_cases  # the router with it: not for build, check, stats

    known = ((router.skill_ids, router.composition_ids) if router is not None else
             (registry.skills, registry.compositions) if registry is not None else None)
    with diagnostics_exit():
        cases = load_cases(path, known)  # with other mistakes, the unknown ids are among them
        bad = check_ids(cases, *known) if known is not None else []
        if bad:  # the file's only mistakes
            raise CasesError(bad)
    if not cases:
        print(f"{path}:1:1: cases: the `cases:` list is empty: there is nothing to measure", file=sys.stderr)
        raise CommandExit(2)
    return cases


def tty_progress(label: str) -> Callable[[float], None] | None:
    """A progress callback for long work (``fraction`` 0.0-1.0) that rewrites
    ``label: NN%`` on standard error and clears it at 1.0; ``None`` when
    standard error is not a terminal (pipes and logs get no progress)."""
    if not sys.stderr.isatty():
        return None

    def progress(fraction: float) -> None:
        print(f"\r{label}: {fraction * 100:3.0f}%", end="" if fraction < 1 else "\r\x1b[K", file=sys.stderr,
              flush=True)
    return progress


def positive_int(text: str) -> int:
    """argparse type: a whole number of 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return n


def print_json(obj: Any) -> None:
    """``obj`` as pretty JSON (indent 2, no ASCII escaping) on stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def pct(x: float) -> str:
    """A share as a percentage with one decimal: ``0.695`` -> ``69.5%``
    (:func:`routelens.text.numbers.pct`)."""
    return _pct(x)
