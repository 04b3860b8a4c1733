"""Freshness: may the compact index be trusted for the registry as it is now
(docs/formats.md §3.5)? Judged from the registry's bytes (their canonical
hash) without parsing them, then from the index's line ranges.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from routelens.artifacts.index_file import CompactIndex, index_bytes, load_index, parse_index
from routelens.errors import IndexInvalidError
from routelens.registry.load import read_registry_bytes
from routelens.registry.model import Registry
from routelens.text.canonical import canonical_bytes, editor_lines, holds_key, source_sha256

__all__ = ["Freshness", "freshness", "by_hash", "built_in_memory", "index_problem"]


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


def by_hash(idx: CompactIndex, registry_sha256: str) -> Freshness:
    """``fresh`` when the index was built from registry bytes with this
    canonical hash, else ``stale`` (docs/formats.md §3.5); the line ranges are
    not looked at (see :func:`freshness`)."""
    if idx.source_sha256 != registry_sha256:
        return Freshness(
            "stale",
            f"the index was built from registry {idx.source_sha256[:12]}, the registry is now {registry_sha256[:12]}",
            registry_sha256, idx.source_sha256, idx,
        )
    return Freshness("fresh", f"the index matches the registry ({registry_sha256[:12]})",
                     registry_sha256, idx.source_sha256, idx)


def built_in_memory(idx: CompactIndex) -> Freshness:
    """``fresh``: the index was just built in memory from the registry it is
    judged against (no file involved)."""
    return Freshness("fresh", f"the index was built in memory from the registry ({idx.source_sha256[:12]})",
                     idx.source_sha256, idx.source_sha256, idx)


def index_problem(idx: CompactIndex, registry_text: str) -> str | None:
    """What is wrong with an index whose hash matches the registry, judged
    from the canonical registry text alone (no parsing): a line range beyond
    the end of the registry, or a range whose first line does not hold its
    entry's key (:func:`routelens.text.canonical.holds_key`). None when every
    range looks right. (A hand edit of triggers only is caught by
    :func:`routelens.artifacts.check.check`, which compares bytes with a
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
              registry: Registry | None = None, index_raw: bytes | None = None) -> Freshness:
    """Is the index at ``index_path`` fresh for the registry (docs/formats.md §3.5)?

    Compares the index's ``source_sha256`` with the sha256 of the registry's
    canonical bytes (``registry_raw`` when given, else read from
    ``registry_path``) without parsing the registry. When the hashes match,
    the index's ranges are checked against the registry text
    (:func:`index_problem`, the same key-line check the router applies), and with ``registry`` (the parsed registry)
    the index bytes must equal a fresh build: a hand-edited index whose hash
    still matches is ``invalid``. States: ``fresh``, ``stale`` (built from
    other registry bytes), ``missing``, ``invalid`` (unreadable, not an
    index, or not what the registry gives), each with a message for people.
    ``index_raw``: the index file's bytes when the caller has read them
    already (so the state is judged on exactly those bytes); otherwise the
    file is read with the bounded reader (a FIFO or a device is ``invalid``,
    never waited on). Raises :class:`RegistryError` only when the registry
    itself cannot be read."""
    raw = registry_raw if registry_raw is not None else read_registry_bytes(registry_path)
    current = source_sha256(raw)
    try:
        idx = parse_index(index_raw) if index_raw is not None else load_index(index_path)
    except FileNotFoundError:
        return Freshness("missing", f"no index at {index_path}: run `routelens build`", current, None)
    except IndexInvalidError as exc:
        return Freshness("invalid", f"the index {index_path} is invalid: {exc}", current, None)
    except OSError as exc:
        return Freshness("invalid", f"the index {index_path} cannot be read: {exc.strerror or exc}", current, None)
    judged = by_hash(idx, current)
    if judged.state == "stale":
        return judged
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
    return judged
