"""Whether a task is one question of general knowledge (docs/formats.md
§6.10 "A question of general knowledge"): a question about the world, not
the team's work, in which a lone phrase trigger is in another sense ("What
was the final bid price in the Chelsea takeover?").

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re

__all__ = ["general_question", "general_statement"]


#: a question that opens the task: a question word but "how" (except "how did", "how many"), or an auxiliary of a
#: yes/no question
_QUESTION_OPENS = re.compile(r"\s*(?P<word>how\s+did|how\s+many|who|whom|whose|what's|what|which|why|when|where|"
                             r"is|are|was|were|will|would|do|does|did|can|could|should|shall|may|might)\b", re.I)
#: what makes a question the team's own: its people (I, we, our, "us" in lower case: "the US president" is none),
#: its work's progress (yet, still, already), a fault (not, never, n't), the state of a task ("Has ... been
#: signed"), what there is ("Is there any freezer space"), a request ("Can you ..."), a number (an order, a time, a
#: flight), a choice ("... or an A/B test first?": §6.3 step 8 weighs the two), the people a business serves or
#: works with ("Can a client pick up flea treatment without seeing the vet?": a question of the practice's policy)
_WORK_QUESTION = re.compile(r"\b(?:i|me|my|we|our|you|your|yet|still|already|not|never|or|(?:client|customer|patient|guest|"
                            r"passenger|policyholder|claimant|tenant|staff|employee|colleague|supplier|vendor)(?:s|'s|s')?)"
                            r"\b|(?-i:\bus\b)|n't\b|\d|"
                            r"^\s*(?:is|are|was|were)\s+there\b", re.I)


def general_question(text: str) -> str | None:
    """The word opening ``text`` when the whole task is one question of
    general knowledge (docs/formats.md §6.10 ``question``), else None: it
    ends with "?" and opens with a question word or the auxiliary of a
    yes/no question ("Who wrote Great Expectations ...?", "Will the Bank of
    England cut the base rate again ...?"), and holds nothing that makes it
    the team's own — no I, we, our, you ..., no yet, still or already (the
    progress of work), no not, never or n't (a fault), no digit, no "or" (a
    choice between two pieces of work), no client, customer, patient ...
    (the people a business serves), not "is there" (what there is);
    "has"/"have" do not open one ("Has legal review cleared the ... story
    yet?" asks after work). "How" opens none: it asks
    how something is done, a procedure, which is a skill's matter whoever's
    it is ("How does clearing work?"); "how did" (what happened) and "how
    many" (a count) open one. English only; the text as typed."""
    body = text.strip()
    if not body.endswith(("?", "？")) or any(c in body[:-1] for c in "?？\n"):
        return None
    m = _QUESTION_OPENS.match(body)
    if m is None or _WORK_QUESTION.search(body):
        return None
    return m.group("word")


#: a finite verb of a statement: a form of be or have, a past tense ("-ed" or a common irregular one), or a
#: verb of saying or reporting in the present ("says", "argue")
_STATEMENT_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|[a-z]{3,}ed|got|won|lost|sold|said|told|made|took|"
                             r"went|came|left|found|became|began|fell|rose|spent|built|ran|saw|met|held|kept|"
                             r"says|announced|reported|reports|claims|argue|argues)\b")


#: what makes a statement a piece of work: a request however short ("please", "redo it"), a need or a duty
_WORK_STATEMENT = re.compile(r"\b(?:please|pls|needs?|must|should|has\s+to|have\s+to|due)\b", re.I)


def general_statement(text: str, requests: list, faults: list) -> bool:
    """Whether the whole task is a statement about the world, not a
    request (docs/formats.md §6.10 ``statement``): English, no question
    mark, a finite verb (be, have, a past tense, a verb of reporting), no
    request (``requests``: :func:`routelens.routing.signals.asks`, with
    or without ``pronoun``: "Fix it, Daventry is waiting.") and no
    fault reported of a thing (``faults``:
    :func:`routelens.routing.faults.fault_reports`), and nothing that
    makes it the team's own (the words of :func:`general_question`: I,
    we, our, you, not, a digit, a client ...): "Investigators have
    recovered the black box from the airliner that crashed off the coast."
    The text as typed."""
    body = text.strip()
    if not body.endswith(".") or not body.isascii() or "?" in body or "\n" in body or requests or faults:
        return False
    if _WORK_QUESTION.search(body) or _WORK_STATEMENT.search(body):
        return False
    return _STATEMENT_VERB.search(body) is not None
