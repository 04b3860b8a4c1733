"""Former home of the router; kept one release so that old imports work.
New code imports :mod:`routelens.routing.router` (the facade),
:mod:`routelens.routing.decision` (what it answers) and
:mod:`routelens.routing.matching`."""

from routelens.routing.decision import MAX_NEAR_MISSES, REASONS, Decision, Expansion, Explanation
from routelens.routing.matching import MATCHER_VERSION, MAX_TASK_CHARS, Match
from routelens.routing.router import Router, route

__all__ = [
    "MATCHER_VERSION",
    "MAX_TASK_CHARS",
    "MAX_NEAR_MISSES",
    "REASONS",
    "Match",
    "Expansion",
    "Decision",
    "Explanation",
    "Router",
    "route",
]
