"""The faults a task reports of a thing (docs/formats.md §6.10 ``ask``): a
ticket that says "The dishwasher is broken" or "レジが固まって" asks for help
with the thing, as a request does.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re

from routelens.routing.negation import ja_clause_start
from routelens.routing.signals import SUBJECT_START, clause_start

__all__ = ["fault_reports"]

_I = re.I


def fault_reports(task: str) -> list[tuple[int, int, str, int]]:
    """The faults the task reports of a thing (docs/formats.md §6.10
    ``ask``): a clause whose subject opens with "the", "our", "this" ...
    (at most 5 more words; not "my": private life) and goes on with a
    fault ("is broken", "is leaking", "won't open", "keeps jamming", "has
    stopped working"): "The till at Soho won't open the cash drawer", "The
    dishwasher is broken". From the subject's
    determiner to the fault, ``said`` the fault's last word, and where the
    subject ends (the fault's start): ``(start, end, said, subject_end)``. A ticket
    reporting a fault asks for help with the thing, as a request does; the
    caller grants it only when the subject names one candidate's trigger
    ("The forecast dashboard ... is broken" does not say whether the
    forecast or the dashboard is). In Japanese, a fault after its
    subject's が or は (:data:`_JA_FAULT`: 壊れ, 固まって, 落ちた, 出ない ...),
    the subject at most :data:`_JA_SUBJECT_CHARS` characters from its
    clause's start: "レジが固まって会計できない" gives ``(0, 6, "固まっ", 2)``. Do not
    mutate the list returned."""
    out: list[tuple[int, int, str, int]] = []
    for m in _FAULT.finditer(task):
        subj = next(SUBJECT_START.finditer(task, clause_start(task, m.start()), m.start()), None)
        if subj is None or len(task[subj.end():m.start()].split()) > 5:
            continue
        out.append((subj.start() + len(subj.group()) - len(subj.group().lstrip()), m.end(), m.group().split()[-1],
                    m.start()))
    for m in _JA_FAULT.finditer(task):
        st = ja_clause_start(task, m.start())
        if 0 < m.start() - st <= _JA_SUBJECT_CHARS:
            out.append((st, m.end(), m.group("fault"), m.start()))
    return out


#: a fault reported of a thing ("The till at Soho won't open the cash drawer", "the dishwasher is broken"): a
#: request for help with it, as a ticket is
_FAULT = re.compile(
    r"\s+(?:(?:is|are|was|were)\s+(?:still\s+|now\s+|completely\s+|totally\s+)?(?:broken|leaking|faulty|jammed|stuck|"
    r"frozen|dead|offline|down|not\s+working|out\s+of\s+order|playing\s+up|acting\s+up|malfunctioning|"
    r"overheating|blocked|clogged)|(?:won'?t|will\s+not|doesn'?t|does\s+not|don'?t|do\s+not|can'?t|cannot)\s+"
    r"(?:open|start|print|work|turn\s+on|switch\s+on|connect|load|close|boot|drain|heat|cool|charge|sync|lock|"
    r"unlock|scan)|keeps?\s+(?:failing|crashing|breaking|leaking|jamming|freezing|tripping|cutting\s+out)|"
    r"(?:has|have)\s+(?:stopped\s+working|broken|died|crashed|frozen|failed)|stopped\s+working|"
    r"(?:broke|died|crashed|froze)\b)", _I)


#: a fault reported of a thing in Japanese, after its subject's が or は: "レジが固まって", "POSが落ちた",
#: "レシートが出ない", "食洗機が壊れています"
_JA_FAULT = re.compile(r"[がは](?:また|まだ|ずっと|急に|全然|突然)?(?P<fault>壊れ|故障し|動かな|固まっ|落ちた|落ちて|"
                       r"出な(?:い|くな)|開かな|つかな|点かな|止まっ|使えな|反応しな|繋がらな|つながらな|起動しな|"
                       r"フリーズし)")
#: the longest subject of such a fault, in characters from its clause's start
_JA_SUBJECT_CHARS = 16
