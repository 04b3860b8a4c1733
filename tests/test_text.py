"""Canonical text (docs/formats.md §2, §3): editor lines, range text, the
key-line check, and the one table of scripts written without spaces (§6)."""

from __future__ import annotations

import pytest

from routelens.text.canonical import canonical_bytes, editor_lines, holds_key, range_text, source_sha256
from routelens.text.unicode import SPACELESS_RANGES, is_spaceless, normalize_text


@pytest.mark.parametrize("line, expected", [
    ("  ci-fix:", True),
    ("  ci-fix :", True),
    ("  ci-fix\t: {path: x}", True),
    ('  "ci-fix":', True),
    ("  'ci-fix' :", True),
    ("  ? ci-fix", True),
    ("  ? ci-fix  # note", True),
    ("  ?  ci-fix", True),
    ("  ? 'ci-fix'", True),
    ("  ? ci-fix : x", True),
    ("  ci-fix-extra:", False),
    ("  ci-fi:", False),
    ("  ci-fix", False),
    ("  ? ci-fix extra", False),
    ('  "ci-fix:', False),
    ("  path: skills/ci-fix.md", False),
    ("  # ci-fix:", False),
])
def test_holds_key(line, expected):
    assert holds_key(line, "ci-fix") is expected


@pytest.mark.parametrize("text, lines", [
    ("", [""]),
    ("\n", [""]),
    ("a", ["a"]),
    ("a\n", ["a"]),
    ("a\n\n", ["a", ""]),
    ("a\u2028b\x85c\u2029\nd", ["a\u2028b\x85c\u2029", "d"]),  # only LF ends a canonical line
])
def test_editor_lines(text, lines):
    assert editor_lines(text) == lines


def test_range_text_and_its_bounds():
    lines = editor_lines("one\ntwo\nthree\n")
    assert range_text(lines, 2, 3) == "two\nthree\n"
    assert range_text(lines, 1, 1) == "one\n"
    for start, end in ((0, 1), (2, 1), (3, 4)):
        with pytest.raises(ValueError, match=rf"line range \[{start}, {end}\] is outside 1\.\.3"):
            range_text(lines, start, end)


def test_canonical_bytes_and_hash():
    assert canonical_bytes(b"\xef\xbb\xbfa\r\nb\rc\n") == b"a\nb\nc\n"
    assert source_sha256(b"a\r\n") == source_sha256(b"\xef\xbb\xbfa\n") == source_sha256(b"a\n")


def test_spaceless_table_is_sorted_and_disjoint():
    assert list(SPACELESS_RANGES) == sorted(SPACELESS_RANGES)
    assert all(a[1] < b[0] for a, b in zip(SPACELESS_RANGES, SPACELESS_RANGES[1:]))
    assert [is_spaceless(ord(c)) for c in "aé実カ한ไ々ｶ"] == [False, False, True, True, True, True, True, False]
    # half-width Katakana is judged after normalisation, as the matcher and lint both do
    assert is_spaceless(ord(normalize_text("ｶ")))
