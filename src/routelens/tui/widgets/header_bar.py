"""The one-line header: app name, registry, counts, freshness badge and
index size reduction. Drops the least important parts when narrow."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from routelens.text.visible import pictured as visible_name
from routelens.tui.words import FRESHNESS_GLYPH, FRESHNESS_LABEL, num, plural, short, size_vs_registry

__all__ = ["HeaderBar", "HeaderState", "FRESHNESS_STYLE"]

#: Badge style per freshness state (the stats panel's badge uses it too).
FRESHNESS_STYLE = {
    "fresh": "bold $text on $success",
    "stale": "bold $text on $warning",
    "missing": "bold $text on $error",
    "invalid": "bold $text on $error",
}

_BADGE = {
    **{state: (FRESHNESS_GLYPH[state], style) for state, style in FRESHNESS_STYLE.items()},
    "loading": ("…", "bold $text on $panel"),
    "unknown": ("?", "bold $text on $warning"),
}


@dataclass(frozen=True)
class HeaderState:
    """What the header shows. ``freshness`` is ``fresh``/``stale``/
    ``missing``/``invalid``/``loading`` (``checking``, with ``loaded``
    False: the first lines are shown, the freshness is being judged); ``errors`` counts registry
    diagnostics (0 when the registry is valid; otherwise the rest
    describes the last good load and the badge says UNKNOWN); ``reduction`` and
    ``budget_ok`` describe a fresh build of the index (None: unknown);
    ``demo``: the registry is the bundled example (an EXAMPLE badge)."""

    registry: str = ""
    skills: int = 0
    compositions: int = 0
    rules: int = 0
    freshness: str = "loading"
    index_sha: str | None = None
    registry_sha: str | None = None
    reduction: float | None = None
    index_chars: int | None = None
    budget_ok: bool | None = None
    #: the registry is too small for the budget to be checked (docs/formats.md §5.2): the header says so
    #: instead of a ✓ (a newcomer's header showed "index budget ✓" while F3 showed the index over it, unchecked)
    budget_unchecked: bool = False
    errors: int = 0
    loaded: bool = True
    #: the registry is the bundled example (``--demo``): every layout says so
    demo: bool = False
    #: a fresh index (by its hash) that is not what a build writes: hand-edited (a newcomer's header said FRESH
    #: while `routelens check` failed and a decision fell back index_invalid)
    edited: bool = False


class HeaderBar(Widget):
    """Renders a :class:`HeaderState` on one line."""

    DEFAULT_CSS = """
    HeaderBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $text;
    }
    """

    state: reactive[HeaderState] = reactive(lambda: HeaderState(loaded=False), layout=False)

    def render(self) -> Content:
        s = self.state
        width = self.size.width or 140
        name = Content.assemble((" ◆ routelens ", "bold $text on $primary"))
        if s.demo:  # part of every layout below, however narrow
            name = Content.assemble(name, (" EXAMPLE ", "bold $text on $warning"))
        reg = Content.assemble(" ", (visible_name(s.registry) or "…", "bold"),
                               (" bundled example (--demo)" if s.demo else "", "$text-muted"), " ")
        counts = Content.assemble(
            ("· ", "$text-muted"),
            (num(s.skills), "bold"), (f" {plural(s.skills, 'skill')} · ", "$text-muted"),
            (num(s.compositions), "bold"), (f" {plural(s.compositions, 'composition')} · ", "$text-muted"),
            (num(s.rules), "bold"), (f" {plural(s.rules, 'rule')} ", "$text-muted"),
        )
        counts_short = Content.assemble(("· ", "$text-muted"), (num(s.skills), "bold"),
                                        (f" {plural(s.skills, 'skill')} ", "$text-muted"))
        glyph, style = _BADGE.get(s.freshness, _BADGE["loading"])
        label = FRESHNESS_LABEL.get(s.freshness, "LOADING")
        if s.freshness == "fresh" and s.edited:
            glyph, style = _BADGE["stale"]
            label = "HAND-EDITED INDEX"
        if s.errors and s.loaded:
            # the freshness on screen is that of the last good load: the
            # registry on disk cannot be parsed, so nothing can be claimed
            glyph, style = _BADGE["unknown"]
            label = "UNKNOWN"
        badge = Content.assemble((f" {glyph} {label} ", style))
        hashes = Content.styled(
            f" index {short(s.index_sha)} · registry {short(s.registry_sha)} "
            if s.freshness == "stale" else f" {short(s.registry_sha)} ",
            "$text-muted",
        )
        err = (
            Content.assemble((f" ✗ {s.errors} ERROR{'S' if s.errors != 1 else ''} ", "bold $text on $error"), " ")
            if s.errors else Content("")
        )
        if s.reduction is not None:
            # the same figure as `routelens stats` (1 - index/registry), in words, not a sign
            words = size_vs_registry(s.reduction)
            good = s.budget_ok is not False and s.reduction > 0
            # without a fresh index on disk the figures are those a build would give: say so
            lead = " index " if s.freshness == "fresh" else " if built: index "
            size = Content.assemble(
                lead, (words, "bold $success" if good else "bold $error"),
                (f" ({num(s.index_chars or 0)} chars)", "$text-muted"), " ",
            )
            size_short = Content.assemble(lead, (words, "bold $success" if good else "bold $error"), " ")
        else:
            size = size_short = Content("")
        budget = (
            Content.styled(" index budget not checked ", "$text-muted") if s.budget_unchecked
            else Content.styled(" index budget ✓ ", "$success") if s.budget_ok
            else Content.styled(" index budget ✗ ", "bold $error") if s.budget_ok is False else Content("")
        )
        # the verdict outlives the hashes and the counts: reviewing the index size before a release is what
        # the header is read for (a newcomer's trial: at 80 columns it was the first thing dropped)
        budget_short = (
            Content.styled(" budget n/a ", "$text-muted") if s.budget_unchecked
            else Content.styled(" budget ✓ ", "$success") if s.budget_ok
            else Content.styled(" budget ✗ ", "bold $error") if s.budget_ok is False else Content("")
        )
        if not s.loaded:
            note = Content.styled(" nothing loaded: fix the registry and it reloads " if s.errors
                                  else " checking the index against the registry… " if s.freshness == "checking"
                                  else " loading… ", "$text-muted")
            return Content("").join((name, reg, err, note))
        if s.errors:
            # everything else on screen is the last good load: say so instead
            # of its hashes, size and budget
            last = Content.styled(f" registry has errors; showing the last good load ({short(s.registry_sha)}) ",
                                  "$text-muted")
            last_short = Content.styled(" showing the last good load ", "$text-muted")
            for parts in (
                (name, reg, counts, err, badge, last),
                (name, reg, counts_short, err, badge, last),
                (name, reg, err, badge, last),
                (name, reg, err, badge, last_short),
                (name, err, badge, last_short),
            ):
                line = Content("").join(parts)
                if line.cell_length <= width:
                    return line
            return Content("").join((name, err, badge))
        # widest first; drop parts until it fits
        for parts in (
            (name, reg, counts, err, badge, hashes, size, budget),
            (name, reg, counts, err, badge, hashes, size, budget_short),
            (name, reg, counts, err, badge, size, budget),
            (name, reg, counts_short, err, badge, size, budget),
            (name, reg, counts_short, err, badge, size_short, budget_short),
            (name, reg, err, badge, size_short, budget_short),
            (name, reg, err, badge, budget_short),
            (name, err, badge, budget_short),
            (name, err, badge),
        ):
            line = Content("").join(parts)
            if line.cell_length <= width:
                return line
        return Content("").join((name, err, badge))
