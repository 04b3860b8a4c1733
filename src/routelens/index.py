"""Registry -> compact runtime index + debug catalog; atomic writes; freshness.

Shapes are those of spec ``formats.md`` sections 3 (index) and 4 (catalog).
Both are deterministic: the same registry bytes (and the same bodies, for the
catalog) give the same output bytes on every machine.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from routelens.errors import BuildError, IndexInvalidError
from routelens.gcpause import gc_paused
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME, is_absolute_or_escaping
from routelens.registry import ID_RE, Registry, read_registry_bytes
from routelens.text.canonical import canonical_bytes, editor_lines, holds_key, source_sha256

__all__ = [
    "INDEX_NAME",
    "CATALOG_NAME",
    "SKILL_FIELDS",
    "COMPOSITION_FIELDS",
    "RULE_FIELDS",
    "CompactIndex",
    "IndexInvalid",
    "BuildError",
    "Freshness",
    "CheckResult",
    "index_object",
    "index_bytes",
    "catalog_object",
    "catalog_bytes",
    "build",
    "write_generated",
    "parse_index",
    "load_index",
    "freshness",
    "index_problem",
    "check",
    "body_info",
    "resolve_body_path",
]

SKILL_FIELDS = ["id", "source_start", "source_end", "triggers"]
COMPOSITION_FIELDS = ["id", "source_start", "source_end"]
RULE_FIELDS = ["id", "source_start", "source_end", "triggers"]
INDEX_VERSION = 1
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_ENC_STR = json.encoder.encode_basestring  # C implementation when available


def _dumps_compact(obj: Any) -> str:
    return _COMPACT.encode(obj)


_LITERALS = {None: "null", True: "true", False: "false"}


def _pretty_into(o: Any, pad: str, out: list[str]) -> None:
    """Append the chunks of ``json.dumps(o, ensure_ascii=False, indent=2)``
    at the indentation ``pad`` (a LF followed by spaces) to ``out``. The
    stdlib's pretty printer runs in pure Python, one generator per value;
    this one writes a scalar member together with its key and joins whole
    lists of strings in C. It is exact for what routelens writes (dicts with
    string keys, lists, strings, ints, finite floats, bools, None) and raises
    ``TypeError`` for anything else."""
    t = type(o)
    if t is dict:
        if not o:
            out.append("{}")
            return
        inner = pad + "  "
        sep = "{" + inner
        enc = _ENC_STR
        for k, v in o.items():
            if type(k) is not str:
                raise TypeError("non-string key")
            tv = type(v)
            if tv is str:
                out.append(f"{sep}{enc(k)}: {enc(v)}")
            elif tv is int:
                out.append(f"{sep}{enc(k)}: {int.__repr__(v)}")
            elif v is None or tv is bool:
                out.append(f"{sep}{enc(k)}: {_LITERALS[v]}")
            else:
                out.append(f"{sep}{enc(k)}: ")
                _pretty_into(v, inner, out)
            sep = "," + inner
        out.append(pad + "}")
    elif t is list or t is tuple:
        if not o:
            out.append("[]")
            return
        inner = pad + "  "
        if type(o[0]) is str and all(type(x) is str for x in o):
            out.append("[" + inner + ("," + inner).join(map(_ENC_STR, o)) + pad + "]")
            return
        sep = "[" + inner
        for v in o:
            out.append(sep)
            _pretty_into(v, inner, out)
            sep = "," + inner
        out.append(pad + "]")
    elif t is str:
        out.append(_ENC_STR(o))
    elif o is None or t is bool:
        out.append(_LITERALS[o])
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float and o == o and o not in (float("inf"), float("-inf")):
        out.append(float.__repr__(o))
    else:
        raise TypeError(f"cannot encode {t.__name__}")


def _dumps_pretty(obj: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2) + "\\n"``, byte for byte
    (falls back to the stdlib for anything unusual)."""
    out: list[str] = []
    try:
        _pretty_into(obj, "\n", out)
    except (TypeError, RecursionError):
        return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"
    out.append("\n")
    return "".join(out)


# --------------------------------------------------------------------------- index


def index_object(reg: Registry) -> dict[str, Any]:
    """The compact index as a dict in spec section 3 key order."""
    obj: dict[str, Any] = {
        "v": INDEX_VERSION,
        "authority": reg.path.name,
        "skill_fields": SKILL_FIELDS,
        "skills": [[s.id, s.source_start, s.source_end, list(s.triggers)] for s in reg.skills.values()],
        "composition_fields": COMPOSITION_FIELDS,
        "compositions": [[c.id, c.source_start, c.source_end] for c in reg.compositions.values()],
    }
    if reg.rules:
        obj["rule_fields"] = RULE_FIELDS
        obj["rules"] = [[r.id, r.source_start, r.source_end, list(r.triggers)] for r in reg.rules.values()]
    if reg.routing.present:
        obj["routing"] = {
            "threshold": reg.routing.threshold,
            "ambiguity_margin": reg.routing.ambiguity_margin,
            "high_risk": list(reg.routing.high_risk),
        }
    obj["source_sha256"] = reg.source_sha256
    return obj


def index_bytes(reg: Registry) -> bytes:
    """Exact bytes of ``routing.min.json``: UTF-8, no ASCII escaping, no
    spaces, entries sorted by id, one trailing LF (spec section 3)."""
    return (_dumps_compact(index_object(reg)) + "\n").encode("utf-8")


# --------------------------------------------------------------------------- bodies


def _refuse_lexically(rel: str) -> None:
    if rel and ".." not in rel and rel[:1] not in ("/", "\\") and rel[1:2] != ":" and "\x00" not in rel:
        return
    if not rel or "\x00" in rel:
        raise ValueError(f"body path {rel!r} is empty or holds a NUL character: refused")
    if is_absolute_or_escaping(rel):
        raise ValueError(f"body path {rel!r} is absolute or uses '..': refused")


def _inside(base: str, target: str) -> bool:
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def resolve_body_path(reg: Registry, rel: str) -> Path:
    """The real path of a skill body (``rel`` is the skill's ``path``,
    relative to the registry's folder), checked to stay inside that folder
    after resolving symlinks (spec section 1). Raises ``ValueError`` with a
    message for an empty path, an absolute path, a ``..`` escape or a
    symlink that leads outside. The file need not exist."""
    _refuse_lexically(rel)
    base = os.path.realpath(reg.base_dir)
    target = os.path.realpath(os.path.join(base, rel))
    if not _inside(base, target):
        raise ValueError(f"body path {rel!r} leads outside the registry folder (through a symlink): refused")
    return Path(target)


def body_info(reg: Registry, rel: str, _dirs: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the catalog says about a skill body (spec section 4):
    ``{"exists": true, "chars": n}`` with ``n`` the characters of its
    canonical text (BOM removed, CRLF/CR as LF, invalid UTF-8 bytes counted
    as one replacement character each), so a CRLF checkout gives the same
    figure; or ``{"exists": false, "error": message}`` when the body is
    missing, not a regular file (a folder, a FIFO, a device), bigger than
    ``LIMITS["max_body_bytes"]``, unreadable, or refused by
    :func:`resolve_body_path` (absolute, ``..``, a symlink leading outside
    the registry's folder). Never raises for a bad path or file and never
    blocks on a FIFO. ``_dirs`` is a cache the catalog passes so each folder
    is resolved once."""
    try:
        _refuse_lexically(rel)
        if _dirs is None:
            target = str(resolve_body_path(reg, rel))
        else:
            base = _dirs.get("")
            if base is None:
                base = _dirs[""] = os.path.realpath(reg.base_dir)
            head, tail = os.path.split(rel.replace("\\", "/"))
            real_dir = _dirs.get(head)
            if real_dir is None:
                real_dir = _dirs[head] = os.path.realpath(os.path.join(base, head))
            target = os.path.join(real_dir, tail) if tail else real_dir
            if not _inside(base, real_dir) or (not _NOFOLLOW and os.path.islink(target)):
                target = str(resolve_body_path(reg, rel))
    except ValueError as exc:
        return {"exists": False, "error": str(exc)}
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        try:
            fd = os.open(target, flags | _NOFOLLOW)
        except OSError as exc:
            if exc.errno != errno.ELOOP or not _NOFOLLOW:
                raise
            try:  # the file itself is a symlink: follow it only inside the folder
                target = str(resolve_body_path(reg, rel))
            except ValueError as exc2:
                return {"exists": False, "error": str(exc2)}
            fd = os.open(target, flags)
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                return {"exists": False, "error": "is a directory"}
            if not stat.S_ISREG(st.st_mode):
                return {"exists": False, "error": "not a regular file"}
            if st.st_size > LIMITS["max_body_bytes"]:
                return {"exists": False, "error": f"too big: {st.st_size} bytes, more than the limit "
                                                  f"{LIMITS['max_body_bytes']}"}
            data = fh.read(LIMITS["max_body_bytes"] + 1)
    except FileNotFoundError:
        return {"exists": False, "error": "missing"}
    except IsADirectoryError:
        return {"exists": False, "error": "is a directory"}
    except NotADirectoryError:
        return {"exists": False, "error": "missing (a path component is a file)"}
    except OSError as exc:
        return {"exists": False, "error": f"unreadable: {exc.strerror or exc}"}
    text = canonical_bytes(data).decode("utf-8", "replace")
    return {"exists": True, "chars": len(text)}


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


# --------------------------------------------------------------------------- catalog


def catalog_object(reg: Registry, index_data: bytes | None = None) -> dict[str, Any]:
    """The debug catalog (spec section 4) as a dict: exactly what
    ``json.loads(catalog_bytes(reg, index_data))`` gives, including the size
    statistics of section 5 with the catalog's own size."""
    return json.loads(catalog_bytes(reg, index_data))


def _rest_object(reg: Registry) -> dict[str, Any]:
    """The catalog without its skills (a placeholder stands for them) and without stats."""
    return {
        "v": INDEX_VERSION,
        "authority": reg.path.name,
        "source_sha256": reg.source_sha256,
        "skills": _SKILLS_SENTINEL,
        "compositions": {
            c.id: {"id": c.id, "source_start": c.source_start, "source_end": c.source_end,
                   "members": list(c.members), "self_contained": c.self_contained}
            for c in reg.compositions.values()
        },
        "rules": {
            r.id: {"id": r.id, "source_start": r.source_start, "source_end": r.source_end, "forced": r.forced,
                   "description": r.description, "triggers": list(r.triggers), "metadata": r.metadata,
                   "self_contained": r.self_contained}
            for r in reg.rules.values()
        },
        "routing": {
            "threshold": reg.routing.threshold,
            "ambiguity_margin": reg.routing.ambiguity_margin,
            "high_risk": list(reg.routing.high_risk),
            "max_index_ratio": reg.routing.max_index_ratio,
        },
        "warnings": [str(w) for w in reg.warnings],
    }


def _catalog_bytes(reg: Registry, index_data: bytes | None) -> bytes:
    """The catalog, exactly as ``json.dumps(catalog, ensure_ascii=False,
    indent=2) + "\\n"`` would write it, rendered in parts: the skills (the
    bulk) straight from the registry, one UTF-8 chunk per skill, so no copy
    of the whole catalog as a Python string is ever made; only the small
    statistics part is re-rendered until the catalog's stated size of itself
    is stable (the stats come last)."""
    from routelens.stats import size_stats  # local: stats imports this module

    idx = index_data if index_data is not None else index_bytes(reg)
    rest = _dumps_pretty(_rest_object(reg))
    marker = _ENC_STR(_SKILLS_SENTINEL)
    at = rest.index(marker)  # the first: the keys before "skills" cannot hold it
    pre, post = rest[:at], rest[at + len(marker):]
    if not post.endswith("\n}\n"):  # pragma: no cover - _dumps_pretty always ends so
        raise AssertionError("unexpected catalog layout")
    # json.dumps(obj with stats last) == ... + ',\n  "stats": ' + stats + "\n}"
    post = post[:-3] + ',\n  "stats": '
    chunks: list[bytes] = [pre.encode("utf-8")]
    chars, lines = len(pre), pre.count("\n")
    for piece in _skills_pieces(reg, "\n  "):
        chars += len(piece)
        lines += piece.count("\n")
        chunks.append(piece.encode("utf-8"))
    chunks.append(post.encode("utf-8"))
    chars += len(post)
    lines += post.count("\n")
    nbytes = sum(map(len, chunks))
    base_stats = size_stats(reg, idx, (0, 0, 0))

    def render(m: tuple[int, int, int], digits: int) -> tuple[bytes, tuple[int, int, int]]:
        st = dict(base_stats)
        st["catalog"] = _catalog_measure(reg, m, digits)
        tail_parts: list[str] = []
        _pretty_into(st, "\n  ", tail_parts)
        tail = "".join(tail_parts) + "\n}\n"
        tail_b = tail.encode("utf-8")
        return tail_b, (chars + len(tail), nbytes + len(tail_b), lines + tail.count("\n"))

    # The catalog states its own size: find a fixed point. Near a rounding
    # boundary the stated reduction can lose a digit when the size grows by
    # one, and the figures flip-flop forever; the reduction is then stated
    # with fewer decimals, which gives a fixed point (the size stated is
    # always the size of the file).
    for digits in (4, 3, 2, 1, 0):
        catalog_len = (0, 0, 0)
        seen = set()
        while catalog_len not in seen:
            seen.add(catalog_len)
            tail_b, now = render(catalog_len, digits)
            if now == catalog_len:
                break
            catalog_len = now
        else:
            continue
        break
    else:  # pragma: no cover - no registry has been found that needs this
        tail_b, _ = render(catalog_len, 4)
    chunks.append(tail_b)
    return b"".join(chunks)


#: stands for the skills while the rest of the catalog is rendered (the
#: registry refuses NUL characters, so no registry string encodes like it)
_SKILLS_SENTINEL = "\x00skills\x00"


def _skills_pieces(reg: Registry, pad: str) -> Iterator[str]:
    """The catalog's ``skills`` object (spec section 4) at indentation
    ``pad``, exactly as the stdlib's pretty printer would write it, in
    pieces (one per skill), written straight from the registry."""
    if not reg.skills:
        yield "{}"
        return
    enc = _ENC_STR
    p1 = pad + "  "
    p2 = p1 + "  "
    p3 = p2 + "  "
    lit = _LITERALS
    dirs: dict[str, Any] = {}
    sep = "{" + p1
    join3 = "," + p3
    for s in reg.skills.values():
        trig_text = ("[" + p3 + join3.join(map(enc, s.triggers)) + p2 + "]") if s.triggers else "[]"
        if s.metadata:
            parts: list[str] = []
            _pretty_into(s.metadata, p2, parts)
            meta_text = "".join(parts)
        else:
            meta_text = "{}"
        comps = reg.compositions_of(s.id)
        comps_text = ("[" + p3 + join3.join(map(enc, comps)) + p2 + "]") if comps else "[]"
        body = body_info(reg, s.path, dirs)
        if "chars" in body:
            body_text = f'{{{p3}"exists": {lit[body["exists"]]},{p3}"chars": {int.__repr__(body["chars"])}{p2}}}'
        else:
            body_text = f'{{{p3}"exists": {lit[body["exists"]]},{p3}"error": {enc(body["error"])}{p2}}}'
        desc = s.description
        sid = enc(s.id)
        yield (
            f'{sep}{sid}: {{{p2}"id": {sid},{p2}"source_start": {int.__repr__(s.source_start)},'
            f'{p2}"source_end": {int.__repr__(s.source_end)},{p2}"path": {enc(s.path)},'
            f'{p2}"priority": {enc(s.priority)},{p2}"status": {enc(s.status)},'
            f'{p2}"description": {"null" if desc is None else enc(desc)},{p2}"triggers": {trig_text},'
            f'{p2}"metadata": {meta_text},{p2}"compositions": {comps_text},'
            f'{p2}"self_contained": {lit[s.self_contained]},{p2}"body": {body_text}{p1}}}'
        )
        sep = "," + p1
    yield pad + "}"


def _catalog_measure(reg: Registry, m: tuple[int, int, int], digits: int = 4) -> dict[str, Any]:
    """The catalog's ``{chars, bytes, lines, reduction}`` (spec section 5)."""
    rc = max(len(reg.text), 1)
    return {"chars": m[0], "bytes": m[1], "lines": m[2], "reduction": round(1 - m[0] / rc, digits)}


def catalog_bytes(reg: Registry, index_data: bytes | None = None) -> bytes:
    """Exact bytes of ``catalog.json`` (spec section 4): UTF-8, indent 2,
    ids sorted, one trailing LF. ``index_data`` is the index built from the
    same registry (built here when not given)."""
    return _catalog_bytes(reg, index_data)


@dataclass
class BuildOutput:
    """The two generated files' bytes for one registry."""

    index: bytes
    catalog: bytes


def build(reg: Registry) -> BuildOutput:
    """Build both generated files in memory (nothing is written): the
    exact bytes of ``routing.min.json`` (spec section 3) and
    ``catalog.json`` (section 4)."""
    with gc_paused():
        idx = index_bytes(reg)
        return BuildOutput(idx, catalog_bytes(reg, idx))


# --------------------------------------------------------------------------- writing


_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process umask, read without changing it where the system tells it
    (Linux: /proc/self/status); elsewhere set and restored under a lock."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # pragma: no cover - not Linux
        mask = os.umask(0o022)
        os.umask(mask)
        return mask


def _write_temp(path: Path, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``path`` (same folder,
    so the rename is atomic), with the permissions ``path`` has (or a new
    file would get), flushed to disk. Returns its name; nothing is left
    behind when this raises."""
    try:
        mode = path.stat().st_mode & 0o777  # keep the old file's permissions
    except OSError:
        mode = 0o666 & ~_umask()  # what open() would give a new file
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)  # mkstemp creates 0600
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _atomic_write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file in the same folder and
    ``os.replace``. Returns False (and writes nothing) when the file already
    holds exactly these bytes. The temporary file never outlives the call."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


@contextlib.contextmanager
def _build_lock(out_dir: Path):
    """Serialise concurrent builds into one folder (so the pair is never a
    mix). The lock is an ``flock`` on the folder itself: no lock file is
    left behind. Yields the folder's file descriptor."""
    fd = os.open(out_dir, os.O_RDONLY)
    try:
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - Windows: best effort
            pass
        yield fd
    finally:
        os.close(fd)


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write_generated(reg: Registry, out_dir: str | Path) -> tuple[BuildOutput, list[str]]:
    """Build and write ``routing.min.json`` and ``catalog.json`` into
    ``out_dir`` (created when missing) atomically, as a pair (spec section 3).

    Both files are first written to temporary files beside them; only when
    both are complete on disk are they renamed over the old ones, catalog
    first and index last, under an ``flock`` on the folder so two builds at
    once never leave a mixed pair. A file that already holds the new bytes
    is not touched. Returns the output and the names of the files that
    changed (index first). Raises :class:`BuildError` with a readable
    message (read-only folder, full disk, permission denied, ...): the
    previous files are then unchanged (a rename that already happened is
    rolled back) and no temporary file is left behind."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"cannot write to {out_dir}: it is a file, not a folder; nothing was written")
    out = build(reg)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with _build_lock(out_dir) as dir_fd:
            plans: list[tuple[str, Path, str, bytes | None]] = []
            done: list[tuple[Path, bytes | None]] = []
            try:
                for name, data in ((INDEX_NAME, out.index), (CATALOG_NAME, out.catalog)):
                    path = out_dir / name
                    old = _read_or_none(path)
                    if old == data:
                        continue
                    plans.append((name, path, _write_temp(path, data), old))
                for name, path, tmp, old in sorted(plans, key=lambda p: p[0] == INDEX_NAME):
                    os.replace(tmp, path)
                    done.append((path, old))
            except BaseException:
                for _, _, tmp, _ in plans:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
                for path, old in reversed(done):  # put the previous pair back
                    with contextlib.suppress(OSError):
                        if old is None:
                            os.unlink(path)
                        else:
                            _atomic_write(path, old)
                raise
            with contextlib.suppress(OSError):
                os.fsync(dir_fd)  # the renames themselves reach the disk
            written = [name for name, _, _, _ in plans]
    except OSError as exc:
        reason = {
            errno.ENOSPC: "the disk is full",
            getattr(errno, "EDQUOT", -1): "the disk quota is exceeded",
            errno.EACCES: "permission denied",
            errno.EROFS: "read-only file system",
            errno.EPERM: "operation not permitted",
            errno.ENOTDIR: "not a folder",
        }.get(exc.errno or 0, exc.strerror or str(exc))
        raise BuildError(f"cannot write to {out_dir}: {reason}; the previous generated files are unchanged") from None
    return out, written


# --------------------------------------------------------------------------- reading the index


IndexInvalid = IndexInvalidError  # the name before the error hierarchy


@dataclass(frozen=True)
class CompactIndex:
    """A validated ``routing.min.json``.

    ``skills``: tuples ``(id, source_start, source_end, triggers)``;
    ``compositions``: ``(id, source_start, source_end)``; ``rules``: like
    skills; ``routing``: the dict of the file or ``{}``; lines are 1-based.
    """

    authority: str
    skills: tuple[tuple[str, int, int, tuple[str, ...]], ...]
    compositions: tuple[tuple[str, int, int], ...]
    rules: tuple[tuple[str, int, int, tuple[str, ...]], ...]
    routing: dict[str, Any]
    source_sha256: str
    raw: bytes = field(repr=False, default=b"")


def _check_tuple(row: Any, where: str, with_triggers: bool) -> tuple:
    n = 4 if with_triggers else 3
    if not isinstance(row, list) or len(row) != n:
        raise IndexInvalid(f"{where}: expected a tuple of {n} fields, got {json.dumps(row, ensure_ascii=False)[:80]}")
    rid, start, end = row[0], row[1], row[2]
    if not isinstance(rid, str) or not ID_RE.match(rid):
        raise IndexInvalid(f"{where}: bad id {rid!r}")
    if type(start) is not int or type(end) is not int or not (1 <= start <= end):
        raise IndexInvalid(f"{where} ({rid}): bad line range {start!r}..{end!r}")
    if with_triggers:
        trig = row[3]
        if not isinstance(trig, list) or not trig or not all(isinstance(t, str) and t for t in trig):
            raise IndexInvalid(f"{where} ({rid}): triggers must be a non-empty list of strings")
        return (rid, start, end, tuple(trig))
    return (rid, start, end)


def parse_index(data: bytes) -> CompactIndex:
    """Validate index bytes. Raises :class:`IndexInvalid` saying what is
    wrong: truncated or not JSON, unknown ``v``, missing fields, wrong field
    lists, wrong tuple length, bad ranges, unsorted or repeated ids."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise IndexInvalid("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise IndexInvalid(f"not valid JSON (truncated?): {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(obj, dict):
        raise IndexInvalid("not a JSON object")
    if "v" not in obj:
        raise IndexInvalid("missing field 'v' (the index version)")
    if type(obj["v"]) is not int or obj["v"] != INDEX_VERSION:
        raise IndexInvalid(f"unknown index version v={obj['v']!r} (this routelens reads v={INDEX_VERSION})")
    for key in ("authority", "skill_fields", "skills", "composition_fields", "compositions", "source_sha256"):
        if key not in obj:
            raise IndexInvalid(f"missing field {key!r}")
    if not isinstance(obj["authority"], str) or not obj["authority"]:
        raise IndexInvalid("authority is not a file name")
    if "rule_fields" in obj and "rules" not in obj:
        raise IndexInvalid("rule_fields without rules")
    if obj["skill_fields"] != SKILL_FIELDS:
        raise IndexInvalid(f"skill_fields is {obj['skill_fields']!r}, expected {SKILL_FIELDS!r}")
    if obj["composition_fields"] != COMPOSITION_FIELDS:
        raise IndexInvalid(f"composition_fields is {obj['composition_fields']!r}, expected {COMPOSITION_FIELDS!r}")
    if "rules" in obj and obj.get("rule_fields") != RULE_FIELDS:
        raise IndexInvalid(f"rule_fields is {obj.get('rule_fields')!r}, expected {RULE_FIELDS!r}")
    sha = obj["source_sha256"]
    if not isinstance(sha, str) or not _HEX64.match(sha):
        raise IndexInvalid("source_sha256 is not a sha256 hex digest")
    routing = obj.get("routing", {})
    if not isinstance(routing, dict):
        raise IndexInvalid("routing is not an object")
    for key in ("threshold", "ambiguity_margin"):
        if key in routing:
            x = routing[key]
            if type(x) not in (int, float) or not (0 <= x <= 100):
                raise IndexInvalid(f"routing.{key} is {x!r}, not a number in [0, 100]")
    if "high_risk" in routing:
        hr = routing["high_risk"]
        if not isinstance(hr, list) or not all(isinstance(t, str) and t for t in hr):
            raise IndexInvalid("routing.high_risk is not a list of non-empty strings")
    out = {}
    for key, with_trig in (("skills", True), ("compositions", False), ("rules", True)):
        rows = obj.get(key, [])
        if not isinstance(rows, list):
            raise IndexInvalid(f"{key} is not a list")
        parsed = [_check_tuple(row, f"{key}[{i}]", with_trig) for i, row in enumerate(rows)]
        ids = [p[0] for p in parsed]
        if ids != sorted(set(ids)):
            raise IndexInvalid(f"{key}: ids are not sorted and unique")
        out[key] = tuple(parsed)
    return CompactIndex(str(obj["authority"]), out["skills"], out["compositions"], out["rules"], routing, sha, data)


def load_index(path: str | Path) -> CompactIndex:
    """Read and validate an index file. Raises ``FileNotFoundError`` when it
    is missing and :class:`IndexInvalid` when it cannot be trusted."""
    return parse_index(Path(path).read_bytes())


@dataclass(frozen=True)
class Freshness:
    """Freshness of an index against the registry's current bytes.

    ``state``: ``fresh`` | ``stale`` | ``missing`` | ``invalid``;
    ``message``: a sentence for people; hashes are sha256 hex (or None).
    """

    state: str
    message: str
    registry_sha256: str | None
    index_sha256: str | None
    index: CompactIndex | None = None


def index_problem(idx: CompactIndex, registry_text: str) -> str | None:
    """What is wrong with an index whose hash matches the registry, judged
    from the canonical registry text alone (no parsing): a line range beyond
    the end of the registry, or a range whose first line does not hold its
    entry's key. None when every range looks right. (A hand edit of
    triggers only is caught by :func:`check`, which compares bytes with a
    fresh build.)"""
    lines = editor_lines(registry_text)
    n = len(lines)
    for kind, rows in (("skill", idx.skills), ("composition", idx.compositions), ("rule", idx.rules)):
        for row in rows:
            rid, start, end = row[0], row[1], row[2]
            if end > n:
                return (f"{kind} {rid!r} has the line range [{start}, {end}], beyond the end of the registry "
                        f"({n} lines)")
            if not holds_key(lines[start - 1], rid):
                return (f"{kind} {rid!r} has the line range [{start}, {end}] but line {start} does not hold "
                        f"the key `{rid}:` (it holds {lines[start - 1].strip()[:60]!r})")
    return None


def freshness(registry_path: str | Path, index_path: str | Path, registry_raw: bytes | None = None,
              registry: Registry | None = None) -> Freshness:
    """Is the index at ``index_path`` fresh for the registry (spec section 3)?

    Compares the index's ``source_sha256`` with the sha256 of the registry's
    canonical bytes (``registry_raw`` when given, else read from
    ``registry_path``) without parsing the registry. When the hashes match,
    the index's ranges are checked against the registry text
    (:func:`index_problem`), and with ``registry`` (the parsed registry)
    the index bytes must equal a fresh build: a hand-edited index whose hash
    still matches is ``invalid``. States: ``fresh``, ``stale`` (built from
    other registry bytes), ``missing``, ``invalid`` (unreadable, not an
    index, or not what the registry gives), each with a message for people.
    Raises :class:`RegistryError` only when the registry itself cannot be read."""
    raw = registry_raw if registry_raw is not None else read_registry_bytes(registry_path)
    current = source_sha256(raw)
    try:
        idx = load_index(index_path)
    except FileNotFoundError:
        return Freshness("missing", f"no index at {index_path}: run `routelens build`", current, None)
    except IndexInvalid as exc:
        return Freshness("invalid", f"the index {index_path} is invalid: {exc}", current, None)
    except OSError as exc:
        return Freshness("invalid", f"the index {index_path} cannot be read: {exc.strerror or exc}", current, None)
    if idx.source_sha256 != current:
        return Freshness(
            "stale",
            f"the index was built from registry {idx.source_sha256[:12]}, the registry is now {current[:12]}",
            current, idx.source_sha256, idx,
        )
    try:
        text = canonical_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        problem: str | None = "the registry is not UTF-8, so no index can have been built from it"
    else:
        problem = index_problem(idx, text)
    if problem is None and registry is not None and registry.source_sha256 == current:
        if index_bytes(registry) != idx.raw:
            problem = "it differs from a fresh build of the registry"
    if problem is not None:
        return Freshness("invalid", f"the index {index_path} matches the registry's hash but is wrong "
                                    f"(hand-edited?): {problem}; run `routelens build`", current, idx.source_sha256)
    return Freshness("fresh", f"the index matches the registry ({current[:12]})", current, idx.source_sha256, idx)


# --------------------------------------------------------------------------- check


@dataclass
class CheckResult:
    """Outcome of :func:`check`: ``ok`` iff both files equal a fresh build
    and the size budget holds. ``problems`` are sentences for people;
    ``added``/``removed``/``changed`` are ids (skills, compositions, rules)
    compared with the generated files on disk: ``changed`` means a routing
    field (triggers) or a catalog field (path, priority, status, members,
    description, metadata...) differs; ``moved`` lists ids whose only change
    is their line range (lines inserted or removed above them)."""

    ok: bool
    problems: list[str]
    added: list[str]
    removed: list[str]
    changed: list[str]
    output: BuildOutput
    moved: list[str] = field(default_factory=list)


_RANGE_KEYS = ("source_start", "source_end", "stats")


def _entries(obj: Any, from_catalog: bool) -> dict[str, tuple[str, str]]:
    """``"kind:id" -> (range part, rest)`` as comparable JSON strings, from a
    parsed index (tuples) or catalog (objects); junk rows are skipped."""
    out: dict[str, tuple[str, str]] = {}
    if not isinstance(obj, dict):
        return out
    for key in ("skills", "compositions", "rules"):
        rows = obj.get(key)
        if from_catalog and isinstance(rows, dict):
            for rid, entry in rows.items():
                if isinstance(entry, dict):
                    rng = _dumps_compact([entry.get("source_start"), entry.get("source_end")])
                    rest = _dumps_compact({k: v for k, v in entry.items() if k not in _RANGE_KEYS})
                    out[f"{key}:{rid}"] = (rng, rest)
        elif not from_catalog and isinstance(rows, list):
            for row in rows:
                if isinstance(row, list) and row and isinstance(row[0], str):
                    out[f"{key}:{row[0]}"] = (_dumps_compact(row[1:3]), _dumps_compact(row[3:]))
    return out


def _load_json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def check(reg: Registry, out_dir: str | Path) -> CheckResult:
    """Compare the generated files in ``out_dir`` with a fresh in-memory
    build of ``reg`` (byte for byte) and check the size budget (spec
    section 5). Never writes."""
    from routelens.stats import size_stats

    out_dir = Path(out_dir)
    out = build(reg)
    problems: list[str] = []
    added: list[str] = []
    removed: list[str] = []
    changed: list[str] = []
    added_s: set[str] = set()
    removed_s: set[str] = set()
    changed_s: set[str] = set()
    moved_s: set[str] = set()
    stale_files: list[tuple[Path, Any]] = []
    for name, fresh in ((INDEX_NAME, out.index), (CATALOG_NAME, out.catalog)):
        path = out_dir / name
        try:
            old = path.read_bytes()
        except FileNotFoundError:
            problems.append(f"{path} is missing: run `routelens build`")
            continue
        except OSError as exc:
            problems.append(f"{path} cannot be read: {exc.strerror or exc}")
            continue
        if old == fresh:
            continue
        old_obj = _load_json(old)
        if not isinstance(old_obj, dict):
            problems.append(f"{path} is not valid JSON: run `routelens build`")
            continue
        stale_files.append((path, old_obj))
        from_catalog = name == CATALOG_NAME
        new_e = _entries(json.loads(fresh), from_catalog)
        old_e = _entries(old_obj, from_catalog)
        added_s |= {k for k in new_e.keys() - old_e.keys()}
        removed_s |= {k for k in old_e.keys() - new_e.keys()}
        for k in new_e.keys() & old_e.keys():
            if new_e[k][1] != old_e[k][1]:
                changed_s.add(k)
            elif new_e[k][0] != old_e[k][0]:
                moved_s.add(k)
    moved_s -= changed_s
    plain = lambda keys: sorted({k.split(":", 1)[1] for k in keys})  # noqa: E731
    added, removed, changed, moved = plain(added_s), plain(removed_s), plain(changed_s), plain(moved_s)
    for path, old_obj in stale_files:
        parts = []
        if old_obj.get("source_sha256") != reg.source_sha256:
            parts.append("the registry changed since it was built")
        elif old_obj.get("authority") != reg.path.name:
            parts.append(f"it was built for registry {old_obj.get('authority')!r}, not {reg.path.name!r}")
        else:
            parts.append("it differs from a fresh build although its hash matches (hand-edited, or a body changed?)")
        problems.append(f"{path} is stale: " + "; ".join(parts) + ".")
    if stale_files:
        summary = [f"{label}: {', '.join(ids)}" for label, ids in
                   (("added", added), ("removed", removed), ("changed", changed)) if ids]
        if moved:
            summary.append(f"{len(moved)} more only moved to other lines")
        problems.append(("Since the build: " + "; ".join(summary) + ". " if summary else "") + "Run `routelens build`.")
    st = size_stats(reg, out.index, (0, 0, 0))
    budget = st["budget"]
    if not budget["ok"]:
        problems.append(
            f"size budget exceeded: index {budget['index_chars']} chars >= registry {st['registry']['chars']} chars "
            f"x {budget['max_index_ratio']} = {budget['limit_chars']} (over by {budget['index_chars'] - budget['limit_chars']:.1f} chars)"
        )
    return CheckResult(not problems, problems, added, removed, changed, out, moved)
