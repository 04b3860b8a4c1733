"""``routelens init [DIR]``: a starter registry for people starting from nothing.

It writes, into ``DIR`` (default: the current folder):

- ``skills.yaml``: three skills, a composition, a rule and a ``routing:``
  section, with a comment on every field and the yaml-language-server
  modeline (docs/formats.md §1);
- ``skills.schema.json``: the JSON Schema the modeline names (the one
  ``routelens schema`` prints), so an editor validates the file at once;
- ``skills/<id>.md``: the three Layer-2 bodies;
- ``generated/routing.min.json`` and ``generated/catalog.json``, built from
  the registry exactly as ``routelens build`` builds them.

It never overwrites anything: when any of those files (or a folder in
their way) already exists, it writes nothing and names every one
(:class:`InitRefused`). Nothing in this module imports Textual.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from routelens.artifacts.write import write_generated
from routelens.errors import RoutelensError
from routelens.paths import CATALOG_NAME, GENERATED_DIR, INDEX_NAME
from routelens.registry.load import parse_registry
from routelens.tools.schema import schema_text

__all__ = ["REGISTRY_NAME", "SCHEMA_NAME", "STARTER_REGISTRY", "STARTER_BODIES", "InitRefused", "InitResult",
           "planned_files", "init_registry"]

REGISTRY_NAME = "skills.yaml"
SCHEMA_NAME = "skills.schema.json"

#: The starter registry's exact text. Every field carries a comment saying
#: what it is and what it may hold (docs/formats.md §1.1).
STARTER_REGISTRY = """\
# yaml-language-server: $schema=./skills.schema.json
#
# The skill registry: the single source of truth for routing (routelens).
# Edit this file, then run `routelens build` to regenerate generated/.
# `routelens check` fails when generated/ is stale; `routelens tui` shows
# why a task was (not) routed while you edit.

schema_version: 1          # required: the integer 1

skills:                    # required: skill id -> skill; ids are kebab-case (a-z, 0-9, -)
  code-review:
    path: skills/code-review.md    # required: the Layer-2 body, relative to this file's folder
    priority: P0                   # required: P0 (core) | P1 (common) | P2 (occasional)
    triggers:                      # required: 1-256 phrases people type; each routes here
      - code review
      - review this pull request
      - review my diff
    description: Review a diff or pull request for correctness, risk and tests
                                   # optional: the Layer-1 one-liner an agent always sees
    status: active                 # optional: active (default) | deprecated | disabled
    # not_when: [review guidelines]  # optional: phrases that say it is not this work; a task saying one drops it
    owner: your-team               # optional: any other key is metadata, kept in the catalog

  release-notes:
    path: skills/release-notes.md  # the body: what the agent reads once this skill is chosen
    priority: P1                   # P1: a common specialist task
    triggers:                      # phrases, not single everyday words: "notes" alone would route too much
      - release notes
      - changelog entry
      - what's changed since
    description: Write user-facing release notes from merged changes
                                   # one line, under about 100 characters

  bug-triage:
    path: skills/bug-triage.md     # bodies live in skills/, one Markdown file per skill
    priority: P1                   # P1 again; P2 is for occasional skills
    triggers:                      # English and other languages mix freely: バグ報告 matches inside Japanese text
      - triage this bug
      - bug report
      - バグ報告
    description: Reproduce, label and prioritise an incoming bug report
                                   # what it does and when to use it

composition:               # optional: composition id -> the skills that go together
  ship-release:                    # a task that matches several members routes to all of them
    - code-review                  # members are skill ids, in the order an agent should use them
    - release-notes

rules:                     # optional: rule id -> rule
  production-change:
    forced: true                   # true: a match sends the agent to the full registry, whatever else matches
    triggers: [production deploy, prod database]
                                   # matched like skill triggers, against the whole task
    description: Anything touching production needs the full checklist
                                   # optional: says why the rule exists

routing:                   # optional: router settings; `routelens tune CASES` recommends values
  threshold: 85                    # 0-100: the score a trigger needs to count as a match
  ambiguity_margin: 5              # 0-100: top two candidates closer than this -> fall back
  high_risk: [rm -rf, drop table, force push]
                                   # terms that always send the agent to the full registry
  max_index_ratio: 0.70            # (0, 1]: the compact index must stay below this share of the registry
  audience: team                   # who writes the tasks: team (your own people) or public (your customers)
"""

#: The three Layer-2 bodies: skill id -> Markdown with frontmatter.
STARTER_BODIES = {
    "code-review": """\
---
name: code-review
description: Review a diff or pull request for correctness, risk and tests
---

# Code review

## When to use
- Someone asks for a review of a diff, a branch or a pull request.

## Steps
1. Read the description first: what is the change supposed to do?
2. Check correctness: edge cases, error paths, nulls, off-by-one.
3. Check risk: migrations, public API changes, config defaults.
4. Check tests: does a test fail without the change?
5. End with a summary and a clear verdict.
""",
    "release-notes": """\
---
name: release-notes
description: Write user-facing release notes from merged changes
---

# Release notes

## When to use
- A release is being cut and users need to know what changed.

## Steps
1. List the merged changes since the last tag.
2. Group them: new, changed, fixed, removed.
3. Write each entry for a user, not for a developer: what they can now do.
4. Call out anything that needs action (a breaking change, a migration).
""",
    "bug-triage": """\
---
name: bug-triage
description: Reproduce, label and prioritise an incoming bug report
---

# Bug triage

## When to use
- A new bug report arrives and needs an owner and a priority.

## Steps
1. Reproduce it; if you cannot, ask for the missing steps.
2. Label the area and the severity.
3. Search for duplicates and link them.
4. Assign an owner and a priority; say why.
""",
}


class InitRefused(RoutelensError):
    """``routelens init`` wrote nothing: ``existing`` names the paths that
    are already there (files or folders in the way), ``reason`` says why
    for anything else (the target is not a folder)."""

    def __init__(self, existing: list[Path], reason: str = ""):
        self.existing = existing
        self.reason = reason
        what = reason or "already exists: " + ", ".join(str(p) for p in existing)
        super().__init__(f"nothing was written: {what}")


@dataclass(frozen=True)
class InitResult:
    """What :func:`init_registry` wrote: ``registry`` (the new skills.yaml)
    and ``written`` (every file, in the order written)."""

    registry: Path
    written: list[Path]


def planned_files(directory: str | Path) -> list[Path]:
    """Every file :func:`init_registry` writes into ``directory``, in order:
    the bodies, the schema, the registry, then the generated pair."""
    d = Path(directory)
    return ([d / "skills" / f"{sid}.md" for sid in STARTER_BODIES] + [d / SCHEMA_NAME, d / REGISTRY_NAME]
            + [d / GENERATED_DIR / CATALOG_NAME, d / GENERATED_DIR / INDEX_NAME])


def _exclusive_write(path: Path, text: str) -> None:
    """Create ``path`` with ``text``; never replaces a file (``O_EXCL``)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def init_registry(directory: str | Path = ".") -> InitResult:
    """Write the starter registry, its schema, bodies and ``generated/``
    into ``directory`` (created when missing).

    Refuses (:class:`InitRefused`, nothing written) when any planned file
    exists already, or a path in the way is a file where a folder must be.
    Files are created with ``O_EXCL``, so a file that appears meanwhile is
    not replaced either; the generated pair is written by
    :func:`routelens.artifacts.write.write_generated` (atomically, as
    ``routelens build`` writes it). Raises ``OSError`` when the folder
    cannot be written."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise InitRefused([d], f"{d} is a file, not a folder")
    in_the_way = [p for p in (d / "skills", d / GENERATED_DIR) if p.exists() and not p.is_dir()]
    existing = [p for p in planned_files(d) if os.path.lexists(p)]
    if existing or in_the_way:
        raise InitRefused(in_the_way + existing)
    (d / "skills").mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for sid, body in STARTER_BODIES.items():
        path = d / "skills" / f"{sid}.md"
        _exclusive_write(path, body)
        written.append(path)
    _exclusive_write(d / SCHEMA_NAME, schema_text())
    written.append(d / SCHEMA_NAME)
    reg_path = d / REGISTRY_NAME
    _exclusive_write(reg_path, STARTER_REGISTRY)
    written.append(reg_path)
    reg = parse_registry(STARTER_REGISTRY.encode("utf-8"), reg_path, str(reg_path))
    write_generated(reg, d / GENERATED_DIR)
    written += [d / GENERATED_DIR / CATALOG_NAME, d / GENERATED_DIR / INDEX_NAME]
    return InitResult(reg_path, written)
