"""A bounded read of a file a person or a pull request supplied (decision
logs, skill bodies read for suggestions): regular files only, opened
without blocking (a FIFO or a device is refused, never waited on), at most
a stated number of bytes, counted while reading.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from routelens.errors import RoutelensError

__all__ = ["ReadRefused", "read_bounded"]


class ReadRefused(RoutelensError):
    """The file was not read; the message says why (``it is a folder``,
    ``not a regular file (a pipe or a device?)``, ``N bytes, more than the
    limit L``, or the system's reason)."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` bytes.
    Raises :class:`ReadRefused` for a missing or unreadable file, a folder,
    a pipe or a device, or a file over ``limit`` (checked from its size and
    again while reading)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ReadRefused(exc.strerror or str(exc)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ReadRefused("it is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise ReadRefused("not a regular file (a pipe or a device?)")
        if st.st_size > limit:
            raise ReadRefused(f"{st.st_size} bytes, more than the limit {limit}")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise ReadRefused(f"more than the limit of {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise ReadRefused(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
