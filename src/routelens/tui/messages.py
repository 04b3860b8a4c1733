"""The messages thread workers post with their results.

A worker runs on a thread and must not touch widgets; it posts one of
these to the node that started it (``post_message`` is thread-safe) and
that node's ``on_<name>`` handler updates state and paints on the UI
thread. None of them bubble: each is the answer to the node that asked.
Stale answers are dropped by the handlers (a route's ``seq``, a load's or
an analysis's ``snapshot`` identity).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from textual.message import Message

from routelens.tui.model import Analysis, Glance, LoadFailure, Preview, Snapshot

if TYPE_CHECKING:
    from routelens.routing.decision import Decision
    from routelens.routing.router import Router
    from routelens.tools.fixes import Fix
    from routelens.tools.tune import TuneReport

__all__ = [
    "GlanceReady",
    "PreviewReady",
    "RegistryLoaded",
    "LoadFailed",
    "RouterReady",
    "PreviewRouterReady",
    "RouterFailed",
    "DecisionReady",
    "RebuildDone",
    "RebuildFailed",
    "AnalysisDone",
    "FilterDone",
    "DetailReady",
    "WatchChecked",
    "FixesReady",
    "RouterChanged",
    "ListReady",
    "ListFailed",
    "TuneReady",
]


@dataclass
class GlanceReady(Message, bubble=False):
    """The first lines of a big registry's three panes were cut, nothing
    judged yet (:func:`routelens.tui.model.glance`): the first frame."""

    glance: Glance
    #: the load this answers
    gen: int = 0


@dataclass
class PreviewReady(Message, bubble=False):
    """The registry's bytes and the generated files were read, not parsed
    yet (:func:`routelens.tui.model.preview`)."""

    preview: Preview
    #: the load this answers (a load given up after a timeout has an older one)
    gen: int = 0


@dataclass
class RegistryLoaded(Message, bubble=False):
    """The registry was parsed and validated; ``snapshot.router`` is still
    None (it is built next, in its own worker)."""

    snapshot: Snapshot
    gen: int = 0


@dataclass
class LoadFailed(Message, bubble=False):
    """The registry cannot be used: every diagnostic is in ``failure``."""

    failure: LoadFailure
    gen: int = 0


@dataclass
class WatchChecked(Message, bubble=False):
    """The watched files were read again (:func:`routelens.tui.model.content_signature`):
    ``content`` is what they hold now, ``expected`` what the load on screen
    read, ``seconds`` how long the check took."""

    expected: tuple | None
    content: tuple
    seconds: float


@dataclass
class RouterReady(Message, bubble=False):
    """The router for ``snapshot`` was built."""

    snapshot: Snapshot
    router: Router


@dataclass
class IndexEdited(Message, bubble=False):
    """:func:`~routelens.tui.model.index_edited` of ``snapshot`` (True, False or None: unknown)."""

    snapshot: Snapshot
    edited: bool | None


@dataclass
class PreviewRouterReady(Message, bubble=False):
    """The router of load ``gen`` was opened from ``preview``'s vouched
    index, before the registry is parsed
    (:func:`~routelens.tui.model.preview_router`); ``router`` is None when
    opening it raised (the router is then built after the parse)."""

    preview: Preview
    router: Router | None
    gen: int


@dataclass
class RouterFailed(Message, bubble=False):
    """Building the router for ``snapshot`` raised; ``error`` says what."""

    snapshot: Snapshot
    error: str


@dataclass
class DecisionReady(Message, bubble=False):
    """The router's decision for the task routed as number ``seq``;
    ``load``: the load (snapshot or preview) whose router made it."""

    seq: int
    decision: Decision
    load: Any = None


@dataclass
class RebuildDone(Message, bubble=False):
    """``generated/`` was rebuilt; ``written`` names the files that changed
    (empty: everything was up to date); ``over_budget``: the budget verdict
    when the index exceeds its size budget (``EXCEEDED by 1 chars``), else
    None."""

    written: list[str]
    over_budget: str | None = None


@dataclass
class RebuildFailed(Message, bubble=False):
    """Nothing was written; ``title`` and ``message`` say why, for people."""

    title: str
    message: str


@dataclass
class AnalysisDone(Message, bubble=False):
    """The stats panel's figures for ``snapshot``."""

    snapshot: Snapshot
    analysis: Analysis


@dataclass
class FilterDone(Message, bubble=False):
    """The skill browser's filter number ``seq`` (for ``query``) matched
    the skills at positions ``order`` (ascending)."""

    seq: int
    query: str
    order: list[int]


@dataclass
class DetailReady(Message, bubble=False):
    """What the skill browser shows of skill ``skill_id``: its Layer-2
    body as Markdown (``body_problem`` says why it is not shown, or None),
    its canonical range as display text, its catalog entry as JSON text
    (None: not in the catalog; ``entry_notice`` says why or that the
    catalog is stale) and ``explain`` of it for ``task``."""

    skill_id: str
    body: str
    body_problem: str | None
    range_text: str
    entry: str | None
    entry_notice: tuple[str | None, str]
    task: str
    explain: str


@dataclass
class FixesReady(Message, bubble=False):
    """The verified fixes of the decision routed as number ``seq``;
    ``untried``: candidate edits left unchecked when the time ran out."""

    seq: int
    fixes: list[Fix]
    untried: int = 0


@dataclass
class RouterChanged(Message):
    """The main screen has a router for a new load (the registry or the
    index changed on disk). It bubbles to the app, which tells the open
    case and log screens to run again."""

    snapshot: Snapshot


@dataclass
class ListReady(Message, bubble=False):
    """A case or log screen's rows, computed for ``snapshot``: ``rows``
    (whatever the screen shows per line) and ``summary`` (its top line)."""

    snapshot: Snapshot
    rows: list
    summary: object


@dataclass
class ListFailed(Message, bubble=False):
    """The cases or the log cannot be used: ``lines`` say why (``FILE:LINE: ...``)."""

    lines: list[str]


@dataclass
class TuneReady(Message, bubble=False):
    """The sweep of the tune screen."""

    report: TuneReport
