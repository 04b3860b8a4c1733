"""line_starts (tui.model): the LineView's line offsets and widest line, split a chunk
at a time; the same answer as a plain scan, at every chunk boundary."""

from __future__ import annotations

import pytest

from routelens.tui import model
from routelens.tui.model import line_starts


def _plain(text: str) -> tuple[list[int], int]:
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    ends = starts[1:] + [len(text) + 1]
    return starts, max(e - s for s, e in zip(starts, ends))


@pytest.mark.parametrize("text, starts, widest", [
    ("", [0], 1),
    ("a", [0], 2),
    ("a\n", [0, 2], 2),
    ("\n\n", [0, 1, 2], 1),
    ("ab\ncdef\ng", [0, 3, 8], 5),
    ("本番\nx\u2028y\n", [0, 3, 7], 4),  # only LF breaks a line here
])
def test_exact_offsets(text, starts, widest):
    got, w = line_starts(text)
    assert list(got) == starts
    assert w == widest


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 8, 1 << 18])
def test_every_chunk_size_gives_the_plain_answer(monkeypatch, chunk):
    monkeypatch.setattr(model, "_CHUNK", chunk)
    texts = ["x" * 7 + "\n" + "yy\n\n" * 5 + "z" * 11, "\n" * 9, "abc", "a\nbb\nccc\ndddd\n", "q" * 40 + "\n"]
    for text in texts:
        got, w = line_starts(text)
        assert (list(got), w) == _plain(text), (chunk, text)
