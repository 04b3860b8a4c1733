"""The decision log and its replay (docs/formats.md §12).

``routelens route --log FILE`` and ``routelens mcp --log FILE`` append every
decision to a log, one JSON object per line (:func:`log_record`)::

    {"v": 1, "time": "2026-12-01T10:35:12Z", "task": "...",
     "decision": {"mode", "reason", "message", "skills", "composition", ...},
     "source_sha256": "...", "index_sha256": "...", "matcher_version": "2"}

``routelens replay LOG [--since REV]`` re-routes every logged task against
the registry on disk and says which decisions changed, before -> after with
their reasons (:func:`replay`). Before is the logged decision or, with
``--since REV``, the decision of the registry at git revision REV.

Reading a log is bounded (:data:`MAX_LOG_BYTES`, regular files only, never
blocking on a pipe) and strict: a line that is not such an object is an
error naming ``FILE:LINE`` (:class:`~routelens.errors.DecisionLogError`).
Writing is one ``write`` per line under an exclusive ``flock``, so the
lines of two processes appending at once never interleave. Nothing in this
module imports Textual.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from routelens.errors import DecisionLogError, Diagnostic
from routelens.artifacts.jsonfmt import compact, json_problem
from routelens.fileio import FileReadError, read_bounded
from routelens.limits import LIMITS
from routelens.routing.decision import Decision

__all__ = ["LOG_VERSION", "MAX_LOG_BYTES", "MAX_LOG_ERRORS", "log_record", "DecisionLog", "LogEntry", "read_log",
           "parse_log", "Change", "ReplayReport", "replay", "outcome_key"]

#: The log line format's version (``"v"``).
LOG_VERSION = 1
#: The largest decision log :func:`read_log` reads, in bytes.
MAX_LOG_BYTES = LIMITS["max_log_bytes"]
#: Errors reported before reading a log stops (as for the registry, docs/formats.md §1.3).
MAX_LOG_ERRORS = LIMITS["max_errors"]
_MODES = ("fast", "index", "full")


def _utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def log_record(d: Decision, now: str | None = None) -> dict[str, Any]:
    """The log line of decision ``d`` as a dict (docs/formats.md §12):
    ``v``, ``time`` (UTC, ISO 8601 to the second; ``now`` overrides it),
    ``task``, ``decision`` (the decision of §6.1 without ``task`` and the
    hashes, each expansion without its ``text``), ``source_sha256``,
    ``index_sha256``, ``matcher_version``."""
    body = d.to_dict()
    for key in ("task", "source_sha256", "index_sha256", "matcher_version"):
        body.pop(key, None)
    body["expansions"] = [{k: v for k, v in e.items() if k != "text"} for e in body["expansions"]]
    return {"v": LOG_VERSION, "time": now or _utc_now(), "task": d.task, "decision": body,
            "source_sha256": d.source_sha256, "index_sha256": d.index_sha256, "matcher_version": d.matcher_version}


def _looks_like_log(path: Path) -> bool:
    """Whether the file at ``path`` is empty or its first line (read up to
    64 KiB) is a logged decision: a JSON object with ``v`` and ``decision``
    (docs/formats.md §12), or, when that line is longer, opens as one
    (``{"v":``). False when it cannot be read."""
    try:
        head = read_bounded(path, 1 << 16, what="the decision log", head=True)
    except FileReadError:
        return False
    first = head.split(b"\n", 1)[0].strip()
    if not first:
        return not head.strip()
    if b"\n" not in head and len(head) == 1 << 16:  # a first line longer than what was read (a long task)
        return first.startswith(b'{"v":')
    try:
        obj = json.loads(first)
    except ValueError:
        return False
    return isinstance(obj, dict) and "v" in obj and "decision" in obj


class DecisionLog:
    """Appends decisions to the log at ``path`` (created when missing, mode
    0666 less the umask). ``protected``: paths the log must not be (the
    registry, the generated files), compared after resolving links.

    Raises :class:`DecisionLogError` at construction when ``path`` is one of
    ``protected``, an existing file that is not a decision log (its first
    line is no logged decision: a labelled cases file, a skill body), a
    folder, not a regular file (a FIFO or a device), not
    writable, or in a folder that does not exist or is not writable, and
    from :meth:`append` when writing fails."""

    def __init__(self, path: str | Path, protected: Iterable[str | Path] = (), clock: Callable[[], str] = _utc_now):
        self.path = Path(path)
        self.clock = clock
        target = Path(os.path.realpath(self.path))
        for p in protected:
            other = Path(os.path.realpath(p))
            same = target == other
            if not same and target.exists() and other.exists():
                same = os.path.samefile(target, other)
            if same:
                raise self._error(f"refusing to log here: {p} is routelens's own input "
                                  "(the registry or a generated file)")
        if self.path.is_dir():
            raise self._error("is a folder, not a file")
        if os.path.lexists(self.path) and not os.path.exists(self.path):
            raise self._error("is a broken symbolic link")
        if self.path.exists() and not stat.S_ISREG(os.stat(self.path).st_mode):
            raise self._error("is not a regular file (a pipe or a device?)")
        if self.path.exists() and not _looks_like_log(self.path):
            # a newcomer's `route --log cases.yaml` appended JSON to their labelled cases, and to a skill body
            raise self._error("refusing to log here: the file is not a decision log (its first line is not a "
                              "logged decision, the JSON object `--log` writes): name a new file or an existing log")
        # said now, not at the first decision: an MCP server would otherwise run and lose every one
        folder = self.path.parent
        if not self.path.exists() and not folder.is_dir():
            raise self._error(f"cannot open the log: its folder {folder} does not exist")
        if not os.access(self.path if self.path.exists() else folder, os.W_OK):
            raise self._error("cannot open the log: " + ("it is not writable" if self.path.exists()
                                                        else f"its folder {folder} is not writable"))

    def _error(self, message: str) -> DecisionLogError:
        return DecisionLogError([Diagnostic(str(self.path), 1, 1, "", message)])

    def append(self, d: Decision) -> None:
        """Append ``d`` as one line (compact JSON, no ASCII escaping, LF)."""
        line = compact(log_record(d, self.clock())) + "\n"
        data = line.encode("utf-8", "surrogatepass")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
        except OSError as exc:
            raise self._error(f"cannot open the log: {exc.strerror or exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise self._error("is not a regular file (a pipe or a device?)")
            fcntl.flock(fd, fcntl.LOCK_EX)
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
        except OSError as exc:
            raise self._error(f"cannot write the log: {exc.strerror or exc}") from None
        finally:
            os.close(fd)


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class LogEntry:
    """One logged decision: ``line`` (1-based, in the log), ``task``,
    ``decision`` (the logged dict: ``mode``, ``reason``, ``skills``,
    ``composition``, ``message`` and whatever else was logged), the hashes
    and ``matcher_version`` (None when not logged), ``time`` (text)."""

    line: int
    task: str
    decision: dict[str, Any]
    source_sha256: str | None
    index_sha256: str | None
    matcher_version: str | None
    time: str | None


def _read_bounded(path: Path, display: str) -> bytes:
    """The log's bytes through :func:`routelens.fileio.read_bounded`
    (at most :data:`MAX_LOG_BYTES`)."""
    try:
        return read_bounded(path, MAX_LOG_BYTES, what="the decision log", display=display)
    except FileReadError as exc:
        hint = ("; a decision log is written by `routelens route --log FILE` or `routelens mcp --log FILE`"
                if not path.exists() and not path.is_symlink() else "")
        raise DecisionLogError([Diagnostic(display, 1, 1, "", f"cannot read the log: it {exc.reason}{hint}")]) from None


def _str_or_none(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _check_line(obj: Any) -> tuple[str, str] | None:
    """``(key path, message)`` of the first problem of one parsed line, or None."""
    if not isinstance(obj, dict):
        return "", "a log line must be a JSON object (one decision per line)"
    if obj.get("v") != LOG_VERSION or isinstance(obj.get("v"), bool):
        return "v", f"unknown log version {obj.get('v')!r} (this routelens writes and reads {LOG_VERSION})"
    if not isinstance(obj.get("task"), str):
        return "task", "missing, or not a string"
    d = obj.get("decision")
    if not isinstance(d, dict):
        return "decision", "missing, or not an object"
    if d.get("mode") not in _MODES:
        return "decision.mode", f"unknown mode {d.get('mode')!r} (fast, index or full)"
    if not isinstance(d.get("reason"), str) or not d["reason"]:
        return "decision.reason", "missing, or not a string"
    skills = d.get("skills")
    if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
        return "decision.skills", "must be a list of skill ids"
    if not _str_or_none(d.get("composition")):
        return "decision.composition", "must be a composition id or null"
    for key in ("source_sha256", "index_sha256", "matcher_version", "time"):
        if not _str_or_none(obj.get(key)):
            return key, "must be a string or null"
    return None


def parse_log(raw: bytes, display: str = "<log>") -> list[LogEntry]:
    """Parse a decision log's bytes. Blank lines are skipped; every other
    line must be one log object (§12). Raises :class:`DecisionLogError`
    with one diagnostic per bad line (``FILE:LINE:COL: key: message``, up
    to :data:`MAX_LOG_ERRORS`), including bytes that are not UTF-8."""
    entries: list[LogEntry] = []
    errors: list[Diagnostic] = []
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for n, rawline in enumerate(lines, 1):
        if len(errors) >= MAX_LOG_ERRORS:
            errors.append(Diagnostic(display, n, 1, "", f"too many errors: stopped after {MAX_LOG_ERRORS}"))
            break
        rawline = rawline.removesuffix(b"\r")
        if not rawline.strip():
            continue
        try:
            text = rawline.decode("utf-8")
        except UnicodeDecodeError as exc:
            col = len(rawline[:exc.start].decode("utf-8", "replace")) + 1
            errors.append(Diagnostic(display, n, col, "", "not UTF-8"))
            continue
        try:
            obj = json.loads(text)
        except ValueError as exc:
            col = getattr(exc, "colno", 1)
            msg = json_problem(exc, line=False) if isinstance(exc, json.JSONDecodeError) else str(exc)
            if not entries and not errors and not text.lstrip().startswith("{"):
                # the first line is no JSON object at all: not a decision log (a newcomer's `replay cases.yaml` listed
                # 92 lines, one a line)
                errors.append(Diagnostic(display, n, col, "", f"not a decision log: its first line is no JSON decision "
                                         f"({msg}); `routelens route --log FILE` and `mcp --log FILE` write one"))
                break
            errors.append(Diagnostic(display, n, col, "", f"not a JSON decision line: {msg}"))
            continue
        problem = _check_line(obj)
        if problem is not None:
            errors.append(Diagnostic(display, n, 1, problem[0], problem[1]))
            continue
        entries.append(LogEntry(n, obj["task"], obj["decision"], obj.get("source_sha256"), obj.get("index_sha256"),
                                obj.get("matcher_version"), obj.get("time")))
    if errors:
        raise DecisionLogError(errors)
    return entries


def read_log(path: str | Path, display: str | None = None) -> list[LogEntry]:
    """Read and parse the decision log at ``path`` (see :func:`parse_log`).
    Raises :class:`DecisionLogError` naming the file when it cannot be read
    (missing, a folder, a pipe or device, over :data:`MAX_LOG_BYTES`) or
    holds a bad line."""
    path = Path(path)
    display = display or str(path)
    return parse_log(_read_bounded(path, display), display)


# --------------------------------------------------------------------------- replay


class _Routes(Protocol):
    def route(self, task: str) -> Decision: ...


def outcome_key(d: dict[str, Any]) -> tuple:
    """What makes two decisions the same for replay: ``(mode, reason,
    skills, composition)`` of a decision dict."""
    return (d.get("mode"), d.get("reason"), tuple(d.get("skills") or ()), d.get("composition"))


def _side(d: dict[str, Any]) -> dict[str, Any]:
    return {"mode": d.get("mode"), "reason": d.get("reason"), "skills": list(d.get("skills") or ()),
            "composition": d.get("composition"), "message": d.get("message")}


@dataclass(frozen=True)
class Change:
    """One logged task whose decision changed: ``line`` (1-based, in the
    log), ``task``, ``before`` and ``after`` (each ``{"mode", "reason",
    "skills", "composition", "message"}``) and ``what`` (the fields that
    differ, of ``mode``, ``reason``, ``skills``, ``composition``)."""

    line: int
    task: str
    before: dict[str, Any]
    after: dict[str, Any]
    what: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict, keys in field order."""
        return {"line": self.line, "task": self.task, "before": self.before, "after": self.after,
                "what": list(self.what)}


@dataclass
class ReplayReport:
    """The outcome of :func:`replay`. ``entries``: every replayed entry,
    as ``(entry, before, after)`` decision dicts; ``changes``: the
    :class:`Change` of each one that changed, in log order; ``before`` says
    what "before" is (``"logged"``, or ``"REV (commit)"``);
    ``matcher_versions``: the versions found in the log; ``notes``:
    sentences about the comparison (other matcher versions)."""

    entries: list[tuple[LogEntry, dict[str, Any], dict[str, Any]]]
    changes: list[Change]
    before: str
    after_sha256: str | None
    after_freshness: str
    matcher_version: str
    matcher_versions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when at least one decision changed (``replay`` exits 1)."""
        return bool(self.changes)

    @property
    def transitions(self) -> dict[str, int]:
        """``"before reason -> after reason"`` -> how many changes, most first."""
        counts: dict[str, int] = {}
        for c in self.changes:
            key = f"{c.before['reason']} -> {c.after['reason']}"
            counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON (``routelens replay --json``, docs/formats.md §12)."""
        return {"replayed": len(self.entries), "changed": len(self.changes),
                "unchanged": len(self.entries) - len(self.changes), "before": self.before,
                "after": {"source_sha256": self.after_sha256, "freshness": self.after_freshness,
                          "matcher_version": self.matcher_version},
                "logged_matcher_versions": self.matcher_versions, "notes": self.notes,
                "transitions": self.transitions, "changes": [c.to_dict() for c in self.changes]}


def replay(entries: list[LogEntry], after: _Routes, before: _Routes | None = None, *, before_label: str = "logged",
           after_sha256: str | None = None, after_freshness: str = "fresh",
           matcher_version: str = "") -> ReplayReport:
    """Re-route every entry's task with ``after``, and compare with the
    logged decision (or, when ``before`` is given, with ``before``'s
    decision for the same task). A decision changed when its
    :func:`outcome_key` differs. ``after_sha256``, ``after_freshness`` and
    ``matcher_version`` describe the ``after`` side for the report."""
    rows: list[tuple[LogEntry, dict[str, Any], dict[str, Any]]] = []
    changes: list[Change] = []
    for e in entries:
        b = before.route(e.task).to_dict() if before is not None else e.decision
        a = after.route(e.task).to_dict()
        rows.append((e, b, a))
        if outcome_key(b) != outcome_key(a):
            kb, ka = outcome_key(b), outcome_key(a)
            what = tuple(name for name, x, y in zip(("mode", "reason", "skills", "composition"), kb, ka) if x != y)
            changes.append(Change(e.line, e.task, _side(b), _side(a), what))
    versions = sorted({e.matcher_version for e in entries if e.matcher_version})
    notes = []
    other = [v for v in versions if v != matcher_version]
    if before is None and other and matcher_version:
        notes.append(f"the log holds decisions of matcher version {', '.join(other)}; this routelens is "
                     f"version {matcher_version}, so a change may come from the matcher, not the registry")
    return ReplayReport(rows, changes, before_label, after_sha256, after_freshness, matcher_version, versions, notes)
