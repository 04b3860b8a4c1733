"""Trigger matching: normalisation, tokens, candidate generation, scores and spans.

This is the scoring half of the router (spec ``formats.md`` section 6). It
knows nothing about registries, indexes or decisions: it takes *owners*
(skill ids, rule ids or high-risk terms), each with a list of triggers as
written, and scores a task text against them.

How a task is read
    The task is normalised with Unicode NFKC and case folding, cluster by
    cluster, keeping for every normalised character the offsets of the
    original characters it came from — so full-width ``ＰＲ``, half-width
    ``ﾃｽﾄ`` and decomposed ``e\u0301`` match, and every span is reported in
    *original* character offsets (``[start, end)``, Python ``str`` indices).

    The normalised text is cut into *tokens*: a run of letters/digits of a
    spaced script (Latin, Greek, Cyrillic, digits, ...) is one **word**
    token; every character of a script written without spaces (Han,
    Hiragana, Katakana, Hangul, Thai, Lao, Myanmar, Khmer) is one
    **spaceless** token. Everything else (spaces, punctuation, symbols,
    control characters, NUL) separates tokens and is ignored. Triggers are
    cut the same way, into *units*.

How a trigger scores (0-100)
    - 100: the trigger's units occur as consecutive task tokens. Because
      word units must equal whole task words, a Latin/digit trigger matches
      on word boundaries only (``ci`` does not match "specification"),
      while spaceless units match inside words (``実装修正`` in
      "ログイン画面の実装修正をお願いします").
    - A *short* trigger (:data:`SHORT_TRIGGER_CHARS` characters or fewer
      after normalisation, spaces not counted) scores 100 or nothing.
    - Otherwise a fuzzy alignment: units are aligned in order with task
      tokens; each aligned word unit earns its weight x the word similarity
      (:func:`word_similarity`: inflections via a light English stemmer,
      typos via rapidfuzz's OSA distance); unaligned units earn nothing;
      task tokens inserted inside the matched span cost points. Fuzzy scores
      are capped at :data:`FUZZY_CAP` so only an exact occurrence scores 100.

Candidate generation
    A :class:`TriggerMatcher` builds, once, an inverted index from unit
    texts, stems, one-character deletions (SymSpell style)
    and Han/Kana bigrams to the triggers holding them. A task only looks up
    its own tokens, so the work per task grows with the task and with the
    triggers that share a word with it — never with the size of the
    registry. Frequent units (stop words such as "a", "the") are not used to
    generate candidates.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from rapidfuzz.distance import OSA, Indel

__all__ = [
    "MATCHER_VERSION",
    "MAX_TASK_CHARS",
    "SHORT_TRIGGER_CHARS",
    "FUZZY_CAP",
    "NEAR_MISS_FLOOR",
    "Match",
    "PreparedTask",
    "TriggerMatcher",
    "normalize",
    "normalize_text",
    "tokenize",
    "stem",
    "word_similarity",
    "prepare",
]

#: Version of the scoring rules; part of every decision so a decision can be
#: replayed. Bump whenever a score for the same input can change.
MATCHER_VERSION = "1"

#: Characters of a task that take part in matching (Python ``str`` characters,
#: i.e. code points). A longer task is truncated to this many characters for
#: matching and the decision says so; spans still index the original task.
#: 10,000 characters is about 2,500 tokens — far beyond any real request,
#: and it bounds the time one decision can take.
MAX_TASK_CHARS = 10_000

#: A trigger of this many characters or fewer (normalised, spaces not
#: counted) must occur exactly (issue 3: ``ci`` must not fuzzy-match "cd").
SHORT_TRIGGER_CHARS = 3

#: The highest score a non-exact (fuzzy) match can get; 100 means exact.
FUZZY_CAP = 99.0

#: Scores below this are not reported as near misses (0-100 scale).
NEAR_MISS_FLOOR = 50.0

#: Word units that do not generate candidates and that may be missing from
#: the task at a small cost (:data:`_MISSING_STOPWORD_COST`).
STOPWORDS = frozenset(
    "a an the this that these those my our your his her their its it me us "
    "to for of in on at by with from into onto and or is are be was were "
    "please pls can could would will do does some any s".split()
)

#: Spaceless characters that are grammatical particles in Japanese; inserting
#: one inside a matched span ("レビューをお願い") costs little.
PARTICLES = frozenset("をのがにはでともへや")

_INSERT_COST_STOP = 3.0  # points for a stop word / particle inside a matched span
_INSERT_COST_WORD = 12.0  # points for any other task word inside a matched span
_INSERT_COST_CHAR = 5.0  # points for any other spaceless character inside a span
_MISSING_STOPWORD_COST = 2.0  # points for a trigger stop word absent from the task
_SPACELESS_WEIGHT = 2  # weight of one spaceless character (a word unit weighs its length)
_CONCAT_SCORE = 95.0  # "post mortem" vs "postmortem": same letters, other spacing
_MAX_INSERTS = 4  # window slack around an anchor, in tokens
_WORD_SIM_FLOOR = 60.0  # below this a word pair counts as "not aligned"

_WORD, _SPACELESS = 1, 2


# --------------------------------------------------------------------------- evidence


@dataclass(frozen=True)
class Match:
    """Evidence for one owner (a skill, a rule or a high-risk term).

    ``id``: the owner id (skill id, rule id, or the high-risk term itself);
    ``score``: 0-100, rounded to 1 decimal (100 = exact occurrence);
    ``trigger``: the trigger as written in the registry;
    ``span``: ``(start, end)`` character offsets, end exclusive, into the
    ORIGINAL task string (not the normalised one).
    """

    id: str
    score: float
    trigger: str
    span: tuple[int, int]

    def to_dict(self) -> dict:
        """``{"id", "score", "trigger", "span": [start, end]}``."""
        return {"id": self.id, "score": self.score, "trigger": self.trigger, "span": [self.span[0], self.span[1]]}


# --------------------------------------------------------------------------- normalisation


def _spaceless(cp: int) -> bool:
    """True for code points of scripts written without spaces (spec section 6)."""
    return (
        0x3040 <= cp <= 0x30FF  # Hiragana, Katakana
        or 0x4E00 <= cp <= 0x9FFF  # CJK unified
        or 0x3400 <= cp <= 0x4DBF
        or 0xAC00 <= cp <= 0xD7AF  # Hangul syllables
        or 0x0E00 <= cp <= 0x0EFF  # Thai, Lao
        or 0x1000 <= cp <= 0x109F  # Myanmar
        or 0x1780 <= cp <= 0x17FF  # Khmer
        or 0x19E0 <= cp <= 0x19FF
        or 0x1100 <= cp <= 0x11FF  # Hangul Jamo
        or 0x3130 <= cp <= 0x318F
        or 0xA960 <= cp <= 0xA97F
        or 0xD7B0 <= cp <= 0xD7FF
        or 0x2E80 <= cp <= 0x2FDF  # CJK radicals
        or 0x3005 <= cp <= 0x3007  # 々 〆 〇
        or 0x3021 <= cp <= 0x3029
        or 0x3031 <= cp <= 0x3035
        or 0x3100 <= cp <= 0x312F  # Bopomofo
        or 0x31A0 <= cp <= 0x31FF
        or 0xF900 <= cp <= 0xFAFF
        or 0x20000 <= cp <= 0x3FFFF
    )


_CLASS_CACHE: dict[str, int] = {}


def _char_class(c: str) -> int:
    """0 separator, 1 word character of a spaced script, 2 spaceless, 3 a
    combining mark (joins the token before it)."""
    k = _CLASS_CACHE.get(c)
    if k is not None:
        return k
    cp = ord(c)
    if cp < 128:
        k = _WORD if c.isalnum() else 0
    else:
        cat = unicodedata.category(c)
        if cat[0] == "M":
            k = 3
        elif c.isalnum() or cat == "Lm":
            k = _SPACELESS if _spaceless(cp) else _WORD
        else:
            k = 0
    if len(_CLASS_CACHE) < 200_000:
        _CLASS_CACHE[c] = k
    return k


def _joins_previous(c: str) -> bool:
    """Characters normalised together with the one before them."""
    cp = ord(c)
    return (
        unicodedata.combining(c) != 0
        or cp in (0xFF9E, 0xFF9F, 0x3099, 0x309A)  # (half-width) voiced sound marks
        or 0x1160 <= cp <= 0x11FF  # conjoining Hangul vowels/finals
        or 0xFE00 <= cp <= 0xFE0F  # variation selectors
        or cp == 0x200D  # zero-width joiner
    )


def normalize_text(s: str) -> str:
    """NFKC + case folding (spec section 6), applied so that the result is
    stable: ``NFKC(casefold(NFKC(s)))``. Returns a new ``str``."""
    if s.isascii():
        return s.lower()
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())


def normalize(s: str) -> tuple[str, list[int] | None, list[int] | None]:
    """Normalise ``s`` and keep the origin of every output character.

    Returns ``(norm, starts, ends)``: ``norm`` is :func:`normalize_text` of
    each cluster (a base character with its combining marks); normalised
    character ``i`` comes from ``s[starts[i]:ends[i]]``. For ASCII input the
    mapping is the identity and ``starts``/``ends`` are ``None``.
    """
    if s.isascii():
        return s.lower(), None, None
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    n = len(s)
    i = 0
    nfkc = unicodedata.normalize
    while i < n:
        j = i + 1
        c = s[i]
        if c < "\x80":
            out.append(c.lower())
            starts.append(i)
            ends.append(j)
            i = j
            continue
        while j < n and s[j] >= "\x80" and _joins_previous(s[j]):
            j += 1
        piece = nfkc("NFKC", nfkc("NFKC", s[i:j]).casefold())
        for ch in piece:
            out.append(ch)
            starts.append(i)
            ends.append(j)
        i = j
    return "".join(out), starts, ends


def tokenize(norm: str) -> list[tuple[int, str, int, int]]:
    """Tokens of a normalised text: ``(kind, text, start, end)`` with
    ``kind`` 1 (word of a spaced script) or 2 (one spaceless character),
    and ``[start, end)`` offsets into ``norm``. Separators are dropped."""
    toks: list[tuple[int, str, int, int]] = []
    if norm.isascii():
        i, n = 0, len(norm)
        while i < n:
            if norm[i].isalnum():
                j = i + 1
                while j < n and norm[j].isalnum():
                    j += 1
                toks.append((_WORD, norm[i:j], i, j))
                i = j
            else:
                i += 1
        return toks
    cur_start = -1
    cur_kind = 0
    for i, c in enumerate(norm):
        k = _char_class(c)
        if k == 3:  # combining mark: stays with the token before it
            if cur_kind == _WORD:
                continue
            if toks and toks[-1][3] == i:
                kd, tx, st, _ = toks[-1]
                toks[-1] = (kd, tx + c, st, i + 1)
            continue
        if k == _WORD:
            if cur_kind != _WORD:
                cur_start, cur_kind = i, _WORD
            continue
        if cur_kind == _WORD:
            toks.append((_WORD, norm[cur_start:i], cur_start, i))
            cur_kind = 0
        if k == _SPACELESS:
            toks.append((_SPACELESS, c, i, i + 1))
    if cur_kind == _WORD:
        toks.append((_WORD, norm[cur_start:], cur_start, len(norm)))
    return toks


# --------------------------------------------------------------------------- words

_STEM_CACHE: dict[str, str] = {}


def _undouble(w: str) -> str:
    if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1] not in "aeiou":
        return w[:-1]
    return w


def stem(word: str) -> str:
    """A light English stemmer for inflections (issue 3: ``refactoring`` vs
    ``refactor``, ``tests`` vs ``test``): plural ``-s/-es/-ies``, ``-ing``,
    ``-ed``, ``-er``, ``-ment``, ``-ation``/``-ion``, final ``-e``. Words
    with digits and words of 2 letters or fewer are returned unchanged.
    Both sides of a comparison are stemmed, so the stem need not be a word."""
    r = _STEM_CACHE.get(word)
    if r is not None:
        return r
    w = word
    if len(w) >= 3 and w.isalpha():
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith("sses"):
            w = w[:-2]
        elif w.endswith(("ss", "us", "is")):
            pass
        elif w.endswith("es") and w[:-2].endswith(("s", "x", "z", "ch", "sh")) and len(w) > 4:
            w = w[:-2]
        elif w.endswith("s") and len(w) >= 3:
            w = w[:-1]
        if w.endswith("ization") and len(w) > 9:
            w = w[:-5] + "e"
        elif w.endswith("isation") and len(w) > 9:
            w = w[:-5] + "e"
        elif w.endswith("ation") and len(w) > 7:
            w = w[:-5] + "ate"
        elif w.endswith(("tion", "sion")) and len(w) > 6:
            w = w[:-3]
        elif w.endswith("ment") and len(w) > 7:
            w = w[:-4]
        elif w.endswith("ing") and len(w) > 5:
            w = _undouble(w[:-3])
        elif w.endswith("ed") and len(w) > 4:
            w = _undouble(w[:-2])
        elif w.endswith("er") and len(w) > 5:
            w = _undouble(w[:-2])
        if w.endswith("e") and len(w) > 4:
            w = w[:-1]
        if w.endswith("y") and len(w) > 4:
            w = w[:-1] + "i"
    if len(_STEM_CACHE) < 500_000:
        _STEM_CACHE[word] = w
    return w


def _typo_score(u: str, t: str) -> float:
    """Similarity of two different words of 4+ letters, by edits (rapidfuzz
    OSA): one missing, extra or swapped letter costs ``60 / L`` points, one
    wrong letter ``100 / L`` (an accidental neighbour such as rebase/rebate is
    usually a substitution); two or more edits ``100 * d / L``."""
    L = max(len(u), len(t))
    d = OSA.distance(u, t, score_cutoff=3)
    if d > 2:
        return 0.0
    if d == 1:
        if len(u) != len(t) or Indel.distance(u, t) == 2:  # insertion/deletion, or a swap
            return 100.0 - 60.0 / L
        return 100.0 - 100.0 / L
    return 100.0 * (1.0 - d / L)


def word_similarity(u: str, t: str) -> float:
    """Similarity 0-100 of a trigger word ``u`` and a task word ``t`` (both
    normalised): 100 equal; 95 same stem (inflection); 90 the task word's stem
    extends the trigger word's stem by at most 4 letters (stems of 5+
    letters: "debugger" for "debug"; not the other way round, so "changes"
    does not match "changelog"); else a typo score
    (:func:`_typo_score`) for words of 4+ letters. A word of 3 letters or
    fewer only matches equal or with the same stem (then 90). Scores below
    60 are returned as 0 (not aligned)."""
    if u == t:
        return 100.0
    su, st = stem(u), stem(t)
    if len(u) <= 3 or len(t) <= 3:
        return 90.0 if su == st and len(su) >= 2 else 0.0
    if su == st:
        return 95.0
    best = 0.0
    if len(su) >= 5 and len(st) >= 5:
        if st.startswith(su) and len(st) - len(su) <= 4:
            best = 90.0
    if best < 90.0 and abs(len(u) - len(t)) <= 2:
        best = max(best, _typo_score(u, t))
    if best < 90.0 and abs(len(su) - len(st)) <= 2 and (su != u or st != t):
        best = max(best, _typo_score(su, st) - 1.0)
    return best if best >= _WORD_SIM_FLOOR else 0.0


def _deletes(w: str) -> set[str]:
    return {w[:i] + w[i + 1 :] for i in range(len(w))}


# --------------------------------------------------------------------------- tasks


@dataclass
class PreparedTask:
    """A task ready for matching: shared by every matcher of one decision.

    ``original``: the task as given; ``truncated``: True when only its first
    :data:`MAX_TASK_CHARS` characters were matched; ``norm``: normalised
    text; ``kinds``/``texts``/``ostart``/``oend``: per token its kind, text
    and ``[start, end)`` offsets in the ORIGINAL task.
    """

    original: str
    truncated: bool
    norm: str
    kinds: list[int]
    texts: list[str]
    ostart: list[int]
    oend: list[int]
    nstarts: list[int] | None = None
    nends: list[int] | None = None
    _positions: dict[str, list[int]] | None = None
    _sim_cache: dict | None = None

    @property
    def positions(self) -> dict[str, list[int]]:
        """Token text -> its token indices, ascending."""
        if self._positions is None:
            pos: dict[str, list[int]] = {}
            for i, t in enumerate(self.texts):
                pos.setdefault(t, []).append(i)
            self._positions = pos
        return self._positions

    def original_span(self, nstart: int, nend: int) -> tuple[int, int]:
        """Original ``[start, end)`` of normalised ``[nstart, nend)`` (nend > nstart)."""
        if self.nstarts is None or self.nends is None:
            return nstart, nend
        return self.nstarts[nstart], self.nends[nend - 1]

    def sim(self, kind: int, u: str, j: int) -> float:
        """Similarity of unit ``u`` (of ``kind``) with task token ``j``."""
        if self.kinds[j] != kind:
            return 0.0
        t = self.texts[j]
        if t == u:
            return 100.0
        if kind == _SPACELESS:
            return 0.0
        cache = self._sim_cache
        if cache is None:
            cache = self._sim_cache = {}
        key = (u, t)
        s = cache.get(key)
        if s is None:
            s = cache[key] = word_similarity(u, t)
        return s


def prepare(task: str) -> PreparedTask:
    """Normalise and tokenize a task (any string: control characters, NUL,
    RTL, emoji, lone surrogates). Only the first :data:`MAX_TASK_CHARS`
    characters are read."""
    truncated = len(task) > MAX_TASK_CHARS
    text = task[:MAX_TASK_CHARS] if truncated else task
    norm, starts, ends = normalize(text)
    toks = tokenize(norm)
    kinds = [t[0] for t in toks]
    texts = [t[1] for t in toks]
    if starts is None:
        ostart = [t[2] for t in toks]
        oend = [t[3] for t in toks]
    else:
        ostart = [starts[t[2]] for t in toks]
        oend = [ends[t[3] - 1] for t in toks]
    return PreparedTask(task, truncated, norm, kinds, texts, ostart, oend, starts, ends)



# --------------------------------------------------------------------------- triggers


class _Trigger:
    """One trigger, cut into units."""

    __slots__ = ("owner", "text", "kinds", "units", "values", "optional", "short", "norm", "order")

    def __init__(self, owner: str, text: str, order: int):
        self.owner = owner
        self.text = text
        self.order = order
        norm = normalize_text(text)
        self.norm = norm
        toks = tokenize(norm)
        self.kinds = tuple(t[0] for t in toks)
        self.units = tuple(t[1] for t in toks)
        n_chars = len("".join(norm.split()))
        self.short = n_chars <= SHORT_TRIGGER_CHARS
        opt = [k == _WORD and u in STOPWORDS for k, u in zip(self.kinds, self.units)]
        if all(opt):
            opt = [False] * len(opt)
        self.optional = tuple(opt)
        weights = [0 if o else (len(u) if k == _WORD else _SPACELESS_WEIGHT)
                   for k, u, o in zip(self.kinds, self.units, opt)]
        total = sum(weights) or 1
        self.values = tuple(100.0 * w / total for w in weights)


class TriggerMatcher:
    """Scores tasks against the triggers of many owners, through an inverted
    index built once (so a task never touches every trigger).

    ``entries``: ``(owner id, triggers as written)`` pairs. Owners keep
    their order for tie-breaks only through their id (ties on score are
    broken by id, then by trigger order — deterministic).
    """

    def __init__(self, entries: Iterable[tuple[str, Sequence[str]]]):
        self.triggers: list[_Trigger] = []
        self.by_owner: dict[str, list[int]] = {}
        word_post: dict[str, list[tuple[int, int]]] = {}
        bigram_post: dict[str, list[tuple[int, int]]] = {}
        single_post: dict[str, list[int]] = {}
        concat_post: dict[str, list[int]] = {}
        self.symbol_only: list[int] = []
        for owner, trigs in entries:
            ids = self.by_owner.setdefault(owner, [])
            for order, text in enumerate(trigs):
                tid = len(self.triggers)
                tr = _Trigger(owner, text, order)
                self.triggers.append(tr)
                ids.append(tid)
                if not tr.units:
                    if tr.norm.strip():
                        self.symbol_only.append(tid)
                    continue
                n = len(tr.units)
                for i, (k, u) in enumerate(zip(tr.kinds, tr.units)):
                    if k == _WORD:
                        if not tr.optional[i]:
                            word_post.setdefault(u, []).append((tid, i))
                    elif i + 1 < n and tr.kinds[i + 1] == _SPACELESS:
                        bigram_post.setdefault(u + tr.units[i + 1], []).append((tid, i))
                    elif n == 1 or ((i == 0 or tr.kinds[i - 1] != _SPACELESS) and (i + 1 == n or tr.kinds[i + 1] != _SPACELESS)):
                        single_post.setdefault(u, []).append(tid)
                words = [u for k, u in zip(tr.kinds, tr.units) if k == _WORD]
                if len(words) >= 2 and len(words) == n and not tr.short:
                    concat_post.setdefault("".join(words), []).append(tid)
        self._word_post = word_post
        self._bigram_post = bigram_post
        self._single_post = single_post
        self._concat_post = concat_post
        # fuzzy look-ups over the word vocabulary
        stems: dict[str, list[str]] = {}
        dels: dict[str, list[str]] = {}
        for u in word_post:
            su = stem(u)
            stems.setdefault(su, []).append(u)
            if len(u) >= 4:
                for d in _deletes(u):
                    dels.setdefault(d, []).append(u)
        self._stems = stems
        self._dels = dels

    # ------------------------------------------------------------------ candidates
    def _word_candidates(self, t: str) -> set[str]:
        """Vocabulary words that may be similar to task word ``t``."""
        out: set[str] = set()
        wp = self._word_post
        if t in wp:
            out.add(t)
        st = stem(t)
        out.update(self._stems.get(st, ()))
        if len(st) >= 5:
            for L in range(max(5, len(st) - 4), len(st)):
                out.update(self._stems.get(st[:L], ()))
        if len(t) >= 4:
            dels = self._dels
            out.update(dels.get(t, ()))
            for d in _deletes(t):
                if d in wp and len(d) >= 4:
                    out.add(d)
                out.update(dels.get(d, ()))
        return out

    def _candidates(self, task: PreparedTask) -> tuple[dict[int, dict[int, float]], dict[int, list[int]], dict[int, tuple[int, int]]]:
        """Per trigger: best similarity per unit index, anchor token indices;
        plus concatenation hits ``tid -> (first token, last token)``."""
        best: dict[int, dict[int, float]] = {}
        anchors: dict[int, list[int]] = {}
        concat: dict[int, tuple[int, int]] = {}
        kinds, texts = task.kinds, task.texts
        wp = self._word_post
        seen_word: dict[str, list[tuple[str, float]]] = {}
        n = len(texts)
        for j in range(n):
            t = texts[j]
            if kinds[j] == _WORD:
                hits = seen_word.get(t)
                if hits is None:
                    hits = []
                    for u in self._word_candidates(t):
                        s = task.sim(_WORD, u, j)
                        if s > 0:
                            hits.append((u, s))
                    seen_word[t] = hits
                for u, s in hits:
                    for tid, i in wp[u]:
                        b = best.get(tid)
                        if b is None:
                            best[tid] = b = {}
                            anchors[tid] = []
                        if s > b.get(i, 0.0):
                            b[i] = s
                        anchors[tid].append(j)
                c = self._concat_post.get(t)
                if c:
                    for tid in c:
                        concat.setdefault(tid, (j, j))
                if j + 1 < n and kinds[j + 1] == _WORD:
                    joined = t + texts[j + 1]
                    for tid, i in wp.get(joined, ()):
                        if len(self.triggers[tid].units) == 1:
                            concat.setdefault(tid, (j, j + 1))
            else:
                for tid in self._single_post.get(t, ()):
                    b = best.get(tid)
                    if b is None:
                        best[tid] = b = {}
                        anchors[tid] = []
                    tr = self.triggers[tid]
                    for i, u in enumerate(tr.units):
                        if u == t:
                            b[i] = 100.0
                    anchors[tid].append(j)
                if j + 1 < n and kinds[j + 1] == _SPACELESS:
                    for tid, i in self._bigram_post.get(t + texts[j + 1], ()):
                        b = best.get(tid)
                        if b is None:
                            best[tid] = b = {}
                            anchors[tid] = []
                        b[i] = 100.0
                        b[i + 1] = 100.0
                        anchors[tid].append(j)
        return best, anchors, concat

    # ------------------------------------------------------------------ scoring
    def _exact(self, tr: _Trigger, task: PreparedTask) -> tuple[int, int] | None:
        """First token window holding the trigger's units consecutively."""
        units = tr.units
        n = len(units)
        texts = task.texts
        kinds = task.kinds
        for j in task.positions.get(units[0], ()):
            if j + n > len(texts):
                break
            ok = True
            for i in range(1, n):
                if texts[j + i] != units[i] or kinds[j + i] != tr.kinds[i]:
                    ok = False
                    break
            if ok and kinds[j] == tr.kinds[0]:
                return j, j + n - 1
        return None

    def _align(self, tr: _Trigger, task: PreparedTask, lo: int, hi: int) -> tuple[float, int, int]:
        """Best in-order alignment of the trigger's units with task tokens
        ``lo..hi-1``: returns ``(score, first token, last token)``; score
        -1 when nothing aligns."""
        units, kinds_u, values, optional = tr.units, tr.kinds, tr.values, tr.optional
        n = len(units)
        NEG = -1e9
        skip = [(_MISSING_STOPWORD_COST if o else 0.0) for o in optional]
        pre = [0.0] * (n + 1)
        for i in range(n):
            pre[i + 1] = pre[i] + skip[i]
        suf = [0.0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suf[i] = suf[i + 1] + skip[i]
        texts, tkinds = task.texts, task.kinds
        ins = []
        for j in range(lo, hi):
            t = texts[j]
            if tkinds[j] == _WORD:
                ins.append(_INSERT_COST_STOP if t in STOPWORDS else _INSERT_COST_WORD)
            else:
                ins.append(_INSERT_COST_STOP if t in PARTICLES else _INSERT_COST_CHAR)
        w = hi - lo
        # gains[i][jj]
        gains = []
        for i in range(n):
            row = []
            u, k, v, o = units[i], kinds_u[i], values[i], optional[i]
            for jj in range(w):
                s = task.sim(k, u, lo + jj)
                if s <= 0 or (o and s < 100.0):
                    row.append(None)
                else:
                    row.append(v * s / 100.0)
            gains.append(row)
        # S[i][jj]: in span, units[:i] handled, tokens[:jj] handled (value, start)
        S = [[NEG] * (w + 1) for _ in range(n + 1)]
        Sst = [[-1] * (w + 1) for _ in range(n + 1)]
        M = [[NEG] * (w + 1) for _ in range(n + 1)]
        Mst = [[-1] * (w + 1) for _ in range(n + 1)]
        best, bstart, bend = NEG, -1, -1
        for i in range(n + 1):
            for jj in range(w + 1):
                cur, cst = S[i][jj], Sst[i][jj]
                m = M[i][jj]
                if m > cur:
                    cur, cst = m, Mst[i][jj]
                if m > NEG / 2:
                    total = m - suf[i]
                    if total > best:
                        best, bstart, bend = total, Mst[i][jj], jj - 1
                if i < n:
                    # skip unit i (only once the span has started)
                    if cur > NEG / 2:
                        val = cur - skip[i]
                        if val > S[i + 1][jj]:
                            S[i + 1][jj], Sst[i + 1][jj] = val, cst
                if jj < w:
                    if cur > NEG / 2 and i < n:
                        val = cur - ins[jj]
                        if val > S[i][jj + 1]:
                            S[i][jj + 1], Sst[i][jj + 1] = val, cst
                    if i < n:
                        g = gains[i][jj]
                        if g is not None:
                            # continue the span, or start it here
                            start_val = g - pre[i]
                            if cur > NEG / 2 and cur + g >= start_val:
                                val, st = cur + g, cst
                            else:
                                val, st = start_val, jj
                            if val > M[i + 1][jj + 1]:
                                M[i + 1][jj + 1], Mst[i + 1][jj + 1] = val, st
        if best <= NEG / 2:
            return -1.0, -1, -1
        return best, lo + bstart, lo + bend

    def _score_trigger(self, tid: int, task: PreparedTask, anchors: Sequence[int] | None) -> tuple[float, int, int]:
        """``(score, first token, last token)`` of one trigger; ``anchors``
        limits the alignment to windows around those token indices (None:
        the whole task)."""
        tr = self.triggers[tid]
        ex = self._exact(tr, task)
        if ex is not None:
            return 100.0, ex[0], ex[1]
        if tr.short:
            return -1.0, -1, -1
        n = len(tr.units)
        ntok = len(task.texts)
        if anchors is None:
            windows = [(0, ntok)] if ntok else []
        else:
            slack = n + _MAX_INSERTS
            windows = []
            for a in sorted(set(anchors)):
                lo, hi = max(0, a - slack), min(ntok, a + slack + 1)
                if windows and lo <= windows[-1][1]:
                    windows[-1] = (windows[-1][0], max(windows[-1][1], hi))
                else:
                    windows.append((lo, hi))
        best = (-1.0, -1, -1)
        for lo, hi in windows:
            r = self._align(tr, task, lo, hi)
            if r[0] > best[0]:
                best = r
        if best[0] < 0:
            return best
        return min(FUZZY_CAP, best[0]), best[1], best[2]

    def _to_match(self, tid: int, task: PreparedTask, score: float, a: int, b: int) -> Match:
        tr = self.triggers[tid]
        return Match(tr.owner, round(max(0.0, min(100.0, score)), 1), tr.text, (task.ostart[a], task.oend[b]))

    def _symbol_matches(self, task: PreparedTask) -> list[tuple[int, Match]]:
        out = []
        if not self.symbol_only:
            return out
        for tid in self.symbol_only:
            tr = self.triggers[tid]
            key = tr.norm.strip()
            if not key:
                continue
            pos = task.norm.find(key)
            if pos < 0:
                continue
            span = task.original_span(pos, pos + len(key))
            out.append((tid, Match(tr.owner, 100.0, tr.text, span)))
        return out

    def match(self, task: PreparedTask, floor: float = NEAR_MISS_FLOOR) -> dict[str, Match]:
        """Best :class:`Match` per owner scoring at least ``floor``.

        Only triggers reached through the inverted index are scored; a
        trigger whose upper bound (the sum of its units' best similarities)
        is below ``floor`` is not aligned at all. Ties between triggers of one
        owner: higher score, then earlier span, then longer span, then registry order."""
        best_units, anchors, concat = self._candidates(task)
        results: dict[str, tuple[tuple, Match]] = {}

        def offer(tid: int, m: Match) -> None:
            key = (-m.score, m.span[0], m.span[0] - m.span[1], self.triggers[tid].order)
            old = results.get(m.id)
            if old is None or key < old[0]:
                results[m.id] = (key, m)

        for tid, units in best_units.items():
            tr = self.triggers[tid]
            bound = sum(tr.values[i] * s / 100.0 for i, s in units.items())
            if not tr.short and bound < floor:
                continue
            score, a, b = self._score_trigger(tid, task, anchors[tid])
            if score >= floor and a >= 0:
                offer(tid, self._to_match(tid, task, score, a, b))
        for tid, (a, b) in concat.items():
            if _CONCAT_SCORE >= floor:
                offer(tid, self._to_match(tid, task, _CONCAT_SCORE, a, b))
        for tid, m in self._symbol_matches(task):
            offer(tid, m)
        return {owner: m for owner, (_, m) in sorted(results.items())}

    def score_owner(self, task: PreparedTask, owner: str) -> Match | None:
        """Best match of every trigger of ``owner`` against the whole task,
        without candidate generation (for "why not X"); None when the owner
        is unknown or nothing aligns at all."""
        best: tuple | None = None
        for tid in self.by_owner.get(owner, ()):
            tr = self.triggers[tid]
            if not tr.units:
                continue
            score, a, b = self._score_trigger(tid, task, None)
            if a < 0:
                continue
            m = self._to_match(tid, task, score, a, b)
            key = (-m.score, m.span[0], m.span[0] - m.span[1], tr.order)
            if best is None or key < best[0]:
                best = (key, m)
        for tid, m in self._symbol_matches(task):
            if m.id == owner:
                key = (-m.score, m.span[0], m.span[0] - m.span[1], self.triggers[tid].order)
                if best is None or key < best[0]:
                    best = (key, m)
        return best[1] if best else None

    def first_trigger(self, owner: str) -> str | None:
        """The first trigger of an owner as written (for messages)."""
        ids = self.by_owner.get(owner)
        return self.triggers[ids[0]].text if ids else None
