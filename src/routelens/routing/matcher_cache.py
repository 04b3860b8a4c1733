"""The matcher cache: what a router builds from a fresh compact index (its
trigger matchers and its lexicon), kept between processes so that a cold
start does not rebuild it, and the index's own rows and settings, so that
a cold start whose index is vouched for does not decode and check the
index again (docs/formats.md §11.4).

A cache file is named by a key made of the index file's sha256, the
matcher's :data:`~routelens.routing.matching.MATCHER_VERSION`, a
fingerprint of the source of the modules that build the matchers and
check the index (so an edited matcher or index check never reads an old
cache, even when its version was not bumped) and the Python version. It
lives outside ``generated/`` (so ``routelens check`` stays byte-exact), in
``$ROUTELENS_MATCHER_CACHE`` when that names a folder, else
``$XDG_CACHE_HOME/routelens/matchers`` (default ``~/.cache/...``);
``ROUTELENS_MATCHER_CACHE=off`` switches it off.

A file is ``MAGIC``, the key, the sha256 of the payload, then the payload
(a pickle of a dict: ``floors``, ``built`` — the matchers and the lexicon —
and ``index``, the summary of :func:`routelens.artifacts.index_file.index_summary`
or None). It is trusted only when all of these agree, the payload
unpickles with nothing but the classes of ``routelens.routing`` and plain
containers, and it has that shape; anything else (truncated, flipped
bytes, another key, another class, another shape) is treated as absent:
the matchers are built and the file is written again, atomically. A cache
that cannot be written (read-only home, full disk) is not an error:
routing goes on, only slower. The folder keeps the :data:`MAX_FILES`
newest files.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import pickle
import sys
from pathlib import Path
from typing import Any, Callable

from routelens.artifacts import freshness as _freshness
from routelens.artifacts import index_file as _index_file
from routelens.artifacts.write import atomic_write
from routelens.errors import FileReadError
from routelens.fileio import read_bounded, seal, unseal
from routelens.limits import LIMITS
from routelens.paths import cache_dir
from routelens.registry import scan
from routelens.routing import columns, entries, evidence, lexicon, matching, range_lines
from routelens.text import canonical, unicode, words

__all__ = ["MAGIC", "cache_dir", "cache_key", "load_or_build", "read", "write"]

#: the first bytes of a cache file (its format version is the last digit)
MAGIC = b"routelens-matcher-cache 2\n"

#: the modules whose source decides what the matchers and the lexicon hold, and what checking an
#: index means (a file vouches for an index only under the checks that accepted it)
_SOURCES = (matching, columns, entries, range_lines, scan, evidence, lexicon, words, unicode, _index_file, _freshness,
            canonical)

#: classes a cache may hold besides plain containers: the routing stage's own
_ALLOWED_MODULE = "routelens.routing."

#: cache files kept in the folder (the newest; older keys are removed when a new one is written)
MAX_FILES = 16

_FINGERPRINT: str | None = None


def _code_fingerprint() -> str:
    """sha256 hex of the source files of :data:`_SOURCES` (computed once)."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        h = hashlib.sha256()
        for mod in _SOURCES:
            path = getattr(mod, "__file__", None) or ""
            try:
                h.update(read_bounded(path, LIMITS["max_matcher_cache_bytes"], what="module source"))
            except FileReadError:
                h.update(f"unreadable {mod.__name__}".encode())
            h.update(b"\0")
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def cache_key(index_sha256: str) -> str:
    """The key of a cache file: sha256 hex over the index file's sha256, the
    matcher version, the code fingerprint and the Python version. (The
    matchers' floors follow from the index's threshold, so from its bytes;
    the payload carries them and a file whose floors differ is not used.)"""
    parts = [index_sha256, matching.MATCHER_VERSION, _code_fingerprint(), sys.version]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class _Unpickler(pickle.Unpickler):
    """Refuses every global but the routing stage's classes."""

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(_ALLOWED_MODULE) and "." not in name:
            obj = super().find_class(module, name)
            if isinstance(obj, type):
                return obj
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a matcher cache")


def _read(path: Path, key: str) -> Any | None:
    """The cached object at ``path`` for ``key``, or None when the file is
    missing, damaged, another key's, or holds anything not allowed."""
    try:
        data = read_bounded(path, LIMITS["max_matcher_cache_bytes"], what="matcher cache")
    except FileReadError:
        return None
    payload = unseal(data, MAGIC, key)
    if payload is None:
        return None
    was = gc.isenabled()
    gc.disable()  # a few hundred thousand acyclic objects: the cyclic GC only costs time here
    try:
        got = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # any damage the digest did not catch: never trusted
        return None
    finally:
        if was:
            gc.enable()
    if not (isinstance(got, dict) and isinstance(got.get("floors"), tuple) and isinstance(got.get("built"), tuple)
            and len(got["built"]) == 5 and (got.get("index") is None or isinstance(got.get("index"), dict))):
        return None
    return got


def _write(path: Path, key: str, obj: Any) -> None:
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    data = seal(MAGIC, key, payload)
    if len(data) > LIMITS["max_matcher_cache_bytes"]:
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(path, data)
        _prune(path.parent, keep=path)


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the :data:`MAX_FILES` newest cache files of ``folder``
    (each registry edit makes a new key; old files are never read again)."""
    files = []
    for p in folder.glob("*.pickle"):
        with contextlib.suppress(OSError):
            files.append((p.stat().st_mtime_ns, p))
    files.sort(reverse=True)
    for _, p in files[MAX_FILES:]:
        if p != keep:
            with contextlib.suppress(OSError):
                p.unlink()


def read(index_sha256: str | None) -> dict | None:
    """The trusted payload for the index file whose bytes have sha256
    ``index_sha256`` — ``{"floors": (near-miss floor, threshold), "built":
    (skill, rule, high-risk and not_when matchers, lexicon), "index": the
    index's summary or None}`` — or None (no file, the cache off, or a file
    not trusted)."""
    folder = cache_dir()
    if folder is None or not index_sha256:
        return None
    key = cache_key(index_sha256)
    return _read(folder / f"{key}.pickle", key)


def write(index_sha256: str | None, floors: tuple, built: tuple, summary: dict | None) -> None:
    """Write the payload of :func:`read` for that index (nothing when the
    cache is off or cannot be written). ``summary``: what
    :func:`routelens.artifacts.index_file.index_summary` made of the index,
    only for an index that passed every check of docs/formats.md §3.4 and
    the range check of §3.5 (the file then vouches for those bytes)."""
    folder = cache_dir()
    if folder is None or not index_sha256:
        return
    key = cache_key(index_sha256)
    _write(folder / f"{key}.pickle", key, {"floors": tuple(floors), "built": tuple(built), "index": summary})


def load_or_build(index_sha256: str | None, floors: tuple, build: Callable[[], Any],
                  summary: Callable[[], dict | None] | None = None) -> Any:
    """The tuple ``build()`` returns for the compact index whose file has
    sha256 ``index_sha256``, from the cache when a trusted file with these
    ``floors`` is there, else built and written to the cache with
    ``summary()`` (without an index hash, or with the cache off, simply
    built)."""
    if cache_dir() is None or not index_sha256:
        return build()
    got = read(index_sha256)
    if got is not None and got["floors"] == tuple(floors):
        return got["built"]
    obj = build()
    write(index_sha256, floors, obj, summary() if summary is not None else None)
    return obj
