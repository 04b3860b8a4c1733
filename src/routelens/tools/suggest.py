"""``routelens suggest CASES``: triggers proposed from the labelled cases the
router misses, each checked against every labelled case (docs/formats.md §14).

For every *missed* case (routable, but the router fell back, §7.2) the
phrases of its task are candidate triggers for its expected skill: runs of
one to four words (never starting or ending with a function word,
:data:`FUNCTION_WORDS`, never across punctuation; a word that misspells a
word of the skill's triggers is written as that word, :func:`respell`) and, in scripts written without spaces, runs of two to six
characters holding a Han or Katakana character. They are tried in order of
how well they speak for the skill: first phrases holding a word of the
skill's own vocabulary (its id, description and triggers) and none of
another skill's, two-word phrases before single words before longer ones.
A single everyday word (Zipf 4.0 or more, wordfreq) is never proposed: the
evidence model would count it as weak evidence (§6.10), so it cannot route
its case alone.

Each candidate is checked for real: the registry is patched with it
(:mod:`routelens.tools.patch`), parsed, and every labelled case the phrase
touches is routed again. A candidate is proposed only when it routes its
own case right and makes no labelled case worse (no new wrong route, no
lost route); the first rejected candidate of each case is reported with
the case it would break. Finally all proposals are applied together and
every case is routed again; a proposal involved in a harm found then is
withdrawn. Nothing in this module writes a file or imports Textual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from routelens.artifacts.vocabulary import trigger_key, zipf
from routelens.errors import RegistryError
from routelens.routing.evidence import EVERYDAY_ZIPF
from routelens.artifacts.bodies import resolve_body_path
from routelens.registry.load import parse_registry
from routelens.registry.model import Registry
from routelens.routing.matching import NEAR_MISS_FLOOR, PreparedTask, TriggerMatcher, prepare, stem
from routelens.routing.router import Router
from routelens.text.typos import word_similarity
from routelens.text.unicode import JA_STOP_WORDS, STOP_WORDS, normalize_text
from routelens.text.verbs import a_word
from routelens.text.words import MATCH_STOP_WORDS, TERM_STOP_WORDS, inflects
from routelens.fileio import FileReadError, read_bounded
from routelens.tools.evaluate import Case, CaseResult, CasesError, check_ids, score
from routelens.tools.patch import Edit, PatchError, add_list_item, apply_edits, patched_registry

__all__ = ["MAX_TRIED", "task_units", "FUNCTION_WORDS", "MISSPELLING_ZIPF", "Effect", "Suggestion", "Rejection",
           "SuggestReport", "candidate_phrases", "vocabulary", "suggest", "misspelling_of", "respell", "spelled_words",
           "proper_trigger", "plausible_trigger"]

#: Candidate phrases tried per missed case before giving up on it.
MAX_TRIED = 6
#: Bytes of a Layer-2 body read for a skill's vocabulary.
MAX_BODY_BYTES = 1024 * 1024
_MAX_WORDS = 4
_CJK_MIN, _CJK_MAX = 2, 6
_PARTICLES = frozenset("をのがにはでともへやか")
_EXTRA_STOP = frozenset("also again just now today tomorrow yesterday new old some other its it's i'm".split())
_GOOD = ("correct", "fallback_ok")
_WORDISH = re.compile(r"[^\W_]+", re.UNICODE)


#: Words a proposed trigger never starts or ends with (so a phrase made only of them is never proposed):
#: the stop words of triggers (:data:`~routelens.text.unicode.STOP_WORDS`), the matcher's
#: (:data:`~routelens.text.words.MATCH_STOP_WORDS`) and the function words, pronouns and words of
#: instructions the build never counts as a domain term (:data:`~routelens.text.words.TERM_STOP_WORDS`):
#: "them before", "copy them", "grde the set" are no triggers (docs/formats.md §14).
FUNCTION_WORDS = frozenset(STOP_WORDS | MATCH_STOP_WORDS | TERM_STOP_WORDS | _EXTRA_STOP)
#: A task word rarer than this in everyday language (Zipf, wordfreq: "grde" 0.0, "reveiw" 1.1; real words
#: such as "carts" 3.9 or "locale" 2.9 are above it) that scores as a typo of a word of a skill's triggers is
#: a misspelling of it (docs/formats.md §14).
MISSPELLING_ZIPF = 2.0
_LATIN_WORD = re.compile(r"[a-z\u00e0-\u024f]+")


def _edge_word(word: str) -> bool:
    """True when a proposed trigger may not start or end with ``word`` (normalised)."""
    return _stop(word) or word in FUNCTION_WORDS


def spelled_words(triggers: Sequence[str], skill_id: str = "") -> frozenset[str]:
    """The normalised Latin words (4 letters or more) of ``triggers`` and of
    the id ``skill_id`` (hyphens as spaces): the spellings a proposed trigger
    for that skill keeps (:func:`respell`)."""
    out: set[str] = set()
    for text in (*triggers, skill_id.replace("-", " ")):
        out.update(w for w in _LATIN_WORD.findall(normalize_text(text)) if len(w) >= 4)
    return frozenset(out)


def misspelling_of(word: str, spelled: frozenset[str] | set[str]) -> str | None:
    """The word of ``spelled`` (:func:`spelled_words`) that the normalised
    task word ``word`` misspells, or None. ``word`` misspells ``u`` when it
    is not ``u`` nor an inflection of it either way (``grades``, ``grading``),
    it scores as a typo of ``u`` (:func:`routelens.text.typos.word_similarity`
    60 or more: "grde" for "grade", "reveiw" for "review") and it is rarer
    than :data:`MISSPELLING_ZIPF` in everyday language (so "carts" is no
    misspelling of "cards"). The closest such word when several are."""
    if word in spelled or len(word) < 4 or not word.isalpha() or zipf(word) >= MISSPELLING_ZIPF:
        return None
    best: tuple[float, str] | None = None
    for u in sorted(spelled):
        if inflects(u, word) or inflects(word, u):
            return None  # a form of a trigger word, spelled right
        sim = word_similarity(u, word)
        if sim >= 60.0 and sim < 100.0 and (best is None or sim > best[0]):
            best = (sim, u)
    return best[1] if best else None


def respell(text: str, spelled: frozenset[str] | set[str]) -> str:
    """``text`` (a phrase of a task, lowercase when ASCII) with each word that
    misspells a word of ``spelled`` written as that word: ``colour grde the
    set`` -> ``colour grade the set`` for a skill whose trigger is ``colour
    grade``. Every other character is kept."""
    def fix(m: re.Match) -> str:
        w = m.group(0)
        right = misspelling_of(normalize_text(w), spelled)
        return right if right is not None else w

    return _LATIN_WORD.sub(fix, text) if text.isascii() else text


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_edit_from_a_word(word: str) -> bool:
    """Whether a word one edit away from ``word`` (a letter dropped, added,
    changed, or two swapped) is a word WordNet knows
    (:func:`routelens.text.verbs.a_word`): "bok" (book), "pleese" (please)."""
    n = len(word)
    cands = {word[:i] + word[i + 1:] for i in range(n)}
    cands |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(n - 1)}
    for i in range(n + 1):
        for c in _LETTERS:
            cands.add(word[:i] + c + word[i:])
            if i < n:
                cands.add(word[:i] + c + word[i + 1:])
    cands.discard(word)
    return any(a_word(c) for c in cands if len(c) >= 2)


_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|[\"'(\[]\s*)$")


def plausible_trigger(text: str, task: str, spelled: frozenset[str] | set[str]) -> bool:
    """True when ``text``, a phrase of ``task`` proposed as a trigger, holds
    no Latin word that looks like a typo or a name (docs/formats.md §15): a
    word that WordNet does not know (:func:`routelens.text.verbs.a_word`),
    no function word, that no trigger of the skill spells (``spelled``,
    :func:`spelled_words`) and that the task does not write as an acronym
    ("VPN"), when it is one edit away from a word WordNet knows ("bok an
    appointment", "pleese review") or the task writes it only with a
    capital first letter and lower case after it, never at the start of a
    sentence ("cover for Yuki": a name, not the skill's work). Jargon
    ("sqlfluff", "terraform") stays; so do names that are words ("Saturday")."""
    for w in _LATIN_WORD.findall(normalize_text(text)):
        if w in spelled or a_word(w) or w in STOP_WORDS or w in MATCH_STOP_WORDS:
            continue
        seen = list(re.finditer(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", task, re.I))
        if any(m.group().isupper() and len(m.group()) > 1 for m in seen):
            continue  # an acronym: "VPN"
        if len(w) >= 3 and _one_edit_from_a_word(w):
            return False
        if seen and all(m.group()[0].isupper() and m.group()[1:].islower() and not _SENTENCE_START.search(
                task[:m.start()]) for m in seen):
            return False
    return True


#: words that join two things: a phrase holding one names two asks or two objects, no one trigger
_JOINING = frozenset(("and", "or", "nor", "plus", "versus", "vs"))


#: words of a clause, not of a name of work: a pronoun, a modal verb, a quantifier, a past form of "be" and the
#: adverbs of a report ("allergen we must label", "carry any allergen", "changelog was already updated" were offered
#: as triggers, copied from the task: a newcomer's trial); "is" and "are" stay ("build is broken", "ci is red")
_CLAUSE_WORDS = frozenset("i me my we us our you your he him his she her they them their it its "
                          "can could will would shall should may might must any some every each all no "
                          "was were been already yet still".split())


def proper_trigger(text: str) -> bool:
    """True when ``text`` may be proposed as a trigger as far as its words
    go: its first and last Latin word are no :data:`FUNCTION_WORDS` (so it is
    not made only of them), no word joins two things ("dockerfile and a
    threat": "and", "or", "plus" ...), and no word belongs to a clause
    rather than a name of work (a pronoun, a modal verb, a quantifier, a
    past form of "be", already, yet, still: "allergen we must label",
    "carry any allergen", "changelog was already updated"; "build is
    broken" stays). A text
    without Latin words (a run of a script without spaces) is judged by
    :func:`candidate_phrases` instead: True."""
    words = _WORDISH.findall(normalize_text(text))
    latin = [w for w in words if not any(_is_han_or_kata(c) for c in w)]
    if not latin:
        return bool(words)
    return not _edge_word(words[0]) and not _edge_word(words[-1]) and not any(
        w in _JOINING or w in _CLAUSE_WORDS for w in latin)


def _is_han_or_kata(c: str) -> bool:
    cp = ord(c)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x30A0 <= cp <= 0x30FF or 0xF900 <= cp <= 0xFAFF


def _is_han(c: str) -> bool:
    """A Han character (:func:`_is_han_or_kata` but not Katakana)."""
    return _is_han_or_kata(c) and not 0x30A0 <= ord(c) <= 0x30FF


def _cjk_class(text: str) -> str:
    """``kata`` for a Katakana character (the first of ``text``), ``han`` otherwise."""
    return "kata" if text and 0x30A0 <= ord(text[0]) <= 0x30FF else "han"


def _stop(word: str) -> bool:
    return word in STOP_WORDS or word in _EXTRA_STOP or word.isdigit() or len(word) < 2


def _units(text: str) -> set[str]:
    """Stems of the Latin words of ``text`` (stop words left out) and the
    pairs of adjacent characters of its runs in scripts without spaces."""
    out: set[str] = set()
    for w in _WORDISH.findall(normalize_text(text)):
        if w.isascii() or not any(_is_han_or_kata(c) for c in w):
            if not _stop(w):
                out.add(stem(w))
        else:
            out.update(w[i:i + 2] for i in range(len(w) - 1))
    return out


def task_units(text: str) -> set[str]:
    """The content units of ``text`` as :func:`vocabulary` counts a skill's:
    stems of its Latin words (stop words left out) and pairs of adjacent
    characters of its runs in scripts without spaces."""
    return _units(text)


def vocabulary(reg: Registry, bodies: bool = True) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(own, body)``: skill id -> the units (:func:`_units`) of its id,
    description and triggers; and of its Layer-2 body (read bounded,
    inside the registry's folder; an unreadable body gives none)."""
    own: dict[str, set[str]] = {}
    body: dict[str, set[str]] = {}
    for s in reg.skills.values():
        units: set[str] = set()
        for text in (s.id.replace("-", " "), s.description or "", *s.triggers):
            units |= _units(text)
        own[s.id] = units
        body[s.id] = set()
        if bodies:
            try:
                raw = read_bounded(resolve_body_path(reg, s.path), MAX_BODY_BYTES, what="skill body")
                body[s.id] = _units(raw.decode("utf-8", "replace"))
            except (ValueError, FileReadError):
                pass
    return own, body


@dataclass(frozen=True)
class _Phrase:
    text: str
    words: tuple[str, ...]  # normalised content units (stems, or character pairs)
    n: int  # tokens
    spaceless: bool
    #: the phrase ends where the task's run of content words ends (a stop word, punctuation or the end follows)
    chunk_end: bool = True


def candidate_phrases(task: str) -> list[_Phrase]:
    """The phrases of ``task`` that could be triggers, in task order (see
    the module docstring): Latin runs of 1-4 words joined only by spaces or
    hyphens, not starting or ending with a stop word; runs of 2-6
    characters of a script without spaces holding a Han or Katakana
    character, not starting or ending with a particle."""
    p = prepare(task)
    out: list[_Phrase] = []
    seen: set[str] = set()
    n = len(p.texts)
    def glued(k: int) -> bool:
        """Token ``k`` and the next one are one hyphenated word (``pull-request``)."""
        return k + 1 < n and p.kinds[k + 1] == 1 and task[p.oend[k]:p.ostart[k + 1]] == "-"

    for i in range(n):
        if p.kinds[i] == 1:
            if _edge_word(p.texts[i]):
                continue
            inside = i > 0 and glued(i - 1)  # starts inside a hyphenated word: ranked after whole words
            for j in range(i, min(n, i + _MAX_WORDS)):
                if p.kinds[j] != 1:
                    break
                if j > i:
                    gap = task[p.oend[j - 1]:p.ostart[j]]
                    if not gap or gap.strip(" -") or len(gap) > 2:
                        break
                if _edge_word(p.texts[j]) or (glued(j) and not inside):
                    continue
                raw = task[p.ostart[i]:p.oend[j]]
                text = raw.lower() if raw.isascii() else raw
                key = normalize_text(text)
                if key in seen or len(text) > 60:
                    continue
                seen.add(key)
                words = tuple(stem(w) for w in p.texts[i:j + 1] if not _stop(w))
                nxt = j + 1
                chunk_end = not inside and not glued(j) and (
                    nxt >= n or p.kinds[nxt] != 1 or _edge_word(p.texts[nxt]) or bool(task[p.oend[j]:p.ostart[nxt]].strip(" -")))
                out.append(_Phrase(text, words, j - i + 1, False, chunk_end))
        else:
            if i > 0 and p.kinds[i - 1] == 2 and p.ostart[i] == p.oend[i - 1] and _cjk_class(
                    normalize_text(task[p.ostart[i - 1]:p.oend[i - 1]])) == _cjk_class(
                    normalize_text(task[p.ostart[i]:p.oend[i]])) == "kata":
                continue  # never start inside a Katakana word
            # a phrase that starts inside a run of Han characters is the end of a compound ("発行" of 再発行): never
            # one that goes on into a Katakana word ("合ワクチン" of 混合ワクチン, a newcomer's trial)
            in_han = i > 0 and p.kinds[i - 1] == 2 and p.ostart[i] == p.oend[i - 1] and all(
                c[:1] and _is_han(c[0]) for c in (normalize_text(task[p.ostart[i - 1]:p.oend[i - 1]]),
                                                   normalize_text(task[p.ostart[i]:p.oend[i]])))
            for j in range(i + _CJK_MIN - 1, min(n, i + _CJK_MAX)):
                if p.kinds[j] != 2 or any(p.ostart[k] != p.oend[k - 1] for k in range(i + 1, j + 1)):
                    break
                raw = task[p.ostart[i]:p.oend[j]]
                norm = normalize_text(raw)
                if not all(_is_han_or_kata(c) for c in norm):
                    break  # Han and Katakana only: hiragana is grammar here
                after = normalize_text(task[p.ostart[j + 1]:p.oend[j + 1]]) if j + 1 < n and p.kinds[j + 1] == 2 \
                    and p.ostart[j + 1] == p.oend[j] else ""
                if after and _cjk_class(after) == _cjk_class(norm[-1]) == "kata":
                    continue  # never end inside a Katakana word
                if norm in JA_STOP_WORDS or norm in seen or (in_han and any(_cjk_class(c) == "kata" for c in norm)):
                    continue
                seen.add(norm)
                out.append(_Phrase(raw, tuple(norm[k:k + 2] for k in range(len(norm) - 1)), j - i + 1, True))
    return out


def _everyday_word(ph: _Phrase) -> bool:
    """True for a one-word phrase (a Latin word, or a run of a script
    without spaces) that is an everyday word: Zipf
    :data:`~routelens.routing.evidence.EVERYDAY_ZIPF` or more in everyday
    language (wordfreq, docs/formats.md §3.7)."""
    if ph.n != 1 and not (ph.spaceless and trigger_key(ph.text) is not None):
        return False
    key = trigger_key(ph.text)
    return key is not None and zipf(key) >= EVERYDAY_ZIPF


def _rank(ph: _Phrase, own: set[str], body: set[str], df: dict[str, int], specific: int) -> tuple | None:
    """Sort key, best first, or None when the phrase does not speak for the
    skill. Every unit of it must be one of the skill's own words (id,
    description, triggers) or a word of its body that at most ``specific``
    skills share, and one unit at least must be that specific; a single
    word must be one no other skill has, of 4 letters or more. Then: a
    unit of its own words first, two words before one before more, more
    specific units."""
    if not ph.words or not all(w in own or (w in body and df.get(w, 0) <= specific) for w in ph.words):
        return None
    mine = [w for w in ph.words if df.get(w, 0) <= specific]
    if not mine:
        return None
    if ph.n == 1 and not ph.spaceless and (df.get(ph.words[0], 0) > 1 or len(ph.text) < 4):
        return None
    if _everyday_word(ph):
        return None  # one everyday word is weak evidence (docs/formats.md §6.10): it would never route alone
    strong = sum(w in own for w in ph.words)
    size = {2: 0, 1: 1, 3: 2}.get(ph.n, 3) if not ph.spaceless else (0 if ph.n <= 4 else 2)
    return (strong == 0, size, not ph.chunk_end, -len(mine), ph.text)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Effect:
    """What one edit does to the labelled cases: ``fixed`` (now right,
    were not), ``broken`` (were right, now not), ``changed`` (another
    outcome, neither fixed nor broken), each a list of ``(case, old
    outcome, new outcome)``; ``harm``: True when anything was broken."""

    fixed: tuple[tuple[Case, str, str], ...] = ()
    broken: tuple[tuple[Case, str, str], ...] = ()
    changed: tuple[tuple[Case, str, str], ...] = ()

    @property
    def harm(self) -> bool:
        return bool(self.broken)

    def sentence(self, file: str) -> str:
        """The predicted effect for people: ``routes cases.yaml:12, :40
        right; no other labelled case changes``."""
        def lines(items) -> str:
            return ", ".join(f"{file}:{c.line}" if k == 0 else f":{c.line}" for k, (c, _, _) in enumerate(items))

        parts = []
        if self.fixed:
            parts.append(f"routes {lines(self.fixed)} right")
        if self.broken:
            parts.append("breaks " + ", ".join(f"{file}:{c.line} ({a} -> {b})" for c, a, b in self.broken))
        if self.changed:
            parts.append("changes " + ", ".join(f"{file}:{c.line} ({a} -> {b})" for c, a, b in self.changed))
        if not self.broken and not self.changed:
            parts.append("no other labelled case changes")
        return "; ".join(parts)


@dataclass
class Suggestion:
    """A proposed trigger: ``skill``, ``trigger``, the :class:`Edit` that
    adds it, its :class:`Effect` (alone), ``source``: the case it was taken
    from, ``in_vocabulary``: a word of it is in the skill's vocabulary."""

    skill: str
    trigger: str
    edit: Edit
    effect: Effect
    source: Case
    in_vocabulary: bool

    def to_dict(self, file: str, registry: str) -> dict[str, Any]:
        """JSON-able dict (docs/formats.md §14); ``file``: the cases file's
        name, ``registry``: the registry's."""
        e = self.edit
        return {"kind": "add_trigger", "skill": self.skill, "trigger": self.trigger, "yaml": e.yaml,
                "where": f"{registry}:{e.where_line}", "how": e.how, "effect": self.effect.sentence(file),
                "fixes": [c.line for c, _, _ in self.effect.fixed],
                "source_line": self.source.line, "in_vocabulary": self.in_vocabulary}


@dataclass(frozen=True)
class Rejection:
    """A candidate that routed its case but would make another case worse."""

    skill: str
    trigger: str
    source: Case
    effect: Effect

    def to_dict(self, file: str) -> dict[str, Any]:
        return {"skill": self.skill, "trigger": self.trigger, "source_line": self.source.line,
                "effect": self.effect.sentence(file)}


@dataclass
class SuggestReport:
    """The outcome of :func:`suggest`: ``suggestions`` (in skill order,
    then trigger), ``rejected``, ``unresolved`` (missed cases without a
    safe trigger), the metrics before and after applying every suggestion
    (``before`` / ``after``: ``{"precision", "coverage",
    "must_fallback_recall", "missed", "wrong"}``), ``patched``: the
    registry bytes with every suggestion applied (the input bytes when
    there is none), ``registry``: the registry's display name, ``file``:
    the cases file's."""

    suggestions: list[Suggestion]
    rejected: list[Rejection]
    unresolved: list[CaseResult]
    before: dict[str, Any]
    after: dict[str, Any]
    patched: bytes
    registry: str
    file: str
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON (``routelens suggest --json``, docs/formats.md §14)."""
        return {"registry": self.registry, "cases": self.file, "before": self.before, "after": self.after,
                "suggestions": [s.to_dict(self.file, self.registry) for s in self.suggestions],
                "rejected": [r.to_dict(self.file) for r in self.rejected],
                "unresolved": [{"line": r.case.line, "task": r.case.task, "expected": list(r.case.expect),
                                "reason": r.decision.reason} for r in self.unresolved],
                "notes": self.notes}


def _figures(results: list[CaseResult]) -> dict[str, Any]:
    rep = score([r.case for r in results], [r.decision for r in results])
    return {"precision": rep.precision, "coverage": rep.coverage, "must_fallback_recall": rep.must_fallback_recall,
            "missed": len(rep.missed), "wrong": len(rep.wrong)}


def _effect(before: dict[int, str], after: dict[int, str], cases: dict[int, Case]) -> Effect:
    fixed, broken, changed = [], [], []
    for k, new in after.items():
        old = before[k]
        if new == old:
            continue
        item = (cases[k], old, new)
        if new in _GOOD and old not in _GOOD:
            fixed.append(item)
        elif old in _GOOD or new in ("wrong_route", "false_route"):
            broken.append(item)
        else:
            changed.append(item)
    return Effect(tuple(fixed), tuple(broken), tuple(changed))


def _outcomes(router: Router, cases: list[Case], idx: Sequence[int]) -> dict[int, str]:
    picked = [cases[i] for i in idx]
    rep = score(picked, [router.route(c.task) for c in picked])
    return {i: r.outcome for i, r in zip(idx, rep.results)}


def suggest(reg: Registry, raw: bytes, cases: Sequence[Case], progress: Callable[[float], None] | None = None,
            max_tried: int = MAX_TRIED) -> SuggestReport:
    """Propose triggers for the cases ``reg`` misses (see the module
    docstring). ``raw``: the registry's bytes (``reg`` parsed from them);
    routing uses an index built in memory, so it is fresh. Raises
    :class:`CasesError` when a case names an id the registry does not
    have."""
    cases = list(cases)
    base = Router.from_registry(reg)
    bad = check_ids(cases, base.skill_ids, base.composition_ids)
    if bad:
        raise CasesError(bad)
    file = cases[0].file if cases else "<cases>"
    rep = score(cases, [base.route(c.task) for c in cases])
    outcome = {i: r.outcome for i, r in enumerate(rep.results)}
    by_index = dict(enumerate(cases))
    position = {id(c): k for k, c in by_index.items()}
    prepared: list[PreparedTask] = [prepare(c.task) for c in cases]
    own_vocab, body_vocab = vocabulary(reg)
    df: dict[str, int] = {}
    for sid in own_vocab:
        for w in own_vocab[sid] | body_vocab[sid]:
            df[w] = df.get(w, 0) + 1
    specific = max(2, len(reg.skills) // 10)
    existing = {normalize_text(t) for s in reg.skills.values() for t in s.triggers}
    missed = [i for i, r in enumerate(rep.results) if r.outcome == "missed"]
    accepted: list[Suggestion] = []
    taken: dict[tuple[str, str], Suggestion] = {}
    rejected: list[Rejection] = []
    done: set[int] = set()
    threshold = base.threshold
    for step, i in enumerate(missed):
        if progress is not None:
            progress(step / max(len(missed), 1))
        if i in done:
            continue
        case = cases[i]
        result = rep.results[i]
        targets = list(case.expect) or []
        if case.composition or not targets:
            continue
        near = {m.id: m.score for m in (*result.decision.matches, *result.decision.near_misses)}
        target = max(targets, key=lambda s: (near.get(s, 0.0), -targets.index(s)))
        own, body = own_vocab.get(target, set()), body_vocab.get(target, set())
        ranked = [(_rank(ph, own, body, df, specific), ph) for ph in candidate_phrases(case.task)
                  if normalize_text(ph.text) not in existing]
        phrases = [ph for key, ph in sorted((k, ph) for k, ph in ranked if k is not None)]
        first_reject = None
        spelled = spelled_words(reg.skills[target].triggers, target)
        for ph in phrases[:max_tried]:
            text = respell(ph.text, spelled)  # "colour grde" -> "colour grade": never enshrine a typo
            key = (target, normalize_text(text))
            if key in taken or key[1] in existing or not plausible_trigger(text, case.task, spelled):
                continue
            one = TriggerMatcher([(target, [text])], floor=min(NEAR_MISS_FLOOR, threshold))
            touched = [k for k, p in enumerate(prepared) if one.match(p, threshold, 0)]
            if i not in touched:
                continue
            try:
                edit = add_list_item(raw, reg.display_name, ("skills", target, "triggers"), text)
                new_reg = parse_registry(apply_edits(raw, [edit]), reg.path, reg.display_name)
            except (PatchError, RegistryError):  # a phrase that cannot be written safely is skipped
                continue
            trial = Router.from_registry(new_reg)
            eff = _effect(outcome, _outcomes(trial, cases, touched), by_index)
            if not any(c is case for c, _, _ in eff.fixed):
                continue
            if eff.harm:
                if first_reject is None:
                    first_reject = Rejection(target, text, case, eff)
                continue
            sug = Suggestion(target, text, edit, eff, case, any(w in own for w in ph.words))
            accepted.append(sug)
            taken[key] = sug
            done.update(position[id(c)] for c, _, _ in eff.fixed)
            break
        else:
            if first_reject is not None:
                rejected.append(first_reject)
    # all together: withdraw any suggestion involved in a harm they cause together
    patched, final = raw, rep
    while accepted:
        edits = _edits(raw, reg, accepted)
        try:
            patched, new_reg = patched_registry(reg, raw, edits)
        except PatchError:
            accepted.pop()
            continue
        router = Router.from_registry(new_reg)
        final = score(cases, [router.route(c.task) for c in cases])
        harmed = [k for k, r in enumerate(final.results) if outcome[k] in _GOOD and r.outcome not in _GOOD]
        if not harmed:
            break
        bad_ids = set()
        for k in harmed:
            for s in accepted:
                m = TriggerMatcher([(s.skill, [s.trigger])], floor=min(NEAR_MISS_FLOOR, threshold))
                if m.match(prepared[k], threshold, 0):
                    bad_ids.add(id(s))
        accepted = [s for s in accepted if id(s) not in bad_ids] if bad_ids else accepted[:-1]
    if not accepted:
        patched, final = raw, rep
    still = [r for r in final.results if r.outcome == "missed"]
    accepted.sort(key=lambda s: (list(reg.skills).index(s.skill), s.edit.where_line, s.trigger))
    if progress is not None:
        progress(1.0)
    return SuggestReport(accepted, rejected, still, _figures(rep.results), _figures(final.results), patched,
                         reg.display_name, file)


def _edits(raw: bytes, reg: Registry, sugs: list[Suggestion]) -> list[Edit]:
    """The edits of ``sugs`` computed on ``raw`` together: the new triggers
    of one skill go in as one edit, in order."""
    by_skill: dict[str, list[str]] = {}
    for s in sugs:
        by_skill.setdefault(s.skill, []).append(s.trigger)
    return [add_list_item(raw, reg.display_name, ("skills", skill, "triggers"), triggers)
            for skill, triggers in by_skill.items()]
