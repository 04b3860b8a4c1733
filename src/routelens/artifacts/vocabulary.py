"""What the compact index carries for the evidence model (docs/formats.md
§3.7): how common each one-word trigger is in everyday language, each
skill's domain terms, and the registry's own terms. Computed at build time
only, so routing never loads a frequency list.

- **Commonness** comes from ``wordfreq``'s Zipf frequencies (English and
  Japanese; Zipf 3 is about once per million words, 6 about once per
  thousand). A trigger of one content word ("model", "table", "予約") is
  looked up as a single token; a punctuated one ("C#", ".NET", "GP%") by its
  letters ("c", "net", "gp"), since the letters are what everyday text
  holds; a number ("86", "1:1") counts as an everyday word (Zipf 5.0). A
  phrase (two or more content words, or a compound the list does not hold)
  gets no entry: it is specific. Values are cut down to one decimal, and
  only values of at least 1.0 are written (a missing word is rare).
- **A skill's domain terms** are the content terms
  (:func:`routelens.text.words.terms`) of its description, its triggers and
  its Layer-2 body that are not everyday words (Zipf below
  :data:`DOMAIN_MAX_ZIPF`) and that few other skills share (at most
  :func:`max_skill_df` skills): at most :data:`TERMS_PER_SKILL` of them,
  those written most often first (description and triggers count three
  times), then the rarer, then in code point order.
- **The registry's terms** are the terms many skills share (at least
  :data:`REGISTRY_MIN_DF`), rare in everyday language (Zipf below
  :data:`REGISTRY_MAX_ZIPF`): the words of the team's own world (site names,
  tools, table prefixes). At most :data:`REGISTRY_TERMS` of them.

Everything is deterministic: the same registry, bodies and pinned
``wordfreq`` version give the same bytes.
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import Counter, deque
from itertools import chain, count, groupby, islice, repeat
from operator import add, attrgetter, floordiv, itemgetter
from typing import Any, Callable, Iterable

from routelens.artifacts.bodies import body_text_info
from routelens.artifacts.wordfreq_cache import frequencies
from routelens.registry.model import Registry
from routelens.text.life import written_life
from routelens.text.unicode import SPACELESS_RANGES, normalize_text
from routelens.text.words import (MATCH_STOP_WORDS, PartTerms, inflection_key, inflections, inflects, is_term,
                                  lemma_candidates, term_candidates, terms, terms_by_parts)

__all__ = [
    "WORDFREQ_VERSION",
    "DOMAIN_MAX_ZIPF",
    "REGISTRY_MAX_ZIPF",
    "TERMS_PER_SKILL",
    "REGISTRY_TERMS",
    "REGISTRY_MIN_DF",
    "zipf",
    "trigger_zipf",
    "trigger_key",
    "trigger_keys",
    "vocabulary",
    "triggers_facts",
    "TriggerFacts",
    "words_facts",
    "WordFacts",
    "stem_collisions",
]

#: The wordfreq release the index's figures come from (pinned in pyproject.toml).
WORDFREQ_VERSION = "3.1.1"
#: A term at least this common in everyday language is no domain term.
DOMAIN_MAX_ZIPF = 4.5
#: A registry term is rarer than this in everyday language (function words are not).
REGISTRY_MAX_ZIPF = 4.5
#: A registry term is written at least this often in the registry's texts.
REGISTRY_MIN_COUNT = 5
#: Domain terms kept per skill.
TERMS_PER_SKILL = 8
#: Registry terms kept.
REGISTRY_TERMS = 40
#: A registry term is shared by at least this many skills.
REGISTRY_MIN_DF = 3
#: Commonness below this is not written to the index: every word that rare is specific.
MIN_WRITTEN_ZIPF = 2.0
#: A one-edit neighbour at least this common is a real word, not a typo.
NEAR_MIN_ZIPF = 2.0
#: Neighbours are listed for the one-word triggers below the everyday cut-off:
#: a typo of a rare one counts as strong evidence, and a typo of a fairly common
#: one the task asks for is backed by the ask (docs/formats.md §6.10), so a real
#: word one edit away must be told from a typo for both.
NEAR_FOR_ZIPF_BELOW = 4.0
#: A real neighbour is listed only when it would score this much as a typo of the
#: trigger (or the registry's threshold, when lower): below both it matches nothing.
NEAR_MIN_SCORE = 80.0
#: Zipf value given to a number ("86", "1:1"): an everyday word.
NUMBER_ZIPF = 5.0

_LOCK = threading.Lock()
_FREQ: dict[str, Any] = {}
_ZIPF_CACHE: dict[str, float] = {}


def _freq(lang: str) -> Any:
    """wordfreq's frequencies of ``lang`` (``get(word)`` as its
    ``get_frequency_dict``), through :mod:`routelens.artifacts.wordfreq_cache`."""
    with _LOCK:
        d = _FREQ.get(lang)
        if d is None:
            d = _FREQ[lang] = frequencies(lang)
        return d


def _lookup(word: str, lang: str) -> float:
    """The word's Zipf frequency cut DOWN to one decimal (docs/formats.md
    §3.7): every cut-off of the evidence model is a one-decimal figure
    (2.0, 4.0, 4.5), so a value cut down compares with it exactly as the
    full value does. Rounding did not: ``terraform`` (1.99), ``haccp``
    (1.97) and ``kds`` (1.96) were written as 2.0 and read as no longer
    rare."""
    f = _freq(lang).get(word)
    return math.floor(math.log10(f * 1e9) * 10 + 1e-9) / 10 if f else 0.0


def zipf(word: str) -> float:
    """The Zipf frequency (0-8, one decimal) of one normalised word in
    everyday language: English for a Latin word, Japanese for a word of a
    script without spaces; 0.0 when the list does not hold it (rare). A
    word that mixes both scripts is looked up in neither (0.0)."""
    z = _ZIPF_CACHE.get(word)
    if z is not None:
        return z
    if not word:
        z = 0.0
    elif not word.isalpha() and any(c.isdigit() for c in word) and not any(c.isalpha() for c in word):
        z = NUMBER_ZIPF
    elif word.isascii():
        core = "".join(c for c in word if c.isalnum())
        z = max(_lookup(word, "en"), _lookup(core, "en")) if core else 0.0
        if core.endswith("s"):  # "allergens" is as common as "allergen"
            for lemma in lemma_candidates(core):
                if lemma in (core[:-1], core[:-2]):
                    z = max(z, _lookup(lemma, "en"))
    elif _spaceless_run().fullmatch(word):  # every character of a script without spaces (is_spaceless)
        z = _lookup(word, "ja")
    else:
        z = 0.0
    if len(_ZIPF_CACHE) < 500_000:
        _ZIPF_CACHE[word] = z
    return z


_KEY_CACHE: dict[str, str | None] = {}
_NO_KEY = object()


_ACRONYM_TRIGGER = re.compile(r"[A-Z][A-Z0-9]+")


def trigger_zipf(trigger: str, key: str) -> float:
    """The commonness of a one-word trigger's key word ``key`` (from
    :func:`trigger_key`), as :func:`zipf` gives it, except for an acronym
    written in capitals in the registry (``KDS``, ``POS``, ``AWS``): its
    final ``S`` is one of its letters, not a plural, so it is not also
    looked up as a singular (``kds`` is Zipf 1.9; ``kd``, 3.4, says nothing
    about it). docs/formats.md §3.7."""
    t = unicodedata.normalize("NFKC", trigger).strip()
    if _ACRONYM_TRIGGER.fullmatch(t) and key.isascii():
        core = "".join(c for c in key if c.isalnum())
        return _lookup(core, "en") if core else 0.0
    return zipf(key)


def trigger_key(trigger: str) -> str | None:
    """The word whose commonness decides how specific a trigger is, or None
    for a phrase (docs/formats.md §3.7): the one content word of a Latin
    trigger ("model", "on call" -> "call", "C#" -> "c#"), or the whole of a
    trigger written in a script without spaces ("予約"). A trigger of two
    or more content words, or one that mixes scripts ("CSV出力"), is a
    phrase. Remembered per trigger text (big registries repeat triggers)."""
    key = _KEY_CACHE.get(trigger, _NO_KEY)
    if key is _NO_KEY:
        key = _trigger_key(trigger)
        if len(_KEY_CACHE) < 500_000:
            _KEY_CACHE[trigger] = key
    return key  # type: ignore[return-value]


def trigger_keys(triggers: Iterable[str]) -> dict[str, str | None]:
    """``{trigger: trigger_key(trigger)}`` for each of ``triggers``, each
    remembered as :func:`trigger_key` remembers it. An ASCII trigger's words
    are its parts' words (the parts between spaces: no word spans a space,
    and lowering ASCII never moves one), so its key is found from the words
    of each distinct part, cut once: the 13,000 distinct ASCII triggers of
    10,000 skills are written with a few hundred words. Other triggers are
    keyed one by one (:func:`trigger_key`)."""
    out: dict[str, str | None] = {}
    parts: dict[str, tuple[int, int, str | None, str | None, bool]] = {}
    cache = _KEY_CACHE
    for t in triggers:
        key = cache.get(t, _NO_KEY)
        if key is _NO_KEY:
            key = _ascii_key(t, parts) if t.isascii() else _trigger_key(t)
            if len(cache) < 500_000:
                cache[t] = key
        out[t] = key  # type: ignore[assignment]
    return out


def _ascii_key(trigger: str, parts: dict[str, tuple[int, int, str | None, str | None, bool]]) -> str | None:
    """:func:`_trigger_key` of an ASCII ``trigger`` from its parts' words
    (``parts``: part -> its words' count, content words' count, first word,
    first content word, all digits; filled here)."""
    n = c = 0
    word = content = None
    digits = True
    for p in trigger.split(" "):
        facts = parts.get(p)
        if facts is None:
            words = _LATIN_WORD_RE.findall(p.lower())
            own = [w for w in words if w not in MATCH_STOP_WORDS]
            facts = parts[p] = (len(words), len(own), words[0] if words else None, own[0] if own else None,
                                all(w.isdigit() for w in words))
        if facts[0]:
            n += facts[0]
            c += facts[1]
            word = facts[2]
            if facts[1]:
                content = facts[3]
            digits = digits and facts[4]
    if n == 1:
        return word
    if c == 1:
        return content
    if n and digits:
        return trigger.lower().strip().replace(" ", "")
    return None


_SPACELESS: list[re.Pattern[str]] = []


def _spaceless_run() -> re.Pattern[str]:
    """A run of characters of scripts written without spaces
    (:func:`routelens.text.unicode.is_spaceless` as a class), compiled on
    first use: a class of many ranges, a few milliseconds that a build whose
    second process keys the triggers never spends in its first."""
    if not _SPACELESS:
        _SPACELESS.append(re.compile("[" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"
                                                   for lo, hi in SPACELESS_RANGES) + "]+"))
    return _SPACELESS[0]
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")


def _trigger_key(trigger: str) -> str | None:
    if trigger.isascii():  # the rules below for ASCII text, where normalising is lowering, the fast way
        low = trigger.lower()
        words = _LATIN_WORD_RE.findall(low)  # no word without an ASCII letter or digit
        if len(words) == 1:
            return words[0]
        content = words if MATCH_STOP_WORDS.isdisjoint(words) else [w for w in words if w not in MATCH_STOP_WORDS]
        if len(content) == 1:
            return content[0]
        if words and words[0].isdigit() and all(w.isdigit() for w in words):
            return low.strip().replace(" ", "")
        return None
    norm = normalize_text(trigger).strip()
    if not norm:
        return None
    if norm.isascii():  # no character of a script without spaces (all of them are beyond ASCII)
        if _ASCII_ALNUM.search(norm) is None:
            return None  # punctuation alone: what the first rule below gives
    elif len(rest := _spaceless_run().sub("", norm)) != len(norm):  # it holds a character of such a script
        # written in a script without spaces, punctuation aside ("予約"), or mixing scripts ("CSV出力")
        if rest and any(c.isalnum() for c in rest):
            return None
        return norm if norm.isalnum() else ("".join(c for c in norm if c.isalnum()) or None)
    words = _latin_words(norm)
    content = [w for w in words if w not in MATCH_STOP_WORDS or len(words) == 1]
    if len(content) == 1:
        return content[0]
    if words and all(w.isdigit() for w in words):  # "1:1", "24/7"
        return norm.replace(" ", "")
    return None


#: a word of a Latin trigger: a letter or digit (``str.isalnum``, which is
#: what ``[^\W_]`` matches), then letters, digits and ``#+%`` ("c#", "c++")
_LATIN_WORD_RE = re.compile(r"[^\W_](?:[^\W_]|[#+%])*")


def _latin_words(norm: str) -> list[str]:
    return _LATIN_WORD_RE.findall(norm)


def max_skill_df(n_skills: int) -> int:
    """The most skills a domain term may be shared by: 2, or 5 % of the
    skills when that is more."""
    return max(2, n_skills // 20)


def _term_key(t: str) -> str:
    return inflection_key(t) if t.isascii() else t


class _TermKeys(dict):
    """term -> :func:`_term_key` of it, computed on first use."""

    def __missing__(self, t: str) -> str:
        k = self[t] = _term_key(t)
        return k


def vocabulary(reg: Registry, bodies: dict[str, dict[str, Any]] | None = None,
               trigger_facts: Callable[[], TriggerFacts | None] | None = None,
               word_facts: Callable[[], WordFacts | None] | None = None) -> dict[str, Any]:
    """``{"zipf": {word: zipf}, "skill_terms": {skill id: [term, ...]},
    "registry_terms": [term, ...], "common": [word, ...], "near": {word:
    [word, ...]}, "life": [word, ...], "source": "wordfreq 3.1.1"}`` for the compact index
    (docs/formats.md §3.7); bodies are read from the registry's folder (a
    body that cannot be read adds no terms). ``bodies``, when given,
    receives what the catalog says about each body (skill path ->
    :func:`routelens.artifacts.bodies.body_info`'s dict), so a build reads
    each body once. ``trigger_facts``, when given, is called once the
    skills' terms are counted and gives :func:`triggers_facts` of this
    registry (computed meanwhile by another process: ``routelens build
    --jobs 2``), or None; ``word_facts``, called once the terms are ranked
    when ``trigger_facts`` gave its facts, gives :func:`words_facts`, or
    None. What they do not give is computed here; the result is the same
    either way. Raises ``ImportError`` when wordfreq is needed and not
    installed."""
    skills = list(reg.skills.values())
    # every field used, read from each skill in one pass: each skill's object and dict are scattered in
    # memory, and every pass over 10,000 of them cost 5-10 ms of cache misses
    ids, lists, descriptions, paths = list(zip(*map(attrgetter("id", "triggers", "description", "path"), skills))) or [
        (), (), (), ()]
    written = list(chain.from_iterable(lists))  # every trigger as written, skill by skill
    # A skill's count of a term key is counted as the pair (the key's number x skills + the skill's number),
    # one int: all skills' counts are one Counter made in C (an int is its own hash: with the skill's number
    # in the low digits the pairs spread over the table), and a big registry's 55,000 trigger strings
    # (scattered in memory: each touch is a cache miss) are touched twice, to number them. The terms of texts joined
    # by spaces are the terms of each text (terms_by_parts), so the triggers are cut once per distinct word.
    # The counts of a skill's terms do not depend on their order, and every ranking below has a total order
    # (ties end on the term's shown form), so no dict order matters. A skill's weight of a term is 3 x its
    # count in the description and triggers + its count in the body.
    distinct = list(dict.fromkeys(written))
    number = dict(zip(distinct, count()))
    tid = list(map(number.__getitem__, written))  # each trigger written: its distinct trigger's number
    width = max(len(skills), 1)  # a pair is key number x width + skill number
    owner = list(chain.from_iterable(map(repeat, range(len(skills)), map(len, lists))))  # its skill's number
    key_of = _TermKeys()  # term -> _term_key(term), each computed once
    keys = key_of.__getitem__
    kid = _Numbers(width)  # term key -> its number x width
    kids = kid.__getitem__
    tk = terms_by_parts(distinct, PartTerms(lambda part: tuple(map(kids, map(keys, terms(part))))))
    occ = list(map(tk.__getitem__, tid))  # each trigger written: its terms' key numbers (x width)
    counted = Counter(map(add, chain.from_iterable(occ), chain.from_iterable(map(repeat, owner, map(len, occ)))))
    desc_terms: list[str] = []  # every term written in descriptions
    pairs: list[int] = []
    for i, d in enumerate(descriptions):
        if d:
            found = terms(d)
            desc_terms += found
            pairs += map(add, map(kids, map(keys, found)), repeat(i))
    counted.update(pairs)
    in_body: Counter[int] = Counter()  # the same pairs, counted in the skills' bodies
    body_words: list[str] = []  # every word of term_candidates written in bodies
    body_key: dict[str, str | None] = {}  # such a word -> its term key, or None: no term
    dirs: dict[str, Any] = {}  # each body folder resolved and listed once
    for i, path in enumerate(paths):
        info, body = body_text_info(reg, path, dirs, want_text=True)  # a body that cannot be read: None
        if bodies is not None:
            bodies[path] = info
        if body:
            # a body's words are counted in C; each distinct word of all bodies is judged and keyed once
            found = term_candidates(body[:200_000])
            for w in set(found).difference(body_key):
                body_key[w] = keys(w) if is_term(w) else None
            in_body.update(map(add, map(kids, filter(None, map(body_key.__getitem__, found))), repeat(i)))
            body_words += found
    # each distinct trigger text once: its key word, the terms the triggers write, counted, and what the
    # index says of the key words (given by another process, or computed here)
    facts = trigger_facts() if trigger_facts is not None else None
    cut: dict[str, tuple[str, ...]] | None = None  # each trigger's terms, when the facts are found here
    if not _facts_fit(facts, number):
        cut = {}
        facts, word_facts = triggers_facts(reg, cut), None
    tkey, trigger_term_counts, term_zipf = facts  # type: ignore[misc]
    # a skill's own trigger words are no terms of it (-width: no key, or a key no text writes as a term)
    own_of = [-width if (k := tkey[t]) is None else kid.get(key_of[k], -width) for t in distinct]
    # each trigger written: its skill's own pair popped, in C (a set of them and an intersection cost more)
    deque(map(counted.pop, map(add, map(own_of.__getitem__, tid), owner), repeat(0)), maxlen=0)
    if in_body:
        deque(map(in_body.pop, map(add, map(own_of.__getitem__, tid), owner), repeat(0)), maxlen=0)
    # every term written in descriptions and triggers, counted: each description's terms, and each distinct
    # trigger's terms as often as the skills write that trigger
    written3 = Counter(desc_terms)
    written3.update(trigger_term_counts)  # a mapping: its counts are added
    written1 = Counter(body_words)  # every term written in bodies, counted
    for w in [w for w in written1 if body_key[w] is None]:
        del written1[w]
    del desc_terms, body_words
    surfaces: dict[str, dict[str, int]] = {}
    for t, n in written3.items():
        surfaces.setdefault(key_of[t], {})[t] = 3 * n
    for t, n in written1.items():
        sf = surfaces.setdefault(key_of[t], {})
        sf[t] = sf.get(t, 0) + n
    shown: dict[str, str] = {}
    common: dict[str, float] = {}
    given = term_zipf.get
    for k, sf in surfaces.items():
        shown[k] = min(sf, key=lambda t: (-sf[t], len(t), t))  # the form written most often
        common[k] = max(z if (z := given(t)) is not None else zipf(t) for t in sf)
    key_list = list(kid)  # key number -> term key
    holding = counted.keys() | in_body.keys() if in_body else counted.keys()
    df = {key_list[j]: m for j, m in Counter(map(floordiv, holding, repeat(width))).items()}  # skills holding each
    n_skills = len(reg.skills)
    limit = max_skill_df(n_skills)
    eligible = {kid[k] // width for k, m in df.items() if m <= limit and common[k] < DOMAIN_MAX_ZIPF}
    # ranked by weight (3 x the count without a body: the same order), then rarer, then shown form; shown
    # forms are distinct (a form has one key), so the rows are too
    if in_body:
        rows = [(i, -3 * counted.get(p, 0) - in_body.get(p, 0), common[k], shown[k])
                for p in holding for j, i in (divmod(p, width),) if j in eligible for k in (key_list[j],)]
    else:
        rows = [(i, -m, common[k], shown[k])
                for p, m in counted.items() for j, i in (divmod(p, width),) if j in eligible for k in (key_list[j],)]
    rows.sort()
    skill_terms: dict[str, list[str]] = {sid: [] for sid in ids}
    for i, group in groupby(rows, itemgetter(0)):
        skill_terms[ids[i]] = [row[3] for row in islice(group, TERMS_PER_SKILL)]
    # the registry's own world: the terms most over-represented in its texts against everyday language
    # (keyness: the term's share of the registry's words over its everyday share), shared by several skills
    # but no template boilerplate (at most half of the skills)
    total = (3 * sum(counted.values()) + sum(in_body.values())) or 1
    tf = {k: sum(sf.values()) for k, sf in surfaces.items()}
    trigger_words = {key_of[k] for k in tkey.values() if k is not None}

    def keyness(k: str) -> float:
        everyday = 10 ** (max(common[k], 1.0) - 9)
        return (tf[k] / total) / everyday

    shared = sorted((k for k, m in df.items()
                     if REGISTRY_MIN_DF <= m <= n_skills // 2 and tf[k] >= REGISTRY_MIN_COUNT
                     and common[k] < REGISTRY_MAX_ZIPF and k not in trigger_words),
                    key=lambda k: (-keyness(k), shown[k]))
    words = word_facts() if word_facts is not None else None
    if not _words_fit(words):
        words = words_facts(reg, tkey, cut)  # the phrases' terms cut once
    zipf_map, common_words, near = words  # type: ignore[misc]
    # the words of everyday life the registry's Layer 1 (descriptions and triggers) writes: its own world, never
    # private life (§6.10 private)
    layer1 = {key_of[t] for t in written3}
    life = written_life(layer1, keys, [k for k in layer1 if not k.isascii()],
                        "\n".join(chain(filter(None, descriptions), distinct)))
    return {"zipf": zipf_map, "skill_terms": skill_terms,
            "registry_terms": sorted(shown[k] for k in shared[:REGISTRY_TERMS]),
            "common": common_words, "near": near, "life": life, "source": f"wordfreq {WORDFREQ_VERSION}"}


class _Numbers(dict):
    """key -> its number times ``step`` (0, step, 2 x step, ... in the
    order first asked for)."""

    def __init__(self, step: int):
        super().__init__()
        self.step = step

    def __missing__(self, key: str) -> int:
        n = self[key] = len(self) * self.step
        return n


#: :func:`triggers_facts`: ``(keys, counts, term_zipf)``
TriggerFacts = tuple[dict[str, "str | None"], dict[str, int], dict[str, float]]
#: :func:`words_facts`: ``(zipf, common, near)``
WordFacts = tuple[dict[str, float], list[str], dict[str, list[str]]]


def _facts_fit(facts: Any, triggers: dict[str, int]) -> bool:
    """Whether ``facts`` has the shape of :func:`triggers_facts` for the
    distinct ``triggers`` (the keys; a message from another process is used
    only then)."""
    return (type(facts) is tuple and len(facts) == 3 and type(facts[0]) is dict and facts[0].keys() == triggers.keys()
            and type(facts[1]) is dict and type(facts[2]) is dict)


def _words_fit(words: Any) -> bool:
    """Whether ``words`` has the shape of :func:`words_facts`."""
    return (type(words) is tuple and len(words) == 3 and type(words[0]) is dict and type(words[1]) is list
            and type(words[2]) is dict)


def triggers_facts(reg: Registry, _terms_out: dict[str, tuple[str, ...]] | None = None) -> TriggerFacts:
    """What :func:`vocabulary` takes from the triggers of the registry's
    skills alone to count the skills' terms: ``(keys, counts, term_zipf)``.
    ``keys`` maps each distinct trigger text to its :func:`trigger_key`
    (which :func:`stem_collisions` then finds remembered in this process);
    ``counts`` each term (:func:`routelens.text.words.terms`) to how often
    the triggers write it, every trigger counted as often as skills write
    it; ``term_zipf`` the :func:`zipf` of every term in ``counts``
    (docs/formats.md §3.7). Each distinct trigger is keyed once and cut into
    terms once per distinct word (:func:`routelens.text.words.terms_by_parts`);
    ``_terms_out``, when given, receives each trigger's terms (for
    :func:`words_facts`)."""
    per = Counter(chain.from_iterable([s.triggers for s in reg.skills.values()]))  # each trigger: how often
    tterms = dict(zip(per, terms_by_parts(list(per), PartTerms())))
    if _terms_out is not None:
        _terms_out.update(tterms)
    tkey = trigger_keys(per)
    counts: dict[str, int] = {}
    get = counts.get
    for t, n in per.items():
        for w in tterms[t]:
            counts[w] = get(w, 0) + n
    return tkey, counts, {w: zipf(w) for w in counts}


def words_facts(reg: Registry, tkey: dict[str, str | None],
                tterms: dict[str, tuple[str, ...]] | None = None) -> WordFacts:
    """``(zipf, common, near)``, what the index says of the triggers' words
    (docs/formats.md §3.7): ``vocabulary.zipf`` (each key word's
    commonness, from 2.0: a key word of acronym triggers in capitals as
    :func:`trigger_zipf` gives it; sorted), ``vocabulary.common`` (the
    everyday words of phrase triggers, sorted) and ``vocabulary.near``
    (:func:`real_neighbours` of the key words below
    :data:`NEAR_FOR_ZIPF_BELOW`). ``tkey`` is :func:`triggers_facts`'s
    ``keys``; ``tterms`` each trigger's terms, when the caller has them."""
    plain: set[str] = set()  # keys of triggers that are not acronyms in capitals
    acronym: dict[str, float] = {}  # keys of acronym triggers -> their commonness (trigger_zipf)
    for t, k in tkey.items():
        if k is None:
            continue
        if t[:1].isupper() and k.isascii() and _ACRONYM_TRIGGER.fullmatch(unicodedata.normalize("NFKC", t).strip()):
            z = trigger_zipf(t, k)  # an acronym's final S is a letter (docs/formats.md §3.7)
            acronym[k] = max(z, acronym.get(k, 0.0))
        else:
            plain.add(k)
    all_keys = {k for k in tkey.values() if k is not None}
    # a key's commonness is the highest of its triggers': zipf(key), or an acronym trigger's own (trigger_zipf)
    zipf_map = {k: z for k in all_keys
                if (z := max(zipf(k) if k in plain else 0.0, acronym.get(k, 0.0))) >= MIN_WRITTEN_ZIPF}
    # the everyday words of phrase triggers: each distinct word once
    phrases = [t for t, k in tkey.items() if k is None]
    cut = [tterms[t] for t in phrases] if tterms is not None else terms_by_parts(phrases, PartTerms())
    common_words = {w for w in set(chain.from_iterable(cut)) if w.isascii() and zipf(w) >= DOMAIN_MAX_ZIPF}
    near = {}
    for k in sorted(all_keys):
        if zipf(k) >= NEAR_FOR_ZIPF_BELOW:
            continue  # a typo of a word this common is weak evidence anyway
        others = real_neighbours(k, reg.routing.threshold)
        if others:
            near[k] = others
    return dict(sorted(zipf_map.items())), sorted(common_words - set(zipf_map)), near


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def real_neighbours(word: str, threshold: float | None = None) -> list[str]:
    """The everyday words one edit away from a one-word trigger of 4+
    letters (a letter dropped, added, changed, or two swapped) that are not
    its inflections, at least as common as Zipf :data:`NEAR_MIN_ZIPF`:
    ``jupyter`` -> ``jupiter``, ``handover`` -> ``hangover``. A task word
    among them is that other word, not a typo (docs/formats.md §3.7).
    With ``threshold`` (0-100), only the neighbours that would score at or
    above it as a typo of ``word`` (:func:`routelens.text.typos.word_similarity`):
    a word below it never matches the trigger, so listing it buys nothing."""
    if len(word) < 4 or not word.isascii() or not word.isalpha():
        return []
    cands = set()
    n = len(word)
    for i in range(n + 1):
        for c in _LETTERS:
            cands.add(word[:i] + c + word[i:])
            if i < n:
                cands.add(word[:i] + c + word[i + 1:])
        if i < n:
            cands.add(word[:i] + word[i + 1:])
        if i < n - 1:
            cands.add(word[:i] + word[i + 1] + word[i] + word[i + 2:])
    cands.discard(word)
    forms = inflections(word)
    en = _freq("en")
    out = [w for w in cands if w not in forms and (f := en.get(w)) and math.log10(f * 1e9) >= NEAR_MIN_ZIPF]
    if threshold is not None:
        from routelens.text.typos import word_similarity  # rapidfuzz: only when a neighbour is to be scored

        floor = min(threshold, NEAR_MIN_SCORE)
        # the trigger's singular ("panda" for "pandas") is a near miss of its own (§6.7), no typo
        out = [w for w in out if not _spelling_variant(word, w) and not inflects(w, word)
               and word_similarity(word, w) >= floor]
    return sorted(out)


def _spelling_variant(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` spelt another way, not another word: ``s`` for
    ``z`` ("summarise", "localisation") or a consonant doubled or not
    ("labelling", "labeling")."""
    if len(a) == len(b):
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        return len(diff) == 1 and set(diff[0]) == {"s", "z"}
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if len(longer) != len(shorter) + 1:
        return False
    i = next((k for k in range(len(shorter)) if longer[k] != shorter[k]), len(shorter))
    return longer[:i] + longer[i + 1:] == shorter and longer[i] not in "aeiou" and (
        (i > 0 and longer[i - 1] == longer[i]) or (i + 1 < len(longer) and longer[i + 1] == longer[i]))


def stem_collisions(reg: Registry, triggers: Iterable[str] | None = None) -> list[tuple[str, str, str, str]]:
    """One-word triggers of different skills whose inflections meet
    (``migration`` and ``migrations``; ``plan`` and ``planning``): one task
    word then matches both. ``(skill a, trigger a, skill b, trigger b)``,
    sorted; equal triggers are not collisions (lint reports those).
    ``triggers``: the registry's distinct triggers, when the caller has them
    (each once; they are found here otherwise)."""
    skills = list(reg.skills.values())
    # each distinct trigger text once: (inflection key, key word), or None when it cannot collide
    keyed: dict[str, tuple[str, str] | None] = {}
    for t in (set().union(*[s.triggers for s in skills]) if triggers is None else triggers):
        k = trigger_key(t)
        if k is None or not k.isalpha() or not k.isascii() or len(k) <= 3:
            keyed[t] = None  # a short trigger matches only as written (or as an acronym's plural, "PDFs")
        else:
            keyed[t] = (inflection_key(k), k)
    # only an inflection key that two different key words share can collide: the others are left out here
    words_of: dict[str, set[str]] = {}
    for both in keyed.values():
        if both is not None:
            words_of.setdefault(both[0], set()).add(both[1])
    for t, both in keyed.items():
        if both is not None and len(words_of[both[0]]) < 2:
            keyed[t] = None  # one word written one way by every skill: no collision
    if all(both is None for both in keyed.values()):
        return []  # no key word written two ways: no skill needs to be looked at
    by_key: dict[str, list[tuple[str, str, str]]] = {}
    for s in skills:
        for t in s.triggers:
            both = keyed[t]
            if both is not None:
                by_key.setdefault(both[0], []).append((s.id, t, both[1]))
    out = []
    for items in by_key.values():
        # each trigger against the earlier ones written another way: linear in the triggers and the
        # collisions (a word shared by thousands of skills made every pair of them a comparison)
        earlier: dict[str, list[tuple[str, str]]] = {}
        for sb, tb, kb in items:
            for ka, those in earlier.items():
                if ka != kb:
                    out.extend((sa, ta, sb, tb) for sa, ta in those if sa != sb)
            earlier.setdefault(kb, []).append((sb, tb))
    return sorted(set(out))
