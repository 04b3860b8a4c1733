"""Trigger matching: normalisation, tokens, candidate generation, scores and spans.

This is the scoring half of the router (docs/formats.md §6.7). It
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
      task tokens inserted inside the matched span cost points. A word unit
      weighs its length in characters, a spaceless character weighs 2, and a
      stop word ("a", "the", "this", ...) weighs nothing but costs 2 points
      when missing. An inserted stop word or Japanese particle costs 3
      points, another word 12, another spaceless character 5. The same
      letters spaced differently ("post mortem" for "postmortem") score 95.
      Fuzzy scores are capped at :data:`FUZZY_CAP` so only an exact
      occurrence scores 100.

Candidate generation
    A :class:`TriggerMatcher` builds, once, an inverted index from words and
    Han/Kana bigrams to the triggers holding them, plus look-ups from stems
    and one-character deletions (SymSpell style) to the vocabulary, so a
    typo or an inflection finds its trigger word without a scan. Each
    trigger is indexed under its rarest words only — as many as needed for
    the rest to stay below the matcher's floor together (prefix filtering)
    — and stop words never generate candidates. A task looks up its own
    tokens, computes an upper bound per reached trigger, and aligns only the
    triggers whose bound can still matter (every one that can reach the
    threshold; below it, best bound first until the near misses are known).
    The work per task grows with the task and with the triggers that share
    a rare word with it, never with the size of the registry.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import gc
import re
import unicodedata
from array import array
from bisect import bisect_left, insort
from heapq import nsmallest
from itertools import compress, repeat
from operator import not_
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from routelens.routing.columns import IdLists, Postings, Strings, column as _column, from_column as _from_column
from routelens.text.typos import word_similarity
from routelens.text.verbs import a_word
from routelens.text.unicode import is_spaceless, normalize_text
from routelens.text.words import (MATCH_STOP_WORDS, derived_nouns, derives, inflection_key, inflects, is_katakana,
                                  lemma_candidates)

__all__ = [
    "MATCHER_VERSION",
    "MAX_TASK_CHARS",
    "SHORT_TRIGGER_CHARS",
    "FUZZY_CAP",
    "NEAR_MISS_FLOOR",
    "Match",
    "Hit",
    "Reached",
    "PreparedTask",
    "TriggerMatcher",
    "normalize",
    "normalize_text",
    "tokenize",
    "word_similarity",
    "stem",
    "prepare",
    "prepare_tail",
]

#: Version of the scoring rules; part of every decision so a decision can be
#: replayed. Bump whenever a score for the same input can change.
MATCHER_VERSION = "39"

#: Characters of a task that take part in matching (Python ``str`` characters,
#: i.e. code points). A longer task is truncated to this many characters for
#: skill matching and the decision says so; spans still index the original
#: task. Forced rules and high-risk terms are matched over the whole task
#: (:func:`prepare_tail`).
#: 10,000 characters is about 2,500 tokens — far beyond any real request,
#: and it bounds the time one decision can take.
MAX_TASK_CHARS = 10_000

#: Forced rules and high-risk terms are matched over the WHOLE task, not only
#: its first :data:`MAX_TASK_CHARS` characters (a safety check must not be
#: dodged by a long paste): the rest is read in windows of this many
#: characters (:func:`prepare_tail`), so memory stays bounded and time grows
#: linearly with the task.
SCAN_WINDOW_CHARS = MAX_TASK_CHARS

#: Windows overlap by this many characters, so a match lying across a window
#: edge is wholly inside the next window.
SCAN_OVERLAP_CHARS = 1_000

#: A trigger of this many characters or fewer (normalised, spaces not
#: counted) must occur exactly (issue 3: ``ci`` must not fuzzy-match "cd").
SHORT_TRIGGER_CHARS = 3

#: The highest score a non-exact (fuzzy) match can get; 100 means exact.
FUZZY_CAP = 99.0

#: Scores below this are not reported as near misses (0-100 scale); it is
#: also the floor the skill matcher's inverted index is cut to.
NEAR_MISS_FLOOR = 60.0

#: The lowest score at which a ``not_when`` phrase matches, whatever the
#: threshold (docs/formats.md §6.7): the default threshold. A negative
#: trigger drops a skill, so a threshold lowered for recall must not make it
#: fire on the words it shares with the skill's own trigger ("video color
#: grade" scored 60 on "please color grade the engagement photos").
NOT_WHEN_FLOOR = 85.0


def not_when_floor(threshold: float) -> float:
    """The score (0-100) a ``not_when`` phrase needs at ``threshold``: the
    threshold, and at least :data:`NOT_WHEN_FLOOR` (docs/formats.md §6.7)."""
    return max(float(threshold), NOT_WHEN_FLOOR)

#: Word units that do not generate candidates and that may be missing from
#: the task at a small cost (:data:`_MISSING_STOPWORD_COST`).
STOPWORDS = MATCH_STOP_WORDS

#: Spaceless characters that are grammatical particles in Japanese; inserting
#: one inside a matched span ("レビューをお願い") costs little.
PARTICLES = frozenset("をのがにはでともへや")

_INSERT_COST_STOP = 3.0  # points for a stop word / particle inside a matched span
_INSERT_COST_WORD = 12.0  # points for any other task word inside a matched span
_INSERT_COST_CHAR = 5.0  # points for any other spaceless character inside a span
_MISSING_STOPWORD_COST = 2.0  # points for a trigger stop word absent from the task
_SPACELESS_WEIGHT = 2  # weight of one spaceless character (a word unit weighs its length)
_CONCAT_SCORE = 95.0  # "post mortem" vs "postmortem": same letters, other spacing
_ACRONYM_PLURAL_SCORE = 95.0  # "PDFs" for the short trigger "PDF"
#: a task word whose verb a one-word trigger noun is derived from ("recruiting" for "recruitment"), §6.7
DERIVATION_SCORE = 90.0
_MAX_INSERTS = 4  # window slack around an anchor, in tokens

_WORD, _SPACELESS = 1, 2
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+[#+%]*")
#: characters that belong to the word they follow: ``c#``, ``c++``, ``gp%``
_WORD_SUFFIX = frozenset("#+%")
#: punctuation that joins two units of a trigger tightly and must be there
#: in the task too: ``node.js``, ``a/b``, ``1:1``, ``p&l``, and a leading
#: ``.`` (``.net``); docs/formats.md §6.7
_JOINS = frozenset("./:&")
_JOIN_RE = re.compile(r"[0-9a-z][./:&]+[0-9a-z]")
_NOT_ASCII_ALNUM = re.compile(r"[^A-Za-z0-9]")


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
    #: how it matched: ``exact``, ``inflection``, ``loose``, ``typo``,
    #: ``derivation`` ("recruiting" for "recruitment", §6.7),
    #: ``spacing`` ("post mortem" for "postmortem"), ``explicit`` (an
    #: ``/id``); docs/formats.md §6.10
    kind: str = field(default="exact", compare=False)

    def to_dict(self) -> dict:
        """``{"id", "score", "trigger", "span": [start, end]}``."""
        return {"id": self.id, "score": self.score, "trigger": self.trigger, "span": [self.span[0], self.span[1]]}


class Hit:
    """One trigger text matched in one task, shared by every owner of the
    text (:meth:`TriggerMatcher.reach`): ``score`` (0-100, rounded to 1
    decimal), ``trigger`` (as written), ``span`` (``(start, end)`` character
    offsets into the original task), ``kind`` (as :class:`Match`); ``rank``:
    ``(-score, span start, -span length)``, the ranking key of an owner's
    hits before the trigger's order; ``above``: the score is at least the
    threshold the task was matched with."""

    __slots__ = ("score", "trigger", "span", "kind", "rank", "above")

    def __init__(self, score: float, trigger: str, span: tuple[int, int], kind: str, above: bool):
        self.score = score
        self.trigger = trigger
        self.span = span
        self.kind = kind
        self.rank = (-score, span[0], span[0] - span[1])
        self.above = above

    @classmethod
    def of(cls, m: Match, threshold: float) -> "Hit":
        """The hit of match ``m`` (its owner left out)."""
        return cls(m.score, m.trigger, m.span, m.kind, m.score >= threshold)

    def match(self, owner: str) -> Match:
        """The :class:`Match` of this hit for ``owner``."""
        m = _new_match(Match)  # a frozen dataclass's __init__ costs more than the rest of a hit
        d = m.__dict__  # filled key by key: a third faster than update() with keywords
        d["id"] = owner
        d["score"] = self.score
        d["trigger"] = self.trigger
        d["span"] = self.span
        d["kind"] = self.kind
        return m


#: an owner's offers (:class:`Reached`): [best key (``Hit.rank`` + the trigger's order), best hit,
#: [(position, hit), ...] in the order offered]; a position is (0, i, 0) for the i-th concatenation or
#: symbol hit, (1, -bound, trigger id) for a trigger text reached through the inverted index
_Offers = list


def _offer(special: dict[str, _Offers], owner: str, pos: tuple, hit: Hit, order: int) -> bool:
    """Offer ``hit`` to ``owner`` (its trigger's ``order`` breaks ties);
    True when it is the owner's best hit now."""
    key = (*hit.rank, order)
    got = special.get(owner)
    if got is None:
        special[owner] = [key, hit, [(pos, hit)]]
        return True
    got[2].append((pos, hit))
    if key < got[0]:
        got[0] = key
        got[1] = hit
        return True
    return False


class Reached:
    """What one task reached in a :class:`TriggerMatcher` (:meth:`TriggerMatcher.reach`):
    every owner scoring at least the matcher's floor, with its hits.

    ``threshold``: the threshold of :attr:`Hit.above`; ``groups``: ``(hit,
    owners, trigger ids, orders, -bound)`` per trigger text whose upper bound
    reaches the threshold, with the owners whose one hit it is (owners
    ascending by trigger id: their hits were offered in that order);
    ``special``: owner -> its offers (``[best key, best hit, [(position,
    hit), ...]]``, in the order offered) for every other owner. Every owner
    is in exactly one of them."""

    __slots__ = ("threshold", "groups", "special", "_single_of")

    def __init__(self, threshold: float, groups: list, special: dict[str, _Offers]):
        self.threshold = threshold
        self.groups = groups
        self.special = special
        self._single_of: dict[str, int] | None = None

    def single_of(self) -> dict[str, int]:
        """Owner -> the index of its group in :attr:`groups` (made once)."""
        if self._single_of is None:
            got: dict[str, int] = {}
            for i, g in enumerate(self.groups):
                got.update(zip(g[1], repeat(i)))
            self._single_of = got
        return self._single_of

    def take_out(self, owner: str, g: int) -> None:
        """Move ``owner`` from group ``g`` to :attr:`special` (it is offered another hit)."""
        hit, owners, tids, orders, negb = self.groups[g]
        i = owners.index(owner)
        self.groups[g] = (hit, owners[:i] + owners[i + 1:], tids[:i] + tids[i + 1:], orders[:i] + orders[i + 1:],
                          negb)
        del self.single_of()[owner]
        _offer(self.special, owner, (1, negb, tids[i]), hit, orders[i])

    def below_threshold(self) -> tuple[set[str], list[float]]:
        """``(owners whose best score is below the threshold, their best scores ascending)``."""
        low: set[str] = set()
        scores: list[float] = []
        for hit, owners, _, _, _ in self.groups:
            if not hit.above and owners:
                low.update(owners)
                scores += [hit.score] * len(owners)
        for owner, (_, hit, _) in self.special.items():
            if not hit.above:
                low.add(owner)
                scores.append(hit.score)
        scores.sort()
        return low, scores

    def best_hits(self) -> Iterable[tuple[str, Hit]]:
        """``(owner, its best hit)`` of every owner (groups first)."""
        for hit, owners, _, _, _ in self.groups:
            yield from zip(owners, repeat(hit))
        for owner, (_, hit, _) in self.special.items():
            yield owner, hit

    def above_hits(self) -> list[tuple[str, list[Hit]]]:
        """``(owner, its hits at or above the threshold in the order offered)``
        for every owner with one, in the order each owner's first such hit
        was offered."""
        out = []
        for hit, owners, tids, _, negb in self.groups:
            if hit.above:
                out += [((1, negb, tid), owner, [hit]) for owner, tid in zip(owners, tids)]
        for owner, (_, _, offers) in self.special.items():
            hits = [h for _, h in offers if h.above]
            if hits:
                out.append((next(p for p, h in offers if h.above), owner, hits))
        out.sort(key=_first)
        return [(owner, hits) for _, owner, hits in out]

    def hit_lists(self) -> Iterator[tuple[Hit, list[Hit], tuple[str, ...]]]:
        """``(best hit, hits at or above the threshold in the order offered,
        owners)`` of every owner with such a hit: the owners of a group share
        their one hit; any other owner comes alone."""
        for hit, owners, _, _, _ in self.groups:
            if hit.above and owners:
                yield hit, [hit], owners
        for owner, (_, best, offers) in self.special.items():
            hits = [h for _, h in offers if h.above]
            if hits:
                yield best, hits, (owner,)

    def ranked(self) -> tuple[list[str], dict[str, Hit]]:
        """``(the owners whose best score is at least the threshold, best
        first, ties by id; owner -> its best hit)`` (the router's candidates)."""
        hit_of: dict[str, Hit] = {}
        score_of: dict[str, float] = {}
        for hit, owners, _, _, _ in self.groups:
            if hit.above:
                hit_of.update(zip(owners, repeat(hit)))
                score_of.update(zip(owners, repeat(hit.score)))
        for owner, (_, hit, _) in self.special.items():
            if hit.above:
                hit_of[owner] = hit
                score_of[owner] = hit.score
        ids = sorted(score_of)
        ids.sort(key=score_of.__getitem__, reverse=True)  # stable: ties stay in id order
        return ids, hit_of

    def near(self, k: int) -> list[tuple[str, Hit]]:
        """The ``k`` best ``(owner, best hit)`` below the threshold, best first, ties by id."""
        if k <= 0:
            return []
        pool: list[tuple[float, str, Hit]] = []
        for hit, owners, _, _, _ in self.groups:
            if not hit.above:
                pool += zip(repeat(-hit.score), owners, repeat(hit))
        for owner, (_, hit, _) in self.special.items():
            if not hit.above:
                pool.append((-hit.score, owner, hit))
        return [(o, h) for _, o, h in nsmallest(k, pool, key=_score_id)]


def _first(x: tuple):
    return x[0]


def _score_id(x: tuple):
    return x[0], x[1]


def _offer_order(x: tuple):
    return x[0], x[1]


# --------------------------------------------------------------------------- normalisation


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
            k = _SPACELESS if is_spaceless(cp) else _WORD
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
    while i < n:
        j = i + 1
        while j < n and s[j] >= "\x80" and _joins_previous(s[j]):
            j += 1
        c = s[i]
        if j == i + 1 and c < "\x80":
            out.append(c.lower())
            starts.append(i)
            ends.append(j)
            i = j
            continue
        piece = normalize_text(s[i:j])
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
        return [(_WORD, m.group(), m.start(), m.end()) for m in _ASCII_WORD.finditer(norm)]
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
            if c in _WORD_SUFFIX:
                continue  # "c#", "c++": the sign is part of the word
            toks.append((_WORD, norm[cur_start:i], cur_start, i))
            cur_kind = 0
        if k == _SPACELESS:
            toks.append((_SPACELESS, c, i, i + 1))
    if cur_kind == _WORD:
        toks.append((_WORD, norm[cur_start:], cur_start, len(norm)))
    return toks


# --------------------------------------------------------------------------- words


def stem(word: str) -> str:
    """The key under which a normalised word and its regular inflections
    meet (:func:`routelens.text.words.inflection_key`: "migrations" ->
    "migration", "planning" -> "plan"); a derivation keeps its own key
    ("formatter" is not "format"). Words with digits are returned unchanged."""
    return inflection_key(word)


def _deletes(w: str) -> set[str]:
    return {w[:i] + w[i + 1 :] for i in range(len(w))}


# --------------------------------------------------------------------------- tasks


@dataclass
class PreparedTask:
    """A task ready for matching: shared by every matcher of one decision.

    ``original``: the task as given; ``truncated``: True when only its first
    :data:`MAX_TASK_CHARS` characters were matched; ``norm``: normalised
    text; ``kinds``/``texts``/``ostart``/``oend``: per token its kind, text
    and ``[start, end)`` offsets in the ORIGINAL task; ``offset``: where the
    prepared text starts in the original task (0, except for the windows of
    :func:`prepare_tail`).
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
    offset: int = 0
    _positions: dict[str, list[int]] | None = None
    _ins: list[float] | None = None
    #: per token, its ``[start, end)`` offsets in ``norm``
    tnstart: list[int] | None = None
    tnend: list[int] | None = None
    #: token index -> the token without its plural "s" when the task writes an
    #: acronym's plural ("PDFs", "APIs": capitals, then a small "s")
    alias: dict[int, str] | None = None

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
            return nstart + self.offset, nend + self.offset
        return self.nstarts[nstart], self.nends[nend - 1]

    @property
    def ins_prefix(self) -> list[float]:
        """Prefix sums of the cost of inserting each token inside a matched
        span: ``ins_prefix[j]`` is the cost of tokens ``0..j-1``."""
        if self._ins is None:
            acc = [0.0]
            total = 0.0
            for k, t in zip(self.kinds, self.texts):
                if k == _WORD:
                    total += _INSERT_COST_STOP if t in STOPWORDS else _INSERT_COST_WORD
                else:
                    total += _INSERT_COST_STOP if t in PARTICLES else _INSERT_COST_CHAR
                acc.append(total)
            self._ins = acc
        return self._ins


def prepare(task: str) -> PreparedTask:
    """Normalise and tokenize a task (any string: control characters, NUL,
    RTL, emoji, lone surrogates). Only the first :data:`MAX_TASK_CHARS`
    characters are read."""
    truncated = len(task) > MAX_TASK_CHARS
    return _prepare_slice(task, 0, MAX_TASK_CHARS if truncated else len(task), truncated)


def _prepare_slice(task: str, start: int, end: int, truncated: bool) -> PreparedTask:
    text = task[start:end] if (start or end < len(task)) else task
    norm, starts, ends = normalize(text)
    toks = tokenize(norm)
    kinds = [t[0] for t in toks]
    texts = [t[1] for t in toks]
    if starts is None:
        ostart = [t[2] + start for t in toks]
        oend = [t[3] + start for t in toks]
    else:
        if start:
            starts = [x + start for x in starts]
            ends = [x + start for x in ends] if ends is not None else None
        ostart = [starts[t[2]] for t in toks]
        oend = [ends[t[3] - 1] for t in toks]  # type: ignore[index]
    alias = None
    for j, (k, t) in enumerate(zip(kinds, texts)):
        if k == _WORD and len(t) >= 3 and t[-1] == "s" and t[:-1].isalnum():
            orig = task[ostart[j]:oend[j]]
            if len(orig) == len(t) and orig[-1] == "s" and orig[:-1].isupper():
                if alias is None:
                    alias = {}
                alias[j] = t[:-1]
    return PreparedTask(task, truncated, norm, kinds, texts, ostart, oend, starts, ends, offset=start,
                        tnstart=[t[2] for t in toks], tnend=[t[3] for t in toks], alias=alias)


def _is_boundary(c: str) -> bool:
    """A character a window may start after / end before without cutting a
    word of a spaced script (a separator or a spaceless character)."""
    return _char_class(c) in (0, _SPACELESS) and not (c >= "\x80" and _joins_previous(c))


def prepare_tail(task: str) -> Iterable[PreparedTask]:
    """The part of ``task`` beyond the first :data:`MAX_TASK_CHARS`
    characters, as overlapping windows of about :data:`SCAN_WINDOW_CHARS`
    characters (yielded one at a time; nothing for a short task). Windows
    start on a word boundary and end on one where one lies within a quarter
    of the overlap, so no window shows a word cut in two ("backdrop" never
    reads as "drop"; a word cut at a window's end is longer than that quarter,
    far longer than any trigger word). Spans of matches found in a window index the original task.
    Used to check forced rules and high-risk terms over the whole task."""
    n = len(task)
    if n <= MAX_TASK_CHARS:
        return
    snap = SCAN_OVERLAP_CHARS // 4
    pos = MAX_TASK_CHARS - SCAN_OVERLAP_CHARS
    while pos < n:
        s = n
        m = _NOT_ASCII_ALNUM.search(task, pos)
        while m is not None:  # the first word boundary at or after pos (a longer word is skipped whole)
            i = m.start()
            if _is_boundary(task[i]):
                s = i if _char_class(task[i]) == _SPACELESS else i + 1
                break
            m = _NOT_ASCII_ALNUM.search(task, i + 1)
        if s >= n:
            return
        e = min(n, s + SCAN_WINDOW_CHARS)
        if e < n:
            for i in range(e, max(s, e - snap), -1):
                if _is_boundary(task[i]):
                    e = i
                    break
        yield _prepare_slice(task, s, e, True)
        if e >= n:
            return
        pos = max(e - SCAN_OVERLAP_CHARS, pos + 1)


# --------------------------------------------------------------------------- triggers


class _Trigger:
    """One trigger, cut into units.

    ``joins``: per unit, the punctuation that must join it to the next unit
    in the task (``"."`` in ``node.js``) or ``""``; ``lead``: punctuation
    that must come right before the first unit (``"."`` in ``.net``);
    ``kana_start``/``kana_end``: the trigger starts/ends with Katakana, so
    the task must not glue more Katakana to it; ``letter``: a trigger of one
    Latin letter (``R``), which matches only as a capital letter standing
    alone; ``content``: how many units carry content (not stop words)."""

    __slots__ = ("owner", "text", "kinds", "units", "values", "optional", "short", "norm", "order", "joins",
                 "lead", "kana_start", "kana_end", "letter", "content", "punct", "proper", "bound")

    def __init__(self, owner: str, text: str, order: int):
        # (cut the first time a task reaches the text: the loops are kept to C-level steps where they can be)
        self.owner = owner
        self.text = text
        self.order = order
        if text.isascii():
            norm = text.lower()
            found = list(_ASCII_WORD.finditer(norm))
            units = tuple(map(_group, found))
            kinds: tuple[int, ...] = (_WORD,) * len(units)
            spans = list(map(_span, found))
        else:
            norm = normalize_text(text)
            toks = tokenize(norm)
            kinds = tuple(t[0] for t in toks)
            units = tuple(t[1] for t in toks)
            spans = [(t[2], t[3]) for t in toks]
        self.norm = norm
        self.kinds = kinds
        self.units = units
        # a name written with a capital ("Docker", "Excel", "Polars") does not inflect: "dockers",
        # "excels" are other words; an acronym in capitals ("PDF") takes a plural "s" (:func:`prepare`)
        proper = set()
        if text.isascii() and not text.islower():
            for m in found:
                w = text[m.start():m.end()]
                if len(w) >= 2 and w[0].isupper() and any(c.islower() for c in w[1:]):
                    proper.add(m.group())
        self.proper = frozenset(proper)
        self.short = len(norm) - sum(map(str.isspace, norm)) <= SHORT_TRIGGER_CHARS
        joins = []
        for i in range(len(spans) - 1):
            gap = norm[spans[i][1]:spans[i + 1][0]]
            joins.append(gap if gap and all(c in _JOINS for c in gap) else "")
        joins.append("")
        self.joins = tuple(joins)
        self.lead = "." if spans and spans[0][0] > 0 and norm[spans[0][0] - 1] == "." and \
            (spans[0][0] == 1 or not norm[spans[0][0] - 2].isalnum()) else ""
        self.punct = bool(self.lead) or any(self.joins) or any(u[-1] in _WORD_SUFFIX for u in units)
        self.kana_start = bool(units) and kinds[0] == _SPACELESS and is_katakana(units[0][0])
        self.kana_end = bool(units) and kinds[-1] == _SPACELESS and is_katakana(units[-1][-1])
        self.letter = len(units) == 1 and kinds[0] == _WORD and len(units[0]) == 1 and units[0].isalpha() \
            and text.strip() != text.strip().lower()
        self.optional, self.content, self.values, self.bound = _weigh(kinds, units)


def _weigh(kinds: tuple[int, ...], units: tuple[str, ...]
           ) -> tuple[tuple[bool, ...], int, tuple[float, ...], tuple[tuple[str, float, bool], ...]]:
    """``(optional, content, values, bound)`` of a trigger's units (:class:`_Trigger`):
    which units are stop words that may be missing, how many carry content,
    each unit's share of the score (0-100), and ``(unit, value, is a word)``
    of the units that weigh something: what the score's upper bound reads
    (:meth:`TriggerMatcher.reach`; a stop word weighs 0)."""
    opt = tuple([k == _WORD and u in STOPWORDS for k, u in zip(kinds, units)])
    content = len(opt) - sum(opt)
    if opt and content <= 1:
        # "on call", "back on", "into Japanese": with one word of content, every word must be there
        opt = (False,) * len(opt)
        content = sum(1 for k, u in zip(kinds, units) if not (k == _WORD and u in STOPWORDS)) or len(units)
    weights = [0 if o else (len(u) if k == _WORD else _SPACELESS_WEIGHT) for k, u, o in zip(kinds, units, opt)]
    total = sum(weights) or 1
    values = tuple([100.0 * w / total for w in weights])
    return opt, content, values, tuple([(u, v, k == _WORD) for k, u, v, o in zip(kinds, units, values, opt) if not o])


def _bound_of(text: str) -> tuple[bool, tuple[str, ...], tuple[tuple[str, float, bool], ...]]:
    """``(short, units, bound)`` of a trigger text, as its :class:`_Trigger`
    has them (``units`` only for a short trigger, ``bound`` only for
    another), without the rest of it (what the upper bound of a text reads:
    most texts a task reaches stay below the floor and are never scored)."""
    if text.isascii():
        norm = text.lower()
        units = tuple(_ASCII_WORD.findall(norm))
        kinds: tuple[int, ...] = (_WORD,) * len(units)
    else:
        norm = normalize_text(text)
        toks = tokenize(norm)
        kinds = tuple(t[0] for t in toks)
        units = tuple(t[1] for t in toks)
    if len(norm) - sum(map(str.isspace, norm)) <= SHORT_TRIGGER_CHARS:
        return True, units, ()
    return False, (), _weigh(kinds, units)[3]


#: what ends a clause between a trigger's first and last word in a task (docs/formats.md §6.7): a full stop,
#: "!" or "?" not followed by a word character ("2.1" is a version, "Yahoo!ショッピング" a name), ";", a line
#: break, an em dash, a spaced hyphen or en dash, and their full-width forms (after NFKC "！", "？", "；" are
#: "!", "?", ";"; "。" stays)
_CLAUSE_BREAK = re.compile(r"[.!?](?!\w)|[;\n\u3002\u2014]|\s[-\u2013]\s")

_group = re.Match.group
_span = re.Match.span


class _LazyTriggers:
    """The triggers of a matcher loaded from the matcher cache
    (:mod:`routelens.routing.matcher_cache`): each :class:`_Trigger` is a
    pure function of ``(owner, text, order)``, so it is cut into units again
    on first use and kept; a task touches only the triggers the inverted
    index reaches, so a cold start does not parse every trigger. The three
    are kept as columns (``owners``: the distinct owners; per trigger the
    index of its owner and its order, as ``array("I")``; ``texts``): a
    cache holding 550,000 triggers reads a list of strings and two arrays,
    not 550,000 tuples."""

    __slots__ = ("owners", "owner_of", "orders", "texts", "_made")

    def __init__(self, owners: list[str], owner_of: array, orders: array, texts: Sequence[str]):
        self.owners = owners
        self.owner_of = owner_of
        self.orders = orders
        self.texts = texts
        self._made: list[_Trigger | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __bool__(self) -> bool:
        return bool(self.texts)

    def made(self, tid: int) -> _Trigger | None:
        """Trigger ``tid`` if it was cut into units already, else None."""
        return self._made[tid]

    def __getitem__(self, tid: int) -> _Trigger:
        tr = self._made[tid]
        if tr is None:
            tr = self._made[tid] = _Trigger(self.owners[self.owner_of[tid]], self.texts[tid], self.orders[tid])
        return tr

    def __iter__(self):
        for tid in range(len(self.texts)):
            yield self[tid]


class _ByOwner:
    """Owner -> its trigger ids, ascending (:attr:`TriggerMatcher.by_owner`
    of a matcher loaded from the matcher cache): the ids of each owner as
    one slice of an ``array("I")``, the owner's position found through a
    dict made on the first look-up. Only :meth:`get` is offered."""

    __slots__ = ("owners", "flat", "offsets", "_at")

    def __init__(self, owners: list[str], flat: array, offsets: array):
        self.owners = owners
        self.flat = flat
        self.offsets = offsets
        self._at: dict[str, int] | None = None

    def get(self, owner: str, default=None):
        """The trigger ids of ``owner`` as a list, or ``default``."""
        at = self._at
        if at is None:
            at = self._at = {o: i for i, o in enumerate(self.owners)}
        i = at.get(owner)
        if i is None:
            return default
        return self.flat[self.offsets[i]:self.offsets[i + 1]].tolist()

    def items(self):
        """``(owner, trigger ids)`` in the order the matcher was given them."""
        for i, owner in enumerate(self.owners):
            yield owner, self.flat[self.offsets[i]:self.offsets[i + 1]].tolist()


#: a trigger text not scored yet for this task (:meth:`TriggerMatcher.match`)
_UNSCORED = object()
_new_match = object.__new__


class TriggerMatcher:
    """Scores tasks against the triggers of many owners, through an inverted
    index built once (so a task never touches every trigger).

    ``entries``: ``(owner id, triggers as written)`` pairs. ``floor``: the
    lowest score (0-100) :meth:`match` must be able to report; the index is
    cut to it (prefix filtering: a trigger is indexed under its rarest words
    only, as many as needed for the others to stay below ``floor``
    together). Results are deterministic: ties on score are broken by
    earlier span, longer span, then trigger order; owners come sorted by id.
    """

    #: bound of the per-matcher cache of task word -> similar vocabulary words
    WORD_CACHE_SIZE = 100_000

    def __init__(self, entries: Iterable[tuple[str, Sequence[str]]], floor: float = NEAR_MISS_FLOOR,
                 one_clause: bool = False):
        #: whether a trigger's words must stand in one clause of the task (docs/formats.md §6.7): the skills'
        #: triggers do; a forced rule's or a high-risk term's guard against harm and match across clauses
        self.one_clause = one_clause
        gc_was_enabled = gc.isenabled()
        gc.disable()  # hundreds of thousands of small acyclic objects: the cyclic GC only costs time here
        try:
            self._build(entries, floor)
        finally:
            if gc_was_enabled:
                gc.enable()

    def _build(self, entries: Iterable[tuple[str, Sequence[str]]], floor: float) -> None:
        self.floor = float(floor)
        self.triggers: list[_Trigger] = []
        self.by_owner: dict[str, list[int]] = {}
        bigram_post: dict[str, list[int]] = {}
        single_post: dict[str, list[int]] = {}
        concat_post: dict[str, list[int]] = {}
        df: dict[str, int] = {}
        self.symbol_only: list[int] = []
        # distinct trigger texts: a trigger's units, score, span and kind are a function of its text alone,
        # so the postings of the inverted index list texts, and a task's work is per text it reaches
        text_ix: dict[str, int] = {}
        text_tids: list[list[int]] = []  # text index -> the trigger ids with that text, ascending
        for owner, trigs in entries:
            ids = self.by_owner.setdefault(owner, [])
            for order, text in enumerate(trigs):
                tid = len(self.triggers)
                tr = _Trigger(owner, text, order)
                self.triggers.append(tr)
                ids.append(tid)
                x = text_ix.get(text)
                first = x is None  # the first trigger with this text: the one its postings are made from
                if first:
                    x = text_ix[text] = len(text_tids)
                    text_tids.append([])
                text_tids[x].append(tid)
                if not tr.units:
                    if tr.norm.strip():
                        self.symbol_only.append(tid)
                    continue
                n = len(tr.units)
                for w in {u for k, u, o in zip(tr.kinds, tr.units, tr.optional) if k == _WORD and not o}:
                    df[w] = df.get(w, 0) + 1
                for i, (k, u) in enumerate(zip(tr.kinds, tr.units)):
                    if k != _SPACELESS:
                        continue
                    if not first:
                        break
                    if i + 1 < n and tr.kinds[i + 1] == _SPACELESS:
                        bigram_post.setdefault(u + tr.units[i + 1], []).append(x)
                    elif i == 0 or tr.kinds[i - 1] != _SPACELESS:
                        single_post.setdefault(u, []).append(x)
                words = [u for k, u in zip(tr.kinds, tr.units) if k == _WORD]
                if len(words) >= 2 and len(words) == n and not tr.short:
                    concat_post.setdefault("".join(words), []).append(tid)
        # prefix filtering: index each trigger text under its rarest words only
        word_post: dict[str, list[int]] = {}
        floor_ = self.floor
        for x, tids in enumerate(text_tids):
            tr = self.triggers[tids[0]]
            wu = sorted({(df[u], u) for k, u, o in zip(tr.kinds, tr.units, tr.optional) if k == _WORD and not o})
            if not wu:
                continue
            if tr.short:
                word_post.setdefault(wu[0][1], []).append(x)
                continue
            value = {}
            for u, v in zip(tr.units, tr.values):
                value[u] = value.get(u, 0.0) + v
            rem = sum(tr.values)
            for _, u in wu:
                if rem < floor_:
                    break
                word_post.setdefault(u, []).append(x)
                rem -= value.get(u, 0.0)
        self._text_tids = [tuple(t) for t in text_tids]
        #: text index -> ``(short, units, bound)`` of its first trigger (:meth:`_text_bound`), filled in as
        #: tasks reach texts; the same of every text as columns, in a matcher read from the cache
        self._bounds: list[tuple | None] | None = None
        self._bound_cols: tuple | None = None
        #: text index -> its :meth:`_text_members`, filled in as tasks reach texts whose bound counts
        self._members: list[tuple | None] | None = None
        self._word_post = word_post
        self._bigram_post = bigram_post
        self._single_post = single_post
        self._concat_post = concat_post
        # fuzzy look-ups over the whole word vocabulary
        vocab = set(df)
        self._vocab = vocab
        dels: dict[str, list[str]] = {}
        for u in sorted(vocab):
            if len(u) >= 4 and u.isalpha():
                for d in _deletes(u):
                    dels.setdefault(d, []).append(u)
        self._dels = dels
        self._max_unit = max((len(u) for u in vocab), default=0)
        self._word_cache: dict[str, list[tuple[str, float]]] = {}

    # ------------------------------------------------------------------ serialisation
    def __getstate__(self) -> dict:
        """What the matcher cache stores (docs/formats.md §11.4): everything the
        build computed across triggers (postings, vocabulary, deletions) as
        it is, the triggers as columns — the distinct owners, per trigger
        its owner's index and its order, its text (cut into units again on
        first use: :class:`_LazyTriggers`) — and each owner's trigger ids
        as slices of one column (:class:`_ByOwner`); no per-task word cache."""
        state = dict(self.__dict__)
        owners: list[str] = []
        flat: list[int] = []
        offsets = [0]
        for owner, ids in self.by_owner.items():
            owners.append(owner)
            flat.extend(ids)
            offsets.append(len(flat))
        at = {o: i for i, o in enumerate(owners)}
        trs = self.triggers
        state["triggers"] = (owners, _column(at[tr.owner] for tr in trs), _column(tr.order for tr in trs),
                             Strings.of([tr.text for tr in trs]))
        state["by_owner"] = (_column(flat), _column(offsets))
        tt, cp = self._text_tids, self._concat_post
        state["_text_tids"] = tt if isinstance(tt, IdLists) else IdLists.of(tt)
        state["_concat_post"] = cp if isinstance(cp, Postings) else Postings.of(cp)
        state["_word_cache"] = {}
        state["_bounds"] = state["_members"] = None
        cols = self._bound_cols
        state["_bound_cols"] = self._bound_columns() if cols is None else (
            cols[0], cols[1], cols[2].tobytes(), cols[3].tobytes(), cols[4])
        return state

    def _bound_columns(self) -> tuple[bytes, Strings, bytes, bytes, bytes]:
        """What :meth:`_text_bound` gives for every text, as columns (the
        matcher cache keeps them: a batch's first tasks reach hundreds of
        texts each, and cutting each the first time was most of their time):
        per text a byte, 1 for a short trigger; its units (a short
        trigger's every unit, another's weighing ones) as one
        :class:`Strings` with per text their offset (``array("I")`` bytes, one
        more than the texts); per unit its value (``array("d")`` bytes) and
        a byte, 1 for a word."""
        shorts, words = bytearray(), bytearray()
        units: list[str] = []
        offsets = [0]
        values = array("d")
        for x in range(len(self._text_tids)):
            short, us, bound = self._text_bound(x)
            shorts.append(short)
            if short:
                units += us
                values.extend([0.0] * len(us))
                words.extend(bytes(len(us)))
            else:
                for u, v, word in bound:
                    units.append(u)
                    values.append(v)
                    words.append(word)
            offsets.append(len(units))
        return bytes(shorts), Strings.of(units), _column(offsets), values.tobytes(), bytes(words)

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        cols = state.get("_bound_cols")
        if cols is not None:
            values = array("d")
            values.frombytes(cols[3])
            state["_bound_cols"] = (cols[0], cols[1], _from_column(cols[2]), values, cols[4])
        else:
            state["_bound_cols"] = None
        owners, owner_of, orders, texts = state["triggers"]
        state["triggers"] = _LazyTriggers(owners, _from_column(owner_of), _from_column(orders), texts)
        flat, offsets = state["by_owner"]
        state["by_owner"] = _ByOwner(owners, _from_column(flat), _from_column(offsets))
        self.__dict__.update(state)

    # ------------------------------------------------------------------ candidates
    def _word_candidates(self, t: str) -> set[str]:
        """Vocabulary words that may be similar to task word ``t``: equal,
        same stem, stem extended by up to 4 letters, or one edit away
        (SymSpell: deletions of both sides meet)."""
        out: set[str] = set()
        vocab = self._vocab
        if t in vocab:
            out.add(t)
        if len(t) > self._max_unit + 5:
            return out
        for c in lemma_candidates(t):  # t inflects a trigger word
            if c in vocab:
                out.add(c)
        for plural in (t + "s", t + "es", t[:-1] + "ies" if t.endswith("y") else ""):
            if plural in vocab:  # the singular of a plural trigger word (a near miss)
                out.add(plural)
        for noun in derived_nouns(t):  # t is a form of the verb a trigger noun is derived from
            if noun in vocab:
                out.add(noun)
        if 4 <= len(t) <= self._max_unit + 1 and t.isalpha():
            dels = self._dels
            out.update(dels.get(t, ()))
            for d in _deletes(t):
                if len(d) >= 4 and d in vocab:
                    out.add(d)
                out.update(dels.get(d, ()))
        return out

    def _word_hits(self, t: str) -> list[tuple[str, float]]:
        """``(vocabulary word, similarity > 0)`` for task word ``t`` (cached)."""
        hits = self._word_cache.get(t)
        if hits is None:
            hits = []
            for u in sorted(self._word_candidates(t)):
                s = 100.0 if u == t else word_similarity(u, t, a_word)
                if s < DERIVATION_SCORE and derives(u, t):
                    s = DERIVATION_SCORE
                if s > 0:
                    hits.append((u, s))
            if len(self._word_cache) >= self.WORD_CACHE_SIZE:
                self._word_cache.clear()
            self._word_cache[t] = hits
        return hits

    def _task_words(self, task: PreparedTask) -> dict[str, list[tuple[int, float]]]:
        """Vocabulary word -> ``(task token, similarity)`` for one task."""
        word_pos: dict[str, list[tuple[int, float]]] = {}
        for j, (k, t) in enumerate(zip(task.kinds, task.texts)):
            if k == _WORD:
                for u, s in self._word_hits(t):
                    lst = word_pos.get(u)
                    if lst is None:
                        word_pos[u] = [(j, s)]
                    else:
                        lst.append((j, s))
        return word_pos

    def _candidates(self, task: PreparedTask, word_pos: dict[str, list[tuple[int, float]]]
                    ) -> tuple[set[int], dict[int, tuple[int, int]]]:
        """Trigger texts reached through the inverted index (indices into
        ``_text_tids``: every trigger with a reached text is reached), and
        concatenation hits ``tid -> (first token, last token)`` ("post
        mortem" for "postmortem")."""
        cands: set[int] = set()
        wp = self._word_post
        for u in word_pos:
            post = wp.get(u)
            if post:
                cands.update(post)
        concat: dict[int, tuple[int, int]] = {}
        kinds, texts = task.kinds, task.texts
        n = len(texts)
        for j in range(n):
            t = texts[j]
            if kinds[j] == _WORD:
                for tid in self._concat_post.get(t, ()):
                    concat.setdefault(tid, (j, j))
                if j + 1 < n and kinds[j + 1] == _WORD:
                    joined = t + texts[j + 1]
                    if joined in wp:
                        for x in wp[joined]:
                            tids = self._text_tids[x]
                            if len(self.triggers[tids[0]].units) == 1:
                                for tid in tids:
                                    concat.setdefault(tid, (j, j + 1))
            else:
                post = self._single_post.get(t)
                if post:
                    cands.update(post)
                if j + 1 < n and kinds[j + 1] == _SPACELESS:
                    post = self._bigram_post.get(t + texts[j + 1])
                    if post:
                        cands.update(post)
        return cands, concat

    def _evidence(self, tr: _Trigger, task: PreparedTask, word_pos: dict[str, list[tuple[int, float]]]
                  ) -> list[tuple[int, int, float]]:
        """``(task token j, unit i, similarity)`` for every unit of a trigger."""
        ev: list[tuple[int, int, float]] = []
        positions = task.positions
        for i, (k, u) in enumerate(zip(tr.kinds, tr.units)):
            if k == _WORD and not tr.optional[i]:
                for j, s in word_pos.get(u, ()):
                    ev.append((j, i, s))
            else:
                for j in positions.get(u, ()):
                    ev.append((j, i, 100.0))
        return ev

    # ------------------------------------------------------------------ scoring
    def _exact(self, tr: _Trigger, task: PreparedTask) -> tuple[int, int, bool] | None:
        """First token window holding the trigger's units consecutively that
        passes :meth:`_fits`: ``(first token, last token, via an acronym's
        plural)``, or None."""
        units = tr.units
        n = len(units)
        texts = task.texts
        m = len(texts)
        alias = task.alias
        starts = list(task.positions.get(units[0], ()))
        if alias:
            starts = sorted(set(starts) | {j for j, a in alias.items() if a == units[0]})
        for j in starts:
            if j + n > m:
                break
            used = False
            for i in range(n):
                t = texts[j + i]
                if t != units[i]:
                    if alias and alias.get(j + i) == units[i] and i == n - 1:
                        used = True
                        continue
                    break
            else:
                if self._fits(tr, task, j, j + n - 1):
                    return j, j + n - 1, used
        return None

    def _fits(self, tr: _Trigger, task: PreparedTask, a: int, b: int) -> bool:
        """The checks a matched span ``a..b`` (token indices) must pass
        besides its words (docs/formats.md §6.7): in a matcher of
        :attr:`one_clause`, no clause break between its first and last
        token, unless the trigger writes that break itself (`tl;dr`):
        "Hold the push — no alert yet" holds no `push alert`; the trigger's tight
        punctuation is there ("node.js", "a/b", ".net"); Katakana at the
        trigger's ends is not glued to more Katakana ("テスト" in
        "コンテスト"); a one-letter trigger ("R") is a capital standing alone
        (not "R-rated")."""
        norm = task.norm
        ns, ne = task.tnstart, task.tnend
        if ns is None or ne is None:
            return True
        if self.one_clause and b > a and (cut := _CLAUSE_BREAK.search(norm, ne[a], ns[b] + 1)) is not None \
                and cut.start() < ns[b] and not _CLAUSE_BREAK.search(tr.norm):
            return False  # (read up to the last token's first character: what follows a "." decides if it ends)
        if tr.punct:
            if tr.lead and not (ns[a] >= 1 and norm[ns[a] - 1] == "."):
                return False
            span = norm[ns[a]:ne[b]]
            for i, j in enumerate(tr.joins):
                if j and (tr.units[i] + j + tr.units[i + 1][:1]) not in span:
                    return False
        if tr.kana_start and ns[a] >= 1 and is_katakana(norm[ns[a] - 1]):
            return False
        if tr.kana_end and ne[b] < len(norm) and is_katakana(norm[ne[b]]):
            return False
        if tr.letter:
            o = task.original
            s0, e0 = task.ostart[a], task.oend[a]
            if not o[s0:e0].isupper():
                return False
            if (s0 > 0 and o[s0 - 1] in "-.'’/") or (e0 < len(o) and o[e0] in "-.'’/"):
                return False
        return True

    def _align(self, tr: _Trigger, task: PreparedTask, evidence: list[tuple[int, int, float]]) -> tuple[float, int, int]:
        """Best in-order alignment of the trigger's units with task tokens,
        over the evidence pairs (sparse dynamic programming). Returns
        ``(score, first token, last token)``; first token -1 when nothing
        aligns.

        Score = sum of aligned units' value x similarity / 100, minus the cost
        of task tokens inserted inside the span and of the trigger's stop
        words missing from it."""
        values, optional = tr.values, tr.optional
        n = len(tr.units)
        ordered = sorted(set(evidence))
        skip = [(_MISSING_STOPWORD_COST if o else 0.0) for o in optional]
        pre = [0.0] * (n + 1)
        for i in range(n):
            pre[i + 1] = pre[i] + skip[i]
        total_skip = pre[n]
        ins = task.ins_prefix
        max_gap = n + _MAX_INSERTS + 1
        best_vals: list[float] = []
        starts: list[int] = []
        res, rs, re_ = -1e9, -1, -1
        for k, (j, i, s) in enumerate(ordered):
            g = 0.0 if optional[i] else values[i] * s / 100.0
            val, st = g - pre[i], j
            for k2 in range(k - 1, -1, -1):
                j2, i2, _ = ordered[k2]
                if j - j2 > max_gap:
                    break
                if j2 >= j or i2 >= i:
                    continue
                cand = best_vals[k2] - (pre[i] - pre[i2 + 1]) - (ins[j] - ins[j2 + 1]) + g
                if cand > val:
                    val, st = cand, starts[k2]
            best_vals.append(val)
            starts.append(st)
            total = val - (total_skip - pre[i + 1])
            if total > res:
                res, rs, re_ = total, st, j
        return res, rs, re_

    def _score_trigger(self, tid: int, task: PreparedTask, evidence: list[tuple[int, int, float]]) -> tuple[float, int, int]:
        """``(score, first token, last token)`` of one trigger; first token
        -1 when it does not align."""
        tr = self.triggers[tid]
        ex = self._exact(tr, task)
        if ex is not None:
            return (_ACRONYM_PLURAL_SCORE if ex[2] else 100.0), ex[0], ex[1]
        if tr.short or not evidence:
            return -1.0, -1, -1
        score, a, b = self._align(tr, task, evidence)
        if a < 0 or not self._fits(tr, task, a, b):
            return -1.0, -1, -1
        if tr.proper:
            span = task.texts[a:b + 1]
            for u in tr.proper:
                if u not in span and any(t != u and inflects(u, t) for t in span):
                    return -1.0, -1, -1  # "dockers" is not "Docker"
        for u in tr.units:
            if not u.isalpha() and any(c.isdigit() for c in u) and u not in task.texts[a:b + 1]:
                return -1.0, -1, -1  # a number names a version or a thing: "python 2" is no typo of "python 3"
        return min(FUZZY_CAP, score), a, b

    def _kind(self, tr: _Trigger, task: PreparedTask, score: float, a: int, b: int) -> str:
        """How the trigger matched the span ``a..b`` (docs/formats.md §6.10):
        ``exact``; ``inflection`` (every word there, some inflected:
        "migrations", "PDFs"); ``loose`` (other words inserted in the span);
        ``derivation`` (a word there is a form of the verb a trigger word
        is derived from: "recruiting" for "recruitment"); ``typo`` (a word
        misspelt, or missing)."""
        if score >= 100.0:
            return "exact"
        span = task.texts[a:b + 1]
        kind = "exact"
        used = 0
        for k, u, o in zip(tr.kinds, tr.units, tr.optional):
            if o:
                continue
            if u in span:
                used += 1
                continue
            if k == _WORD and (any(inflects(u, t) for t in span)
                               or (task.alias and any(task.alias.get(j) == u for j in range(a, b + 1)))):
                used += 1
                kind = "inflection" if kind != "derivation" else kind
                continue
            if k == _WORD and any(derives(u, t) and word_similarity(u, t, a_word) < DERIVATION_SCORE for t in span):
                used += 1  # scored as the derivation, not as a typo it may also be ("shipping" for "shipment")
                kind = "derivation"
                continue
            return "typo"
        if len(span) > len(tr.units) or (len(span) > used and kind == "exact"):
            kind = "loose" if kind not in ("typo", "derivation") else kind
        return kind if kind != "exact" else "inflection"

    def _to_match(self, tid: int, task: PreparedTask, score: float, a: int, b: int, kind: str | None = None) -> Match:
        tr = self.triggers[tid]
        if kind is None:
            kind = self._kind(tr, task, score, a, b)
        start = task.ostart[a] - (1 if tr.lead and task.ostart[a] > 0 else 0)  # ".NET": the dot is the trigger's
        return Match(tr.owner, round(max(0.0, min(100.0, score)), 1), tr.text, (start, task.oend[b]), kind)

    def _symbol_matches(self, task: PreparedTask) -> list[tuple[int, Match]]:
        """Triggers without letters or digits (e.g. ``!!``): plain substring of
        the normalised task (rare, so scanned)."""
        out = []
        for tid in self.symbol_only:
            tr = self.triggers[tid]
            key = tr.norm.strip()
            pos = task.norm.find(key) if key else -1
            if pos >= 0:
                out.append((tid, Match(tr.owner, 100.0, tr.text, task.original_span(pos, pos + len(key)))))
        return out

    def _text_members(self, x: int) -> tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
        """``(trigger ids, owners, orders)`` of every trigger whose text is
        text ``x`` (an index into ``_text_tids``), ascending by trigger id,
        as three columns: made the first time a task's bound for the text
        reaches the floor, and kept, so that :meth:`reach` hands a text to
        its owners in C-level steps, with no look-up per trigger in the
        cache's columns (hundreds of owners share a text on big registries)."""
        tids = tuple(self._text_tids[x])
        triggers = self.triggers
        if isinstance(triggers, _LazyTriggers):
            owners = tuple(map(triggers.owners.__getitem__, map(triggers.owner_of.__getitem__, tids)))
            return tids, owners, tuple(map(triggers.orders.__getitem__, tids))
        trs = [triggers[t] for t in tids]
        return tids, tuple(tr.owner for tr in trs), tuple(tr.order for tr in trs)

    def _text_bound(self, x: int) -> tuple[bool, tuple[str, ...], tuple[tuple[str, float, bool], ...]]:
        """``(short, units, bound)`` of text ``x`` (an index into
        ``_text_tids``; ``units`` only for a short trigger, ``bound`` only
        for another): from the matcher cache's columns, else from its first
        trigger when that is cut into units already, else from its text
        alone (:func:`_bound_of`: most texts a task reaches are never
        scored, so never cut in full)."""
        cols = self._bound_cols
        if cols is not None:  # kept by the matcher cache
            shorts, units, offsets, values, words = cols
            a, b = offsets[x], offsets[x + 1]
            us = tuple(units.take(range(a, b)))
            if shorts[x]:
                return True, us, ()
            return False, (), tuple(zip(us, values[a:b], map(bool, words[a:b])))
        tid = self._text_tids[x][0]
        trs = self.triggers
        tr = trs.made(tid) if isinstance(trs, _LazyTriggers) else trs[tid]
        if tr is None:
            return _bound_of(trs.texts[tid])  # type: ignore[union-attr]
        return (True, tr.units, ()) if tr.short else (False, (), tr.bound)

    def _text_hit(self, x: int, task: PreparedTask, word_pos: dict[str, list[tuple[int, float]]],
                  threshold: float) -> "Hit | None":
        """The :class:`Hit` of text ``x`` on the task, or None when it does
        not score at least the floor (any trigger of a text scores the same:
        its first, cut into units, is the one scored)."""
        first = self._text_tids[x][0]
        score, a, b = self._score_trigger(first, task, self._evidence(self.triggers[first], task, word_pos))
        if score < self.floor or a < 0:
            return None
        return Hit.of(self._to_match(first, task, score, a, b), threshold)

    def reach(self, task: PreparedTask, threshold: float | None = None, keep_below: int = 5) -> "Reached":
        """Every owner scoring at least :attr:`floor`, with the hits that
        made its score, as groups of owners sharing one trigger text
        (:class:`Reached`).

        Every trigger that can reach ``threshold`` (default: the floor) is
        scored; below it, triggers are scored best upper bound first, only
        until ``keep_below`` owners below the threshold are known and no
        other trigger can beat them (the near misses). A trigger's score,
        span and kind are a function of its text alone (its owner and order
        only rank it), and on big registries hundreds of skills share a
        trigger ("review"): each distinct text is bounded and scored once
        per task and handed to its owners as one group. An owner offered
        more than one hit (two of its triggers matched, or a trigger below
        the threshold's bound, taken one by one) is kept on its own, with
        every hit in the order :meth:`match` offered them: concatenations,
        then symbols, then (upper bound, trigger id), best first."""
        floor = self.floor
        if threshold is None:
            threshold = floor
        word_pos = self._task_words(task)
        cands, concat = self._candidates(task, word_pos)
        triggers = self.triggers
        lazy = triggers if isinstance(triggers, _LazyTriggers) else None
        # owners offered a hit before the texts (concatenations, symbols): each on its own
        special: dict[str, list] = {}
        pre: list[tuple[int, Match]] = []
        for tid, (a, b) in sorted(concat.items()):
            if _CONCAT_SCORE >= floor and self._fits(triggers[tid], task, a, b):
                pre.append((tid, self._to_match(tid, task, _CONCAT_SCORE, a, b, "spacing")))
        pre += self._symbol_matches(task)
        for i, (tid, m) in enumerate(pre):
            _offer(special, m.id, (0, i, 0), Hit.of(m, threshold), lazy.orders[tid] if lazy is not None
                   else triggers[tid].order)
        word_best = {u: max(s for _, s in lst) for u, lst in word_pos.items()}
        best = word_best.get
        positions = task.positions
        text_tids = self._text_tids
        bounds, members = self._bounds, self._members
        if bounds is None or members is None:
            bounds = self._bounds = [None] * len(text_tids)
            members = self._members = [None] * len(text_tids)
        alias = task.alias
        high: list[tuple[float, int]] = []  # (-bound, text) of the texts whose bound reaches the threshold
        queue = []  # (-bound, text) of the texts whose bound lies below it
        for x in cands:
            bd = bounds[x]
            if bd is None:
                bd = bounds[x] = self._text_bound(x)
            if bd[0]:  # a short trigger
                b = 100.0 if all(u in positions or (alias and u in alias.values())
                                 for u in bd[1]) else 0.0
            else:
                b = 0.0
                for u, v, word in bd[2]:
                    if word:
                        b += v * best(u, 0.0)
                    elif u in positions:
                        b += v * 100.0
                b /= 100.0
            if b >= floor:
                if members[x] is None:
                    members[x] = self._text_members(x)
                if b >= threshold:
                    high.append((-b, x))
                else:
                    queue.append((-b, x))
        # the texts that can reach the threshold: every one is scored, each hit handed to its owners at once
        high.sort()
        scored: dict[int, Hit | None] = {}
        groups: list[tuple[Hit, tuple[str, ...], tuple[int, ...], tuple[int, ...], float]] = []
        seen: set[str] = set(special)
        again: set[str] = set(special)  # owners offered more than one hit
        for negb, x in high:
            hit = scored[x] = self._text_hit(x, task, word_pos, threshold)
            if hit is None:
                continue
            tids, owners, orders = members[x]
            mine = set(owners)
            if len(mine) != len(owners):  # one owner with this text twice
                again.update(o for o in mine if owners.count(o) > 1)
            if not seen.isdisjoint(mine):
                again |= seen & mine
            seen |= mine
            groups.append((hit, owners, tids, orders, negb))
        if again:
            # an owner of several hits is taken one by one, its hits in the order of (-bound, trigger id)
            offers = []
            kept = []
            for g in groups:
                hit, owners, tids, orders, negb = g
                if again.isdisjoint(owners):
                    kept.append(g)
                    continue
                mine = list(map(again.__contains__, owners))
                offers += compress(zip(repeat(negb), tids, owners, orders, repeat(hit)), mine)
                if not all(mine):
                    rest = list(map(not_, mine))
                    kept.append((hit, tuple(compress(owners, rest)), tuple(compress(tids, rest)),
                                 tuple(compress(orders, rest)), negb))
            groups = kept
            for negb, tid, owner, order, hit in sorted(offers, key=_offer_order):
                _offer(special, owner, (1, negb, tid), hit, order)
        reached = Reached(threshold, groups, special)
        if queue:
            self._below_bound(reached, self._by_bound(queue), scored, task, word_pos, threshold, keep_below)
        return reached

    def _by_bound(self, texts: list[tuple[float, int]]) -> Iterator[tuple[float, int, int, str, int]]:
        """``(-bound, trigger id, text, owner, order)`` of every trigger of
        ``texts`` (``(-bound, text)``), best bound first, then by trigger id
        (the triggers of texts with the same bound interleave), made as they
        are read: the near misses are known long before the last."""
        texts.sort()
        members = self._members
        i, n = 0, len(texts)
        while i < n:
            negb = texts[i][0]
            j = i + 1
            while j < n and texts[j][0] == negb:
                j += 1
            if j == i + 1:
                x = texts[i][1]
                tids, owners, orders = members[x]  # type: ignore[index]
                yield from zip(repeat(negb), tids, repeat(x), owners, orders)
            else:
                level = []
                for _, x in texts[i:j]:
                    tids, owners, orders = members[x]  # type: ignore[index]
                    level += zip(repeat(negb), tids, repeat(x), owners, orders)
                level.sort()
                yield from level
            i = j

    def _below_bound(self, reached: "Reached", queue: Iterable[tuple], scored: dict, task: PreparedTask,
                     word_pos: dict[str, list[tuple[int, float]]], threshold: float, keep_below: int) -> None:
        """The triggers whose text's upper bound lies below the threshold,
        best bound first and one by one (``queue``: ``(-bound, trigger id,
        text, owner, order)``, in that order: :meth:`_by_bound`), until ``keep_below`` owners below the
        threshold are known and no trigger left can beat them. A bound is not
        always above the score (a Japanese unit glued to a Latin word), so a
        text is scored, and its owners offered, trigger by trigger."""
        special = reached.special
        single_of = reached.single_of()
        # the best scores of the owners below the threshold, ascending, kept up to date offer by offer
        low, below = reached.below_threshold()
        for negb, tid, x, owner, order in queue:
            if len(below) >= keep_below and (keep_below == 0 or -negb < below[-keep_below]):
                break
            hit = scored.get(x, _UNSCORED)
            if hit is _UNSCORED:
                hit = scored[x] = self._text_hit(x, task, word_pos, threshold)
            if hit is None:
                continue
            got = special.get(owner)
            if got is None and owner in single_of:  # taken out of its group: it has another hit now
                reached.take_out(owner, single_of[owner])
                got = special[owner]
            old = got[1].score if got is not None else 0.0
            if _offer(special, owner, (1, negb, tid), hit, order):
                if owner in low:  # its old score leaves the scores below the threshold
                    del below[bisect_left(below, old)]
                if hit.above:
                    low.discard(owner)
                else:
                    low.add(owner)
                    insort(below, hit.score)

    def match(self, task: PreparedTask, threshold: float | None = None, keep_below: int = 5,
              collect: dict[str, list[Match]] | None = None) -> dict[str, Match]:
        """Best :class:`Match` per owner scoring at least :attr:`floor`, by
        owner id (:meth:`reach`, one :class:`Match` per owner). ``collect``,
        when given, gets every owner's hits at or above ``threshold``
        (default: the floor), in the order they were offered."""
        reached = self.reach(task, threshold, keep_below)
        if collect is not None:
            for owner, hits in reached.above_hits():
                collect[owner] = [h.match(owner) for h in hits]
        return {owner: hit.match(owner) for owner, hit in sorted(reached.best_hits())}

    def score_owner(self, task: PreparedTask, owner: str) -> Match | None:
        """Best match among the triggers of ``owner``, whatever its score (for
        "why not X"), from the same evidence as :meth:`match`; None when
        the owner is unknown or no trigger shares anything with the task."""
        tids = self.by_owner.get(owner, ())
        if not tids:
            return None
        word_pos = self._task_words(task)
        _, concat = self._candidates(task, word_pos)
        best: tuple | None = None

        def offer(tid: int, m: Match) -> None:
            nonlocal best
            key = (-m.score, m.span[0], m.span[0] - m.span[1], self.triggers[tid].order)
            if best is None or key < best[0]:
                best = (key, m)

        for tid in tids:
            if tid in concat:
                a, b = concat[tid]
                offer(tid, self._to_match(tid, task, _CONCAT_SCORE, a, b, "spacing"))
        for tid, m in self._symbol_matches(task):
            if m.id == owner:
                offer(tid, m)
        for tid in tids:
            tr = self.triggers[tid]
            if not tr.units:
                continue
            score, a, b = self._score_trigger(tid, task, self._evidence(tr, task, word_pos))
            if a >= 0:
                offer(tid, self._to_match(tid, task, score, a, b))
        return best[1] if best else None

    def texts_of(self, owner: str) -> tuple[str, ...] | None:
        """The triggers of an owner as written, in order (None for an owner
        the matcher was not given); a loaded matcher's are not cut into units."""
        ids = self.by_owner.get(owner)
        if ids is None:
            return None
        trs = self.triggers
        if isinstance(trs, _LazyTriggers):
            texts = trs.texts
            if isinstance(texts, Strings):
                return tuple(texts.take(ids))
            return tuple(texts[t] for t in ids)
        return tuple(trs[t].text for t in ids)

    def first_trigger(self, owner: str) -> str | None:
        """The first trigger of an owner as written (for messages)."""
        ids = self.by_owner.get(owner)
        return self.triggers[ids[0]].text if ids else None
