"""Fixes for a fallback: concrete registry edits that would route the task,
each with where it goes and its predicted effect (docs/formats.md §15).

A decision that fell back with a reason a registry edit can fix
(:data:`FIXABLE`: ``no_match``, ``ambiguous``, and ``weak_evidence`` where
the router gives it) gets up to :data:`MAX_FIXES` fixes:

- ``add_trigger``: a trigger for a skill that came close (a near miss, or
  one of the tied candidates), taken from the task: the words that nearly
  matched, or a phrase of the task that speaks for the skill; a word that
  misspells a word of the skill's triggers is written as that word, and a
  phrase that starts or ends with a function word, or holds a word that
  looks like a typo of another word or a name, is never offered
  (:func:`routelens.tools.suggest.respell`, :func:`~routelens.tools.suggest.proper_trigger`,
  :func:`~routelens.tools.suggest.plausible_trigger`);
- ``not_when``: a ``not_when`` phrase for the skill that should lose, made
  of what the task says for the one that should win (only where the router
  reads ``not_when``: every fix is verified by routing);
- ``threshold`` / ``ambiguity_margin``: the setting that would route it.

Every fix is checked for real: the registry is patched with it
(:mod:`routelens.tools.patch`) and the task routed again; a fix is kept
only when the task then routes to that skill. With labelled cases, the
effect says what else the edit changes for them; without, it says how to
check. Nothing here writes a file or imports Textual.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from routelens.errors import RegistryError
from routelens.registry.load import parse_registry
from routelens.registry.model import Registry
from routelens.routing.decision import Decision
from routelens.routing.router import Router
from routelens.text.unicode import normalize_text
from routelens.tools.evaluate import Case, score
from routelens.tools.patch import Edit, PatchError, add_list_item, apply_edits, paste_text, set_routing
from routelens.tools.suggest import (candidate_phrases, plausible_trigger, proper_trigger, respell, spelled_words,
                                    task_units, vocabulary)

__all__ = ["FIXABLE", "FIXES_SECONDS", "MAX_FIXES", "Fix", "fixes_for", "related_skills"]

#: The reasons a registry edit can fix.
FIXABLE = frozenset({"no_match", "ambiguous", "weak_evidence"})
#: Fixes offered per decision, at most.
MAX_FIXES = 4
_PHRASES_PER_SKILL = 3


@dataclass(frozen=True)
class Fix:
    """One verified registry edit. ``kind``: ``add_trigger``, ``not_when``,
    ``threshold`` or ``ambiguity_margin``; ``skill``: the skill edited (None
    for a setting); ``yaml``: the line to paste; ``where``: ``FILE:LINE``,
    the line it will be on; ``how``: a sentence saying where it goes;
    ``effect``: the predicted effect, for people; ``routes_to``: the skills
    the task routes to after the edit; ``edit``: the
    :class:`~routelens.tools.patch.Edit` itself (1-based ``line`` of the
    canonical text)."""

    kind: str
    skill: str | None
    yaml: str
    where: str
    how: str
    effect: str
    routes_to: tuple[str, ...]
    edit: Edit
    paste: str = ""

    @property
    def line(self) -> int:
        """The 1-based line the pasted YAML will be on."""
        return self.edit.where_line

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "skill", "yaml", "where", "how", "effect", "routes_to"}`` (docs/formats.md §15)."""
        return {"kind": self.kind, "skill": self.skill, "yaml": self.yaml, "where": self.where, "how": self.how,
                "effect": self.effect, "routes_to": list(self.routes_to)}


def _case_effect(before: list, new: Router, cases: Sequence[Case], file: str, task: str = "") -> tuple[str, int]:
    """What an edit changes for the labelled cases, one clause, and how
    many cases it makes worse. ``before``: the cases' results unpatched;
    ``task``: the task being fixed, whose own labelled case (the same text,
    whitespace aside) is no "more" case: the effect already says what
    happens to this task."""
    after = score(list(cases), [new.route(c.task) for c in cases]).results
    good = ("correct", "fallback_ok")
    same = " ".join(task.split())
    pairs = [(b, a) for b, a in zip(before, after) if not same or " ".join(str(a.case.task).split()) != same]
    fixed = [a for b, a in pairs if a.outcome in good and b.outcome not in good]
    broken = [a for b, a in pairs if b.outcome in good and a.outcome not in good]
    other = [a for b, a in pairs if a.outcome != b.outcome and a not in fixed and a not in broken]

    def where(rs) -> str:
        return ", ".join(f"{file}:{r.case.line}" for r in rs[:5]) + (f" and {len(rs) - 5} more" if len(rs) > 5 else "")

    if not fixed and not broken and not other:
        return "no labelled case changes", 0
    parts = []
    if fixed:
        parts.append(f"routes {len(fixed)} more labelled case{'s' * (len(fixed) != 1)} right ({where(fixed)})")
    if broken:
        parts.append(f"makes {len(broken)} labelled case{'s' * (len(broken) != 1)} worse ({where(broken)})")
    if other:
        parts.append(f"changes {len(other)} other{'s' * (len(other) != 1)} ({where(other)})")
    return "; ".join(parts), len(broken)


def related_skills(task: str, own: dict[str, set[str]], live: set[str]) -> list[tuple[str, int]]:
    """``(skill id, count)`` of the live skills (``live``) that share at least
    two content units (word stems, or pairs of characters of a script
    without spaces: :func:`routelens.tools.suggest.task_units`) of
    ``task`` with their own words, most first (then by id): the skills
    the task speaks of though no trigger came close, for fixes of a
    ``no_match`` (docs/formats.md §15). ``count`` is the number of shared
    units."""
    units = task_units(task)
    if len(units) < 2:
        return []
    got = [(sid, len(units & own[sid])) for sid in sorted(live) if sid in own]
    return sorted(((sid, n) for sid, n in got if n >= 2), key=lambda x: (-x[1], x[0]))


def _routed_to(d: Decision) -> tuple[str, ...]:
    return d.skills if d.mode != "full" else ()


def _phrase(task: str, span: tuple[int, int]) -> str:
    text = " ".join(task[span[0]:span[1]].split())
    return text.lower() if text.isascii() else text


#: how long ``route`` and the TUI verify a fallback's fixes: no check starts that would end later (seconds,
#: wall clock; :func:`fixes_for`'s ``max_seconds``)
FIXES_SECONDS = 10.0


def fixes_for(decision: Decision, reg: Registry, raw: bytes | None = None, cases: Sequence[Case] | None = None,
              cases_file: str = "", max_fixes: int = MAX_FIXES, *,
              progress: Callable[[float], None] | None = None, max_seconds: float | None = None,
              tally: dict[str, int] | None = None) -> list[Fix]:
    """Verified fixes for ``decision`` (see the module docstring), best
    first: triggers, then ``not_when``, then settings. ``reg``: the
    registry the decision was made with (its canonical text is patched
    when ``raw`` is None); ``cases``: labelled cases to predict the effect
    on (``cases_file`` names them). ``[]`` for a decision whose reason is
    not in :data:`FIXABLE`. Never raises for an edit that cannot be made:
    it is left out.

    Each candidate edit is verified by routing the task through a router
    over the patched registry (one parse and index per edit: seconds each
    at 10,000 skills). ``progress`` gets the fraction of edits tried (0.0 to
    1.0); with ``max_seconds`` (wall clock, counted from the call: the
    base router and the vocabulary included) no edit is tried whose check
    would end after that many seconds, judged by what the base router took
    to build and then by what the last check took, so the fixes found by
    then are returned (none when preparing alone used up the time).
    ``tally``, when given, is filled with ``{"candidates": n, "tried": k}``
    (k < n: the time ran out)."""
    if decision.reason not in FIXABLE or decision.mode != "full":
        return []
    started = time.monotonic()
    raw = raw if raw is not None else reg.text.encode("utf-8")
    task = decision.task
    base = Router.from_registry(reg)
    display = reg.display_name
    own, body = vocabulary(reg, bodies=False)
    # candidate edits, made when their check starts: making one reads the whole registry (about a second
    # at 10,000 skills), so making them all first spent the budget before any check (a newcomer's 29 s
    # `route` with --fixes-seconds 1)
    tried: list[tuple[str, str | None, Callable[[], Edit]]] = []
    seen: set[tuple] = set()

    def offer(kind: str, skill: str | None, value: str, make: Callable[[], Edit]) -> None:
        key = (kind, skill, normalize_text(value))
        if key not in seen:
            seen.add(key)
            tried.append((kind, skill, make))

    matches = list(decision.matches)
    near = list(decision.near_misses)
    # a deprecated or disabled skill gets no new trigger: the registry is moving away from it
    live = {sid for sid, s in reg.skills.items() if s.status == "active"}
    targets: list[tuple[str, str]]  # (skill id, the words of the task that nearly matched it, or "")
    if decision.reason == "no_match":
        # the skill whose own words the task says most comes first when it says more of them than of the near
        # misses' ("the build is broken, please fix the failing ci pipeline": ci-fix's description, not the
        # "pipeline" of data-pipeline's trigger)
        close = [(m.id, _phrase(task, m.span)) for m in near if m.id in live]
        said = related_skills(task, own, live)
        near_said = len(task_units(task) & own.get(close[0][0], set())) if close else 0
        targets = list(dict.fromkeys([*((sid, "") for sid, n in said[:1] if n > near_said), *close]))[:2]
    else:
        targets = [(m.id, _phrase(task, m.span)) for m in matches if m.id in live][:2]
    for sid, span in targets:
        vocab = own.get(sid, set())
        ranked = sorted(candidate_phrases(task),
                        key=lambda ph: (not span or span not in normalize_text(ph.text), ph.n == 1, not ph.chunk_end,
                                        -sum(w in vocab for w in ph.words), ph.n))
        phrases = [ph.text for ph in ranked
                   if span and span in normalize_text(ph.text) or any(w in vocab for w in ph.words)]
        # the nearly matching words themselves only when they are a phrase of their own
        if span and (span in (normalize_text(ph.text) for ph in ranked) or not phrases):
            phrases.append(span)
        phrases = list(dict.fromkeys(phrases))[:_PHRASES_PER_SKILL]
        existing = {normalize_text(t) for t in reg.skills[sid].triggers}
        spelled = spelled_words(reg.skills[sid].triggers, sid)
        # the existing spelling, never the task's typo ("colour grde" is "colour grade", a trigger already);
        # never a phrase that starts or ends with a function word ("them before", "grde the set")
        phrases = list(dict.fromkeys(respell(text, spelled) for text in phrases))
        for text in phrases:
            # never a word that looks like a typo or a name ("bok an appointment", "cover for Yuki")
            if text and proper_trigger(text) and plausible_trigger(text, task, spelled) \
                    and normalize_text(text) not in existing:
                offer("add_trigger", sid, text,
                      lambda t=text, s=sid: add_list_item(raw, display, ("skills", s, "triggers"), t))
    if decision.reason in ("ambiguous", "weak_evidence") and len(targets) >= 2:
        for (winner, words), (loser, _) in ((targets[0], targets[1]), (targets[1], targets[0])):
            # the winner's words as its triggers spell them, never the task's typo ("injury reprot")
            text = respell(words, spelled_words(reg.skills[winner].triggers, winner))
            offer("not_when", loser, text,
                  lambda t=text, s=loser: add_list_item(raw, display, ("skills", s, "not_when"), t))
    if decision.reason == "no_match" and near:
        t = math.floor(near[0].score)
        if t < base.threshold:
            offer("threshold", None, f"{t:g}", lambda: set_routing(raw, display, "threshold", f"{t:g}"))
    if decision.reason == "ambiguous" and len(matches) >= 2:
        gap = matches[0].score - matches[1].score
        m = math.floor(gap * 10) / 10
        if 0 < gap and m < base.margin:
            offer("ambiguity_margin", None, f"{m:g}", lambda: set_routing(raw, display, "ambiguity_margin", f"{m:g}"))

    before = score(list(cases), [base.route(c.task) for c in cases]).results if cases else []
    found: list[tuple[tuple, Fix]] = []
    kinds = ("add_trigger", "not_when", "threshold", "ambiguity_margin")
    # a check parses and indexes the patched registry: about what building the base router took, then
    # what the last check took; no check starts that would end after the budget
    check_cost = time.monotonic() - started
    n_tried = 0
    for order, (kind, skill, make) in enumerate(tried):
        began = time.monotonic() if max_seconds is not None else 0.0
        if max_seconds is not None and began - started + check_cost > max_seconds:
            break
        n_tried += 1
        if progress is not None:
            progress(order / len(tried))
        try:
            edit = make()
            new_reg = parse_registry(apply_edits(raw, [edit]), reg.path, display)
        except (RegistryError, PatchError):
            if max_seconds is not None:
                check_cost = time.monotonic() - began
            continue
        new = Router.from_registry(new_reg)
        d = new.route(task)
        if max_seconds is not None:
            check_cost = time.monotonic() - began
        routed = _routed_to(d)
        wanted = skill if kind == "add_trigger" else None
        if not routed or (wanted is not None and wanted not in routed):
            continue
        if kind == "not_when" and skill in routed:
            continue
        target = ", ".join(routed) if not d.composition else f"composition {d.composition}"
        effect = f"routes this task to {target}"
        if kind in ("threshold", "ambiguity_margin"):
            what = (f"every task whose best trigger scores {edit.value} or more" if kind == "threshold" else
                    f"every task whose top two candidates are {edit.value} or more apart")
            effect += f", and {what}"
        harm = 0
        if cases:
            clause, harm = _case_effect(before, new, cases, cases_file, decision.task)
            effect += "; " + clause
        else:
            effect += ("; check it against labelled cases with `routelens suggest CASES`" if kind == "add_trigger"
                       else "; check what else it routes with `routelens tune CASES`")
        single = kind == "add_trigger" and len(edit.value.split()) == 1 and edit.value.isascii()
        fix = Fix(kind, skill, edit.yaml, f"{display}:{edit.where_line}", edit.how, effect, routed, edit)
        found.append(((harm > 0, kinds.index(kind), single, order), fix))
    if progress is not None:
        progress(1.0)
    if tally is not None:
        tally.update(candidates=len(tried), tried=n_tried)
    found.sort(key=lambda kv: kv[0])
    # the best fix of each skill first, then the settings, then the other triggers
    firsts, rest, per_skill = [], [], set()
    for key, fix in found:
        if fix.skill is None or (fix.kind, fix.skill) not in per_skill:
            per_skill.add((fix.kind, fix.skill))
            firsts.append((key[0], fix))
        else:
            rest.append((key[0], fix))
    out = [f for _, f in sorted(firsts, key=lambda kv: kv[0])] + [f for _, f in rest]
    # what F7 pastes, for the fixes given only (a replaced line reads the patched registry once more)
    return [replace(f, paste=paste_text(raw, f.edit)) for f in out[:max_fixes]]
