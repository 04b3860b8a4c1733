"""The evidence model (docs/formats.md §6.10): each candidate skill carries
typed pieces of evidence, and a confident route needs evidence a careful
reader would accept.

A **piece** is one of:

- ``trigger``: a trigger of the skill that matched. Its strength:
  *strong* for a phrase (two or more content words, or a compound that is
  not an everyday word) or for a word that is rare in everyday language
  (Zipf below :data:`RARE_ZIPF`, from the index's vocabulary, §3.7);
  *weak* for an everyday word ("model", "table", "予約") and for any
  trigger matched only through a typo. Strong weighs 2, weak 1. A trigger
  specific by its *shape* — an acronym in capitals (``CVE``) or a trigger
  matched with its punctuation (``C#``) — weighs 2 when another word of the
  task belongs to the registry's world, else 1 (a word-sense trap). Several
  triggers of one skill that overlap in the task count once (the longest).
- ``term``: a domain term of the skill (from its description, other
  triggers and body, §3.7) elsewhere in the task; 1 each, at most 2.
- ``context``: a term of the registry's own world, or a code-like
  identifier (``fct_orders``); 1, at most once.
- ``ask``: the task asks for work on the candidate's only counted trigger,
  a fairly common word: it is the request verb ("debug why the worker
  hangs") or lies in the request's object ("Write April's newsletter",
  "メルマガの原稿を書いて"), found by :func:`~routelens.routing.signals.asks`;
  1. An everyday sentence that merely holds the word ("the pandas at the
  zoo") asks for nothing.
- ``negated``: a trigger inside a negated clause ("don't run the DAG"):
  it does not count.
- ``markup``: a trigger inside markup (``<...>``, ``{...}``): it does not
  count.
- ``yields``: a trigger inside a longer matched trigger of another skill
  ("deploy" inside "deploy model"), or a generic word right next to another
  skill's phrase that holds it ("a blue-green deploy"): it does not count.
- ``measure``: a unit of time counted by a number ("40 minutes late"): a
  duration, it does not count.
- ``not_when``: one of the skill's ``not_when`` phrases matched: the skill
  is dropped.

A candidate is **supported** when its pieces weigh 2 or more with at least
one trigger counted: a specific trigger, or two independent pieces that
agree. A candidate with only an everyday word, and nothing else in the task
about its domain, is not: the router falls back with ``weak_evidence``.
"""

from __future__ import annotations

import re as _re
import unicodedata
from typing import Iterable, Sequence

from routelens.routing.candidates import (SHAPE_DETAILS as _SHAPE_DETAILS, STRONG_WEIGHT, WEAK_WEIGHT, Candidate,
                                          CandidateList, Piece)
from routelens.routing.decision import format_score, quote
from routelens.routing.asking import DERIVED as _DERIVED, NO_WORLD as _NO_WORLD, asked as _asked
from routelens.routing.asking import counted_ask as _counted, overlaps as _overlaps
from routelens.routing.lexicon import EVERYDAY_ZIPF, RARE_ZIPF, Lexicon
from routelens.routing.matching import Hit, Match, PreparedTask, Reached
from routelens.routing.pointers import instead
from routelens.routing.counts import duration, number_verb
from routelens.routing.questions import general_question, general_statement
from routelens.routing.faults import fault_reports
from routelens.routing.negation import negated
from routelens.routing.signals import (Signal, asks, identifiers, markup, names_more, own_request,
                                      reads_phrase_as_verb, within)
from routelens.routing.spans import Spans
from routelens.text.life import life_words, private_life
from routelens.text.typos import missing_words
from routelens.text.unicode import normalize_text
from routelens.text.words import lemma_candidates, terms

__all__ = ["RARE_ZIPF", "EVERYDAY_ZIPF", "INCIDENTAL", "Piece", "Candidate", "Lexicon", "assess"]

_STRONG, _WEAK = STRONG_WEIGHT, WEAK_WEIGHT  # a weak piece weighs 1, a candidate is supported from 2 (§6.10)
_MAX_TERMS = 2
#: A phrase matched with a typo still counts as a phrase from this score up.
_PHRASE_TYPO_MIN = 90.0

#: what coordinates two Japanese nouns: a compound trigger matched loosely across one is two words, not the compound
_JA_COORDINATION = _re.compile(r"[とや、，,]|および|及び|または|又は")
#: a trigger's tight punctuation: ``C#``, ``C++``, ``GP%``, ``.NET``, ``Node.js``, ``1:1``, ``A/B``, ``R&D``
_PUNCT_TRIGGER = _re.compile(r"[0-9A-Za-z][#+%]|(?:^|[0-9A-Za-z])[./:&][0-9A-Za-z]")
_ACRONYM = _re.compile(r"[A-Z][A-Z0-9]+")
#: a web domain right after a word: the word is a site's name ("Booking.com", "protocols.io"), §6.10 lookalike
_WEB_ADDRESS = _re.compile(r"\.(?:com|net|org|io|ai|app|dev|co|jp|uk|de|fr|eu)\b(?:\.[a-z]{2}\b)?", _re.I)
#: the detail an acronym or punctuated trigger made incidental by another skill's specific trigger carries
INCIDENTAL = _INCIDENTAL = "next to a specific trigger of"
OWN_ASK = "the task asks for it in a request of its own"  # an everyday word's ask of its own (several.py)
_IDENTIFIER = "the identifier "
#: the team speaking of its own work: we, our, "us" in lower case ("the US president" is a country)
_TEAM_VOICE = _re.compile(r"\b(?i:we|our|ours)\b|\bus\b")  # "we're", "we've": "we", then an apostrophe
#: a name written in camel case with letters alone ("easyJet", "iPhone", "eBay"): a brand's, which a consumer writes
#: as readily as a team; in a sentence about private life it is no sign of the registry's world (§6.10 private)
_BRAND = _re.compile(r"[a-z]+[A-Z][A-Za-z]+")
#: a context piece's detail: a word of the registry's triggers, not necessarily this skill's (a newcomer read "the
#: trigger word "upgrade"" on ci-fix as one of ci-fix's triggers; it is dependency-upgrade's)
_TRIGGER_WORD = "the registry's trigger word"
#: said after the detail of a piece that a sentence about private life weakens (policy's fallback sentence keeps it)
PRIVATE_SAID = ", in a sentence about private life"
#: said after the detail of a phrase that a question of general knowledge weakens (§6.10 question)
QUESTION_SAID = ", in a question of general knowledge"
#: said after the detail of a phrase that a statement about the world weakens (§6.10 statement)
STATEMENT_SAID = ", in a statement about the world, which asks for nothing"
#: the strong trigger pieces a private scene weakens (§6.10 private): a phrase, and a rare word that no request asks
#: for (an acronym or punctuated trigger stays a thing of the registry's world)
_RARE = "the specific word"
_SCENE_WEAKENS = ("the phrase", _RARE)
#: said of the weaker pieces of a skill whose trigger the task negates (they do not count)
_BESIDE_NEGATED = ", beside its negated trigger"


def _shape(trigger: str, shown: str, z: float | None) -> str:
    """Why a one-word trigger that is not rare is specific by its written
    shape (docs/formats.md §6.10), else "": it matched WITH its punctuation
    (``C#``, ``.NET``, ``1:1``: the commonness of its letters says nothing
    about it), or it is an acronym of 2+ capitals written in capitals in the
    task too (``CVE``, ``SLO``) whose lowercase form is no everyday word
    (``IT``, ``US`` stay weak)."""
    t = unicodedata.normalize("NFKC", trigger).strip()
    shown = unicodedata.normalize("NFKC", shown)  # full-width "ＨＡＣＣＰ" is the acronym too
    if _PUNCT_TRIGGER.search(t):
        marks = {c for c in t if c in "#+%./:&"}
        if marks and all(c in shown for c in marks):
            return f"the punctuated trigger {quote(t)}"
    if _ACRONYM.fullmatch(t) and sum(c.isalpha() for c in t) >= 2 and (z is None or z < EVERYDAY_ZIPF):
        word = shown[:-1] if shown.endswith("s") and not shown.endswith("S") else shown
        if word == word.upper() and _ACRONYM.fullmatch(word):
            return f"the acronym {quote(word)} ({_zipf_words(z or 0.0)} as a lowercase word)"
    return ""


def _adjacent_phrase(span: tuple[int, int], key: str, sid: str, text: str,
                     near: Iterable[tuple[str, tuple[int, int], str]], lexicon: Lexicon
                     ) -> tuple[str, tuple[int, int], str] | None:
    """The specific trigger of another skill right next to a generic word
    (only a space or a hyphen between them), when that skill's id or
    triggers hold the word too: "deploy" after "blue-green" of
    ``blue-green-deploy`` is part of the same phrase (docs/formats.md
    §6.10 ``yields``); None otherwise. ``near``: the matched triggers
    ``(owner, span, trigger)`` that may be next to ``span``, in the order
    of :class:`~routelens.routing.spans.Spans` (:meth:`~routelens.routing.spans.Spans.near`)."""
    for o in near:
        if o[0] == sid or not _beside(span, o[1], text) or not lexicon.specificity(o[2])[0]:
            continue
        own = lexicon.own_words.get(o[0], frozenset())
        if key in own or any(k in own for k in lemma_candidates(key)) or any(
                w != key and (w.startswith(key) and len(w) - len(key) <= 3) for w in own):
            return o
    return None


def _beside(span: tuple[int, int], other: tuple[int, int], text: str) -> bool:
    """Whether only a space or a hyphen (at most two characters) lies between ``span`` and ``other``."""
    a, b = other
    gap = text[b:span[0]] if b <= span[0] else text[span[1]:a] if span[1] <= a else None
    return gap is not None and len(gap) <= 2 and gap.strip(" -\u2010\u2011") == ""


def _zipf_words(z: float) -> str:
    return f"Zipf {z:.1f}" if z > 0 else "rare in everyday language"


def _trigger_pieces(sid: str, hits: Sequence[Hit], text: str, negations: list[Signal],
                    marks: list[Signal], spans: Spans, lexicon: Lexicon) -> list[tuple[tuple[int, int], Piece]]:
    """The trigger pieces of candidate ``sid`` (counted or not), longest
    first, from its ``hits`` at or above the threshold (in the order they
    were offered). ``spans``: every trigger matched in the task, with its
    look-ups (:class:`~routelens.routing.spans.Spans`, shared by the
    candidates of one task)."""
    trig_pieces: list[tuple[tuple[int, int], Piece]] = []
    for m in sorted(hits, key=lambda m: (m.span[0] - m.span[1], -m.score, m.kind == "loose", m.span[0])):
        span = m.span
        shown = text[span[0]:span[1]]
        if any(_overlaps(span, s) for s, _ in trig_pieces):
            continue  # the same words as a longer trigger of this skill
        neg = within(span, negations)
        if neg is not None:
            trig_pieces.append((span, Piece("negated", shown, span, 0,
                                            f"{quote(shown)} is negated ({quote(neg[2].strip())})", m.trigger)))
            continue
        mk = within(span, marks)
        if mk is not None:
            trig_pieces.append((span, Piece("markup", shown, span, 0, f"{quote(shown)} is inside markup",
                                            m.trigger)))
            continue
        if duration(span, text):
            trig_pieces.append((span, Piece("measure", shown, span, 0, f"{quote(shown)} counts time here (a duration)",
                                            m.trigger)))
            continue
        longer = next((o for o in spans.containing(span) if o[0] != sid), None)
        if longer is not None:
            trig_pieces.append((span, Piece("yields", shown, span, 0,
                                            f"{quote(shown)} lies inside {quote(longer[2])} of {quote(longer[0])}",
                                            m.trigger)))
            continue
        if m.kind == "loose" and not m.trigger.isascii():
            sep = _JA_COORDINATION.search(text, span[0], span[1])
            if sep is not None:
                # "入金と銀行明細" is deposits and bank statements, not 入金明細 (a statement of deposits)
                trig_pieces.append((span, Piece("lookalike", shown, span, 0,
                                                f"{quote(shown)} joins two words across {quote(sep.group())}, not the "
                                                f"compound {quote(m.trigger)}", m.trigger)))
                continue
        web = _WEB_ADDRESS.match(text, span[1])
        if web is not None and text[span[0]:span[1]].isalnum():
            # "Booking.com", "protocols.io": a name of a site, not the word
            trig_pieces.append((span, Piece("lookalike", shown, span, 0,
                                            f"{quote(shown)} is part of the web address "
                                            f"{quote(text[span[0]:web.end()])}", m.trigger)))
            continue
        strong, z, key = lexicon.specificity(m.trigger)
        typo = m.kind == "typo"
        if not strong and key is not None:
            # (the triggers that are not right beside it, or not specific, are left out by text: hundreds of
            # skills may share one)
            nxt = _adjacent_phrase(span, key, sid, text, spans.near(
                span, lambda sp, trig: _beside(span, sp, text) and lexicon.specificity(trig)[0]), lexicon)
            if nxt is not None:
                trig_pieces.append((span, Piece("yields", shown, span, 0,
                                                f"{quote(shown)} belongs with {quote(nxt[2])} of {quote(nxt[0])}",
                                                m.trigger)))
                continue
        if m.kind == "derivation":
            if key is None or z is None or z >= EVERYDAY_ZIPF:
                # a phrase matches as written or inflected; the verb of an everyday noun says nothing of which
                # sense ("complained" for `complaint`, "managed" for `management`)
                said = (f"{quote(shown)} is the verb of a word of the phrase {quote(m.trigger)}, which matches only "
                        "as written or inflected" if key is None or z is None else
                        f"{quote(shown)} is the verb of {quote(key)}, a noun too common ({_zipf_words(z)}) to tell "
                        "which sense")
                trig_pieces.append((span, Piece("lookalike", shown, span, 0, said, m.trigger)))
                continue
            trig_pieces.append((span, Piece("trigger", shown, span, _WEAK,
                                            f"{_DERIVED}{quote(key)} ({_zipf_words(z)}): {quote(shown)}", m.trigger)))
            continue
        if not typo and not strong and key is not None:
            shape = _shape(m.trigger, shown, z) or number_verb(m.trigger, span, text)
            if shape:
                trig_pieces.append((span, Piece("trigger", shown, span, _STRONG, shape, m.trigger)))
                continue
        if typo and key is not None:
            word = normalize_text(shown).strip()
            others = lexicon.near.get(key, ())
            # the other word, or a regular form of it ("books" for `ebook`, whose neighbour is "book": a newcomer's
            # "I'd like to borrow books about gardening" routed to e-books as a typo)
            if others and (word in others or any(c in others for c in lemma_candidates(word.lower()))):
                trig_pieces.append((span, Piece("lookalike", shown, span, 0,
                                                f"{quote(shown)} is another word, not a typo of {quote(m.trigger)}",
                                                m.trigger)))
                continue
        if typo and strong and key is not None and m.score >= _PHRASE_TYPO_MIN:
            w, detail = _STRONG, f"a typo of the specific word {quote(key)} ({format_score(m.score)})"
        elif typo and (z is not None or m.score < _PHRASE_TYPO_MIN):
            w, detail = _WEAK, f"a typo of {quote(m.trigger)} ({format_score(m.score)})"
            gone = missing_words(m.trigger, shown) if z is None else []
            if gone:
                # "contract" for "shoot contract" is part of the phrase, no typo of it: wording only (the
                # piece stays weak and its detail keeps "typo", which the tiers read)
                detail = (f"part of the phrase {quote(m.trigger)} ({format_score(m.score)}, scored as a typo: "
                          f"{' '.join(gone)!r} missing)")
        elif typo:
            w, detail = _STRONG, f"the phrase {quote(m.trigger)} with a typo ({format_score(m.score)})"
            number = _number_of(m.trigger, shown)
            if number is not None:  # "blood test result" for `blood test results`: an inflection, not a slip
                detail = f"the phrase {quote(m.trigger)}, its last word in the {number} ({format_score(m.score)})"
        elif z is None:
            w, detail = _STRONG, f"the phrase {quote(m.trigger)}"
        elif strong:
            w, detail = _STRONG, f"the specific word {quote(key or m.trigger)} ({_zipf_words(z)})"
        elif z >= EVERYDAY_ZIPF:
            w, detail = _WEAK, f"the everyday word {quote(key or m.trigger)} ({_zipf_words(z)})"
        else:
            w, detail = _WEAK, f"the fairly common word {quote(key or m.trigger)} ({_zipf_words(z)})"
        if m.kind in ("inflection", "loose", "spacing") and not typo:
            detail += f", {m.kind}"
        if any(p.kind == "trigger" and p.trigger == m.trigger and p.weight > 0 for _, p in trig_pieces):
            # the same trigger written again is no new evidence ("debug ... debug", "/sousvide: sous vide")
            trig_pieces.append((span, Piece("repeated", shown, span, 0,
                                            f"{quote(shown)} again (the trigger {quote(m.trigger)} counts once)",
                                            m.trigger)))
            continue
        trig_pieces.append((span, Piece("trigger", shown, span, w, detail, m.trigger)))
    return trig_pieces


def _words_of(pieces: Iterable[Piece]) -> list[tuple[str, set[str]]]:
    """``(normalized text, its words and their lemmas)`` of each counted
    trigger piece: a term that is one of them is the same evidence again."""
    out = []
    for p in pieces:
        if p.kind != "trigger" or p.weight <= 0:
            continue
        t = normalize_text(p.text)
        ws = set()
        for w in terms(t):
            ws.add(w)
            ws.update(lemma_candidates(w))
        out.append((t, ws))
    return out


def _repeats(term: str, words: list[tuple[str, set[str]]]) -> bool:
    """Whether ``term`` (normalized) is a word of a counted trigger piece
    (for a term of a script without spaces: held in its text)."""
    return any(term in ws or (not term.isascii() and term in t) for t, ws in words)


def assess(task: PreparedTask, reached: Reached, ranked: Sequence[str], lexicon: Lexicon,
           not_when: dict[str, Match], negations: list[Signal] | None = None, *, public: bool = False) -> CandidateList:
    """The candidates of every skill in ``ranked`` (the owners scoring at or
    above the threshold, best first, as the router ranks them:
    :meth:`~routelens.routing.matching.Reached.ranked`), from every trigger
    that matched (``reached``: the skill matcher's hits, owners sharing a
    trigger text in groups), the lexicon's terms, negated clauses and
    markup, and the skills' ``not_when`` matches (skill id -> the best
    ``not_when`` match), as a :class:`~routelens.routing.candidates.CandidateList`
    in ``ranked`` order: a :class:`Candidate` per skill whose evidence
    counts or is its own, and one entry per group of the others. ``public``:
    the registry's ``routing.audience`` is ``public`` (docs/formats.md
    §1.1): its customers write the tasks, so private life, everyday life,
    a question of general knowledge and a statement about the world weaken
    no evidence (§6.10): a patron's "Book a study room for me and my
    friends" is the library's work."""
    text = task.original
    if negations is None:
        negations = negated(text)
    marks = markup(text)
    idents = identifiers(text)
    # "my gym", "after knee surgery": a sentence about private life (§6.10 private); a word of everyday life
    # without "my" leaves the work a request asks for as it is ("colour grade the beach set"); two of them set
    # the scene whatever the phrase ("the ryokan ... for the anniversary")
    private = private_life(text, lexicon.writes) if not public else None
    unwritten = [(w, span) for w, span in life_words(text) if not lexicon.writes(w)] if not public else []
    lives = [] if private is not None else list(dict.fromkeys(text[a:b] for _, (a, b) in unwritten))
    life = lives[0] if lives else None
    ja_life = any(not w.isascii() for w, _ in unwritten)  # a Japanese word of everyday life (no "my" in Japanese)
    # "Will the Bank of England cut the base rate again at its next meeting?"
    question = general_question(text) if not public else None
    requests: list[Signal] | None = None  # the task's requests, found when a candidate first needs them
    stated: list[bool] = []  # whether the task is a statement about the world, found when first needed

    def statement() -> bool:
        nonlocal requests
        if not stated:
            if requests is None:
                requests = asks(text)
            stated.append(not public and general_statement(text, requests or asks(text, pronoun=True),
                                                           fault_reports(text)))
        return stated[0]

    found = lexicon.terms_in(task)
    spans = Spans.of(reached)
    rank = dict(zip(ranked, range(len(ranked))))
    domain_spans = [span for _, _, span in found] + [(a, b) for a, b, _ in idents]
    # On a big registry hundreds of candidates hold the same matched triggers and nothing of their own
    # ("review" of 300 skills): their evidence is the same, so it is computed once per signature (the
    # triggers matched, with span, score and kind) and shared. A candidate whose evidence can name
    # itself — it owns a trigger holding, or next to, one of its own (the look-ups exclude it), its own
    # domain terms are in the task, or a not_when of it matched — is assessed on its own.
    units: dict[tuple, list] = {}  # signature -> [its hits, the candidates holding them (ranking order)]
    alone: list[tuple[str, float, list[Hit]]] = []  # (candidate, score, hits) of those that name themselves
    owners = spans.owners
    for best, hs, members in reached.hit_lists():
        if len(hs) == 1:
            m = hs[0]
            sig = (best.score, m.span, m.trigger, m.score, m.kind)
            near = owners(m.span)
            selfish = near.intersection(members) if near else ()
        else:
            sig = (best.score, *((m.span, m.trigger, m.score, m.kind) for m in hs))
            selfish = members if any(not owners(m.span).isdisjoint(members) for m in hs) else ()
        alone += [(sid, best.score, hs) for sid in selfish]
        rest = members if not selfish else [o for o in members if o not in selfish]
        if rest:
            u = units.get(sig)
            if u is None:
                units[sig] = [hs, list(rest)]
            else:
                u[1] += rest
    unit_tp: dict[tuple, list[tuple[tuple[int, int], Piece]]] = {}
    for sig, u in units.items():
        u[1].sort(key=rank.__getitem__)
        unit_tp[sig] = _trigger_pieces(u[1][0], u[0], text, negations, marks, spans, lexicon)
    alone.sort(key=lambda x: rank[x[0]])
    alone_tp = [_trigger_pieces(sid, hs, text, negations, marks, spans, lexicon) for sid, _, hs in alone]
    # each distinct set of trigger pieces with the first two candidates holding it, in ranking order: what
    # the look-ups across candidates read (a candidate sees itself excluded, so two are enough)
    leading = sorted([(rank[o], o, unit_tp[sig]) for sig, u in units.items() for o in u[1][:2]]
                     + [(rank[sid], sid, tp) for (sid, _, _), tp in zip(alone, alone_tp)], key=_first)
    # the work per candidate must not grow with the number of candidates: the trigger spans of all of
    # them, once (a candidate's own are among its pieces anyway), and the terms found, by owner
    trigger_spans = {sp for tp in (*unit_tp.values(), *alone_tp) for sp, p in tp if p.kind == "trigger"}
    found_by_owner: dict[str | None, list[tuple[str | None, str, tuple[int, int]]]] = {}
    for f in found:
        found_by_owner.setdefault(f[0], []).append(f)
    found_context = [f for f in found if f[0] is None or f[0] == ""]
    strong_of: dict[int, bool] = {}
    # the triggers of the candidates a not_when dropped, with that not_when's span, once (§6.10 ask)
    dropped_triggers = [(o, sp, not_when[o].span) for _, o, tp in leading if o in not_when
                        for sp, q in tp if q.kind == "trigger"] if not_when else []
    # the negated triggers, by owner: a clause that makes way for another skill's negated trigger is an ask
    negated_other = [(o, p) for _, o, tp in leading for _, p in tp if p.kind == "negated"] if negations else []

    def has_strong(tp: list[tuple[tuple[int, int], Piece]]) -> bool:
        got = strong_of.get(id(tp))
        if got is None:
            got = strong_of[id(tp)] = any(
                p.kind == "trigger" and p.weight >= _STRONG and not p.detail.startswith(_SHAPE_DETAILS)
                for _, p in tp)
        return got

    strong_owners: list[str] | None = None  # the first two candidates with a strong trigger, in order

    def other_strong(sid: str) -> str | None:
        nonlocal strong_owners
        if strong_owners is None:
            strong_owners = []
            for _, o, tp in leading:
                if has_strong(tp):
                    strong_owners.append(o)
                    strong_tp[o] = tp
                    if len(strong_owners) == 2:
                        break
        return next((o for o in strong_owners if o != sid), None)

    strong_tp: dict[str, list[tuple[tuple[int, int], Piece]]] = {}

    def specific_spans(o: str) -> list[tuple[int, int]]:  # the phrase and rare triggers of candidate o
        return [sp for sp, p in strong_tp[o] if p.kind == "trigger" and p.weight >= _STRONG
                and not p.detail.startswith(_SHAPE_DETAILS)]

    def world_besides(mine: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]]) -> bool:
        # a word of the registry's world (a term, a trigger word, an identifier) outside both sets of spans
        return any(not any(_overlaps(d, s) for s in (*mine, *theirs)) for d in domain_spans)

    def own_ask(sid: str, pieces: list[Piece], requests: list[Signal]) -> Piece | None:
        """The ``ask`` of one everyday word in the object of a request of its own (§6.10 ``ask``)."""
        counted = [p for p in pieces if p.kind == "trigger" and p.counts]
        other = other_strong(sid) if len(counted) == 1 and counted[0].detail.startswith("the everyday word") else None
        span = counted[0].span if other is not None else (0, 0)
        r = within(span, requests) if other is not None else None
        # not the request's verb ("order a pizza for the team"); naming more, or beside the registry's world
        if r is None or (r[2].isascii() and span[0] == r[0]) or not own_request(
                span, theirs := specific_spans(other), requests, text) or not (
                world_besides((span,), theirs) or names_more(span, requests, text)):
            return None
        return Piece("ask", r[2], (r[0], r[1]), _WEAK, f"{OWN_ASK} ({quote(r[2])} ...)", "")

    def evidence_of(sid: str, trig_pieces: list[tuple[tuple[int, int], Piece]]
                    ) -> tuple[tuple[Piece, ...], str, tuple[tuple[int, int], ...]]:
        """``(pieces without a not_when, tier, spans of trigger pieces)`` of one candidate."""
        nonlocal requests
        pieces: list[Piece] = []
        pieces.extend(p for _, p in sorted(trig_pieces, key=lambda x: x[0]))
        counted_spans = [p.span for p in pieces if p.kind == "trigger"]
        if any(p.detail.startswith(_SHAPE_DETAILS) for p in pieces):
            why = ""
            if not any(not any(_overlaps(d, s) for s in counted_spans) for d in domain_spans):
                # a word-sense trap: nothing else in the task belongs to the registry's world ("a C# chord"),
                # unless the team speaks of its own work ("What's the GP% on the new miso cod if we sell it at £24?")
                if private is not None or not _TEAM_VOICE.search(text):
                    why = _NO_WORLD
            else:
                other = other_strong(sid)
                if other is not None:  # incidental next to another skill's specific trigger ("this SQL with sqlfluff")
                    if requests is None:
                        requests = asks(text)
                    theirs = specific_spans(other)
                    # an ask of its own, and a word of the registry's world besides the other skill's trigger
                    if not (all(own_request(p.span, theirs, requests, text) for p in pieces
                                if p.detail.startswith(_SHAPE_DETAILS)) and world_besides(counted_spans, theirs)):
                        why = f", {_INCIDENTAL} {quote(other)}"
            if why:
                pieces = [Piece(p.kind, p.text, p.span, _WEAK, p.detail + why, p.trigger)
                          if p.detail.startswith(_SHAPE_DETAILS) else p for p in pieces]
        used_spans = list({p.span for p in pieces} | trigger_spans)
        tiers = [("rare" if p.weight >= _STRONG else "everyday" if _INCIDENTAL in p.detail else "uncommon")
                 if p.detail.startswith(_SHAPE_DETAILS)
                 else lexicon.tier(p.trigger) if "typo" not in p.detail and not p.detail.startswith(_DERIVED)
                 else "everyday"
                 for p in pieces if p.kind == "trigger"]
        order = ("phrase", "rare", "uncommon", "everyday")
        tier = min(tiers, key=order.index) if tiers else "everyday"
        n_terms = 0
        seen_terms = set()
        said = _words_of(pieces)
        for owner, term, span in found_by_owner.get(sid, ()):
            if owner != sid or term in seen_terms or any(_overlaps(span, s) for s in used_spans):
                continue
            if _repeats(term, said):
                continue  # the trigger's own word written again
            if within(span, negations) is not None:
                continue
            seen_terms.add(term)
            w = 1 if n_terms < _MAX_TERMS else 0
            n_terms += 1
            pieces.append(Piece("term", text[span[0]:span[1]], span, w, f"the domain term {quote(term)}", term))
        term_spans = [p.span for p in pieces if p.kind == "term"]  # a word counted as a term is no context too

        def context_word() -> Piece | None:  # a word of the registry's world: a registry term or a trigger word
            for owner, term, span in found_context:
                if owner is not None and owner != "":
                    continue
                if any(_overlaps(span, s) for s in (*used_spans, *term_spans)) or within(span, negations) is not None:
                    continue
                if _repeats(term, said):
                    continue  # a counted trigger's word again is not another word about the registry's world
                what = "the registry's term" if owner is None else _TRIGGER_WORD
                return Piece("context", text[span[0]:span[1]], span, 1, f"{what} {quote(term)}", term)
            return None

        def identifier(brands: bool = True) -> Piece | None:
            for a, b, word in idents:
                if (brands or not _BRAND.fullmatch(word)) and not any(_overlaps((a, b), s) for s in used_spans):
                    return Piece("context", word, (a, b), 1, f"{_IDENTIFIER}{quote(word)}", word)
            return None

        # "my daughter": an identifier first, a word the registry's triggers or terms share only after it
        # (a brand's name, "easyJet", after the registry's words: in private life it is no sign of the registry's world)
        ctx = (context_word() or identifier()) if private is None else (
            identifier(False) or context_word() or identifier())
        if ctx is not None:
            pieces.append(ctx)
        if sum(p.weight for p in pieces) < _STRONG and any(p.kind == "trigger" and p.counts for p in pieces):
            if requests is None:
                requests = asks(text)
            excluded = [(sp, nw) for o, sp, nw in dropped_triggers if o != sid] if dropped_triggers else ()
            mine = {p.span for p in pieces}
            # a fault reported of a thing asks for it when the thing names this candidate's trigger alone
            faults = [f[:3] for f in fault_reports(text) if not any(
                f[0] <= a and b <= f[3] and (a, b) not in mine for a, b in trigger_spans)]
            ask = _asked(pieces, requests + faults if faults else requests,
                         [m.span for o, m in not_when.items() if o != sid], text, lexicon, excluded, ja_life,
                         [f for f in faults if not f[2].isascii()])
            if ask is None:
                ask = own_ask(sid, pieces, requests)
            if ask is None:
                ask = _counted(pieces, text, lexicon)
            if ask is not None:
                pieces.append(ask)
        if sum(p.weight for p in pieces) < _STRONG and negated_other:
            counted = [p for p in pieces if p.kind == "trigger" and p.counts]
            got = instead(counted[0].span, sid, negations, negated_other, text) if len(counted) == 1 else None
            if got is not None:
                pieces.append(Piece("ask", got[0], got[1], _WEAK, got[2], ""))
        if negations and any(p.kind == "negated" for p in pieces) and not any(
                p.kind == "trigger" and p.weight >= _STRONG for p in pieces):
            # the task negates a trigger of this skill: its weaker words say no more than that ("Skip the
            # photoshoot, we'll reuse the supplier images": "images" is no ask for product photography)
            pieces = [Piece(p.kind, p.text, p.span, 0, p.detail + _BESIDE_NEGATED, p.trigger)
                      if p.counts and p.kind in ("trigger", "term", "context", "ask") else p for p in pieces]
        # in a sentence that says "my daughter", "my phone's", a word the registry's triggers or terms share
        # serves private life too ("cabin crew interview", "push notification settings keep resetting"), and beside a
        # word of everyday life a word of another skill's trigger does ("Galley proofs of the novel ... mark
        # corrections"): only a term of the skill's own or an identifier is the registry's world there
        lent = [p for p in pieces if p.kind == "context" and p.counts and (
                private is not None and (not p.detail.startswith(_IDENTIFIER) or _BRAND.fullmatch(p.text))
                or p.detail.startswith(_TRIGGER_WORD))] \
            if private is not None or life is not None else []
        scene = private
        if life is not None and not any(p.kind in ("term", "context") and p.counts and p not in lent
                                        for p in pieces) and (all(
                lexicon.everyday_phrase(p.trigger) for p in pieces
                if p.kind == "trigger" and p.counts and p.detail.startswith("the phrase")) or len(lives) >= 2):
            if requests is None:
                requests = asks(text)
            if not any(p.kind == "trigger" and p.counts and (r := within(p.span, requests)) is not None
                       and not reads_phrase_as_verb(p.span, r, text) for p in pieces):
                scene = life  # no request asks for the work: the word of everyday life sets the scene
        if scene is not None and any(p.kind == "trigger" and p.weight >= _STRONG and p.detail.startswith(_RARE)
                                     for p in pieces) and requests is None:
            requests = asks(text)
        if scene is not None and not any(p.kind in ("term", "context") and p.counts and p not in lent
                                         for p in pieces) and not any(
                p.kind == "trigger" and p.weight >= _STRONG and (not p.detail.startswith(_SCENE_WEAKENS) or (
                    p.detail.startswith(_RARE) and within(p.span, requests) is not None)) for p in pieces):
            # private life and nothing of the registry's world: a phrase or an everyday word is in another sense
            # ("Cancel my gym subscription", "Turn off breaking news alerts on my phone"), and asks nothing;
            # common words of one skill in another sense are still in it: together they weigh 1 ("My dad's
            # hearing aid is still under warranty, how does he get it repaired"); a phrase or a rare word beside
            # another word of the skill still adds up ("Booking the plate reader for my personal holiday week")
            said = f"{PRIVATE_SAID} ({quote(scene)})"
            strong = [p for p in pieces if p.kind == "trigger" and p.weight >= _STRONG]
            if strong and requests is None:
                requests = asks(text)
            capped = not any(within(p.span, requests) is not None for p in strong)
            first = next((p for p in pieces if p.kind == "trigger" and p.counts), None)
            pieces = [Piece(p.kind, p.text, p.span, _WEAK if p.kind == "trigger" and (p is first or not capped) else 0,
                            p.detail + said, p.trigger)
                      if (p.kind in ("trigger", "ask") or p in lent) and p.counts else p for p in pieces]
            tier = "everyday"
        elif (held := [p for p in pieces if p.counts]) and len(held) == 1 and held[0].kind == "trigger" and \
                held[0].detail.startswith("the phrase") and (question is not None or statement()):
            # a question of general knowledge or a statement about the world whose one piece is a phrase: the
            # phrase in another sense ("What was the final bid price in the Chelsea takeover?"); any other
            # piece of the registry's world would count
            said = f"{QUESTION_SAID} ({quote(question)} ...?)" if question is not None else STATEMENT_SAID
            pieces = [Piece(p.kind, p.text, p.span, _WEAK, p.detail + said, p.trigger) if p is held[0] else p
                      for p in pieces]
        return tuple(pieces), tier, tuple(counted_spans)

    def own(sid: str, score: float, tp: list[tuple[tuple[int, int], Piece]]) -> Candidate:
        """The candidate ``sid`` assessed on its own."""
        pieces, tier, counted = evidence_of(sid, tp)
        weight = sum(p.weight for p in pieces)
        nw = not_when.get(sid)
        if nw is not None:
            return Candidate(sid, score, pieces + (Piece("not_when", text[nw.span[0]:nw.span[1]], nw.span, 0,
                                                         f"its not_when {quote(nw.trigger)} matched", nw.trigger),),
                             weight, False, nw.trigger, False, "", counted, tier, False)
        return Candidate(sid, score, pieces, weight, weight >= 2 and bool(counted), "", False, "", counted, tier,
                         any(p.kind == "trigger" and p.weight > 0 for p in pieces))

    out = CandidateList(ranked)
    made: dict[str, Candidate] = {}
    for sig, (_, members) in units.items():
        tp = unit_tp[sig]
        score = sig[0]
        # a candidate whose own domain terms are in the task, or a not_when of which matched, on its own
        apart = not_when.keys() & members | found_by_owner.keys() & members
        for sid in apart:
            made[sid] = own(sid, score, tp)
        rest = [o for o in members if o not in apart] if apart else members
        if not rest:
            continue
        if any(p.detail.startswith(_SHAPE_DETAILS) for _, p in tp):  # incidental next to whose specific trigger
            keyed: dict[str | None, list[str]] = {}
            for sid in rest:
                keyed.setdefault(other_strong(sid), []).append(sid)
            shares = list(keyed.values())
        else:
            shares = [rest]
        for ids in shares:
            pieces, tier, counted = evidence_of(ids[0], tp)
            weight = sum(p.weight for p in pieces)
            counts = any(p.kind == "trigger" and p.weight > 0 for p in pieces)
            supported = weight >= 2 and bool(counted)
            proto = Candidate(ids[0], score, pieces, weight, supported, "", False, "", counted, tier, counts)
            if len(ids) == 1:
                made[ids[0]] = proto
            else:
                out.add_group(proto, tuple(ids))
    for (sid, score, _), tp in zip(alone, alone_tp):
        made[sid] = own(sid, score, tp)
    for sid in sorted(made, key=rank.__getitem__):
        out.add(made[sid])
    return out


def _number_of(trigger: str, shown: str) -> str | None:
    """"singular" or "plural" when ``shown`` is the phrase ``trigger`` with
    only its last word's final "s" dropped or added ("blood test result" for
    `blood test results`), else None (docs/formats.md §6.10: such a phrase is
    no typo of it)."""
    t, w = normalize_text(trigger).strip().lower(), normalize_text(shown).strip().lower()
    if " " not in t or not t.isascii():
        return None
    if t == w + "s":
        return "singular"
    if w == t + "s":
        return "plural"
    return None


def _first(x: tuple):
    return x[0]
