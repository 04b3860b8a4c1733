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


@pytest.mark.parametrize("text", ["", "a", "a\n", "\n\n", "ab\ncdef\ng", "abc\n", "abcd\n\nefgh", "\n" * 9,
                                  "本番\nx\u2028y\n", "abc\ndefg\nhi\njklmnop\nq"])
@pytest.mark.parametrize("block", [1, 2, 4, 1 << 16])
def test_the_lazy_line_index_gives_the_same_offsets_at_every_block_boundary(text, block, monkeypatch):
    monkeypatch.setattr(model, "_BLOCK", block)
    index = model.LineIndex(text)
    want = _plain(text)[0]
    assert len(index) == len(want)
    assert [index[i] for i in reversed(range(len(want)))] == want[::-1]  # blocks found out of order
    assert index[-1] == want[-1]
    with pytest.raises(IndexError):
        index[len(want)]


def test_a_big_pane_gets_a_lazy_index_and_its_first_blocks_widest_line(monkeypatch):
    monkeypatch.setattr(model, "LAZY_STARTS_CHARS", 10)
    monkeypatch.setattr(model, "_BLOCK", 8)
    index, widest = model.pane_lines("abc\nde\nfghijklmnop\nq")
    assert isinstance(index, model.LineIndex) and widest == 4  # "abc\nde\nf": the first block only
    assert [index[i] for i in range(len(index))] == [0, 4, 7, 19]
    starts, widest = model.pane_lines("abc\nde")
    assert list(starts) == [0, 4] and widest == 4
