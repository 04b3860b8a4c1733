"""Command-line front end: a thin layer over the core API.

Exit codes: 0 success; 1 a check failed (``check``, ``lint``, ``eval``
below its bar); 2 bad input (registry errors, unreadable files, bad
arguments) — always with ``FILE:LINE:COL: key.path: message`` lines on
standard error and never a traceback.

Each subcommand lives in ``routelens/cli/commands/<name>.py`` with a
``register(subparsers, common)`` function; this module only wires them.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import shlex
import textwrap
import sys
from typing import Any

from routelens import __version__
from routelens.cli.commands.common import CommandExit, common_options, leave_to_exit
from routelens.errors import NoRegistryError
from routelens.text.visible import visible
from routelens.text.words import closest  # already loaded by the registry reader: no start-up cost

__all__ = ["COMMANDS", "build_parser", "common_epilog", "common_first", "foreign_options", "main", "run",
           "unknown_command", "VisibleStream", "QUICK_EXIT"]

#: The subcommand modules (``routelens.cli.commands.<name>``), in the order
#: ``--help`` lists them. A command imports only its own module (and what
#: that imports), so ``routelens check`` never loads the router or the tools:
#: importing every module costs about 50 ms of start-up.
COMMANDS = ("tui", "init", "build", "check", "stats", "route", "explain", "eval", "tune", "suggest", "replay", "lint", "prompt", "import_",
            "schema", "mcp")
#: the command word typed -> its module (``import`` is ``import_``)
_MODULE_OF = {name.rstrip("_"): name for name in COMMANDS}


def command_module(name: str):
    """The module of subcommand ``name`` (one of :data:`COMMANDS`)."""
    return importlib.import_module(f"routelens.cli.commands.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``routelens`` argument parser with every subcommand registered,
    or only the one of module ``only``."""
    common = common_options()
    parser = argparse.ArgumentParser(
        prog="routelens",
        description="Canonical skill registry -> compact routing index -> router with fallback. "
        "Without a command (or with only options such as --registry, --task), opens the terminal UI on "
        "skills.yaml here or in a parent folder; --demo uses the bundled example.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"routelens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is None or name == only:
            command_module(name).register(sub, common)
    without = tuple(name for name, p in sub.choices.items() if "--registry" not in p._option_string_actions)
    parser.epilog = common_epilog(common, sub.choices.get("tui"), without)
    return parser


def common_epilog(common: argparse.ArgumentParser, ui: argparse.ArgumentParser | None = None,
                  without: tuple[str, ...] = ()) -> str:
    """The top-level ``--help``'s closing text: the options every command
    takes (written from ``common``, the parent parser of
    :func:`~routelens.cli.commands.common.common_options`, so the two never
    differ) and the commands ``without`` them (``init``), the UI's own
    options (from ``ui``, the ``tui`` subparser, when given), and where each
    command's help is. Lines wrap at 79 characters."""
    def name(action: argparse.Action) -> str:
        return ", ".join(action.option_strings) + (f" {action.metavar}" if action.metavar else "")

    shared = [a for a in common._actions if a.help is not argparse.SUPPRESS]
    width = max(len(name(a)) for a in shared)
    but = f" but {', '.join(without[:-1])} and {without[-1]}" if len(without) > 1 else (
        f" but {without[0]}" if without else "")
    lines = [f"options every command{but} takes, before or after its name:"]
    for action in shared:
        lines += textwrap.wrap(action.help or "", 79, initial_indent=f"  {name(action).ljust(width)}  ",
                               subsequent_indent=" " * (width + 4))
    if ui is not None:
        # each under its first name only (`--replay FILE`, not its old alias `--log`)
        own = [a.option_strings[0] + (f" {a.metavar}" if a.metavar else "") for a in ui._actions
               if a.option_strings and a.dest not in {c.dest for c in common._actions} and a.dest != "help"]
        line = "the UI also takes"
        lines.append("")
        for i, word in enumerate(own + ["(routelens tui --help)"]):
            word += "," if i < len(own) - 1 else ""
            if len(line) + 1 + len(word) > 79:
                lines.append(line)
                line = "  " + word
            else:
                line += " " + word
        lines.append(line)
    lines.append("each command's own options: routelens COMMAND --help")
    return "\n".join(lines)


#: words that belong to the top-level parser, not to the UI
_TOP_LEVEL = ("-h", "--help", "--version")
#: the options of :func:`common_options`: every command takes them
_COMMON = ("--demo", "--registry", "--out", "--generated")
#: options (the common ones and the UI's) whose next word is their value, not a command
#: (both lists are checked against the parsers by the tests)
_VALUED = ("--registry", "--out", "--generated", "--index", "--task", "--theme", "--cases", "--replay", "--log")


#: commands whose one positional argument is a task: several loose words are an unquoted task
_ONE_TASK = ("route", "explain")


def unknown_command(word: str) -> str:
    """What to say for a first word that is no command: the closest
    command (``rout`` -> ``route``), else how to route a task or open the
    UI with one (``routelens "review my PR"``)."""
    hint = closest(word, tuple(_MODULE_OF))
    if hint is not None:
        return f"unknown command {word!r}: did you mean `routelens {hint}`? (`routelens --help` lists the commands)"
    return (f"{word!r} is no command. To route a task: routelens route {shlex.quote(word)}; to open the UI with "
            f"it: routelens --task {shlex.quote(word)}; `routelens --help` lists the commands")


#: what a command's positional argument is, as an error about the word it took says it
_POSITIONAL_WORD = {"task": "the task", "dir": "the folder", "cases": "the cases file", "log": "the decision log"}


def foreign_options(command: str, extra: list[str], task_after: dict[str, str] | None = None,
                    what: str = "the task") -> str:
    """The error for the words ``extra`` that the parser of ``command``
    (a command word) did not take: ``unrecognized arguments: ...``, and
    for each option among them that another command takes, which one
    (``--theme is an option of the UI (routelens tui --theme ..., or
    routelens --theme ...), not of route``). Builds every command's parser:
    called on that error only. ``task_after``: option -> the word after it,
    when the command read that word as its task (said right after the
    words listed, which are listed as typed: ``--theme x y (route read 'x',
    the word after --theme, as the task)``); ``what``: what that word
    became (:data:`_POSITIONAL_WORD`: init's is "the folder")."""
    owners: dict[str, list[str]] = {}
    for name, p in build_parser()._subparsers._group_actions[0].choices.items():
        if name != command:
            for option in p._option_string_actions:
                owners.setdefault(option, []).append(name)
    said = []
    for word in extra:
        option = word.split("=", 1)[0]
        if not option.startswith("-") or option not in owners:  # "-j 2": build's short option too
            continue
        whose = [w.rstrip("_") for w in owners[option]]
        if whose == ["tui"]:
            said.append(f"{option} is an option of the UI (routelens tui {option} ..., or routelens {option} ...), "
                        f"not of {command}")
        else:
            names = whose[0] if len(whose) == 1 else f"{', '.join(whose[:-1])} and {whose[-1]}"
            said.append(f"{option} is an option of routelens {names}, not of {command}")
    read = [(o, w) for o, w in (task_after or {}).items() if o in extra]
    typed = list(extra)
    for o, w in read:
        # "--theme x y": x became the task and y was left over; listed as typed (two newcomers read "--theme y
        # (the word after --theme, 'x', ...)" as if y were the theme)
        typed.insert(typed.index(o) + 1, w)
    message = f"unrecognized arguments: {' '.join(typed)}"
    if read:
        o, w = read[0]
        message += f" ({command} read {w!r}, the word after {o}, as {what})"
    if said:
        message += "; " + "; ".join(said) + f": nothing was done (routelens {command} --help lists its options)"
    return message


def common_first(words: list[str]) -> list[str]:
    """``words`` with the common options written before the command word
    moved after it: ``--demo route X`` is ``route --demo X`` and
    ``--registry my.yaml check`` is ``check --registry my.yaml`` (people
    type a global option first). Unchanged when no command word follows
    only common options."""
    i = 0
    while i < len(words):
        name = words[i].split("=", 1)[0]
        if name not in _COMMON:
            break
        i += 2 if name in _VALUED and "=" not in words[i] else 1
    if 0 < i < len(words) and words[i] in _MODULE_OF:
        return [words[i], *words[:i], *words[i + 1:]]
    return words
#: commands whose standard streams are not text for people (the UI draws on the
#: terminal itself; the MCP server speaks JSON-RPC), so they are not escaped
_RAW_STREAMS = ("tui", "mcp")


class VisibleStream:
    """A text stream that writes through :func:`routelens.text.visible.visible`:
    no control character from data (a description's ``ESC ] 0 ;``, an OSC 52
    clipboard write, a C1 ``CSI``) reaches the terminal raw. LF and TAB pass;
    JSON text passes unchanged or as equivalent JSON (it never holds raw C0
    characters, and the other escapes are JSON escapes). Everything else is
    the wrapped stream's (``isatty``, ``fileno``, ``encoding``, ...).
    ``raw`` is the wrapped stream, for a progress line's deliberate CR."""

    def __init__(self, stream: Any):
        self.raw = stream

    def write(self, text: str) -> int:
        self.raw.write(visible(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def main(argv: list[str] | None = None) -> int:
    """Run ``routelens`` with ``argv`` (default: ``sys.argv[1:]``); no
    command (``routelens``, ``routelens --registry my.yaml``, ``routelens
    --task x``) opens the UI as ``routelens tui ...`` does. Human output of
    every command but ``tui`` and ``mcp`` goes through :class:`VisibleStream`.
    Returns the exit code."""
    words = common_first(list(sys.argv[1:] if argv is None else argv))
    if words and not words[0].startswith("-") and words[0] not in _MODULE_OF:
        print(f"routelens: {unknown_command(words[0])}", file=sys.stderr)
        return 2
    late = next((j for j, w in enumerate(words) if j and w in _MODULE_OF and words[j - 1] not in _VALUED), None)
    if words and words[0].startswith("-") and words[0] not in _TOP_LEVEL and late is not None:
        before = " ".join(words[:late])
        own = build_parser(only=_MODULE_OF[words[late]])._subparsers._group_actions[0].choices[words[late]]
        alien = [w for w in words[:late] if w.startswith("--") and w.split("=", 1)[0] not in own._option_string_actions]
        if alien:  # `--theme x route y`: moving it after the command would not help
            print(f"routelens {words[late]}: {foreign_options(words[late], alien)}", file=sys.stderr)
            return 2
        print(f"routelens: {before} comes before the command: a command's own options go after its name "
              f"(routelens {words[late]} {before} ...)", file=sys.stderr)
        return 2
    if not words or (words[0] not in _MODULE_OF and words[0] not in _TOP_LEVEL):
        words = ["tui", *words]  # options of the UI without the word `tui`
    # only the command's own module; the full list for --help, --version or an unknown word
    parser = build_parser(only=_MODULE_OF.get(words[0]))
    if words[0] in _ONE_TASK:
        args, extra = parser.parse_known_args(words)
        loose = [w for w in extra if not w.startswith("-")]
        if loose and loose == extra and getattr(args, "task", None) not in (None, "-"):
            task = " ".join([args.task, *loose])
            print(f"routelens {words[0]}: the task is one argument: quote it "
                  f"(routelens {words[0]} {shlex.quote(task)}); {' '.join(loose)!r} came as further arguments",
                  file=sys.stderr)
            return 2
    args, extra = parser.parse_known_args(words)
    if extra and getattr(args, "func", None):
        # say it with the command's own usage, and name the command an option belongs to (`route --theme x`:
        # the UI's option; x had silently become the task)
        sub = parser._subparsers._group_actions[0].choices[words[0]]
        # the command's own word that an unknown option's value became (`init --registry x y`: x, the folder;
        # `eval --theme x cases.yaml`: x, the cases file)
        dest, task = next(((a.dest, v) for a in sub._get_positional_actions()
                           if isinstance(v := getattr(args, a.dest, None), str)), (None, None))
        after = {w: words[k + 1] for k, w in enumerate(words[:-1]) if w in extra and words[k + 1] == task}
        sub.error(foreign_options(words[0], extra, after, _POSITIONAL_WORD.get(dest, "the task")))
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        args = parser.parse_args(["tui", *words])
    _ran[0] = args.command
    raw = args.command in _RAW_STREAMS
    saved = sys.stdout, sys.stderr
    if not raw:
        sys.stdout, sys.stderr = VisibleStream(sys.stdout), VisibleStream(sys.stderr)
    try:
        code = args.func(args)
    except CommandExit as exc:
        code = exc.code
    except NoRegistryError as exc:
        print(f"routelens: {exc}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        code = 0
    finally:
        if not raw:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
            sys.stdout, sys.stderr = saved
    return int(code or 0)


#: commands whose ``routelens`` process runs without the cyclic garbage
#: collector and leaves without tearing its objects down (:func:`run`): they
#: hold no open file, child or thread at the end, make no reference cycles to
#: speak of, and their big phases paused the collector already; freeing a big
#: registry's objects one by one cost about 40 ms of CPU at 10,000 skills
#: (0.4 s at 100,000), and the first collection after each paused phase
#: scanned every object the phase had made (10 ms each at 10,000 skills)
QUICK_EXIT = frozenset({"build", "check", "stats"})
_ran: list[str | None] = [None]  # the command the last main() ran


def run(argv: list[str] | None = None) -> None:
    """The ``routelens`` process's entry point (the console script and
    ``python -m routelens``): :func:`main`, then exit with its code. After
    a command of :data:`QUICK_EXIT` (which runs with the cyclic garbage
    collector switched off: ``gc.disable``) the output streams are flushed
    and the process leaves with ``os._exit`` (no teardown of the
    interpreter's objects; nothing else would run then: no ``atexit``
    handler is registered by routelens); a stream that cannot be flushed (a
    closed pipe) exits with 120, as Python's own exit does. Every other
    command runs and exits as before (``sys.exit``). Never returns."""
    _ran[0] = None
    words = common_first(list(sys.argv[1:] if argv is None else argv))
    if words and words[0] in QUICK_EXIT:
        gc.disable()  # a short process: nothing it makes needs the collector (see QUICK_EXIT)
        leave_to_exit()  # its registry and output are freed by the exit, not one object at a time
    code = main(argv)
    if _ran[0] in QUICK_EXIT:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                if stream is sys.stdout and code == 0:
                    code = 120
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
