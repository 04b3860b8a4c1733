"""``routelens explain``: why one skill was or was not chosen for a task, in
plain words, from the router's decision (docs/formats.md §6) and the
skill's best trigger.

Nothing in this module imports a routelens module above the routing stage;
it asks the router through the :class:`Routes` interface (the router
calls :func:`explain`, so it is not imported here).
"""

from __future__ import annotations

import re
from typing import Protocol, Sequence

from rapidfuzz import fuzz, process

from routelens.routing.asking import bare_request
from routelens.routing.decision import Decision, Explanation, format_score, index_state_words, quote
from routelens.routing.matching import NEAR_MISS_FLOOR, Match
from routelens.text.unicode import normalize_text

__all__ = ["Routes", "explain", "SUGGEST_CUTOFF"]

#: An unknown id is answered with "Did you mean ...?" only for a known skill
#: id at least this close (rapidfuzz's plain ratio, 0-100): "nope" must not
#: suggest an unrelated id.
SUGGEST_CUTOFF = 70


class Routes(Protocol):
    """What :func:`explain` asks of a router
    (:class:`routelens.routing.router.Router` is one)."""

    threshold: float
    margin: float
    display_name: str

    @property
    def skill_ids(self) -> tuple[str, ...]: ...

    @property
    def composition_ids(self) -> tuple[str, ...]: ...

    def route(self, task: str) -> Decision: ...

    def skill_status(self, skill_id: str) -> str | None: ...

    def skill_triggers(self, skill_id: str) -> tuple[str, ...]: ...

    def best_match(self, task: str, skill_id: str) -> Match | None: ...


def explain(router: Routes, task: str, skill_id: str) -> Explanation:
    """Why ``skill_id`` was or was not chosen for ``task``: its best
    trigger and score against the threshold, and whether staleness, an
    explicit id, a forced rule, a high-risk term, ambiguity, a composition
    conflict or its status stopped it. A best score of 0, or one below the
    near-miss floor, is said as none of its triggers appearing in the task,
    or, when one stands inside a longer word of the task ("マイグレーション" in
    "マイグレーションツールを直して"), as that trigger and that word, with the fix;
    a composition holding the skill that the task names in words (its id,
    hyphens as spaces) is said, with how to ask for it (``/ID``). An
    unknown id (or a composition id) is said so, with the closest skill id
    when it is close. Never raises."""
    d = router.route(task)
    skill_ids = router.skill_ids
    reasons: list[str] = []
    if skill_id not in skill_ids:
        if not skill_id.strip():
            reasons.append("No skill id was given: name one of the registry's skills.")
        elif skill_id in router.composition_ids:
            reasons.append(f"{quote(skill_id)} is a composition, not a skill; explain one of its members instead.")
        elif skill_id in router.rule_ids:
            reasons.append(f"{quote(skill_id)} is a rule, not a skill: when one of its triggers matches, the agent "
                           "reads the full registry (docs/formats.md §6.3); `routelens route TASK` says whether it does for a task.")
        else:
            best = process.extractOne(skill_id, list(skill_ids), scorer=fuzz.ratio, score_cutoff=SUGGEST_CUTOFF)
            hint = f" Did you mean {quote(best[0])}?" if best else ""
            reasons.append(f"There is no skill {quote(skill_id)} in {router.display_name} "
                           f"({len(skill_ids)} skills).{hint}")
        reasons.append(f"The decision for this task: {d.message}.")
        return Explanation(task, skill_id, False, False, None, router.threshold, None, tuple(reasons), d)
    best = router.best_match(task, skill_id)
    status = router.skill_status(skill_id)
    selected = skill_id in d.skills
    thr = format_score(router.threshold)
    # a best score of 0, or one below the near-miss floor, is no match at all: the span of such a "best"
    # trigger is noise ('"cull the shoot" scored 0 on "the"')
    absent = best is None or best.score <= 0 or (best.score < NEAR_MISS_FLOOR < router.threshold)
    inside = _inside_longer_word(task, router.skill_triggers(skill_id)) if absent else None
    if inside is not None:
        trig, word = inside
        reasons.append(f"Its trigger {quote(trig)} stands inside the longer word {quote(word)} of the task: a trigger "
                       f"matches whole words only, not part of a longer one (\"ログ\" is no part of \"ブログ\", "
                       f"docs/formats.md §6.7). If {quote(word)} is this skill's work, add it as a trigger "
                       f"(the threshold is {thr}).")
    elif absent and (best is None or best.score <= 0):
        reasons.append(f"None of the triggers of {quote(skill_id)} appears in the task, even approximately "
                       f"(the threshold is {thr}).")
    elif absent:
        reasons.append(f"None of the triggers of {quote(skill_id)} appears in the task: the closest, "
                       f"{quote(best.trigger)}, scored {format_score(best.score)} on "
                       f"{quote(task[best.span[0]:best.span[1]])}, below {format_score(NEAR_MISS_FLOOR)}, the lowest "
                       f"score listed as a near miss (the threshold is {thr}).")
    else:
        where = task[best.span[0]:best.span[1]]
        rel = "at or above" if best.score >= router.threshold else "below"
        reasons.append(f"Its best trigger {quote(best.trigger)} scored {format_score(best.score)} on {quote(where)} "
                       f"(characters {best.span[0]}-{best.span[1]}), {rel} the threshold {thr}.")
    for cid in _compositions_named(router, task, skill_id):
        if d.composition != cid:
            reasons.append(f"The task names the composition {quote(cid)}, which {quote(skill_id)} belongs to, in "
                           f"words: a composition is asked for by its id, so write /{cid} in the task to route "
                           "to it.")
    if status in ("disabled", "deprecated"):
        reasons.append(f"Its status is {status}" + (": a disabled skill is never selected." if status == "disabled"
                                                    else ": it can still be selected."))
    if selected:
        how = f" as a member of composition {quote(d.composition)}" if d.composition else ""
        reasons.append(f"It was selected{how} (mode {d.mode}, reason {d.reason}).")
    else:
        reasons.append(_why_not(d, skill_id, None if absent else best, status, router.threshold, router.margin))
    cand = next((c for c in getattr(d, "evidence", ()) if c.id == skill_id), None)
    if cand is not None:
        pieces = "; ".join(f"{p.detail}{'' if p.counts else ' (does not count)'}" for p in cand.pieces)
        reasons.append(f"Its evidence (docs/formats.md §6.10): {pieces}; weight {cand.weight}, "
                       f"{'supported' if cand.supported else 'not enough to route on'}.")
        bare = None if cand.supported else bare_request(cand.pieces, task)
        if bare is not None:  # a newcomer asked why "fix" in "fix the dishwasher" did not count as a request
            reasons.append(f"{quote(bare)} is a generic request verb and the word alone, which does not say what "
                           "work is wanted (docs/formats.md §6.10 `ask`: underspecified, as \"check the booking\" "
                           "is): say more of the work, or add the phrase as a trigger.")
    reasons.append(f"The decision: {d.message}.")
    return Explanation(task, skill_id, True, selected, best, router.threshold, status, tuple(reasons), d)


_WORDS = re.compile(r"[^\W_]+")


def _compositions_named(router: Routes, task: str, skill_id: str) -> list[str]:
    """The compositions holding ``skill_id`` whose id, hyphens read as
    spaces, the task says as words ("wedding delivery" for
    ``wedding-delivery``), sorted. [] when the router cannot say which
    compositions hold the skill."""
    holding = getattr(getattr(router, "entries", None), "compositions_holding", None)
    if holding is None:
        return []
    try:
        cids = holding(skill_id)
    except Exception:  # an index range that cannot be read: explain never raises
        return []
    said = f" {' '.join(_WORDS.findall(normalize_text(task)))} "
    return [c for c in cids if f" {' '.join(_WORDS.findall(c))} " in said]


def _task_level(d: Decision) -> str | None:
    """Why the whole task went elsewhere, whatever the scores (an index
    that cannot be trusted, explicit ids, steering text, an unknown id, a
    forced rule, a high-risk term), as a clause; None for a decision the
    scores made."""
    r = d.reason
    if r in ("index_missing", "index_stale", "index_invalid"):
        return f"{index_state_words(r[6:])}, so the router fell back to the full registry whatever the scores"
    if r == "explicit":
        return "the task names other skills explicitly (fast route)"
    if r == "suspicious_input":
        return "the task holds text that tries to steer the router: it goes to the full registry"
    if r == "unknown_id":
        return "the task names an id that is no skill or composition"
    if r == "forced_rule":
        return f"the forced rule {quote(d.rule or '')} matched: the task goes to the full registry"
    if r == "high_risk":
        return f"the task holds the high-risk term {quote(d.high_risk[0])}: it goes to the full registry"
    return None


def _why_not(d: Decision, skill_id: str, best: Match | None, status: str | None, threshold: float,
             margin: float) -> str:
    above = best is not None and best.score >= threshold
    r = d.reason
    task_level = _task_level(d)
    if task_level is not None:
        if best is None:
            # no trigger of it matched: it was no candidate, whatever sent the task elsewhere ("not selected because
            # the task holds "rm -rf"" read as if it had been close: a newcomer's trial)
            return f"It was no candidate, since none of its triggers matches the task; besides, {task_level}."
        return f"It was not selected because {task_level}."
    if best is None:
        return "It was not selected because none of its triggers matches a word of the task."
    if not above:
        return "It was not selected because its score is below the threshold."
    if status == "disabled":
        return "It was not selected because it is disabled (dropped from the candidates)."
    if r == "ambiguous":
        return f"It was not selected because the choice was ambiguous: {d.message.split(': ', 1)[-1]}."
    cand = next((c for c in getattr(d, "evidence", ()) if c.id == skill_id), None)
    if cand is not None and cand.why and not cand.selected:
        return f"It was not selected: {cand.why.split(': ', 1)[-1]}." if cand.why.startswith("not selected") \
            else f"It was {cand.why}."
    if r == "composition_conflict":
        return f"It was not selected because of a composition conflict: {d.message.split(': ', 1)[-1]}."
    if d.skills:
        top = d.matches[0] if d.matches else None
        if top is not None and top.id != skill_id:
            return (f"It was not selected because {quote(top.id)} scored higher ({format_score(top.score)} vs "
                    f"{format_score(best.score if best else 0)}), beyond the ambiguity margin {format_score(margin)}.")
    return f"It was not selected (reason {r})."


def _script(c: str) -> str:
    """The kind of writing of one character: katakana (with ー), hiragana, kanji, or a Latin letter or digit
    (``"w"``); anything else is ``""``, which no word runs across."""
    if "\u30a1" <= c <= "\u30fa" or c == "\u30fc":
        return "katakana"
    if "\u3041" <= c <= "\u3096":
        return "hiragana"
    if "\u3400" <= c <= "\u9fff" or c == "\u3005":
        return "kanji"
    return "w" if c.isalnum() else ""


def _inside_longer_word(task: str, triggers: Sequence[str]) -> tuple[str, str] | None:
    """``(trigger, word)`` when one of ``triggers`` stands, as written
    (normalised), inside a longer word of ``task``: the run of characters of
    the same kind of writing around it on either side ("マイグレーション" in
    "マイグレーションツールを直して" -> "マイグレーションツール", "ログ解析" in "アクセスログ解析して" ->
    "アクセスログ解析", "log" in "blog"); None otherwise."""
    low = normalize_text(task)
    for trig in triggers:
        t = normalize_text(trig).strip()
        if len(t) < 2:
            continue
        i = low.find(t)
        while i >= 0:
            a, b = i, i + len(t)
            first, last = _script(t[0]), _script(t[-1])
            while a > 0 and first and _script(low[a - 1]) == first:
                a -= 1
            while b < len(low) and last and _script(low[b]) == last:
                b += 1
            if (a, b) != (i, i + len(t)):
                return trig, low[a:b]
            i = low.find(t, i + 1)
    return None

