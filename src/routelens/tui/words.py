"""Plain words for the router's codes (shown in the decision panel, help
and stats), and small number formatting helpers. No Textual here."""

from __future__ import annotations

__all__ = ["MODE_LABEL", "REASON_LABEL", "REASON_HELP", "FRESHNESS_LABEL", "num", "pct", "short", "size_vs_registry"]

#: Badge text per decision mode.
MODE_LABEL = {
    "fast": "FAST",
    "index": "INDEX",
    "full": "FULL REGISTRY",
}

#: What each mode means, one short phrase.
MODE_HELP = {
    "fast": "the task named a skill or composition id (/id or $id)",
    "index": "a clear candidate was found through the fresh compact index",
    "full": "the agent must read the full canonical registry",
}

#: Short label per decision reason.
REASON_LABEL = {
    "explicit": "named explicitly",
    "clear_candidate": "clear candidate",
    "index_missing": "index missing",
    "index_stale": "index stale",
    "index_invalid": "index invalid",
    "no_match": "no match",
    "ambiguous": "ambiguous",
    "high_risk": "high-risk task",
    "forced_rule": "forced rule",
    "composition_conflict": "composition conflict",
    "disabled_skill": "disabled skill",
}

#: One sentence per reason, for the help screen.
REASON_HELP = {
    "explicit": "The task names an id as /id or $id: that entry is loaded directly.",
    "clear_candidate": "One skill (or exactly one composition's members) scored above the threshold, clear of the rest.",
    "index_missing": "There is no compact index: the agent reads the full registry. Rebuild with F5.",
    "index_stale": "The registry changed since the index was built: the agent reads the full registry. Rebuild with F5.",
    "index_invalid": "The compact index is damaged or hand-edited: the agent reads the full registry. Rebuild with F5.",
    "no_match": "No trigger scored above the threshold.",
    "ambiguous": "The two best candidates scored closer than the ambiguity margin.",
    "high_risk": "The task contains a high-risk term (routing.high_risk).",
    "forced_rule": "A forced rule matched: its checklist lives in the full registry.",
    "composition_conflict": "The candidates belong to different compositions that conflict.",
    "disabled_skill": "A candidate's canonical status is disabled: it was dropped.",
}

FRESHNESS_LABEL = {
    "fresh": "FRESH",
    "stale": "STALE",
    "missing": "NO INDEX",
    "invalid": "INDEX INVALID",
}


def num(n: float | int) -> str:
    """``12345`` -> ``12,345``; floats keep one decimal when not whole."""
    if isinstance(n, float) and not n.is_integer():
        return f"{n:,.1f}"
    return f"{int(n):,}"


def pct(x: float) -> str:
    """A fraction as a percentage with one decimal: ``0.8234`` -> ``82.3%``."""
    return f"{x * 100:.1f}%"


def size_vs_registry(reduction: float) -> str:
    """The reduction against the registry (spec section 5:
    ``1 - x_chars / registry_chars``, as `routelens stats` prints it) in
    words instead of a sign: ``0.695`` -> ``69.5% smaller``, ``-1.173`` ->
    ``117.3% larger``; ``same size`` when it rounds to 0.0%."""
    figure = pct(abs(reduction))
    if figure == "0.0%":
        return "same size"
    return f"{figure} smaller" if reduction > 0 else f"{figure} larger"


def short(sha: str | None, n: int = 8) -> str:
    """The first ``n`` hex digits of a hash, or an em dash."""
    return sha[:n] if sha else "—"
