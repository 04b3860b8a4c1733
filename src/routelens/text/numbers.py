"""How figures are written for people, the same in the CLI, the TUI, the
MCP answers and lint: counts and sizes with thousands separators
(``10,000``), shares with one decimal (``69.5%``), a size against the
registry in words (``69.5% smaller``, ``117.3% larger``) and the size
budget in whole characters. JSON output keeps plain numbers.
"""

from __future__ import annotations

import math

__all__ = ["num", "pct", "size_words", "budget_max_chars"]


def num(n: float | int) -> str:
    """``12345`` -> ``12,345``; a float keeps one decimal when it is not whole."""
    if isinstance(n, float) and not n.is_integer():
        return f"{n:,.1f}"
    return f"{int(n):,}"


def pct(x: float) -> str:
    """A share as a percentage with one decimal and thousands separators,
    as counts have them: ``0.8234`` -> ``82.3%``, ``54.825`` ->
    ``5,482.5%`` (a listing 55 times over its budget)."""
    return f"{x * 100:,.1f}%"


def size_words(reduction: float) -> str:
    """A reduction against the registry (docs/formats.md §5.2: ``1 -
    x_chars / registry_chars``) in words instead of a sign: ``0.695`` ->
    ``69.5% smaller``, ``-1.173`` -> ``117.3% larger``; ``same size`` when
    it rounds to 0.0%."""
    figure = pct(abs(reduction))
    if figure == "0.0%":
        return "same size"
    return f"{figure} smaller" if reduction > 0 else f"{figure} larger"


#: below this many registry characters (about 20 skills) the size budget is not checked: the index's fixed part (its
#: header, about 300 characters, and its word lists) does not shrink with the registry and takes 30% and more of a
#: registry of a few dozen triggers (docs/formats.md §5.2; 2,000 until routing round 19)
BUDGET_MIN_REGISTRY_CHARS = 6000


def budget_checked(registry_chars: int) -> bool:
    """Whether the size budget applies to a registry of ``registry_chars``
    characters (at least :data:`BUDGET_MIN_REGISTRY_CHARS`, docs/formats.md §5.2)."""
    return registry_chars >= BUDGET_MIN_REGISTRY_CHARS


def within_budget(index_chars: int, registry_chars: int, max_index_ratio: float) -> bool:
    """The size budget of docs/formats.md §5.2: ``index_chars <
    registry_chars x max_index_ratio`` (characters, strictly less), or a
    registry under :data:`BUDGET_MIN_REGISTRY_CHARS` characters (not checked)."""
    return not budget_checked(registry_chars) or index_chars < registry_chars * max_index_ratio


def budget_verdict(index_chars: int, registry_chars: int, max_index_ratio: float) -> str:
    """The budget in words for people: ``ok, 6,686 chars to spare``,
    ``EXCEEDED by 57 chars`` or, for a registry under
    :data:`BUDGET_MIN_REGISTRY_CHARS` characters, ``not checked below 6,000
    chars of registry``."""
    if not budget_checked(registry_chars):
        return f"not checked below {BUDGET_MIN_REGISTRY_CHARS:,} chars of registry"
    most = budget_max_chars(registry_chars, max_index_ratio)
    if index_chars <= most:
        return f"ok, {most - index_chars:,} chars to spare"
    return f"EXCEEDED by {index_chars - most:,} chars"


def budget_max_chars(registry_chars: int, max_index_ratio: float) -> int:
    """The most characters the index may have (docs/formats.md §5.2: the
    index must stay strictly below ``registry_chars x max_index_ratio``), a
    whole number: ``16941 x 0.7 = 11858.7`` -> ``11858``; ``1000 x 0.7 =
    700`` -> ``699``."""
    limit = registry_chars * max_index_ratio
    return max(math.ceil(round(limit, 9)) - 1, 0)
