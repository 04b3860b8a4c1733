"""Writing the generated files: atomically, as a pair, under a lock
(docs/formats.md §3: "written atomically (temporary file + rename), and
never written when the registry has errors").
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import threading
from pathlib import Path

from routelens.artifacts.build import BuildOutput, build
from routelens.errors import BuildError, FileReadError
from routelens.fileio import read_bounded, same_file
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry.model import Registry
from routelens.text.canonical import canonical_bytes, sha256_hex

__all__ = ["write_generated", "write_built", "atomic_write", "remove_stale_temps", "registry_changed", "check_out_dir"]


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


def _mkstemp(path: Path) -> tuple[int, str]:
    """A new empty file beside ``path``, ``.NAME.XXXXXXXXXXXX.tmp`` (random
    hex), created exclusively with mode 0600 as ``tempfile.mkstemp`` makes
    it (that module, with the compression modules it loads, is not imported
    by a build): ``(descriptor, name)``. Raises ``OSError`` as ``os.open``
    does (a name taken is tried again with another)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no temporary file name is free", str(path.parent))


def _write_temp(path: Path, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``path`` (same folder,
    so the rename is atomic), with the permissions ``path`` has (or a new
    file would get), flushed to disk. Returns its name; nothing is left
    behind when this raises."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):  # a link, a FIFO: replaced with a plain new file
            raise OSError("not a regular file")
        mode = st.st_mode & 0o777  # keep the old file's permissions
    except OSError:
        mode = 0o666 & ~_umask()  # what open() would give a new file
    fd, tmp = _mkstemp(path)
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


def atomic_write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file in the same folder and
    ``os.replace``. Returns False (and writes nothing) when the file already
    holds exactly these bytes. The temporary file never outlives the call."""
    if _read_or_none(path, len(data)) == data:
        return False
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


#: the temporary files :func:`_write_temp` makes for the generated files
_TEMP_RE = re.compile(r"^\.(?:" + re.escape(INDEX_NAME) + "|" + re.escape(CATALOG_NAME) + r")\.[A-Za-z0-9_]+\.tmp$")


def remove_stale_temps(out_dir: Path) -> list[str]:
    """Remove the temporary files a killed build left in ``out_dir``
    (``.routing.min.json.XXXX.tmp``, ``.catalog.json.XXXX.tmp``). Call it
    only while holding the folder's build lock: a build that is still
    running holds that lock, so every such file found then is stale.
    Returns the names removed."""
    removed = []
    try:
        names = os.listdir(out_dir)
    except OSError:
        return removed
    for name in sorted(names):
        if _TEMP_RE.match(name):
            with contextlib.suppress(OSError):
                os.unlink(out_dir / name)
                removed.append(name)
    return removed


def _read_or_none(path: Path, limit: int) -> bytes | None:
    """The current bytes of a file about to be replaced, or None when there
    is none or it is not a regular file of at most ``limit`` bytes (a FIFO,
    a link to ``/dev/zero``: it is replaced, never read; the bounded reader
    never blocks)."""
    try:
        return read_bounded(path, limit, what="generated file")
    except FileReadError:
        return None


def registry_changed(reg: Registry) -> str | None:
    """None when the registry file ``reg.path`` still holds the text ``reg``
    was read from (the sha256 of its canonical bytes is
    ``reg.source_sha256``, docs/formats.md §3.2, §3.3); otherwise why not,
    for people (it changed, or cannot be read any more). Reads the file once
    with the bounded reader (only a regular file, at most
    ``LIMITS["max_registry_bytes"]``); never raises for a file problem."""
    try:
        raw = read_bounded(reg.path, LIMITS["max_registry_bytes"], what="the registry")
    except FileReadError as exc:
        return (f"{reg.display_name} cannot be read any more ({exc.detail or exc.kind}): it changed while routelens "
                "built from it")
    if sha256_hex(canonical_bytes(raw)) != reg.source_sha256:
        return f"{reg.display_name} changed while routelens built from it (its bytes are no longer those read)"
    return None


def write_generated(reg: Registry, out_dir: str | Path, *,
                    check_source: bool = False) -> tuple[BuildOutput, list[str]]:
    """Build and write ``routing.min.json`` and ``catalog.json`` into
    ``out_dir`` (created when missing) atomically, as a pair (docs/formats.md §3).

    Both files are first written to temporary files beside them; only when
    both are complete on disk are they renamed over the old ones, catalog
    first and index last, under an ``flock`` on the folder so two builds at
    once never leave a mixed pair. A file that already holds the new bytes
    is not touched. Returns the output and the names of the files that
    changed (index first). Raises :class:`BuildError` with a readable
    message (read-only folder, full disk, permission denied, a generated
    file that is the registry itself, by any name or link): the
    previous files are then unchanged (a rename that already happened is
    rolled back) and no temporary file is left behind. ``check_source``:
    see :func:`write_built`."""
    out_dir = Path(out_dir)
    _check_out_dir(reg, out_dir)
    return write_built(reg, out_dir, build(reg), check_source=check_source)


def check_out_dir(reg: Registry, out_dir: str | Path) -> None:
    """Refuse, before anything is built, an output folder the generated
    files cannot go to (docs/formats.md §3.3): ``out_dir`` is a file, or
    one of the generated files' targets is the registry itself (by any
    name or link). Raises :class:`BuildError` saying so (nothing written);
    :func:`write_built` checks it again."""
    _check_out_dir(reg, Path(out_dir))


def _check_out_dir(reg: Registry, out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"cannot write to {out_dir}: it is a file, not a folder; nothing was written")
    for name in (INDEX_NAME, CATALOG_NAME):
        # the registry is the source of truth: never written, not even as a generated file's name
        if reg.path is not None and same_file(out_dir / name, reg.path):
            raise BuildError(f"cannot write {out_dir / name}: it is the registry itself ({reg.path}), which "
                             "routelens never writes; give the generated files another folder (--out DIR) or "
                             "the registry another name; nothing was written")


def write_built(reg: Registry, out_dir: str | Path, out: BuildOutput, *,
                check_source: bool = False) -> tuple[BuildOutput, list[str]]:
    """Write ``out``, both generated files of ``reg`` built already
    (:func:`routelens.artifacts.build.build`), into ``out_dir`` exactly as
    :func:`write_generated` does (the same checks, the same atomic pair,
    the same errors); returns ``(out, the names of the files that
    changed)``. Raises :class:`BuildError` as :func:`write_generated` does.

    ``check_source``: once both temporary files are written, and before
    either is renamed, the registry file is read again
    (:func:`registry_changed`); when it no longer holds the text ``reg``
    was read from, nothing is renamed and :class:`BuildError` says so
    (docs/formats.md §3.3: the generated files never describe bytes that
    are not on disk)."""
    out_dir = Path(out_dir)
    _check_out_dir(reg, out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with _build_lock(out_dir) as dir_fd:
            remove_stale_temps(out_dir)
            plans: list[tuple[str, Path, str, bytes | None]] = []
            done: list[tuple[Path, bytes | None]] = []
            try:
                for name, data in ((INDEX_NAME, out.index), (CATALOG_NAME, out.catalog)):
                    path = out_dir / name
                    old = _read_or_none(path, LIMITS["max_catalog_bytes"])
                    if old == data:
                        continue
                    plans.append((name, path, _write_temp(path, data), old))
                if check_source and (changed := registry_changed(reg)) is not None:
                    raise BuildError(f"{changed}; nothing was written (the previous generated files are "
                                     "unchanged): build again")
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
                            atomic_write(path, old)
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
            errno.EISDIR: "it is a folder, which routelens never removes: move it away, then build again",
        }.get(exc.errno or 0, exc.strerror or str(exc))
        # the generated file the error is about, when it is one (a folder where routing.min.json should be)
        named = exc.filename2 or exc.filename
        where = (f"cannot write {named}" if named and Path(named).name in (INDEX_NAME, CATALOG_NAME)
                 else f"cannot write to {out_dir}")
        raise BuildError(f"{where}: {reason}; {_left_as_is(out_dir)}") from None
    return out, written


def _left_as_is(out_dir: Path) -> str:
    """What a failed write left in ``out_dir``, in words: the previous
    generated files, or nothing at all (a newcomer's trial: a first build
    into a read-only folder said "the previous generated files are
    unchanged" where there had never been any)."""
    with contextlib.suppress(OSError):
        if any((out_dir / name).is_file() for name in (INDEX_NAME, CATALOG_NAME)):
            return "the previous generated files are unchanged"
    return "nothing was written"
