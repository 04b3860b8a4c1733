"""Former home of Agent Skills reading and importing; kept one release so
that old imports work. New code imports :mod:`routelens.tools.agentskills`
(the format, reading a SKILL.md) and :mod:`routelens.tools.skill_import`
(proposing and appending registry entries)."""

from routelens.errors import SkillImportError
from routelens.tools.agentskills import (
    COMPATIBILITY_MAX_CHARS,
    DESCRIPTION_MAX_CHARS,
    MAX_SKILL_BYTES,
    NAME_MAX_CHARS,
    NAME_RE,
    SKILL_FILE,
    AgentSkill,
    SkillFileError,
    agentskills_name_problem,
    discover,
    read_skill_md,
)
from routelens.tools.skill_import import (
    ImportPlan,
    Proposal,
    apply_import,
    entries_yaml,
    plan_import,
    propose_triggers,
    write_registry,
)

ImportFailure = SkillImportError  # the name before the error hierarchy

__all__ = [
    "NAME_MAX_CHARS",
    "DESCRIPTION_MAX_CHARS",
    "COMPATIBILITY_MAX_CHARS",
    "NAME_RE",
    "SKILL_FILE",
    "MAX_SKILL_BYTES",
    "AgentSkill",
    "SkillFileError",
    "Proposal",
    "ImportPlan",
    "ImportFailure",
    "SkillImportError",
    "read_skill_md",
    "discover",
    "propose_triggers",
    "plan_import",
    "entries_yaml",
    "apply_import",
    "write_registry",
    "agentskills_name_problem",
]
