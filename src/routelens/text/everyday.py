"""Whether an English word is in everyday use: Zipf 4.0 or more in
wordfreq 3.1.1, the release the index's figures come from (docs/formats.md
§3.7, §6.10 private life: a phrase of everyday words is in another sense in
a sentence about everyday life).

The list (``routelens/data/everyday.txt``, 7,080 words, about 54 KB) ships
with routelens, so routing never imports wordfreq and the compact index
spends none of its size budget on it; it is read on first use (a few
milliseconds) and kept.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import threading
from importlib import resources

from routelens.text.words import lemma_candidates

__all__ = ["EVERYDAY_LIST_ZIPF", "everyday_word"]

#: the Zipf frequency (one decimal, cut down) from which a word is in the list
EVERYDAY_LIST_ZIPF = 4.0

_LOCK = threading.Lock()
_WORDS: list[frozenset[str]] = []


def _words() -> frozenset[str]:
    """The list, read once."""
    if not _WORDS:
        with _LOCK:
            if not _WORDS:
                text = resources.files("routelens.data").joinpath("everyday.txt").read_text(encoding="utf-8")
                _WORDS.append(frozenset(w for w in text.splitlines() if w and not w.startswith("#")))
    return _WORDS[0]


def everyday_word(word: str) -> bool:
    """True when ``word`` (lowercase ASCII letters, as
    :func:`routelens.text.words.terms` gives a term) is at Zipf 4.0 or
    more, or is a plural of such a word ("leaks" for "leak": a lemma
    :func:`~routelens.text.words.lemma_candidates` gives that drops "s" or
    "es"), as the index looks a plural up by its singular (docs/formats.md
    §3.7). Any other word (digits, another script, ``""``): False."""
    words = _words()
    if word in words:
        return True
    return word.endswith("s") and any(lemma in words for lemma in lemma_candidates(word)
                                      if lemma in (word[:-1], word[:-2]))
