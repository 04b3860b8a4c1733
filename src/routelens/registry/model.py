"""The registry's data model (docs/formats.md §1, §2): entries with their
canonical line ranges, routing settings with the only defaults, and the
validated :class:`Registry`.

Nothing in this module reads a file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from routelens.errors import Diagnostic
from routelens.text.canonical import editor_lines, range_text

__all__ = [
    "ID_RE",
    "PRIORITIES",
    "STATUSES",
    "SKILL_KEYS",
    "RULE_KEYS",
    "Skill",
    "new_skill",
    "Composition",
    "Rule",
    "AUDIENCES",
    "RoutingSettings",
    "Registry",
    "iter_entries",
]

#: Ids of skills, compositions and rules (docs/formats.md §1).
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: A skill's ``priority`` (P0 is highest, docs/formats.md §1).
PRIORITIES = ("P0", "P1", "P2")
#: A skill's ``status`` (docs/formats.md §1; ``active`` when not written).
STATUSES = ("active", "deprecated", "disabled")
#: The keys of a skill and of a rule that routelens reads (docs/formats.md §1.1); others are metadata.
SKILL_KEYS = ("path", "priority", "triggers", "description", "status", "not_when")
RULE_KEYS = ("forced", "triggers", "description")


@dataclass(frozen=True)
class Skill:
    """A skill entry of the registry (docs/formats.md §1).

    ``source_start``/``source_end``: 1-based inclusive canonical line range
    (docs/formats.md §2). ``triggers``: the text as written, in file order.
    ``metadata``: every further key, as plain JSON-able values.
    ``self_contained``: False when the range uses an alias whose anchor lies
    outside it (docs/formats.md §2). ``not_when``: the negative triggers,
    as written ("do not use when ..."): a task matching one drops the skill
    (docs/formats.md §1.1, §6.10).
    """

    id: str
    path: str
    priority: str
    triggers: tuple[str, ...]
    description: str | None
    status: str
    metadata: dict[str, Any]
    source_start: int
    source_end: int
    self_contained: bool = True
    not_when: tuple[str, ...] = ()


_new_object = object.__new__


def new_skill(id: str, path: str, priority: str, triggers: tuple[str, ...], description: str | None,
              status: str, metadata: dict[str, Any], source_start: int, source_end: int,
              self_contained: bool = True, not_when: tuple[str, ...] = ()) -> Skill:
    """``Skill(...)`` with the same parameters, made about three times
    faster: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, which at 10,000 skills costs more than reading
    the entries; this fills the new instance's ``__dict__`` directly. The
    result is equal to, hashes like and behaves like ``Skill(...)`` (the
    tests check that the parameters are the dataclass's fields)."""
    s = _new_object(Skill)
    d = s.__dict__
    d["id"] = id
    d["path"] = path
    d["priority"] = priority
    d["triggers"] = triggers
    d["description"] = description
    d["status"] = status
    d["metadata"] = metadata
    d["source_start"] = source_start
    d["source_end"] = source_end
    d["self_contained"] = self_contained
    d["not_when"] = not_when
    return s


@dataclass(frozen=True)
class Composition:
    """A composition: an id naming a non-empty list of existing skill ids."""

    id: str
    members: tuple[str, ...]
    source_start: int
    source_end: int
    self_contained: bool = True


@dataclass(frozen=True)
class Rule:
    """A rule; a matching ``forced`` rule sends the router to the full registry."""

    id: str
    forced: bool
    triggers: tuple[str, ...]
    description: str | None
    metadata: dict[str, Any]
    source_start: int
    source_end: int
    self_contained: bool = True


#: Who writes a registry's tasks (``routing.audience``, docs/formats.md §1.1): its own team (the default) or the public.
AUDIENCES = ("team", "public")


@dataclass(frozen=True)
class RoutingSettings:
    """The registry's ``routing:`` section; the defaults here are the only
    ones (docs/formats.md §1: threshold 85, ambiguity margin 5, no high-risk
    terms, max index ratio 0.70).

    ``threshold`` and ``ambiguity_margin`` are scores on the 0-100 scale
    (``int`` when written as whole numbers, so the generated files show
    ``85``, not ``85.0``); ``high_risk``: terms as written;
    ``max_index_ratio`` bounds index characters / registry characters (§5).
    ``present`` tells whether the registry (or index) has a ``routing:``
    section. ``destructive_intents``: the router's built-in list of
    destructive intents is on (the default; docs/formats.md §6.11); only an
    explicit ``destructive_intents: false`` switches it off. ``audience``:
    who writes the tasks, one of :data:`AUDIENCES`: ``team`` (the default),
    the organisation's own people, so a task about the writer's private
    life is no work of the registry; ``public``, its customers, whose own
    life and questions are the work (§6.10).
    """

    threshold: float = 85
    ambiguity_margin: float = 5
    high_risk: tuple[str, ...] = ()
    max_index_ratio: float = 0.70
    present: bool = False
    destructive_intents: bool = True
    audience: str = "team"


@dataclass
class Registry:
    """A validated registry.

    ``text`` is the canonical text (BOM removed, LF line ends);
    ``source_sha256`` the sha256 hex of its UTF-8 bytes (docs/formats.md §3).
    ``skills``, ``compositions`` and ``rules`` are dicts sorted by id.
    ``line_count`` counts lines as an editor does (a final newline adds none).
    """

    path: Path
    display_name: str
    text: str
    source_sha256: str
    skills: dict[str, Skill]
    compositions: dict[str, Composition]
    rules: dict[str, Rule]
    routing: RoutingSettings
    warnings: list[Diagnostic] = field(default_factory=list)
    _lines: list[str] | None = field(default=None, repr=False)
    _comps_of: dict[str, list[str]] | None = field(default=None, repr=False)
    _base_dir: Path | None = field(default=None, repr=False)
    #: the UTF-8 length of ``text`` (bytes), when the reader knows it (the canonical bytes it hashed)
    _nbytes: int | None = field(default=None, repr=False, compare=False)

    @property
    def lines(self) -> list[str]:
        """Canonical lines without their line ends (index 0 is line 1)."""
        if self._lines is None:
            self._lines = editor_lines(self.text)
        return self._lines

    @property
    def line_count(self) -> int:
        """Number of lines as an editor counts them (a final newline adds none)."""
        return len(self.lines)

    def range_text(self, start: int, end: int) -> str:
        """Exact text of 1-based inclusive lines ``start..end``, LF-joined,
        with a trailing LF. Raises ``ValueError`` for a range outside the file."""
        return range_text(self.lines, start, end)

    @property
    def base_dir(self) -> Path:
        """The folder skill ``path``s are relative to: the real folder of the
        registry file (symlinks resolved), so a symlinked ``skills.yaml``
        finds its bodies beside its target (docs/formats.md §1.1)."""
        if self._base_dir is None:
            self._base_dir = Path(os.path.realpath(self.path)).parent
        return self._base_dir

    def entry(self, entry_id: str) -> Skill | Composition | Rule | None:
        """The skill, composition or rule with this id, or None."""
        return self.skills.get(entry_id) or self.compositions.get(entry_id) or self.rules.get(entry_id)

    def compositions_of(self, skill_id: str) -> list[str]:
        """Ids of the compositions that contain ``skill_id``, sorted (a new list)."""
        if self._comps_of is None:
            comps: dict[str, list[str]] = {}
            for c in self.compositions.values():  # sorted by id
                for m in c.members:
                    comps.setdefault(m, []).append(c.id)
            self._comps_of = comps
        return list(self._comps_of.get(skill_id, ()))




def iter_entries(reg: Registry) -> Iterable[Skill | Composition | Rule]:
    """Every skill, composition and rule, in file order."""
    allx: list[Skill | Composition | Rule] = [*reg.skills.values(), *reg.compositions.values(), *reg.rules.values()]
    return sorted(allx, key=lambda e: e.source_start)
