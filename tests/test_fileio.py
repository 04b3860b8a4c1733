"""The bounded reader (issue 11): every file routelens opens goes through
:func:`routelens.fileio.read_bounded`; FIFOs, devices, directories, huge
and growing files, symlinks out of a folder are refused at once, with a
clear error; and no other read of a user file is left in the package."""

from __future__ import annotations

import ast
import os
import stat
import threading
from pathlib import Path

import pytest

import routelens
from routelens.errors import FileReadError
from routelens.fileio import file_kind, is_inside, read_bounded

PKG = Path(routelens.__file__).parent


def refused(path, limit=1024, **kw) -> FileReadError:
    """The refusal of ``read_bounded``, which must come back within 5 s
    (a blocking open or read fails the test instead of hanging it)."""
    out: list = []

    def go():
        try:
            out.append(read_bounded(path, limit, **kw))
        except FileReadError as exc:
            out.append(exc)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), f"read_bounded blocked on {path}"
    assert isinstance(out[0], FileReadError), out[0]
    return out[0]


def make_zero_device(path: Path) -> bool:
    """A character device like /dev/zero at ``path``; False where a test may not make one."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except (PermissionError, OSError, AttributeError):
        return False
    return True


def test_reads_a_regular_file(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"hello\n")
    assert read_bounded(f, 6) == b"hello\n"
    assert read_bounded(f, 6, inside=tmp_path) == b"hello\n"


def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "routing.min.json"
    os.mkfifo(fifo)  # no writer: a plain open() would wait forever
    exc = refused(fifo, what="the index")
    assert (exc.kind, exc.detail) == ("not_regular", "a FIFO")
    assert str(exc) == f"the index {fifo}: is a FIFO, not a regular file (refused without reading)"


def test_dev_zero_and_a_link_to_it_are_refused_without_reading(tmp_path):
    link = tmp_path / "catalog.json"
    os.symlink("/dev/zero", link)
    for path in ("/dev/zero", link):
        exc = refused(path, 1 << 30)
        assert (exc.kind, exc.detail) == ("not_regular", "a character device")


def test_a_device_node_is_refused(tmp_path):
    dev = tmp_path / "body.md"
    if not make_zero_device(dev):
        pytest.skip("this machine does not let a test make a device node")
    exc = refused(dev)
    assert (exc.kind, exc.detail) == ("not_regular", "a character device")


def test_missing_directory_and_file_in_the_path(tmp_path):
    (tmp_path / "f").write_text("x")
    assert refused(tmp_path / "nope").kind == "missing"
    assert refused(tmp_path / "f" / "x").kind == "not_a_folder"
    exc = refused(tmp_path)
    assert (exc.kind, str(exc)) == ("directory", f"file {tmp_path}: is a directory, not a file")


def test_too_big_from_the_size_without_reading(tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        try:
            fh.truncate(1 << 40)  # a sparse terabyte
        except OSError:
            pytest.skip("no sparse files here")
    exc = refused(huge, 1000)
    assert (exc.kind, exc.size, exc.limit) == ("too_big", 1 << 40, 1000)
    assert str(exc) == f"file {huge}: is {1 << 40} bytes, more than the limit 1000"


def test_a_file_that_grows_while_read_is_refused_at_the_limit():
    # /proc files say 0 bytes and hold more: the limit is checked while reading
    exc = refused("/proc/self/status", 10)
    assert (exc.kind, exc.size) == ("too_big", None)
    assert str(exc).endswith("is more than the limit of 10 bytes (it grew while read)")


def test_inside_a_folder_and_symlinks(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    (tmp_path / "secret").write_text("SECRET")
    (base / "in.md").write_text("in")
    os.symlink(tmp_path / "secret", base / "out.md")
    os.symlink(base / "in.md", base / "alias.md")
    assert read_bounded(base / "alias.md", 10, inside=base) == b"in"
    exc = refused(base / "out.md", inside=base)
    assert exc.kind == "outside" and "SECRET" not in str(exc)
    assert refused(base / "alias.md", follow_symlinks=False).kind == "symlink"
    assert is_inside(base, base / "in.md") and not is_inside(base, base / "out.md")


def test_file_kind_words():
    assert file_kind(stat.S_IFIFO) == "a FIFO"
    assert file_kind(stat.S_IFCHR) == "a character device"
    assert file_kind(stat.S_IFBLK) == "a block device"
    assert file_kind(stat.S_IFSOCK) == "a socket"
    assert file_kind(stat.S_IFDIR) == "a directory"


# --------------------------------------------------------------------------- the call sites


#: the only reads outside the bounded reader: the package's own data and the process's umask
ALLOWED = {
    ("tools/schema.py", "read_text"),  # the JSON Schema shipped in the package (importlib.resources)
    ("text/verbs.py", "read_text"),  # WordNet's word lists shipped in the package (importlib.resources)
    ("text/everyday.py", "read_text"),  # wordfreq's everyday English words shipped in the package
    ("artifacts/write.py", "open"),  # /proc/self/status, for the umask
    ("artifacts/write.py", "os.open"),  # the generated folder, for its build lock (never read)
    ("artifacts/write.py", "os.fdopen"),  # the temporary file a build writes
    ("tools/init.py", "os.open"),  # a new starter file, created exclusively (O_EXCL), never read
    ("tools/init.py", "os.fdopen"),  # the same file, written
    ("tools/replay.py", "os.open"),  # the decision log, opened to append one line (O_WRONLY), never read
}


def _reads(path: Path) -> list[tuple[str, int]]:
    """``(call, line)`` for every file read or open in a module: ``.read_bytes()``,
    ``.read_text()``, ``.open()``, ``open()``, ``io.open()``, ``os.open()``,
    ``os.fdopen()``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "open":
            out.append(("open", node.lineno))
        elif isinstance(f, ast.Attribute):
            owner = f.value.id if isinstance(f.value, ast.Name) else None
            if f.attr in ("read_bytes", "read_text"):
                out.append((f.attr, node.lineno))
            elif f.attr == "open" and owner in ("os", "io", None) or f.attr == "fdopen" and owner == "os":
                out.append((f"{owner}.{f.attr}" if owner else ".open", node.lineno))
    return out


def test_every_file_is_read_through_the_bounded_reader():
    found = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        if rel == "fileio.py":
            continue
        for call, line in _reads(path):
            if (rel, call) not in ALLOWED:
                found.setdefault(rel, []).append(f"{call} on line {line}")
    assert found == {}


def test_the_scan_finds_reads():
    """The enumeration above can fail: it sees every kind of read."""
    sample = PKG.parent.parent / "tests" / "test_fileio.py"
    calls = {c for c, _ in _reads(sample)}
    assert {"read_text", "open"} <= calls
    assert {c for c, _ in _reads(PKG / "artifacts" / "write.py")} >= {"open", "os.open", "os.fdopen"}


def test_seal_and_unseal_a_cache_payload():
    """The one envelope of the matcher and word-frequency caches
    (docs/formats.md §11.4): magic, key, sha256, payload."""
    import hashlib

    from routelens.fileio import seal, unseal

    data = seal(b"fmt 1\n", "k1", b"payload")
    assert data == b"fmt 1\nk1\n" + hashlib.sha256(b"payload").digest() + b"payload"
    assert unseal(data, b"fmt 1\n", "k1") == b"payload"
    assert unseal(data, b"fmt 2\n", "k1") is None  # another version
    assert unseal(data, b"fmt 1\n", "k2") is None  # another key
    assert unseal(data[:-1], b"fmt 1\n", "k1") is None  # truncated
    assert unseal(data[:-1] + b"X", b"fmt 1\n", "k1") is None  # a byte flipped
    assert unseal(b"fmt 1\nk1\n" + b"x" * 10, b"fmt 1\n", "k1") is None  # shorter than a digest
    assert unseal(seal(b"fmt 1\n", "k1", b""), b"fmt 1\n", "k1") == b""


def test_a_symlink_loop_is_named_as_one(tmp_path, capsys):
    """a.yaml -> b.yaml -> a.yaml said "Too many levels of symbolic links"
    and then "no registry there: check the path given with --registry": the
    path is there; it is a loop of links."""
    from routelens.cli import main

    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    with pytest.raises(FileReadError) as exc:
        read_bounded(tmp_path / "a.yaml", 100, what="the registry")
    assert exc.value.kind == "symlink_loop"
    assert main(["check", "--registry", str(tmp_path / "a.yaml")]) == 2
    assert capsys.readouterr().err == (
        f"{tmp_path / 'a.yaml'}:1:1: cannot read the registry: it is a symlink loop (its links lead back to "
        f"themselves, never to a file)\n{tmp_path / 'a.yaml'}: 1 error\n")
