"""wordfreq's frequency lists, kept between builds in a form that loads in a
few hundredths of a second (the index's vocabulary, docs/formats.md §3.7).

Importing ``wordfreq`` (it compiles the big regular expressions of its
language and text-repair libraries), unpacking its gzip'ed msgpack lists and
building its ``get_frequency_dict`` for English and Japanese costs about as
much CPU as the rest of a 10,000-skill build. The vocabulary only looks up a
few thousand words, so a build reads instead a cache file per language: the
list's words sorted, with the wordfreq bucket (centibels below 0) of each,
looked up by bisection of every 16th word and a search of one block's bytes. :class:`Frequencies` answers ``get(word)`` with
exactly the float ``wordfreq.get_frequency_dict(lang).get(word)`` gives (the
tests compare every word).

- **Where**: the folder of the matcher cache (:func:`routelens.paths.cache_dir`,
  docs/formats.md §11.4), files ``wordfreq-<lang>-<key>.words``; the same
  switch (``ROUTELENS_MATCHER_CACHE=off``) turns it off.
- **Key**: sha256 over this module's :data:`FORMAT`, the byte order, and the
  size and modification time of wordfreq's ``__init__.py`` and of each of its
  data files for the language, so a reinstalled or upgraded wordfreq never
  reads an old file (found with ``importlib.util.find_spec``, which does not
  import the package).
- **Trust**: a file is used only when its first line, key and the sha256 of
  its payload agree and the payload's parts have the stated sizes; anything
  else (truncated, flipped bytes, another key) is treated as absent: the
  list is read through wordfreq and the file written again, atomically.
  Each write keeps the :data:`KEEP_PER_LANGUAGE` newest files of its
  language, so several installs of wordfreq (virtual environments of one
  user) do not remove each other's file on every build. A
  cache that cannot be written (read-only home, full disk) is no error; the
  build is only slower. The payload is parsed, never unpickled or
  unmarshalled, so a crafted file can at worst change figures, not run code.

Failure modes: no wordfreq installed (the vocabulary's ``ImportError``, as
without the cache); a wordfreq that picks its list in another way than by
language name (the key changes with its ``__init__.py``, and the cache is
only ever written from what ``wordfreq.get_frequency_list`` returned).
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import importlib.util
import os
import sys
from array import array
from pathlib import Path

from routelens.errors import FileReadError
from routelens.fileio import read_bounded, seal, unsealed_at, write_all
from routelens.paths import cache_dir

__all__ = ["FORMAT", "Frequencies", "frequencies", "cache_key"]

#: the first line of a cache file (the format's version is its last digit)
FORMAT = b"routelens-wordfreq-cache 2\n"
#: words per block of a cache file's directory (:class:`Frequencies`)
BLOCK = 16
#: the largest cache file read back (the English list is about 3 MB)
MAX_BYTES = 64 * 1024 * 1024
#: cache files kept per language: one per wordfreq install that builds (several virtual environments of
#: one user share the folder; removing every other install's file made each build of one re-read wordfreq,
#: about 0.35 s of CPU, whenever another had built since)
KEEP_PER_LANGUAGE = 4


class Frequencies:
    """One language's word frequencies: ``get(word)`` is the frequency (a
    proportion, 0..1) that ``wordfreq.get_frequency_dict(lang)`` holds for
    ``word``, or ``default`` when the list does not hold it; ``len()`` is
    the number of words.

    ``data[at:]`` holds the sorted list's words as UTF-8 (whose byte order
    is the code point order of the words), each as ``LF word TAB bucket``,
    the bucket (wordfreq's centibels below 0) in three ASCII digits, and a
    final LF; ``starts[j]`` is the index (from ``at``) of the first byte of
    word ``j * BLOCK``, ``heads[j]`` that word. A lookup bisects ``heads``
    (in C) for the one block of :data:`BLOCK` words that could hold the
    word, and finds ``LF word TAB`` in that block's bytes (``bytes.find``).
    Nothing is cut per word or copied when the file is read: cutting
    535,000 words into ``bytes`` took about 35 ms of every build, and each
    copy of a list's bytes a few milliseconds of fresh memory."""

    __slots__ = ("data", "at", "starts", "heads", "count")

    def __init__(self, data: bytes, at: int, starts: array, heads: list[bytes], count: int):
        self.data = data
        self.at = at
        self.starts = starts
        self.heads = heads
        self.count = count

    def __len__(self) -> int:
        return self.count

    def get(self, word: str, default: float | None = None) -> float | None:
        """The frequency of ``word`` (a ``str``), or ``default``."""
        try:
            key = word.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: in no list
            return default
        j = bisect.bisect_right(self.heads, key) - 1
        if j < 0 or b"\n" in key or b"\t" in key:
            return default
        starts, at, data = self.starts, self.at, self.data
        found = data.find(b"\n" + key + b"\t", at + starts[j] - 1, at + starts[j + 1] if j + 1 < len(starts) else len(data))
        if found < 0:
            return default
        found += len(key) + 2
        digits = data[found:found + 3]
        if not digits.isdigit():  # pragma: no cover - a sealed file always has them
            return default
        return 10 ** (-int(digits) / 100)  # wordfreq's cB_to_freq(-bucket), the same float


def _wordfreq_files(lang: str) -> list[Path] | None:
    """wordfreq's ``__init__.py`` and its data files for ``lang``, or None
    when wordfreq cannot be found."""
    try:
        spec = importlib.util.find_spec("wordfreq")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    init = Path(spec.origin)
    data = init.parent / "data"
    return [init, *sorted(p for p in data.glob(f"*_{lang}.msgpack.gz"))]


def cache_key(lang: str) -> str | None:
    """The key of ``lang``'s cache file (see the module's docstring), or
    None when wordfreq or its files cannot be found (then no cache is used)."""
    files = _wordfreq_files(lang)
    if not files:
        return None
    h = hashlib.sha256(FORMAT + sys.byteorder.encode() + b"\n" + lang.encode() + b"\n")
    for p in files:
        try:
            st = p.stat()
        except OSError:
            return None
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _read(path: Path, key: str) -> Frequencies | None:
    try:
        data = read_bounded(path, MAX_BYTES, what="word-frequency cache")
    except FileReadError:
        return None
    base = unsealed_at(data, FORMAT, key)  # the payload is data[base:], never copied
    if base is None or len(data) < base + 16:
        return None
    n = int.from_bytes(data[base:base + 8], "little")
    n_heads = int.from_bytes(data[base + 8:base + 16], "little")
    blocks = (n + BLOCK - 1) // BLOCK
    starts = array("I")
    at = base + 16 + 4 * blocks
    if starts.itemsize != 4 or len(data) < at + n_heads + 1:
        return None
    starts.frombytes(data[base + 16:at])
    heads = data[at:at + n_heads].split(b"\n") if blocks else []
    # never decoded: the sealed payload is what a write made of str words (its sha256 says so); a crafted
    # one that is no UTF-8 only holds words no lookup can equal, and can at worst change figures
    at += n_heads  # the words' part: data[at:]
    if (len(heads) != blocks or data[at:at + 1] != b"\n" or data[-1:] != b"\n" or data.count(b"\n", at) != n + 1
            or (blocks and not (starts[0] == 1 and starts[-1] < len(data) - at))
            or sorted(set(starts)) != starts.tolist()):
        return None
    return Frequencies(data, at, starts, heads, n)


def _write(path: Path, key: str, words: list[str], buckets: array) -> None:
    if any("\n" in w or "\t" in w for w in words) or any(b > 999 for b in buckets):
        return  # not representable: no cache (never seen in wordfreq's lists)
    encoded = [w.encode("utf-8") for w in words]
    starts = array("I")
    if starts.itemsize != 4:
        return
    at = 1
    for i, w in enumerate(encoded):
        if i % BLOCK == 0:
            starts.append(at)
        at += len(w) + 5
    heads = b"\n".join(encoded[::BLOCK])
    region = b"".join(b"\n%s\t%03d" % (w, b) for w, b in zip(encoded, buckets)) + b"\n"
    payload = (len(words).to_bytes(8, "little") + len(heads).to_bytes(8, "little") + starts.tobytes() + heads
               + region)
    data = seal(FORMAT, key, payload)
    if len(data) > MAX_BYTES:
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        import tempfile  # only when the cache is written: a build that reads it never loads the module

        fd, tmp = tempfile.mkstemp(prefix=".wordfreq-", suffix=".tmp", dir=path.parent)
        try:
            try:
                write_all(fd, data)
            finally:
                os.close(fd)
            os.replace(tmp, path)  # atomic: a reader sees the old file or the whole new one
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(path)


def _prune(path: Path) -> None:
    """Keep the :data:`KEEP_PER_LANGUAGE` newest cache files of ``path``'s
    language (``path`` among them): another wordfreq install's file stays
    while that install may still build, and the folder does not grow
    without end."""
    lang = path.name.split("-")[1]
    found = []
    for p in path.parent.glob(f"wordfreq-{lang}-*.words"):
        with contextlib.suppress(OSError):
            found.append((p == path, p.stat().st_mtime_ns, p.name, p))
    found.sort(reverse=True)  # this file first, then the newest
    for *_, old in found[KEEP_PER_LANGUAGE:]:
        with contextlib.suppress(OSError):
            old.unlink()


def _from_wordfreq(lang: str) -> tuple[dict[str, float], list[str], array]:
    """``get_frequency_dict(lang)`` exactly (each word gets the frequency of
    the last bucket that holds it), built a bucket at a time, and the sorted
    words with their buckets for the cache."""
    from wordfreq import cB_to_freq, get_frequency_list  # a build-time dependency: loaded only here

    freqs: dict[str, float] = {}
    bucket_of: dict[str, int] = {}
    for index, bucket in enumerate(get_frequency_list(lang)):
        if bucket:
            freqs.update(dict.fromkeys(bucket, cB_to_freq(-index)))
            bucket_of.update(dict.fromkeys(bucket, index))
    words = sorted(bucket_of)
    return freqs, words, array("H", [bucket_of[w] for w in words])


def frequencies(lang: str) -> dict[str, float] | Frequencies:
    """``lang``'s word frequencies, with ``get(word)`` as
    ``wordfreq.get_frequency_dict(lang)`` has it: from the cache when a
    trusted file is there, else read through wordfreq (and the cache
    written). Raises ``ImportError`` when wordfreq is not installed."""
    folder = cache_dir()
    key = cache_key(lang) if folder is not None else None
    path = folder / f"wordfreq-{lang}-{key}.words" if folder is not None and key is not None else None
    if path is not None:
        got = _read(path, key)  # type: ignore[arg-type]
        if got is not None:
            return got
    freqs, words, buckets = _from_wordfreq(lang)
    if path is not None:
        _write(path, key, words, buckets)  # type: ignore[arg-type]
    return freqs
