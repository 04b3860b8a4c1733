"""Keys of a skill or rule that look like a misspelled key routelens reads.

A key routelens does not read is kept as metadata (docs/formats.md §2.2), so
``satus: disabled`` never disables the skill and ``descripton:`` leaves it
without a Layer-1 description — without an error. :func:`misspelled_keys`
names each such key that is one letter or two from a read key; ``build``,
``check`` and ``lint`` print the same warnings (lint with the code
``misspelled-key``). A misspelling that would change routing in silence is
an error instead (docs/formats.md §1.1, §1.3): a skill's ``status`` or
``not_when`` (:func:`misspelt_routing_keys`), an optional top-level section
(:func:`unknown_top_level_key`); :func:`missing_key` names the key that
misspells a missing required one. Nothing here imports Textual.
"""

from __future__ import annotations

import re
from typing import Any

from routelens.errors import Diagnostic
from routelens.registry.model import RULE_KEYS, SKILL_KEYS, Registry
from routelens.text.words import closest

__all__ = ["KEY_HINT_CUTOFF", "KNOWN_TOP_LEVEL", "misspelled_keys", "entries_misspelled_keys", "missing_key",
           "misspelt_routing_keys", "unknown_top_level_key"]

#: how alike (rapidfuzz ``fuzz.ratio``, 0-100) a metadata key must be to a read key to be called a misspelling
KEY_HINT_CUTOFF = 80

#: the top-level keys of a registry (docs/formats.md §1.1)
KNOWN_TOP_LEVEL = ("schema_version", "skills", "composition", "rules", "routing")
#: the optional top-level sections, and what is lost when one is misspelt
_SECTION_LOST = {"composition": "no composition would be served",
                 "rules": "no rule would force a fallback",
                 "routing": "every routing setting would stay at its default, the high-risk terms included"}


def unknown_top_level_key(key: str, present: Any) -> tuple[bool, str]:
    """``(is an error, message)`` for a top-level ``key`` routelens does not
    read, in a registry whose top-level keys are ``present`` (docs/formats.md
    §1.1): a misspelt optional section the registry lacks (:data:`KEY_HINT_CUTOFF`
    or more to ``composition``, ``rules`` or ``routing``: ``compositions:``
    built an index with no compositions and exit 0) is an error naming the
    key it resembles and what would be lost; any other key a warning
    ("ignored", with the closest known key when one is close)."""
    misspelt = closest(key, tuple(_SECTION_LOST), KEY_HINT_CUTOFF)
    if misspelt is not None and misspelt not in present:
        return True, (f"unknown top-level key: did you mean `{misspelt}`? (as written the whole section would be "
                      f"ignored: {_SECTION_LOST[misspelt]})")
    hint = closest(key, KNOWN_TOP_LEVEL)
    return False, (f"unknown top-level key (known: {', '.join(KNOWN_TOP_LEVEL)}); ignored"
                   + (f"; did you mean `{hint}`?" if hint else ""))

#: the keys each section reads; ``when_to_use`` is a read key of Agent Skills' listing (lint's budgets)
_READ = {"skills": (*SKILL_KEYS, "when_to_use"), "rules": RULE_KEYS}


def missing_key(r: Any, kn: Any, d: Any, fields: dict[Any, Any], base: str, req: str) -> None:
    """Record on the reader ``r`` "missing required key `req`" of a skill
    at its key ``kn`` (its mapping ``d``, its ``fields``, its key path
    ``base``) — or, when one of the entry's other keys is one letter or two
    from ``req`` (``priorty``: :data:`KEY_HINT_CUTOFF`), at that key, the
    place to fix, naming it (docs/formats.md §1.3)."""
    others = [k for k in fields if isinstance(k, str) and k not in _SKILL_KEY_SET]
    hint = closest(req, others, KEY_HINT_CUTOFF) if others else None
    if hint is None:
        r.error(kn.start, f"{base}.{req}", f"missing required key `{req}`")
        return
    node = next(knode for key, knode, _v in r.mapping_pairs(d, "") if key == hint)
    r.error(node.start, f"{base}.{req}", f"missing required key `{req}` (`{hint}` here looks like a misspelling of it)")


_SKILL_KEY_SET = frozenset(SKILL_KEYS)


#: the skill keys whose misspelling changes routing in silence (docs/formats.md §1.3): an error, not a warning
_ROUTING_SKILL_KEYS = {"status": "the skill stays active", "not_when": "its not_when phrases are dropped"}


def misspelt_routing_keys(display: str, text_lines: Any, skills: dict[str, Any]) -> list[Diagnostic]:
    """Errors, one per metadata key of a skill that misspells ``status`` or
    ``not_when`` (:data:`KEY_HINT_CUTOFF` or more): as written it is
    metadata, and the skill stays active (``stauts: disabled``) or loses its
    negative triggers (``not_wen:``) in silence, as a rule's misspelt
    ``forced`` would leave it unforced (docs/formats.md §1.3). Positions as
    :func:`misspelled_keys` gives them; ``text_lines`` is called for the
    registry's canonical lines the first time a position is needed."""
    hints: dict[str, str | None] = {}
    lines: list[str] | None = None
    out: list[Diagnostic] = []
    for s in skills.values():
        for key in s.metadata:
            if key not in hints:
                hints[key] = closest(key, tuple(_ROUTING_SKILL_KEYS), KEY_HINT_CUTOFF)
            hint = hints[key]
            if hint is None or hint in s.metadata:
                continue
            if lines is None:
                lines = text_lines()
            line, col = _key_position(lines, s.source_start, s.source_end, key)
            out.append(Diagnostic(display, line, col, f"skills.{s.id}.{key}",
                                  f"`{key}` is no key routelens reads: did you mean `{hint}`? (as written it is "
                                  f"metadata, and {_ROUTING_SKILL_KEYS[hint]})"))
    return out


def misspelled_keys(reg: Registry) -> list[Diagnostic]:
    """Warnings (:class:`~routelens.errors.Diagnostic`, severity
    ``"warning"``), in file order of the entries, one per metadata key of a
    skill or rule whose ``closest`` read key scores at least
    :data:`KEY_HINT_CUTOFF`: ``FILE:LINE:COL: warning: skills.ID.KEY: `KEY`
    is no key routelens reads (it is kept as metadata): did you mean
    `READ`?``. The position (1-based line and column, in characters) is the
    key's, found on the entry's canonical line range (§2.3), else the
    entry's first line. Each distinct key is judged once (a big registry
    repeats the same few metadata keys). Raises nothing."""
    return entries_misspelled_keys(reg.display_name, reg.lines, reg.skills, reg.rules)


def entries_misspelled_keys(display: str, lines: list[str], skills: dict[str, Any], rules: dict[str, Any],
                            said: set[str] | frozenset[str] = frozenset()) -> list[Diagnostic]:
    """:func:`misspelled_keys` of the entries ``skills`` and ``rules`` (id ->
    :class:`~routelens.registry.model.Skill` or ``Rule``) of a registry
    whose canonical lines are ``lines`` (index 0 is line 1), named
    ``display``: also for a registry with errors, whose valid entries are
    judged so that the warning comes after the errors (docs/formats.md
    §1.3); none for a key path in ``said`` (an error names it already: a
    rule's ``force:``)."""
    hints: dict[tuple[str, str], str | None] = {}
    found: list[tuple[int, int, Diagnostic]] = []
    for section, entries in (("skills", skills), ("rules", rules)):
        read = _READ[section]
        for e in entries.values():
            for key in e.metadata:
                if (section, key) not in hints:
                    hints[section, key] = closest(key, read, KEY_HINT_CUTOFF)
                hint = hints[section, key]
                if hint is None or f"{section}.{e.id}.{key}" in said:
                    continue
                line, col = _key_position(lines, e.source_start, e.source_end, key)
                found.append((line, col, Diagnostic(
                    display, line, col, f"{section}.{e.id}.{key}",
                    f"`{key}` is no key routelens reads (it is kept as metadata): did you mean `{hint}`?",
                    severity="warning")))
    found.sort(key=lambda t: (t[0], t[1]))
    return [d for _l, _c, d in found]


def _key_position(lines: list[str], start: int, end: int, key: str) -> tuple[int, int]:
    """The 1-based (line, column) of ``key:`` (plain, single- or
    double-quoted) on lines ``start``-``end``: at the start of a line after
    the first (a block mapping), or after ``{`` or ``,`` (a flow mapping);
    else ``(start, 1)``."""
    name = rf"""(?:{re.escape(key)}|'{re.escape(key)}'|"{re.escape(key)}")[ ]*:(?:[ ]|$)"""
    block, flow = re.compile(rf"^[ ]*({name})"), re.compile(rf"[{{,][ ]*({name})")
    for number in range(start, min(end, len(lines)) + 1):
        text = lines[number - 1]
        m = (block.match(text) if number > start else None) or flow.search(text)
        if m is not None:
            return number, m.start(1) + 1
    return start, 1
