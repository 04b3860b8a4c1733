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
import importlib
import shlex
import textwrap
import sys
from typing import Any

from routelens import __version__
from routelens.cli.commands.common import CommandExit, common_options
from routelens.errors import NoRegistryError
from routelens.text.visible import visible
from routelens.text.words import closest  # already loaded by the registry reader: no start-up cost

__all__ = ["COMMANDS", "build_parser", "common_epilog", "common_first", "main", "unknown_command", "VisibleStream"]

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
    but = f" but {', '.join(without)}" if without else ""
    lines = [f"options every command{but} takes (before or after the command word):"]
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
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        args = parser.parse_args(["tui", *words])
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
