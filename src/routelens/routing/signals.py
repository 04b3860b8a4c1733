"""What a task says besides its triggers (docs/formats.md §6.10): markup,
technical identifiers, the clauses of several asks and the requests it
makes. Negated clauses are :mod:`routelens.routing.negation`'s; steering
text and destructive intents (§6.11) are :mod:`routelens.routing.safety`'s.

Each detector reads the task as typed and answers with character spans
``[start, end)`` into it. They are general rules about how requests are
written, not lists of any registry's words:

- :func:`markup`: spans inside ``<...>``, ``{...}`` and ``[[...]]``;
- :func:`identifiers`: code-like words (``fct_orders``,
  ``raw_stripe.charges``, ``train.py``, ``camelCase``), which show a
  technical context;
- :func:`clause_breaks`: where one ask ends and another begin ("and",
  "also", "then", "plus", "along with", "in addition", "separately", ";",
  "。", "、", "それと", "あと", "また", "ついでに", "加えて", the te-form "して、"
  and "してYも"), for several needs;
- :func:`asks`: the requests, with the needs said of a thing ("we need
  ...", "the X needs re-checking"); the faults reported of a thing ("the
  dishwasher is broken") are :mod:`routelens.routing.faults`'s.

Numbers (a number used as a verb, a duration, a counted plural) are
:mod:`routelens.routing.counts`'s.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from routelens.text.verbs import a_verb, never_a_verb

__all__ = ["contrast", "markup", "identifiers", "clause_breaks",
           "separate_asks", "and_request", "asks", "clause_start", "SUBJECT_START", "ja_object",
           "within", "own_request", "names_more", "ja_asked_word", "reads_phrase_as_verb", "SENTENCE_BODY", "Signal"]

#: ``(start, end, text)``: a span of the task as typed and what it says
Signal = tuple[int, int, str]

_I = re.IGNORECASE

_MARKUP = re.compile(r"<[^<>\n]{1,300}>|\{[^{}]{1,600}\}|\[\[[^\]]{0,300}\]\]")
_IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z][a-z0-9_]*\.[a-z_][a-z0-9_]+\b|"
                    r"\b[a-z]+[A-Z][A-Za-z0-9]+\b|`[^`\n]{2,80}`|\b[A-Za-z]{2,}[0-9]+[A-Za-z0-9]*\b|"
                    r"\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b|"  # a version: 1.2.3, v2.0.1-rc.1
                    r"\b[A-Z][A-Z0-9]+-\d+(?:-\d+)?\b|"  # an issue or advisory key: PROJ-123, CVE-2024-3094
                    r"(?:\.{0,2}/)?\b[\w.-]+/[\w./-]*\.[A-Za-z0-9]{1,5}\b|"  # a path with a file: src/app.py
                    r"(?<![\w-])--[a-z][a-z0-9-]+\b")  # a command-line flag: --dry-run
_CLAUSE = re.compile(r"[;。；\n]|[,、，]|\s[-–—]\s|\b(?:and(?:\s+(?:also|then|separately))?|also|then|plus|as\s+well\s+as|"
                     r"separately|afterwards|after\s+that|two\s+things|along\s+with|in\s+addition|additionally|"
                     r"on\s+top\s+of\s+that|while\s+you'?re\s+at\s+it|next)\b|それと|あと(?=[、,])|あと|また|それから|"
                     r"ついでに|それに|加えて|さらに|あわせて|併せて|(?:して|て|で)、|(?:して|て)(?=\S{1,20}も)", _I)


#: what parts two asks as two sentences rather than two objects of one request ("a regex and a helm chart"): a
#: sentence end, or a comma, "、" or a dash followed by a word that adds an ask ("..., and grant access",
#: "。あと", "、それから", " - and also"), "two things", "それとは別に"
_SEPARATE = re.compile(r"[!?;。！？；\n]|\.(?=\s)|(?:[,、，]|\s[-–—])\s*(?:and\b|also\b|then\b|plus\b|それと|それから|あと|"
                       r"また|それに|加えて|さらに|あわせて|併せて|ついでに)|\btwo\s+things\b|それとは別に|別件で|"
                       r"て、(?=[^。！？!?\n]*も)", re.I)


def separate_asks(task: str, start: int, end: int) -> bool:
    """Whether the text of ``task`` between two asks' triggers,
    ``[start, end)``, parts them as two sentences (docs/formats.md §6.3 step
    9): a sentence end, a comma or dash followed by "and", "also", "then"
    ..., "。あと", "、それから", "two things", a te-form and a comma before a
    "も" ("追加して、単体テストも書いて"); a bare "and" ("a regex and a helm
    chart") does not."""
    m = _SEPARATE.search(task, start)
    return m is not None and m.start() < end


#: what opens the alternative a negated clause makes way for: "No X, just Y", "No need for X - only Y", "not X
#: but rather Y", "Don't X; instead Y" (docs/formats.md §6.10 ``ask``, the contrast)
_CONTRAST = re.compile(r"[^.;!?\n,\u2013\u2014]*?(?:[,;:]|\s[-\u2013\u2014])\s*(?:but\s+)?(?:just|only|instead|rather)\b"
                       r"|\s+(?:but\s+)?(?:just|only|instead|rather)\b", _I)
_CONTRAST_END = re.compile(r"[.;!?\n,]|\s[-\u2013\u2014]\s")
#: the next clause after a negation's reach, and "instead" closing it: "Not a refund: I'd like a voucher instead"
_NEXT_CLAUSE = re.compile(r"[^.;!?\n,\u2013\u2014]*?(?:[,;:]|\s[-\u2013\u2014])\s*", _I)
_INSTEAD_LAST = re.compile(r"\s+instead(?:\s+please)?\s*$", _I)


def contrast(task: str, negation: Signal) -> Signal | None:
    """The clause that a negated clause makes way for (docs/formats.md §6.10
    ``ask``): "No need for an Instagram post, just put it in the newsletter"
    -> the span of "put it in the newsletter" after "just"; ``(start, end,
    word)``, or None when no "just", "only", "instead" or "rather" opens the
    next clause right after the negation's reach, or "instead" closes that
    clause ("Not a refund: I'd like a voucher instead" -> "I'd like a
    voucher"). A clause that opens with its subject ("I just wanted to vent",
    "we just want to roll it out") is no contrast: the word follows the
    subject, not the negation. In Japanese the negation's cue ends the
    negated clause ("返金はしないで", "メルマガは不要です", "返品ではなく"): the
    next clause, up to its sentence end, is made way for when it ends with a
    te-form request or お願い ("、交換で対応してください", "。クーポンだけ作成して
    ください"): its span up to that ending, and the ending as the word."""
    if not negation[2].isascii():
        return _ja_contrast(task, negation)
    m = _CONTRAST.match(task, negation[1])
    if m is None:
        n = _NEXT_CLAUSE.match(task, negation[1])  # "..., I want Y instead": "instead" closes the next clause
        if n is None:
            return None
        end = _CONTRAST_END.search(task, n.end())
        stop = end.start() if end else len(task)
        last = _INSTEAD_LAST.search(task, n.end(), stop)
        if last is None or last.start() <= n.end():
            return None
        return (n.end(), last.start(), "instead")
    end = _CONTRAST_END.search(task, m.end())
    stop = end.start() if end else len(task)
    if stop <= m.end():
        return None
    word = m.group().split()[-1]
    return (m.end(), stop, word)


#: what may follow a Japanese negation's cue before its clause ends: "です", "でいい", then a comma or full stop
_JA_NEG_TAIL = re.compile(r"(?:です|でいい|で大丈夫|で結構)?[、。，．,.\s]+")


def _ja_contrast(task: str, negation: Signal) -> Signal | None:
    """Japanese :func:`contrast`: the clause after the negated one, ending with a request."""
    m = _JA_NEG_TAIL.match(task, negation[1] + len(negation[2]))
    if m is None:
        return None
    sent = _JA_SENTENCE.match(task, m.end())
    if sent is None:
        return None
    for a in _JA_ASK.finditer(sent.group()):
        if a.start() > 0 and not _JA_INFO.search(sent.group()[:a.start()]):
            return (m.end(), m.end() + a.start(), a.group())
    return None


def markup(task: str) -> list[Signal]:
    """Spans inside markup: ``<...>``, ``{...}``, ``[[...]]``."""
    if "<" not in task and "{" not in task and "[[" not in task:
        return []
    return [(m.start(), m.end(), m.group()) for m in _MARKUP.finditer(task)]


def identifiers(task: str) -> list[Signal]:
    """Code-like words: ``snake_case``, ``schema.table``, ``file.py``,
    ``camelCase``, ```code```, ``arm64``, versions (``1.2.3``), issue and
    advisory keys (``PROJ-123``, ``CVE-2024-3094``), paths with a file
    (``src/app.py``) and command-line flags (``--dry-run``)."""
    return [(m.start(), m.end(), m.group()) for m in _IDENT.finditer(task)]


#: Japanese: "と" coordinating two actions, the second with its own verbal noun after "の" and a request or
#: object particle after it ("権限申請とDAGの再実行をお願いします"), as "and" coordinates two asks in English
_JA_AND_ACTION = re.compile(r"(?<=[\u3400-\u9fff\u30a1-\u30ffA-Za-z0-9])と(?=[^、。，,！？!?\sとの]{1,20}の"
                            r"[\u3400-\u9fff\u30a1-\u30ff]{2,}(?:を|も|お願い))")


def clause_breaks(task: str) -> list[int]:
    """Offsets where one ask may end and another begin, sorted."""
    found = [m.start() for m in _CLAUSE.finditer(task)]
    if "と" in task:
        found = sorted(found + [m.start() for m in _JA_AND_ACTION.finditer(task)])
    return found


#: words that open a clause without being its request verb: determiners, pronouns, auxiliaries and
#: modals, question words, prepositions, conjunctions, numbers and greetings (closed classes of English)
_NOT_A_REQUEST_VERB = frozenset(
    "a an the this that these those my our your his her their its some any no every each all both either neither "
    "another other such what which whose who whom when where why how whether i you he she it we they me us him "
    "them i'm im i've i'd i'll we're we've we'd we'll you're it's its there there's here here's is are was were be "
    "been being am do does did done have has had having can could will would shall should may might must "
    "cannot can't won't don't doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't not never at in "
    "on of for to from with about by after before during since until till under over into onto than as and or "
    "but if because so while though although yet also just only even still then now hi hello hey thanks thank "
    "ok okay yes yeah well oh one two three four five six seven eight nine ten dear".split())
#: what may come before a request verb without being it: "please", "can you", "help me", "I need you to", an
#: adverb of when or how ("just", "also", "now", "then", "first", "quickly": "No push alert; just update the readme")
_REQUEST_LEAD = re.compile(
    r"\s*(?:so\s+(?=(?:please|pls|plz|kindly|can|could|would)\b)|(?:please|pls|plz|kindly)\s+|(?:can|could|would|will)\s+(?:you|we|someone)\s+(?:please\s+)?|"
    r"help\s+me\s+(?:to\s+)?|i\s+need\s+you\s+to\s+|i'?d\s+like\s+you\s+to\s+|we\s+need\s+to\s+|i\s+need\s+to\s+|"
    r"let'?s\s+|go\s+ahead\s+and\s+|(?:just|also|now|then|first|quickly)\s+|(?:i'?m|i\s+am|we'?re|we\s+are)\s+trying\s+to\s+|"
    r"(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:currently\s+|still\s+|now\s+)?(?=\w+ing\b))*", _I)
#: what follows "do" when it is the request verb, not an auxiliary: a determiner of its object ("Do the
#: stocktake", "do a code review"; "Do you ..." and "do not" are no request)
_DO_OBJECT = frozenset("the a an this that these those our my your his her their some".split())
#: a word of an English request: Latin (with tight punctuation), a number, or a run of Japanese standing in its
#: object between spaces ("Can you do the 棚卸 for aisle C": a mixed task names the thing in Japanese); a full
#: stop, colon or slash ending it is punctuation, not part of it ("Refactor the parser. Then add unit tests")
_EN_WORD = re.compile(r"[A-Za-z](?:[A-Za-z0-9'#+%./:&-]*[A-Za-z0-9'#+%&-])?|[£$€¥]?\d(?:[\w:./%]*[\w%])?|"
                      r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]+")
#: requests to be told, shown, advised or sold something: the English of "教えて" ("recommend a good notebook")
_EN_INFO = frozenset("tell teach recommend suggest advise show buy sell".split())
#: words that end a request verb's object: prepositions, conjunctions, relative words
_OBJECT_END = frozenset(
    "at in on of for to from with about by after before during since until into onto than as and or but if "
    "because so while though which that who when where why how whether".split())
#: words that open a clause of their own: a finite verb after them is that clause's
_CLAUSE_OPENERS = frozenset("that which who whom whose where when if whether because so while though and or but "
                            "than as".split())
#: request verbs whose object may be a clause with its own finite verb ("check the link is correct")
_CLAUSE_OBJECT_VERBS = frozenset("check ensure verify confirm see test make find figure work explain tell show "
                                 "prove".split())
_CLAUSE_STOP = re.compile(r"[.,;:!?()\n]|\s[-\u2013\u2014]\s")
#: a finite verb right after the words that open a clause makes them its subject: a statement
_FINITE = frozenset("is are was were isn't aren't wasn't weren't has have had hasn't haven't can will would should "
                    "could may might must won't can't keeps kept seems looks".split())
#: a particle after a request verb whose object follows it ("reply to the review", "look into the job"); not
#: "with": "help with the deploy" asks for help, not for work on the deploy
_VERB_PARTICLE = frozenset("to into on at".split())
#: a verb in the past tense, in lower case: a regular "-ed" form or a common irregular one
_PAST = re.compile(r"[a-z]+ed|sent|said|told|made|wrote|took|gave|got|went|came|left|found|bought|paid|lost|broke|"
                   r"ran|sold|built|spent|brought|caught|put|set|let|hit|cut|quit|read|won|drove|flew|threw|knew")
#: a determiner or an object pronoun: after a verb, the start of its object
_DETERMINER_WORDS = frozenset("a an the this that these those my our your his her their its me us him them it "
                              "some all every each any".split())
_WH_OBJECT = frozenset("why how what where when whether which who".split())
_PRONOUN_OBJECT = frozenset("it this that them these those me us him her".split())
#: a pronoun that points back at what was said before ("These strings were translated badly, please redo them")
_BACK_PRONOUN = frozenset("it them this that these those".split())
_MAX_OBJECT_WORDS = 5
#: a Japanese sentence that asks for work: a te-form request or お願い at the end of a clause. A wish
#: (〜たい, "I want to ...") is no request to the agent, as "I want to ..." is none in English:
#: "今年一年の振り返りを日記に書きたい" (a diary) must not route to a retrospective skill
_JA_ASK = re.compile(r"(?:て(?:ください|下さい|ほしい|欲しい|もらえ(?:ます|ません)?か?|くれ(?:ます|ません)?か?|おいて)?"
                     r"|お願い(?:します|いたします|致します)?)(?=[、。，．,.!！\s]|$)")
#: compound particles that end in て ("について" about, "として" as, "によって" by ...): before a comma they
#: continue the sentence, no te-form request
_JA_PARTICLE_TE = re.compile(r"(?:につい|とし|によっ|に対し|にとっ|に関し|に際し|を通し|におい|に基づい|に沿っ|に向け|"
                             r"をめぐっ|に応じ|に従っ|にわたっ|に当たっ|にあたっ|をもっ|に加え|に比べ)$")
#: a request to be told something is no request for work ("コツを教えて")
_JA_INFO = re.compile(r"(?:教え|知り|分かり|わかり)$")
_SENTENCE_END = re.compile(r"[.!?\n]|$")
#: what parts a clause of work in progress from a question after it: a comma, a semicolon or a dash
_ING_APART = re.compile(r"[,;]|\s[-\u2013\u2014]\s")
#: a sentence of a task that may mix Japanese and English: up to 。！？!? or a line break, or a full stop
#: followed by white space or the end ("the invoice. 猫に餌をあげてください" is two sentences; "v1.2" one word)
SENTENCE_BODY = r"(?:[^。！!？?．\n.]|\.(?!\s|$))+"
_JA_SENTENCE = re.compile(SENTENCE_BODY)


#: full-width ASCII (U+FF01-FF5E) and the ideographic space, as ASCII: one character for one
_FULL_WIDTH = {0xFF01 + i: 0x21 + i for i in range(94)} | {0x3000: 0x20}


def _finite_after(task: str, pos: int) -> bool:
    """Whether a finite verb of :data:`_FINITE`, written in lower case (not
    "May" the month), follows ``pos`` in the same clause: before
    punctuation and before a word of :data:`_CLAUSE_OPENERS`."""
    for m in _EN_WORD.finditer(task, pos):
        if _CLAUSE_STOP.search(task, pos, m.start()):
            return False
        w = m.group()
        if w.lower() in _CLAUSE_OPENERS:
            return False
        if w.lower() in _FINITE and w.islower():
            return True
        pos = m.end()
    return False


def asks(task: str, pronoun: bool = False) -> list[Signal]:
    """The spans where the task asks for work (docs/formats.md §6.10
    ``ask``): ``(start, end, said)``, ``said`` the request word. In English,
    a clause that opens with its request verb (after "please", "can you",
    "help me" ...; not a determiner, pronoun, auxiliary, question word or
    preposition) spans the verb and its object, up to 5 words and no further
    than a preposition, a conjunction or punctuation; a verb with no object,
    or only a pronoun ("deploy it"), asks for nothing, and a question asks
    only when it opens with "can you", "could you" ...; a request to be
    told, advised or sold something ("recommend a notebook") asks for no
    work. In Japanese, a
    sentence that ends a clause with a te-form request (して, 書いてください,
    直してほしい) or お願いします spans from its start to that ending,
    unless the request is to be told something (教えて); a wish (作りたい,
    like "I want to ..." in English) asks for nothing."""
    out: list[Signal] = []
    task = task.translate(_FULL_WIDTH)  # "Draft a ＦＯＩＡ request": one character for one, so spans hold
    starts = [0] + [m.end() for m in _CLAUSE.finditer(task)] + [m.end() for m in re.finditer(r"[.!?:]\s", task)]
    for st in sorted(set(starts)):
        lead = _REQUEST_LEAD.match(task, st)
        pos = lead.end()
        polite = bool(re.search(r"(?:can|could|would|will)\s", task[st:pos], _I))
        words = []
        for m in _EN_WORD.finditer(task, pos):
            gap = task[pos:m.start()] if not words else task[words[-1].end():m.start()]
            if gap.strip() or len(words) > _MAX_OBJECT_WORDS:
                break
            if words and not gap and not m.group().isascii():
                break  # Japanese glued to a Latin word ("dbtの変更です") is a Japanese clause, not an English object
            words.append(m)
        if len(words) < 2:
            continue
        verb = words[0].group().lower()
        shown = words[0].group()
        if verb == "do" and words[1].group().lower() in _DO_OBJECT:
            pass  # "Do the stocktake", "please do an accessibility pass": "do" with an object is the request verb
        elif (verb in _NOT_A_REQUEST_VERB or not verb.isalpha() or not verb.isascii()
              or (len(shown) > 1 and shown.isupper()) or shown[1:] != shown[1:].lower()):
            continue  # no verb: a closed-class word, a number, a punctuated word, an acronym or a name written
            # with a capital inside ("PayPal payout for March doesn't match", "GitHub Actions are slow")
        elif words[1].group().lower() not in _DO_OBJECT and never_a_verb(verb):
            continue  # a noun or an adjective opening a noun phrase ("Restaurant booking in Gion"); "triage the
            # crash" (a noun to WordNet, a verb in a ticket) stays a request before its determiner
        if verb in _EN_INFO:
            continue  # a request to be told or to be sold something ("recommend a notebook"), not for work
        rest = words[1:]
        if (shown[0].isupper() and len(rest) >= 3 and rest[0].group()[:1].isupper()
                and _PAST.fullmatch(rest[1].group()) and rest[2].group().lower() in _DETERMINER_WORDS):
            continue  # a name of two capitalised words and its verb: "Bill Gates sent an invoice template"
        obj = []
        if len(rest) >= 2 and rest[0].group().lower() in _VERB_PARTICLE:
            rest = rest[1:]  # "reply to yesterday's review", "look into the failing job": the object follows it
        if rest and rest[0].group().lower() in _WH_OBJECT:
            obj.append(rest[0])  # "debug why the worker hangs": the object is a clause
            rest = rest[1:]
        statement = False
        for m in rest:
            w = m.group().lower()
            if w in _FINITE:
                if obj and obj[0].group().lower() in _WH_OBJECT:
                    break  # "check which dishes we can do": the verb of the object's own clause
                second = [i for i, x in enumerate(obj) if x.group().lower() in _DO_OBJECT]
                if len(second) >= 2:
                    del obj[second[1]:]  # "write a runbook the alert can link to": a relative clause ends it
                    break
                statement = True  # "finance dashboards are stale": a subject and its verb, no request
                break
            if w in _OBJECT_END:
                # "Bluetooth pairing with my headphones keeps failing": a finite verb after the phrase that ends
                # the object, in the same clause, makes the words before it a subject (not after "that", "and"
                # ..., nor for a verb whose object may be a clause: "Check the link in the email is correct")
                statement = w not in _CLAUSE_OPENERS and verb not in _CLAUSE_OBJECT_VERBS and _finite_after(
                    task, m.end())
                break
            obj.append(m)
        only_pronoun = bool(obj) and all(m.group().lower() in _PRONOUN_OBJECT for m in obj)
        if pronoun:
            if statement or not only_pronoun or obj[0].group().lower() not in _BACK_PRONOUN or verb in _EN_INFO:
                continue  # with ``pronoun``: only a request whose object is "it", "them", "this" ... ("redo them")
        elif statement or not obj or only_pronoun or all(m.group().lower() == verb for m in obj):
            continue  # no object, only a pronoun ("deploy it"), or the verb again ("debug debug")
        end_sentence = _SENTENCE_END.search(task, pos).start()
        if task[end_sentence:end_sentence + 1] == "?" and not polite and not (
                verb.endswith("ing") and _ING_APART.search(task, obj[-1].end(), end_sentence)):
            continue  # a question asks to be told, not for work (but "Deploying X now, anything to watch?": the
            # work in progress is a clause of its own, parted from the question by a comma)
        out.append((words[0].start(), obj[-1].end(), words[0].group()))
    if pronoun:
        return sorted(set(out))
    out += _need_asks(task)
    for m in _JA_SENTENCE.finditer(task):
        sent = m.group()
        for a in _JA_ASK.finditer(sent):
            if _JA_INFO.search(sent[:a.start()]):
                continue
            if a.group() == "て" and _JA_PARTICLE_TE.search(sent[:a.start()]):
                continue  # "地震保険の歴史について、": a compound particle ending in て, no request
            if a.start() == 0:
                continue
            out.append((m.start(), m.start() + a.end(), a.group()))
    return sorted(set(out))


#: "we need new vouchers designed ...": the team's need, at a clause's start, is a request for its object (not
#: "we need to ...", a request verb's lead; not "I need ...", as often a want of one's own)
_WE_NEED = re.compile(r"(?:^|(?<=[.;:!?,\n]\s)|(?<=[.;:!?,\n]))\s*(?:so\s+|and\s+)?we\s+(?:really\s+|urgently\s+|also\s+)?"
                      r"need\s+(?!to\b|you\b|help\b|it\b|them\b|this\b|that\b|a\s+break\b|some\s+sleep\b)", _I)
#: "the allergens on the katsu curry need re-checking", "the rota needs to be redone": a thing said to need work
_NEEDS_WORK = re.compile(r"\s+needs?\s+(?:(?:re-?)?[a-z]+ing\b|to\s+be\s+(?:re-?)?[a-z]+(?:ed|en|ne|t)\b)", _I)
#: work said of a thing that names no work: "needs sorting", "needs looking at", "needs dealing with"
_VAGUE_WORK = re.compile(r"\b(?:sort(?:ing|ed)|look(?:ing|ed)|handl(?:ing|ed)|deal(?:ing|t)|attend(?:ing|ed))\b", _I)
#: the determiner that opens a clause's subject ("the allergens ...", "and our till ...")
SUBJECT_START = re.compile(r"(?:^|(?<=[.;:!?,\n])\s*|\b(?:and|but|so)\s+)(?:the|our|these|those|this|that|all\s+the)\s+",
                           _I)


#: "the coach wants the match report for Monday", "the guest has asked for a late checkout": someone's want,
#: relayed by the writer, is a request for its object (after a subject that :data:`SUBJECT_START` opens: not "my")
_RELAYED = re.compile(r"\s+(?:wants?|would\s+like|'d\s+like|(?:has|have)\s+asked\s+for|asked\s+for|"
                      r"(?:is|are)\s+asking\s+for|requested)\s+(?!to\b)", _I)
#: a want denied: "the guest doesn't want a refund", "they never asked for a rebooking"
_DENIED = re.compile(r"n't\b|\b(?:not|never|no\s+longer)\b", _I)


def _object_after(task: str, pos: int) -> list[re.Match]:
    """The words of the object that starts at ``pos``: up to
    :data:`_MAX_OBJECT_WORDS` words, to punctuation, a word that ends an
    object (a preposition, a conjunction) or a finite verb."""
    obj: list[re.Match] = []
    for w in _EN_WORD.finditer(task, pos):
        if task[(obj[-1].end() if obj else pos):w.start()].strip() or len(obj) >= _MAX_OBJECT_WORDS:
            break
        if w.group().lower() in _OBJECT_END or w.group().lower() in _FINITE:
            break
        obj.append(w)
    return obj


def _need_asks(task: str) -> list[Signal]:
    """Asks said with "need" or relayed (docs/formats.md §6.10 ``ask``): the writer's
    need at a clause's start asks for its object ("We need new vouchers
    designed for the Christmas range": up to 5 words, to a preposition, a
    conjunction or punctuation), someone's want relayed asks for its object
    ("After the derby, the coach wants the match report for Monday": a
    subject opened by the, our, this ... and at most 4 more words, not
    denied, then wants, would like, has asked for, is asking for or
    requested), and a thing said to need work asks for that thing ("The
    allergens on the katsu curry need re-checking", "the rota needs to be
    redone": from its determiner to "need"). ``said`` is
    "need"/"needs", or the relaying verb ("wants", "has asked for")."""
    out: list[Signal] = []
    for m in _WE_NEED.finditer(task):
        obj = _object_after(task, m.end())
        if obj and not all(w.group().lower() in _DETERMINER_WORDS for w in obj):
            need = task.lower().rindex("need", m.start(), m.end())
            out.append((need, obj[-1].end(), task[need:need + 4]))
    for m in _RELAYED.finditer(task):
        subj = next(SUBJECT_START.finditer(task, clause_start(task, m.start()), m.start()), None)
        if subj is None or len(task[subj.end():m.start()].split()) > 4 or _DENIED.search(task, subj.end(), m.start()):
            continue
        obj = _object_after(task, m.end())
        if obj and not all(w.group().lower() in _DETERMINER_WORDS for w in obj):
            verb = m.group().lstrip()
            out.append((m.end() - len(verb), obj[-1].end(), " ".join(verb.split())))
    for m in _NEEDS_WORK.finditer(task):
        subj = next(SUBJECT_START.finditer(task, clause_start(task, m.start()), m.start()), None)
        if subj is None or len(task[subj.end():m.start()].split()) > 7:
            continue
        if _VAGUE_WORK.search(m.group()) and len(task[subj.end():m.start()].split()) <= 1:
            continue  # "The dashboard needs sorting": which work, as "sort the dashboard" says nothing of it
        out.append((subj.start() + len(subj.group()) - len(subj.group().lstrip()), m.end(), m.group().split()[0]))
    return out


def clause_start(task: str, pos: int) -> int:
    """Where the clause holding ``pos`` starts: after the last punctuation of
    :data:`_CLAUSE_STOP` before it, looked for in the 200 characters before
    ``pos`` only (a subject read here is a few words long; a task of a
    million characters must not be scanned from its start at every match)."""
    lo = max(0, pos - 200)
    return max((x.end() for x in _CLAUSE_STOP.finditer(task, lo, pos)), default=lo)


@functools.lru_cache(maxsize=32)
@functools.lru_cache(maxsize=32)
def _asks_once(text: str) -> list[Signal]:
    """:func:`asks`, once per task (the several-needs tests ask it for each
    pair of asks). Do not mutate the list returned."""
    return asks(text)


#: a bare "and" (or "and also", "and then", "plus", "as well as" ...) between two asks
_AND = re.compile(r"\b(?:and(?:\s+(?:also|then|additionally|in\s+addition))?|plus|as\s+well\s+as|along\s+with)\s+",
                  re.I)
#: a te-form closed by a comma, not a compound particle ("について、", "として、", "に対して、", "によって、")
_TE_COMMA = re.compile(r"(?<!につい)(?<!とし)(?<!にとっ)(?<!対し)(?<!よっ)(?<!関し)(?<!おい)て[、，,]")
_JA_BREAK = re.compile(r"[。！？!?\n]")
_FIRST_WORD = re.compile(r"[A-Za-z]*")
_VERB_THEN_DETERMINER = re.compile(r"[A-Za-z]+\s+(?:the|a|an|this|that|these|those|my|our|your|their|his|her|its|"
                                   r"some|all|every|each|any)\b", re.I)


def and_request(text: str, start: int, end: int) -> bool:
    """Whether a bare "and" in ``text[start:end]`` (the text between two
    asks' triggers) opens a request of its own (docs/formats.md §6.3 step 9):
    a request verb right after it ("Plan the weekly menu and check allergens
    for every dish", "fix the flaky test and update the readme") parts two
    requests as a sentence end would; two objects of one request ("a regex
    and a helm chart", "Write a dockerfile and a threat model") stay one
    request, and so does a next trigger whose first word only looks like a
    verb ("a dockerfile and threat models"; "and write a sql query" is a
    request: a determiner follows the verb; so is "and add unit tests":
    WordNet knows "add" as a verb). In Japanese, a te-form request
    closed by a comma ("シフト表を作って、") followed by a request that ends
    the same sentence after the next ask ("有給申請を承認してください") parts
    them the same way; "について、" and the like are no request. Offsets are
    ``[start, end)`` character offsets into ``text``."""
    found = _asks_once(text)
    opens = {a for a, _, said in found if said.isascii()}
    # a "verb" that opens the next ask's trigger is a verb when a determiner follows it ("and write a sql
    # query" for `write a query`) or WordNet knows it as one ("and add unit tests" for `add tests`); else it is
    # the trigger's first noun ("and threat models")
    if any(m.end() in opens and (m.end() < end or _VERB_THEN_DETERMINER.match(text, m.end())
                                 or a_verb(_FIRST_WORD.match(text, m.end()).group()))
           for m in _AND.finditer(text, start, end)):
        return True
    # Japanese: a te-form request closed by a comma ("シフト表を作って、") and a request ending the sentence
    # after the next ask ("有給申請を承認してください"), as "..., and approve" in English
    return any(any(b > end and not said.isascii() and not _JA_BREAK.search(text, m.end(), b) for _, b, said in found)
               for m in _TE_COMMA.finditer(text, start, end))


def reads_phrase_as_verb(span: tuple[int, int], request: Signal, text: str) -> bool:
    """Whether ``request`` (from :func:`asks`) is only the phrase trigger
    at ``span`` read as an imperative (docs/formats.md §6.10, private life):
    the request's verb is the phrase's first word and no determiner follows
    it nor after the phrase, so the phrase is a noun phrase heading the text
    ("Gate change at the concert venue": "gate" is a verb to WordNet too),
    not a request for its work ("Book a table for the wedding party" and
    "colour grade the beach set" ask). Offsets are 0-based
    character offsets into ``text``."""
    return (request[0] == span[0] and len(text[span[0]:span[1]].split()) >= 2
            and _VERB_THEN_DETERMINER.match(text, span[0]) is None and _OBJECT_AFTER.match(text, span[1]) is None)


#: a determiner after a phrase makes the phrase a verb with its object: "colour grade the beach set"
_OBJECT_AFTER = re.compile(r"\s+(?:the|a|an|this|that|these|those|my|our|your|their|his|her|its|some|all|every|each|"
                           r"any)\b", re.I)


#: what a Japanese request may hold besides its object: demonstratives and particles ("これを", "この")
_JA_NO_OBJECT = re.compile(r"(?:これ|それ|あれ|この|その|あの|ここ|そこ|[をのがにはでともへやっし]|する|[、。，．,.!！?？\s])+")


def ja_object(task: str, ask: Signal, span: tuple[int, int]) -> bool:
    """Whether the Japanese request ``ask`` (from :func:`asks`) holds an
    object besides the word at ``span`` and its request ending: "デプロイして"
    and "これを英訳して" ask for nothing named (like "deploy it");
    "このメールを英訳して" names the mail."""
    rest = task[ask[0]:span[0]] + task[span[1]:ask[1] - len(ask[2])]
    return bool(_JA_NO_OBJECT.sub("", rest))


def within(span: tuple[int, int], spans: list[Signal]) -> Signal | None:
    """The first of ``spans`` that holds ``span`` wholly, or None."""
    for s in spans:
        if s[0] <= span[0] and span[1] <= s[1]:
            return s
    return None


#: Japanese: "と" right after the other ask's trigger (its noun phrase ends there) coordinates two objects
_JA_AND = re.compile(r"\s*と\s*")
#: Japanese: "の" and a verbal noun of its own (再実行, 設定, 確認) before を, も or お願い: "DAGの再実行をお願いします"
_JA_OWN_ACTION = re.compile(r"\s*の[\u3400-\u9fff\u30a1-\u30ff]{2,}(?:を|も|は|、|お願い)")


def own_request(span: tuple[int, int], theirs: Sequence[tuple[int, int]], requests: list[Signal], text: str) -> bool:
    """Whether the trigger at ``span`` heads an ask of its own, apart from
    another skill's specific triggers at ``theirs`` (docs/formats.md §6.10
    ``trigger``, shape): a request (:func:`asks`)
    holds it as its verb or in its object (in Japanese, a request that names
    something besides it), holds none of ``theirs``, and the text between it
    and each of ``theirs`` parts two asks as sentences or as two requests
    ("..., and also raise a PO for the produce", "... and file a PO for the
    fish": :func:`separate_asks`, :func:`and_request`); in one Japanese
    request, a trigger coordinated by "と" right after another's, with an
    action of its own after "の" ("権限申請とDAGの再実行をお願いします"). Offsets are ``[start,
    end)`` character offsets into ``text``."""
    r = within(span, requests)
    if r is None or not theirs or (not r[2].isascii() and not ja_object(text, r, span)):
        return False
    for s in theirs:
        if s[0] < r[1] and r[0] < s[1]:
            if r[2].isascii() or not _JA_OWN_ACTION.match(text, span[1]) or not (
                    s[1] <= span[0] and _JA_AND.fullmatch(text, s[1], span[0])):
                return False
            continue  # "AとBの再実行をお願いします": B's own action, coordinated with A
        lo, hi = (s[1], span[0]) if s[1] <= span[0] else (span[1], s[0])
        if not (separate_asks(text, lo, hi) or and_request(text, lo, hi)):
            return False
    return True


#: words of a request that name nothing: determiners and pronouns (a closed class of English)
_EMPTY_WORDS = frozenset("a an the this that these those my our your his her their its some any all every each it "
                         "them me us him up out over down off".split())


def names_more(span: tuple[int, int], requests: list[Signal], text: str) -> bool:
    """Whether the request holding the trigger at ``span`` names something
    besides its verb and the trigger ("place a top-up order", "clear the
    failed DAG runs"; not "set up MFA", "place an order"): a content word of
    its object outside ``span``; a Japanese request names something besides
    the trigger and its ending (:func:`ja_object`)."""
    r = within(span, requests)
    if r is None:
        return False
    if not r[2].isascii():
        return ja_object(text, r, span)
    words = re.findall(r"[\w'-]+", text[r[0]:span[0]] + " " + text[span[1]:r[1]])
    return any(w.lower() not in _EMPTY_WORDS for w in words[1:])


#: a number used as a verb: it opens a clause (after "please", "and also" ...) and a determiner follows it
#: what follows a Japanese word that is a request's object or its verb: を, or a する form ("貨物を300kg予約して",
#: "翻訳して", "お願いします")
_JA_OBJECT_OR_VERB = re.compile(r"を|して|します|する|お願い")
#: a Japanese task that is only the word (\x00 stands for it), maybe a determiner, and a generic request: underspecified
#: ("テストを直して", "その貨物を確認してください"), as "check the booking" is in English (evidence's ``_bare``)
_JA_BARE = re.compile(r"\s*(?:この|その|あの|例の)?\s*\x00\s*[をの]?\s*(?:直して|なおして|確認して|見て|みて|対応して|チェックして|"
                       r"修正して|手伝って|やって|して|お願い)\s*(?:ください|下さい|ほしい|欲しい|もらえますか|します|いたします)?"
                       r"\s*[。．.！!？?]*\s*")


def ja_asked_word(text: str, span: tuple[int, int]) -> bool:
    """Whether the Japanese word at ``span`` is what a request is for
    (docs/formats.md §6.10 ``ask``): its object or its verb
    (:data:`_JA_OBJECT_OR_VERB` right after it: "明日の羽田のスポットを割り当てて
    ください", "この資料を翻訳して"), in a task that says more than the word and
    a generic request (:data:`_JA_BARE`: "テストを直して" is underspecified).
    Whether a request ends its sentence is :func:`asks`'s to say."""
    a, b = span
    return _JA_OBJECT_OR_VERB.match(text, b) is not None and _JA_BARE.fullmatch(text[:a] + "\x00" + text[b:]) is None
