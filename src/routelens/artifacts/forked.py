"""Work done in a forked second process while this one goes on
(``routelens build --jobs 2``: the debug catalog's skills and the build's
warnings are rendered there while this process builds the compact index).

The child runs a function that sends messages ``(header, data)``:
``header`` a value :mod:`marshal` can write (dicts, lists, tuples,
strings, numbers, None), ``data`` one ``bytes``. They go through a pipe,
each framed by its lengths, and the child leaves with ``os._exit`` (nothing
of this process runs there: no ``atexit``, no buffered output flushed
twice). :meth:`Forked.receive` reads them back in turn.

Nothing is trusted that could differ from doing the work here: a child that
fails (an exception, a signal, a short or unreadable message) gives
``None`` from then on, and the caller then does the work itself, which
gives the same result and every error as always.

Failure modes: no ``fork`` (Windows), a process with threads (the TUI, the
MCP server: forking one can deadlock the child), fewer than two CPUs: no
child is started (:func:`routelens.registry.split.can_split`). The child
shares this process's memory until either writes to it; the pages it
touches are copied, so its resident size adds to this one's while it runs.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import struct
from typing import Any, Callable

from routelens.fileio import write_all
from routelens.gcpause import gc_paused
from routelens.registry.split import can_split, fork_with_pipe

__all__ = ["Forked"]

_LEN = struct.Struct("<QQ")  # header length, data length (bytes)


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


class Forked:
    """``fn(send)`` run in a forked child (see the module's docstring),
    which may call ``send(header, data=b"")`` several times; this process
    reads each message in turn with :meth:`receive`. Make one with
    :meth:`start`; :meth:`close` stops the child if it still runs and reaps
    it (call it once, in a ``finally``)."""

    def __init__(self, pid: int, fd: int) -> None:
        self._pid = pid
        self._fd = fd
        self._failed = False
        self._closed = False

    @classmethod
    def start(cls, fn: Callable[[Callable[..., None]], None]) -> Forked | None:
        """A child running ``fn(send)``, or None when none can be started
        here (no ``fork``, threads, one CPU, no pipe or process left): the
        caller then does the work itself."""
        if not can_split():
            return None
        forked = fork_with_pipe(pipe_size=1 << 20)  # fewer wake-ups for a big answer (Linux)
        if forked is None:
            return None
        pid, rfd, wfd = forked
        if pid == 0:  # pragma: no cover - the child's coverage is not collected
            os.close(rfd)
            status = 1

            def send(header: Any, data: bytes = b"") -> None:
                head = marshal.dumps(header)
                write_all(wfd, _LEN.pack(len(head), len(data)))
                write_all(wfd, head)
                write_all(wfd, data)

            try:
                with gc_paused():
                    fn(send)
                status = 0
            except BaseException:  # noqa: BLE001 - any failure: the pipe ends before the next complete message
                pass
            finally:
                os._exit(status)
        os.close(wfd)
        return cls(pid, rfd)

    def receive(self) -> tuple[Any, list[bytes]] | None:
        """The next message: ``(header, chunks)``, its ``data`` as the
        chunks read from the pipe (they join to it); None when the child
        failed, stopped or sent no more (and for every later call)."""
        if self._failed or self._closed:
            return None
        try:
            lengths = _read_exactly(self._fd, _LEN.size)
            if lengths is not None:
                n_head, n_data = _LEN.unpack(lengths)
                head = _read_exactly(self._fd, n_head) if n_head else None
                if head is not None:
                    chunks: list[bytes] = []
                    while n_data > 0:
                        chunk = os.read(self._fd, min(n_data, 1 << 20))
                        if not chunk:
                            break
                        chunks.append(chunk)
                        n_data -= len(chunk)
                    if n_data == 0:
                        return marshal.loads(head), chunks
        except (OSError, EOFError, ValueError, TypeError):
            pass
        self._failed = True
        return None

    def ready(self) -> bool:
        """Whether :meth:`receive` would find something to read at once (a
        message begun, the end of the pipe, or a failure): this process may
        do other work first when not. Never blocks."""
        if self._failed or self._closed:
            return True
        try:
            return bool(select.select([self._fd], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def close(self) -> None:
        """Stop the child if it still runs, and reap it."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            os.kill(self._pid, 9)  # not reaped yet, so the pid is still this child's
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(OSError):
            os.waitpid(self._pid, 0)
