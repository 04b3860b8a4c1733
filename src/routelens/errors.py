"""The one error hierarchy of routelens, and :class:`Diagnostic`.

Every error routelens raises on purpose subclasses :class:`RoutelensError`,
so a caller can catch them all with one ``except``. Errors about a file a
person wrote (the registry, a cases file, a SKILL.md) carry every problem
found as :class:`Diagnostic` values (:class:`DiagnosticError`), so a
command can print them all as ``FILE:LINE:COL: key.path: message`` lines
and exit 2 (docs/formats.md §1, "Rules of reading").

::

    RoutelensError
    ├── DiagnosticError          .diagnostics, .warnings
    │   ├── RegistryError        the registry cannot be used (docs/formats.md §1)
    │   ├── CasesError           a labelled cases file cannot be used (routelens eval)
    │   ├── DecisionLogError     a decision log cannot be used (routelens replay)
    │   └── SkillFileError       a SKILL.md cannot be used (routelens import)
    ├── IndexInvalidError        the compact index cannot be trusted (§3, §6 index_invalid)
    ├── BuildError               writing generated/ failed; the previous files are intact
    ├── SkillImportError         entries cannot be appended to the registry; nothing written
    ├── HistoryError             git history cannot answer (routelens stats --since)
    ├── ToolCallError            an MCP tool call cannot be answered (routelens mcp)
    ├── FileReadError            a file was refused by the bounded reader (routelens.fileio)
    └── NoRegistryError          no registry was named and none was found (routelens.paths)

Nothing in this module imports another routelens module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "Diagnostic",
    "RoutelensError",
    "DiagnosticError",
    "RegistryError",
    "CasesError",
    "DecisionLogError",
    "SkillFileError",
    "IndexInvalidError",
    "BuildError",
    "SkillImportError",
    "HistoryError",
    "ToolCallError",
    "FileReadError",
    "NoRegistryError",
]


#: what a key path must not show raw: control characters (as routelens.text.visible reads them) and the
#: invisible format characters (zero-width space and joiners, word joiner, BOM, soft hyphen) an id may hold
_UNSEEN_IN_KEY = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _shown_key(key_path: str) -> str:
    """``key_path`` with each character of :data:`_UNSEEN_IN_KEY` written as
    an escape (``\\x1b``, ``\\u200b``): an id that reads "a" but holds a
    zero-width space is shown as ``skills.a\\u200b``, as its message shows it."""
    if not _UNSEEN_IN_KEY.search(key_path):
        return key_path
    return _UNSEEN_IN_KEY.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x20
                              else f"\\u{ord(m.group()):04x}", key_path)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a file a person wrote.

    ``file``: the name shown to people; ``line`` and ``column``: 1-based,
    counted in characters on the canonical text (as an editor shows them,
    docs/formats.md §2); ``key_path``: dotted with list indices, e.g.
    ``skills.repository-change.triggers[2]`` ("" for the whole file);
    ``severity``: ``"error"`` or ``"warning"``. ``str()`` gives
    ``FILE:LINE:COL: [warning: ]key.path: message``.
    """

    file: str
    line: int
    column: int
    key_path: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{_shown_key(self.key_path)}: " if self.key_path else ""
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return f"{self.file}:{self.line}:{self.column}: {tag}{where}{self.message}"


class RoutelensError(Exception):
    """The base of every error routelens raises on purpose. The message is
    for people (no traceback is ever shown for one)."""


class DiagnosticError(RoutelensError):
    """An error that carries every problem found in a file, not only the
    first: ``diagnostics`` (errors, in file order) and ``warnings``
    (:class:`Diagnostic` lists). The message is the diagnostics, one a line."""

    def __init__(self, diagnostics: list[Diagnostic], warnings: list[Diagnostic] | None = None):
        self.diagnostics = diagnostics
        self.warnings = warnings or []
        super().__init__("\n".join(str(d) for d in diagnostics))

    @property
    def stopped(self) -> bool:
        """True when the reader stopped at its error limit: the last
        diagnostic is its note ``too many errors: stopped after N``
        (:data:`LIMIT_NOTE`), and there may be more errors in the file."""
        return bool(self.diagnostics) and _is_limit_note(self.diagnostics[-1])

    @property
    def error_count(self) -> int:
        """How many errors were found: the diagnostics without the reader's
        closing note (200 errors and the note are 200, not 201)."""
        return sum(1 for d in self.diagnostics if not _is_limit_note(d))


#: How a reader's closing note begins when it stops at its error limit
#: (``LIMITS["max_errors"]`` for the registry): a note, not an error of the file.
LIMIT_NOTE = "too many errors: stopped after "


def _is_limit_note(d: Diagnostic) -> bool:
    return not d.key_path and d.message.startswith(LIMIT_NOTE)


class RegistryError(DiagnosticError):
    """The registry cannot be used: unreadable, not UTF-8, bad YAML, or
    against the rules of docs/formats.md §1. Also raised for a YAML text
    that routelens's own reader refuses (a line range's fragment, §2)."""


class CasesError(DiagnosticError):
    """A labelled cases file cannot be used; ``diagnostics`` name file,
    1-based line and column, and the key path (``cases[3].expect[0]``)."""


class DecisionLogError(DiagnosticError):
    """A decision log (``routelens route --log``) cannot be used or written;
    ``diagnostics`` name the file and the 1-based line of each bad line."""


class SkillFileError(DiagnosticError):
    """A SKILL.md cannot be used. ``diagnostics`` are the errors (file,
    line, column counted in the SKILL.md, key path, message); ``warnings``
    any warnings found before the errors."""


class IndexInvalidError(RoutelensError):
    """The compact index cannot be trusted (docs/formats.md §3): not JSON,
    wrong version or shape, or a line range that no longer holds its entry
    (§6: the router then falls back with ``index_invalid``). The message
    says what is wrong, for people."""


class BuildError(RoutelensError):
    """Writing the generated files failed; the previous files are intact
    and no temporary file is left (docs/formats.md §3)."""


class SkillImportError(RoutelensError):
    """Agent Skills entries cannot be appended to the registry; the
    registry was not written."""


class HistoryError(RoutelensError):
    """Git history cannot answer: not a git repository, unknown revision,
    git missing, the registry invalid at that revision."""


class ToolCallError(RoutelensError):
    """An MCP tool call cannot be answered; the message is returned to the
    agent as a tool error (never a traceback)."""


class FileReadError(RoutelensError):
    """A file was refused by :func:`routelens.fileio.read_bounded`: missing,
    not a regular file (a FIFO, a device, a directory), a symlink where none
    is allowed, outside its allowed folder, over its size limit, or
    unreadable. ``kind`` is one of :data:`routelens.fileio.KINDS`; ``path``
    is the path as shown; ``detail`` says more (``"a FIFO"``,
    an OS reason); ``size`` and ``limit`` are in bytes (``size`` None when
    unknown). The message is a sentence for people; ``reason`` is its part
    after the file's name (``"is a directory, not a file"``), for callers
    that name the file themselves."""

    def __init__(self, message: str, *, path: str, kind: str, detail: str = "", size: int | None = None,
                 limit: int | None = None, reason: str = ""):
        super().__init__(message)
        self.reason = reason or message
        self.path = path
        self.kind = kind
        self.detail = detail
        self.size = size
        self.limit = limit


class NoRegistryError(RoutelensError):
    """No registry was named (``--registry``, ``$ROUTELENS_REGISTRY``) and
    no ``skills.yaml`` was found in the folder or its parents
    (:func:`routelens.paths.find_registry`). The message says where routelens
    looked and what to do."""
