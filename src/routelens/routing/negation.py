"""Negated clauses (docs/formats.md §6.10 ``negated``); what a negation
makes way for is :func:`routelens.routing.signals.contrast`'s.

- :func:`negated`: the clauses a negation governs: English "don't", "do
  not", "no", "not a/the/about ...", "never", "without", "instead of",
  "rather than", "rather not", "skip", "no need for" reach forward to the
  end of the clause; Japanese しないで, なくていい, 不要, ではなく, 以外, やめて,
  せずに reach back to its start; a negation of a verb that leaves something
  out ("don't forget to", "never skip", 忘れないで, 忘れずに) negates nothing;
  work said to be done already before the next step negates it too;
- :func:`ja_clause_start`: where a Japanese clause starts.

Each reads the task as typed and answers with character spans ``[start,
end)`` into it. Nothing in this module imports Textual.
"""

from __future__ import annotations

import re

from routelens.routing.signals import Signal, asks

__all__ = ["negated", "ja_clause_start"]

_I = re.IGNORECASE

_EN_BOUNDARY = re.compile(r"[.,;:!?()\[\]\n]|\s[-–—]\s|\s(?:but|just|only|instead|rather|so|because|then|"
                          r"and\s+then|please\s+just)\b", _I)
_EN_NEG = re.compile(
    r"\b(?:don'?t|do\s+not|dont|never|without|instead\s+of|rather\s+than|rather\s+not|skip|forget(?:\s+about)?|"
    r"no\s+need\s+(?:for|to)|no(?!-)|not(?=\s+(?:a|an|the|any|about|doing|for|this|that|my|our|to)\b)|"
    # the other side of a contrast: "she wants to claim for it, not cancel the policy"
    r"(?<=[,;]\s)not(?=\s+[a-z])|"
    # what we or I are not doing, or will not do: "We are not touching booking class availability", "I'm not
    # asking for a refund", "we won't change the fare" (not "the page is not loading": a symptom)
    r"(?:we\s+are|i\s+am|we're|i'm)\s+not(?=\s+\w+ing\b)|(?:we|i)\s+(?:will\s+not|won'?t|shall\s+not))\b", _I)
_JA_NEG = re.compile(r"しないで|しなくて(?:いい|良い|も)|(?:な|ら)くて(?:いい|良い|も)|ないで|不要|いらない|要らない|"
                     r"ではなく|じゃなくて|じゃなく|以外|やめて|止めて|せずに|せず(?=[、，,])|ずに|"
                     r"ではありません|じゃありません|は結構です|は必要ありません|はもういい")
#: a negation of a verb that itself leaves something out is a request to do it: "don't forget to update the
#: changelog", "never skip the code review", "without skipping the tests"; 忘れないで, 忘れずに, 省略せずに
_EN_DOUBLE_NEG = re.compile(
    r"(?:don'?t|do\s+not|dont|never|without)\s+(?:forget|forgetting|skip|skipping|miss|missing|neglect|neglecting|"
    r"omit|omitting|overlook|overlooking|ignore|ignoring|fail|failing|hesitate)\b", _I)
_JA_DOUBLE_NEG = re.compile(r"(?:忘れ|省略し?|省か|スキップし?|飛ばさ|抜かさ|抜か|欠かさ|怠ら|見落とさ)$")
_JA_BOUNDARY = "、。，．,.!！?？\n"
_MAX_SCOPE_WORDS = 8
#: work said to be done before the next step is asked for: "The stocktake's done already - now raise the purchase
#: order", "The copy edit's finished; next it needs a hed and dek": the clause before the cue is not asked for
_EN_DONE = re.compile(r"(?:\b(?:is|are|was|were|has\s+been|have\s+been)|'s|\u2019s)\s+(?:all\s+)?(?:already\s+)?"
                      r"(?:done|finished|complete[d]?|sorted|raised|handled|submitted|filed|booked)(?:\s+already)?"
                      r"(?=\s*(?:[;:,.]|\s[-\u2013\u2014])\s*(?:and\s+)?(?:now|next|then)\b)", _I)
_EN_CLAUSE_START = re.compile(r"[.;:!?\n]|\s[-\u2013\u2014]\s")
#: work reported as done, in a task that asks for other work: "Master the single; the mix was approved last week".
#: A form of be or "has been" and a verb of work completed (docs/formats.md §6.10 ``negated``)
_EN_MENTIONED = re.compile(r"(?:\b(?:is|are|was|were|has\s+been|have\s+been|had\s+been)|'s|\u2019s)\s+"
                           r"(?:already\s+|just\s+|now\s+|all\s+)?(?:done|finished|completed?|approved|signed(?:\s+off)?|"
                           r"agreed|confirmed|booked|sent|delivered|published|released|submitted|filed|paid|sorted|"
                           r"handled|fixed|resolved|closed|cleared|recorded|arranged|installed|uploaded|issued|printed|"
                           r"shipped|received|mixed|mastered|finali[sz]ed|locked)\b", _I)
#: where the clause of such a report starts: punctuation, a dash, "and", "but"
_MENTION_CLAUSE = re.compile(r"[.;:!?\n,]|\s[-\u2013\u2014]\s|\band\b|\bbut\b", _I)
#: a subordinate clause is a condition or a reason of the work, not a report ("until the repair is done")
_SUBORDINATE = re.compile(r"\b(?:until|till|once|after|before|when|whenever|if|unless|as\s+soon\s+as|by\s+the\s+time|"
                          r"because|since|so\s+that|now\s+that)\b", _I)
_JA_DONE = re.compile(r"(?:は|も)?(?:もう)?(?:済み|済んで|済んだ|完了し(?:て|た|ました)|終わっ(?:て|た)|終わりました)"
                      r"(?:ので|から|います|いる|です)?[。、，．]\s*(?=次|今度|あと|これから)")


def negated(task: str) -> list[Signal]:
    """The spans a negation governs (docs/formats.md §6.10): ``(start, end,
    cue)``, 0-based character offsets. English cues reach forward to the
    end of their clause (at most :data:`_MAX_SCOPE_WORDS` words); Japanese
    cues reach back to the start of theirs. Two negations in a row cancel: "don't forget to X",
    "never skip X", "X も忘れずに" govern nothing. Work said to be done before
    the next step ("The stocktake's done already - now raise the purchase
    order", "棚卸しは完了しました。次に発注を") governs its clause back to its start:
    it is not asked for; so does, in English, work reported as done ("was
    approved", "has been booked", "is signed off") in a task with a
    request (:func:`asks`) outside that clause: "Master the single; the
    mix was approved last week" asks for mastering only. A clause opened
    by until, once, after, if, because ... is a condition, not a report."""
    out: list[Signal] = []
    if not task:
        return out
    doubled = [(d.start(), d.end()) for d in _EN_DOUBLE_NEG.finditer(task)]
    for m in _EN_NEG.finditer(task):
        if any(a <= m.start() < b for a, b in doubled):
            continue  # "don't forget to ...": the two negations cancel
        start = m.end()
        b = _EN_BOUNDARY.search(task, start)
        end = b.start() if b else len(task)
        words = list(re.finditer(r"\S+", task[start:end]))
        if len(words) > _MAX_SCOPE_WORDS:
            end = start + words[_MAX_SCOPE_WORDS - 1].end()
        if end > start:
            out.append((start, end, m.group()))
    for m in _EN_DONE.finditer(task):
        lo = max(0, m.start() - 200)  # as clause_start: never a scan from a long task's start at every cue
        start = max((b.end() for b in _EN_CLAUSE_START.finditer(task, lo, m.start())), default=lo)
        while start < m.start() and task[start].isspace():
            start += 1
        if m.start() > start:
            out.append((start, m.start(), m.group().strip()))
    if _EN_MENTIONED.search(task):
        reqs = None
        for m in _EN_MENTIONED.finditer(task):
            lo = max(0, m.start() - 200)
            start = max((b.end() for b in _MENTION_CLAUSE.finditer(task, lo, m.start())), default=lo)
            if _SUBORDINATE.search(task, start, m.start()) or any(a <= m.start() <= b for a, b, _ in out):
                continue  # a condition of the work, inside a negation, or said already ("... done - now ...")
            if reqs is None:
                reqs = asks(task)
            if not any(b <= start or a >= m.end() for a, b, _ in reqs):
                continue  # no request for other work: a report of this work ("The invoice was paid twice")
            while start < m.start() and task[start].isspace():
                start += 1
            if m.start() > start:
                out.append((start, m.start(), m.group().strip()))
    if not task.isascii():
        for m in _JA_DONE.finditer(task):
            i = ja_clause_start(task, m.start())
            if m.start() > i:
                out.append((i, m.start(), m.group().rstrip("。、，． ")))
        for m in _JA_NEG.finditer(task):
            if _JA_DOUBLE_NEG.search(task, max(0, m.start() - 4), m.start()):
                continue  # 忘れないで, 忘れずに: a request to do it
            i = ja_clause_start(task, m.start())
            if m.start() > i:
                out.append((i, m.start(), m.group()))
    return out


def ja_clause_start(task: str, pos: int) -> int:
    """Where the Japanese clause ending at ``pos`` starts (after the last :data:`_JA_BOUNDARY` mark, or 0)."""
    while pos > 0 and task[pos - 1] not in _JA_BOUNDARY:
        pos -= 1
    return pos
