"""Unicode facts routelens relies on: the one table of scripts written
without spaces, normalisation, and the words that make a poor trigger.

- :data:`SPACELESS_RANGES` / :func:`is_spaceless`: the scripts whose
  characters match inside words (docs/formats.md §6: "Japanese and other
  scripts without spaces match inside words"), used by the matcher to cut
  tokens and by lint to judge a short trigger;
- :func:`normalize_text`: NFKC + case folding (docs/formats.md §6: full-width
  and half-width forms match);
- :data:`STOP_WORDS`, :data:`JA_STOP_WORDS`: words that make a poor trigger
  on their own (lint warns about them, import never proposes them). The
  matcher's own, different list of words that weigh nothing in a score is
  :data:`routelens.routing.matching.STOPWORDS`.

Nothing in this module imports another routelens module.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

__all__ = ["SPACELESS_RANGES", "is_spaceless", "normalize_text", "STOP_WORDS", "JA_STOP_WORDS"]

#: Code point ranges (inclusive, sorted) of scripts written without spaces:
#: every character of them is one token (docs/formats.md §6).
SPACELESS_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x31A0, 0x31FF),  # Bopomofo extended, CJK strokes, Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul Jamo extended A
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xD7B0, 0xD7FF),  # Hangul Jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0x20000, 0x3FFFF),  # CJK extensions B and later
)
_STARTS = [lo for lo, _ in SPACELESS_RANGES]


def is_spaceless(cp: int) -> bool:
    """True for a code point of a script written without spaces
    (:data:`SPACELESS_RANGES`). Apply it to normalised text
    (:func:`normalize_text`): half-width Katakana, for one, is full-width then."""
    i = bisect.bisect_right(_STARTS, cp) - 1
    return i >= 0 and cp <= SPACELESS_RANGES[i][1]


#: combining diacritics (U+0300-U+036F) on a Latin letter: "café" is "cafe" (docs/formats.md §6.7)
_LATIN_ACCENTS = re.compile(r"(?<=[a-z])[\u0300-\u036f]+")


def normalize_text(s: str) -> str:
    """NFKC + case folding (docs/formats.md §6), applied so that the result
    is stable: ``NFKC(casefold(NFKC(s)))``, and a Latin letter's accents
    dropped ("Café" -> "cafe", "Zürich" -> "zurich"; §6.7: people type
    "CAFE MENU" for `café menu`; a letter of its own, ø, æ, ł, stays, and
    so does any mark on another script's letter, Japanese ゛ included).
    Returns a new ``str`` (for ASCII input, ``s.lower()``, which is the
    same)."""
    if s.isascii():
        return s.lower()
    t = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())
    if t.isascii():
        return t
    d = unicodedata.normalize("NFD", t)
    bare = _LATIN_ACCENTS.sub("", d)
    return t if bare == d else unicodedata.normalize("NFC", bare)


#: English words that make a poor trigger on their own.
STOP_WORDS = frozenset(
    "a about all an and any are as at be by can could do does for from get help how i if in into is it its "
    "let make me my need no not of on or our please should skill skills so some task that the then this to "
    "up use used using want we what when where which will with would you your".split()
)
#: Japanese function words and politeness forms that make a poor trigger.
JA_STOP_WORDS = frozenset(["して", "する", "します", "ください", "お願い", "お願いします", "です", "ます",
                           "こと", "もの", "これ", "それ", "ため", "よう"])
