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
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routelens.registry import ID_RE, Registry, canonical_bytes, source_sha256

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
    "check",
    "body_info",
    "resolve_body_path",
]

INDEX_NAME = "routing.min.json"
CATALOG_NAME = "catalog.json"
SKILL_FIELDS = ["id", "source_start", "source_end", "triggers"]
COMPOSITION_FIELDS = ["id", "source_start", "source_end"]
RULE_FIELDS = ["id", "source_start", "source_end", "triggers"]
INDEX_VERSION = 1
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _dumps_compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


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


def resolve_body_path(reg: Registry, rel: str) -> Path:
    """The real path of a skill body, checked to stay inside the registry's
    folder after resolving symlinks. Raises ``ValueError`` with a message for
    an absolute path, a ``..`` escape or a symlink that leads outside."""
    base = reg.base_dir.resolve()
    if rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) or ".." in re.split(r"[\\/]", rel):
        raise ValueError(f"body path {rel!r} is absolute or uses '..': refused")
    target = (base / rel).resolve()
    if target != base and base not in target.parents:
        raise ValueError(f"body path {rel!r} leads outside the registry folder (through a symlink): refused")
    return target


def body_info(reg: Registry, rel: str) -> dict[str, Any]:
    """``{"exists": bool, "chars": int}`` for a body (chars of its canonical
    text, so a CRLF checkout gives the same figure), or ``{"exists": false,
    "error": message}`` when it is missing, unreadable or refused."""
    try:
        target = resolve_body_path(reg, rel)
    except ValueError as exc:
        return {"exists": False, "error": str(exc)}
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        return {"exists": False, "error": "missing"}
    except IsADirectoryError:
        return {"exists": False, "error": "is a directory"}
    except OSError as exc:
        return {"exists": False, "error": f"unreadable: {exc.strerror or exc}"}
    text = canonical_bytes(data).decode("utf-8", "replace")
    return {"exists": True, "chars": len(text)}


# --------------------------------------------------------------------------- catalog


def catalog_object(reg: Registry, index_data: bytes | None = None) -> dict[str, Any]:
    """The debug catalog (spec section 4) as a dict, with the size
    statistics of section 5 — including the catalog's own size, found by
    re-rendering until the figure is stable."""
    from routelens.stats import size_stats  # local: stats imports this module

    idx = index_data if index_data is not None else index_bytes(reg)
    skills = {}
    for s in reg.skills.values():
        skills[s.id] = {
            "id": s.id,
            "source_start": s.source_start,
            "source_end": s.source_end,
            "path": s.path,
            "priority": s.priority,
            "status": s.status,
            "description": s.description,
            "triggers": list(s.triggers),
            "metadata": s.metadata,
            "compositions": reg.compositions_of(s.id),
            "self_contained": s.self_contained,
            "body": body_info(reg, s.path),
        }
    obj: dict[str, Any] = {
        "v": INDEX_VERSION,
        "authority": reg.path.name,
        "source_sha256": reg.source_sha256,
        "skills": skills,
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
    catalog_len = (0, 0, 0)
    for _ in range(8):  # fixpoint: the catalog states its own size
        obj["stats"] = size_stats(reg, idx, catalog_len)
        text = _dumps_pretty(obj)
        now = (len(text), len(text.encode("utf-8")), text.count("\n"))
        if now == catalog_len:
            break
        catalog_len = now
    return obj


def _dumps_pretty(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def catalog_bytes(reg: Registry, index_data: bytes | None = None) -> bytes:
    """Exact bytes of ``catalog.json``: indent 2, ids sorted, trailing LF."""
    return _dumps_pretty(catalog_object(reg, index_data)).encode("utf-8")


@dataclass
class BuildOutput:
    """The two generated files' bytes for one registry."""

    index: bytes
    catalog: bytes


def build(reg: Registry) -> BuildOutput:
    """Build both generated files in memory (nothing is written)."""
    idx = index_bytes(reg)
    return BuildOutput(idx, catalog_bytes(reg, idx))


# --------------------------------------------------------------------------- writing


class BuildError(Exception):
    """Writing the generated files failed; the previous files are intact."""


def _atomic_write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file in the same folder and
    ``os.replace``. Returns False (and writes nothing) when the file already
    holds exactly these bytes. The temporary file never outlives the call."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    try:
        mode = path.stat().st_mode & 0o777  # keep the old file's permissions
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask  # what open() would give a new file
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)  # mkstemp creates 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
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
    left behind."""
    fd = os.open(out_dir, os.O_RDONLY)
    try:
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - Windows: best effort
            pass
        yield
    finally:
        os.close(fd)


def write_generated(reg: Registry, out_dir: str | Path) -> tuple[BuildOutput, list[str]]:
    """Build and write ``routing.min.json`` and ``catalog.json`` into
    ``out_dir`` atomically (temporary file + rename each, under a lock so
    two concurrent builds never leave a mixed pair). Returns the output and
    the names of the files that changed. Raises :class:`BuildError` with a
    readable message (read-only folder, full disk, ...); the previous files
    stay intact then."""
    out_dir = Path(out_dir)
    out = build(reg)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with _build_lock(out_dir):
            written = []
            if _atomic_write(out_dir / INDEX_NAME, out.index):
                written.append(INDEX_NAME)
            if _atomic_write(out_dir / CATALOG_NAME, out.catalog):
                written.append(CATALOG_NAME)
    except OSError as exc:
        reason = {
            errno.ENOSPC: "the disk is full",
            errno.EACCES: "permission denied",
            errno.EROFS: "read-only file system",
            errno.EPERM: "operation not permitted",
        }.get(exc.errno or 0, exc.strerror or str(exc))
        raise BuildError(f"cannot write to {out_dir}: {reason}; the previous generated files are unchanged") from None
    return out, written


# --------------------------------------------------------------------------- reading the index


class IndexInvalid(Exception):
    """The compact index cannot be trusted: not JSON, wrong version, wrong
    shape. The message says what is wrong (for people)."""


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
    if obj.get("v") != INDEX_VERSION:
        raise IndexInvalid(f"unknown index version v={obj.get('v')!r} (this routelens reads v={INDEX_VERSION})")
    for key in ("authority", "skill_fields", "skills", "composition_fields", "compositions", "source_sha256"):
        if key not in obj:
            raise IndexInvalid(f"missing field {key!r}")
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


def freshness(registry_path: str | Path, index_path: str | Path, registry_raw: bytes | None = None) -> Freshness:
    """Compare the index's ``source_sha256`` with the registry's canonical
    hash (spec section 3) without parsing the registry."""
    raw = registry_raw if registry_raw is not None else Path(registry_path).read_bytes()
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
    return Freshness("fresh", f"the index matches the registry ({current[:12]})", current, idx.source_sha256, idx)


# --------------------------------------------------------------------------- check


@dataclass
class CheckResult:
    """Outcome of :func:`check`: ``ok`` iff both files equal a fresh build
    and the size budget holds. ``problems`` are sentences for people;
    ``added``/``removed``/``changed`` are ids (skills, compositions, rules)
    compared with the index on disk."""

    ok: bool
    problems: list[str]
    added: list[str]
    removed: list[str]
    changed: list[str]
    output: BuildOutput


def _id_rows(idx_obj: dict[str, Any]) -> dict[str, str]:
    rows = {}
    for key in ("skills", "compositions", "rules"):
        for row in idx_obj.get(key, []) or []:
            if isinstance(row, list) and row and isinstance(row[0], str):
                rows[f"{key}:{row[0]}"] = _dumps_compact(row)
    return rows


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
        if name == INDEX_NAME:
            try:
                old_obj = json.loads(old.decode("utf-8"))
                if not isinstance(old_obj, dict):
                    raise ValueError
            except (ValueError, UnicodeDecodeError):
                problems.append(f"{path} is not valid JSON: run `routelens build`")
                continue
            new_rows = _id_rows(json.loads(out.index))
            old_rows = _id_rows(old_obj)
            added = sorted(k.split(":", 1)[1] for k in new_rows.keys() - old_rows.keys())
            removed = sorted(k.split(":", 1)[1] for k in old_rows.keys() - new_rows.keys())
            changed = sorted(k.split(":", 1)[1] for k in new_rows.keys() & old_rows.keys() if new_rows[k] != old_rows[k])
            parts = []
            if old_obj.get("source_sha256") != reg.source_sha256:
                parts.append("the registry changed since the index was built")
            else:
                parts.append("the index differs from a fresh build although its hash matches (hand-edited?)")
            for label, ids in (("added", added), ("removed", removed), ("changed", changed)):
                if ids:
                    parts.append(f"{label}: {', '.join(ids)}")
            problems.append(f"{path} is stale: " + "; ".join(parts) + ". Run `routelens build`.")
        else:
            problems.append(f"{path} differs from a fresh build: run `routelens build`")
    st = size_stats(reg, out.index, (0, 0, 0))
    budget = st["budget"]
    if not budget["ok"]:
        problems.append(
            f"size budget exceeded: index {budget['index_chars']} chars >= registry {st['registry']['chars']} chars "
            f"x {budget['max_index_ratio']} = {budget['limit_chars']} (over by {budget['index_chars'] - budget['limit_chars']:.1f} chars)"
        )
    return CheckResult(not problems, problems, added, removed, changed, out)
