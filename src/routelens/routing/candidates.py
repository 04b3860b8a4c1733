"""The candidates of one task (docs/formats.md §6.10): a :class:`Candidate`
per skill that cleared the threshold, with its :class:`Piece` s of evidence.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["STRONG_WEIGHT", "WEAK_WEIGHT", "SHAPE_DETAILS", "Piece", "Candidate"]

#: the weight of a strong piece and of a weak one (docs/formats.md §6.10): a candidate is supported from 2
STRONG_WEIGHT, WEAK_WEIGHT = 2, 1
#: how the detail of a trigger specific by its written shape begins (an acronym, a punctuated trigger)
SHAPE_DETAILS = ("the punctuated trigger", "the acronym")


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of evidence for a candidate (docs/formats.md §6.10).

    ``kind``: ``trigger`` | ``term`` | ``context`` | ``ask`` | ``negated`` | ``markup``
    | ``yields`` | ``measure`` | ``not_when``; ``text``: the task's text at ``span``
    (``[start, end)`` character offsets into the task as typed);
    ``weight``: what it adds (0 when it does not count); ``detail``: a
    phrase saying what it is ("the everyday word 'model' (Zipf 5.1)");
    ``trigger``: the trigger or term as written in the registry."""

    kind: str
    text: str
    span: tuple[int, int]
    weight: int
    detail: str
    trigger: str = ""

    @property
    def counts(self) -> bool:
        """True when the piece adds weight."""
        return self.weight > 0

    def to_dict(self) -> dict:
        """``{"kind", "text", "span", "weight", "detail", "trigger"}``."""
        return {"kind": self.kind, "text": self.text, "span": [self.span[0], self.span[1]], "weight": self.weight,
                "detail": self.detail, "trigger": self.trigger}


@dataclass(slots=True)
class Candidate:
    """A skill that cleared the threshold, with its evidence.

    ``score``: its best trigger's score; ``weight``: the sum of its pieces'
    weights; ``supported``: weight >= 2 with a trigger counted;
    ``dropped_by``: the ``not_when`` phrase that dropped it, else "";
    ``selected``/``why``: filled in by the decision (why it was or was not
    selected)."""

    id: str
    score: float
    pieces: tuple[Piece, ...]
    weight: int = 0
    supported: bool = False
    dropped_by: str = ""
    selected: bool = False
    why: str = ""
    spans: tuple[tuple[int, int], ...] = field(default=())
    #: the specificity of its best counted trigger: phrase | rare | uncommon | everyday
    tier: str = "everyday"
    #: :attr:`counted`, when :func:`~routelens.routing.evidence.assess` computed it (None: computed from the pieces)
    known_counted: bool | None = field(default=None, repr=False, compare=False)

    @property
    def strong(self) -> bool:
        """True when a strong trigger counts (an acronym or a punctuated
        trigger supports its candidate but makes no rival ask on its own)."""
        return any(p.kind == "trigger" and p.weight >= STRONG_WEIGHT and not p.detail.startswith(SHAPE_DETAILS)
                   for p in self.pieces)

    @property
    def phrase(self) -> bool:
        """True when a phrase trigger counts."""
        return any(p.kind == "trigger" and p.weight >= STRONG_WEIGHT and p.detail.startswith("the phrase")
                   for p in self.pieces)

    @property
    def rival(self) -> bool:
        """True when its evidence is more than one everyday word: it competes
        with another skill's evidence (docs/formats.md §6.10)."""
        return self.counted and (self.supported or self.tier != "everyday")

    @property
    def counted(self) -> bool:
        """True when a trigger of it counts (it was not dropped)."""
        if self.known_counted is not None:
            return self.known_counted
        return not self.dropped_by and any(p.kind == "trigger" and p.weight > 0 for p in self.pieces)

    def to_dict(self) -> dict:
        """``{"id", "score", "weight", "supported", "selected", "why", "pieces"}``."""
        return {"id": self.id, "score": self.score, "weight": self.weight, "supported": self.supported,
                "selected": self.selected, "why": self.why, "pieces": [p.to_dict() for p in self.pieces]}
