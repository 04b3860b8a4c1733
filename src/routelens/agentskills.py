"""Agent Skills folders (``<name>/SKILL.md``): read them, propose registry
entries, and append those entries to ``skills.yaml`` without touching any
existing byte of it.

The Agent Skills format (agentskills/agentskills ``docs/specification.mdx``,
summarised in ``shared/guides/peers.md``): a skill is a folder holding
``SKILL.md`` — YAML frontmatter between ``---`` lines, then a Markdown body.
``name`` is required: at most 64 characters, lowercase letters, digits and
single hyphens, not starting or ending with a hyphen, equal to the folder's
name. ``description`` is required: 1 to 1,024 characters. ``compatibility``
is at most 500 characters; ``metadata`` is a mapping. The format has no
triggers field: routelens reads ``metadata.triggers`` (a list, or one
comma-separated string) when present, and otherwise proposes phrases from
the name and the description, marked for review.

All lengths are counted in characters (Unicode code points), never bytes.
All positions are 1-based lines and columns counted in the SKILL.md file
itself (the ``---`` opener is line 1), on its canonical text: a BOM does not
shift columns and CRLF/CR line ends count as one line end.

Reading is robust (each case has a fixture in ``tests/fixtures/agentskills``):

- CRLF or CR line ends and a UTF-8 BOM are accepted;
- block scalars (``|``, ``>-``, ...) are read as YAML defines them;
- ``#`` inside a value: ``C#`` stays text; `` #`` after a plain value starts
  a YAML comment (as in every YAML reader an agent uses), and when a single
  space precedes it (``issue #42``, unlike the usual ``value  # comment``)
  routelens warns that the text was cut there;
- an unquoted ``: `` inside a plain value (``description: Use when: ...``)
  is invalid YAML; routelens reads the rest of the line as text and warns,
  since strict readers reject the file;
- a missing closing ``---`` is an error located where the Markdown body
  seems to start (never a confusing YAML error deep in the body);
- ``---`` horizontal rules in the body are body text: the frontmatter ends at
  the first ``---`` line after the opener.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routelens.errors import Diagnostic, RegistryError, SkillFileError, SkillImportError
from routelens.limits import LIMITS
from routelens.text.unicode import STOP_WORDS
from routelens.registry import (
    Registry,
    canonical_bytes,
    decode_canonical,
    parse_fragment,
    parse_registry,
)

__all__ = [
    "NAME_MAX_CHARS",
    "DESCRIPTION_MAX_CHARS",
    "COMPATIBILITY_MAX_CHARS",
    "NAME_RE",
    "SKILL_FILE",
    "AgentSkill",
    "SkillFileError",
    "Proposal",
    "ImportPlan",
    "ImportFailure",
    "read_skill_md",
    "discover",
    "propose_triggers",
    "plan_import",
    "entries_yaml",
    "apply_import",
    "write_registry",
    "agentskills_name_problem",
]

#: Agent Skills limits (spec ``docs/specification.mdx``), in characters.
NAME_MAX_CHARS = 64
DESCRIPTION_MAX_CHARS = 1024
COMPATIBILITY_MAX_CHARS = 500
#: lowercase letters, digits and single hyphens; no leading/trailing hyphen.
NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SKILL_FILE = "SKILL.md"
#: largest SKILL.md read, in bytes (the spec's guidance is < 500 lines).
MAX_SKILL_BYTES = 4 * 1024 * 1024


def agentskills_name_problem(name: str) -> str | None:
    """Why ``name`` breaks the Agent Skills name rules, or None when it is
    valid (at most 64 characters; lowercase letters, digits and single
    hyphens; not starting or ending with a hyphen)."""
    if not name:
        return "name is empty"
    if len(name) > NAME_MAX_CHARS:
        return f"name is {len(name)} characters; the Agent Skills limit is {NAME_MAX_CHARS}"
    if not NAME_RE.match(name):
        if name.startswith("-") or name.endswith("-"):
            why = "must not start or end with a hyphen"
        elif "--" in name:
            why = "must not contain '--'"
        else:
            why = "may hold only lowercase letters, digits and hyphens"
        return f"name {name!r} {why} (Agent Skills format)"
    return None


# --------------------------------------------------------------------------- reading


@dataclass
class AgentSkill:
    """A valid SKILL.md.

    ``name``/``description``: the frontmatter values (text as written; the
    description may hold line breaks from a block scalar). ``frontmatter``:
    every key as plain JSON-able values. ``triggers``: from
    ``metadata.triggers`` or None when absent. ``path``: the SKILL.md;
    ``body_start_line``: first line of the Markdown body (1-based, in the
    file); ``warnings``: problems that did not stop the reading.
    """

    name: str
    description: str
    path: Path
    frontmatter: dict[str, Any]
    triggers: tuple[str, ...] | None
    body_start_line: int
    warnings: list[Diagnostic] = field(default_factory=list)


_KEY_LINE = re.compile(r"^(?P<indent>[ ]*)(?P<dash>-[ ]+)?(?P<key>[A-Za-z0-9_][A-Za-z0-9_.\- ]*?)[ \t]*:(?:[ \t]+(?P<value>.*?))?[ \t]*$")
_BLOCK_INDICATOR = re.compile(r"^[|>][-+0-9]*(?:[ \t]+#.*)?$")
_FENCE = ("---", "...")


def _looks_like_body(line: str) -> bool:
    """A line at column 0 that YAML frontmatter cannot hold: not blank, not
    indented, not a comment, a list item or a ``key:`` line."""
    if not line.strip() or line[0] in " \t#":
        return False
    if line.startswith("- ") or line == "-":
        return False
    if _KEY_LINE.match(line) or re.match(r"""^["'][^"']*["'][ \t]*:(\s|$)""", line):
        return False
    return True


def _first_body_line(lines: list[str], start: int, end: int) -> int | None:
    """0-based index of the first line in ``lines[start:end]`` that looks
    like Markdown rather than frontmatter (block scalar content skipped)."""
    block_indent: int | None = None
    for i in range(start, end):
        line = lines[i]
        if block_indent is not None:
            if not line.strip() or len(line) - len(line.lstrip(" ")) > block_indent:
                continue
            block_indent = None
        m = _KEY_LINE.match(line)
        if m and m.group("value") and _BLOCK_INDICATOR.match(m.group("value")):
            block_indent = len(m.group("indent"))
            continue
        if _looks_like_body(line):
            return i
    return None


def _quote_colon_values(lines: list[str]) -> tuple[list[str], list[tuple[int, int, str]]]:
    """Repair plain values holding an unquoted ``: `` (invalid YAML) by
    double-quoting them, folding their continuation lines in and blanking
    those (so line numbers stay). Returns the new lines and ``(line index,
    0-based column of the colon, key)`` per repaired line."""
    out = list(lines)
    fixed: list[tuple[int, int, str]] = []
    block_indent: int | None = None
    i = 0
    while i < len(out):
        line = out[i]
        if block_indent is not None:
            if not line.strip() or len(line) - len(line.lstrip(" ")) > block_indent:
                i += 1
                continue
            block_indent = None
        m = _KEY_LINE.match(line)
        value = m.group("value") if m else None
        if not m or not value:
            i += 1
            continue
        indent = len(m.group("indent")) + len(m.group("dash") or "")
        if _BLOCK_INDICATOR.match(value):
            block_indent = len(m.group("indent"))
            i += 1
            continue
        if value[0] in "\"'[{&*!%@`|>":
            i += 1
            continue
        cut = re.search(r"[ \t]#", value)
        text = value[: cut.start()] if cut else value
        colon = re.search(r":([ \t]|$)", text)
        if not colon:
            i += 1
            continue
        parts = [text.strip()]
        j = i + 1
        while j < len(out) and out[j].strip() and len(out[j]) - len(out[j].lstrip(" ")) > indent \
                and not out[j].lstrip().startswith("#"):
            parts.append(out[j].strip())
            out[j] = ""
            j += 1
        value_col = m.start("value")
        out[i] = line[:value_col] + json.dumps(" ".join(parts), ensure_ascii=False)
        fixed.append((i, value_col + colon.start(), m.group("key")))
        i = j
    return out, fixed


def _comment_cuts(lines: list[str]) -> list[tuple[int, int, str, str]]:
    """Plain values cut short by `` #`` with a single space before it
    (``issue #42``): ``(line index, 0-based column of '#', key, kept text)``."""
    out = []
    block_indent: int | None = None
    for i, line in enumerate(lines):
        if block_indent is not None:
            if not line.strip() or len(line) - len(line.lstrip(" ")) > block_indent:
                continue
            block_indent = None
        m = _KEY_LINE.match(line)
        value = m.group("value") if m else None
        if not m or not value:
            continue
        if _BLOCK_INDICATOR.match(value):
            block_indent = len(m.group("indent"))
            continue
        if value[0] in "\"'[{&*!|>#":
            continue
        hit = re.search(r"(?<=\S) #", value)
        if hit and not value[hit.start() - 1 : hit.start()].isspace():
            col = m.start("value") + hit.start() + 1
            out.append((i, col, m.group("key"), value[: hit.start()]))
    return out


def _key_positions(lines: list[str], first_line: int) -> dict[str, tuple[int, int]]:
    """``key path -> (line, column of the value or key)`` for top-level keys
    and keys one level below them (``metadata.triggers``); 1-based, in the file."""
    pos: dict[str, tuple[int, int]] = {}
    top: str | None = None
    for i, line in enumerate(lines):
        m = _KEY_LINE.match(line)
        if not m or m.group("dash"):
            continue
        key = m.group("key")
        col = (m.start("value") if m.group("value") else m.start("key")) + 1
        if not m.group("indent"):
            top = key
            pos.setdefault(key, (first_line + i, col))
        elif top is not None:
            pos.setdefault(f"{top}.{key}", (first_line + i, col))
    return pos


def read_skill_md(path: str | Path, display: str | None = None, folder_name: str | None = None) -> AgentSkill:
    """Read and validate one SKILL.md.

    ``display`` names the file in diagnostics (default: ``path``);
    ``folder_name`` is the name the skill's ``name`` must equal (default:
    the file's parent folder). Returns an :class:`AgentSkill`; raises
    :class:`SkillFileError` with every error found (positions counted in the
    file) when the file is unreadable, has no or an unclosed frontmatter,
    invalid YAML, or breaks the Agent Skills rules (name, description,
    compatibility, metadata). Lengths are in characters.
    """
    path = Path(path)
    display = display or str(path)
    folder = folder_name if folder_name is not None else path.resolve().parent.name
    try:
        if path.stat().st_size > MAX_SKILL_BYTES:
            raise SkillFileError([Diagnostic(display, 1, 1, "", f"larger than {MAX_SKILL_BYTES} bytes; not read")])
        raw = path.read_bytes()
    except OSError as exc:
        raise SkillFileError([Diagnostic(display, 1, 1, "", f"cannot read: {exc.strerror or exc}")]) from None
    try:
        text = decode_canonical(raw, display)
    except RegistryError as exc:
        raise SkillFileError(exc.diagnostics) from None
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    warnings: list[Diagnostic] = []

    def err(line: int, col: int, key: str, msg: str) -> SkillFileError:
        return SkillFileError([Diagnostic(display, line, col, key, msg)], warnings)

    if not lines or lines[0].rstrip(" \t") != "---":
        raise err(1, 1, "", "no YAML frontmatter: a SKILL.md starts with a line `---`, then name and description, then `---`")
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip(" \t") in _FENCE), None)
    body_line = _first_body_line(lines, 1, close if close is not None else len(lines))
    def after_content(i: int) -> int:
        # 1-based number of the last frontmatter-looking line before index i
        while i > 1 and (not lines[i - 1].strip() or lines[i - 1].lstrip().startswith("#")):
            i -= 1
        return i

    if close is None:
        if body_line is not None:
            raise err(body_line + 1, 1, "",
                      "the frontmatter opened on line 1 is never closed: this line looks like the Markdown body; "
                      f"add a line `---` after line {after_content(body_line)}")
        raise err(1, 1, "", "the frontmatter opened on line 1 is never closed by a line `---`")
    fm_lines = lines[1:close]
    block = "\n".join(fm_lines) + "\n"
    if not any(l.strip() and not l.lstrip().startswith("#") for l in fm_lines):
        raise err(1, 1, "", "the frontmatter is empty: name and description are required")
    try:
        fm = parse_fragment(block, first_line=2, display=display)
    except RegistryError as exc:
        first = exc.diagnostics[0] if exc.diagnostics else Diagnostic(display, 2, 1, "", "invalid YAML")
        if body_line is not None and body_line + 1 <= first.line:
            raise err(body_line + 1, 1, "",
                      f"the frontmatter opened on line 1 is not closed before the Markdown body: this line is not YAML "
                      f"(the `---` on line {close + 1} is then a rule in the body); add a line `---` after line "
                      f"{after_content(body_line)}") from None
        fm = None
        if "mapping values are not allowed" in first.message:
            repaired, fixed = _quote_colon_values(fm_lines)
            try:
                fm = parse_fragment("\n".join(repaired) + "\n", first_line=2, display=display)
            except RegistryError:
                fm = None
            if fm is not None:
                for i, col, key in fixed:
                    warnings.append(Diagnostic(
                        display, i + 2, col + 1, key,
                        "unquoted ': ' inside a plain value: read the rest of the line as text; quote the value, "
                        "strict YAML readers (and so some agents) reject this line", "warning"))
        if fm is None:
            if "the range does not hold a mapping entry" in first.message:
                raise err(2, 1, "", "the frontmatter must be a mapping of keys (name, description, ...)") from None
            diags = [Diagnostic(d.file, d.line, d.column, d.key_path,
                                d.message + (" before the closing `---`" if d.line == close + 1 else ""))
                     for d in exc.diagnostics]
            raise SkillFileError(diags, warnings) from None
    for i, col, key, kept in _comment_cuts(fm_lines):
        warnings.append(Diagnostic(
            display, i + 2, col + 1, key,
            f"' #' starts a YAML comment, so the value ends before it ({kept.strip()!r}); "
            "quote the value if the '#...' belongs to it", "warning"))
    pos = _key_positions(fm_lines, 2)
    errors: list[Diagnostic] = []

    def at(key: str) -> tuple[int, int]:
        return pos.get(key, (1, 1))

    def hint(key: str) -> str:
        line = pos.get(key, (0, 0))[0]
        if line and re.search(r":[ \t]+#", lines[line - 1]):
            return " (the '#' after ': ' starts a YAML comment: quote the value)"
        return ""

    name = fm.get("name")
    if "name" not in fm or name is None or name == "":
        errors.append(Diagnostic(display, *at("name"), "name", "missing required `name`" + hint("name")))
        name = None
    elif not isinstance(name, str):
        errors.append(Diagnostic(display, *at("name"), "name", "name must be a string"))
        name = None
    else:
        problem = agentskills_name_problem(name)
        if problem:
            errors.append(Diagnostic(display, *at("name"), "name", problem))
        elif name != folder:
            errors.append(Diagnostic(display, *at("name"), "name",
                                     f"name {name!r} does not match its folder {folder!r} (Agent Skills format)"))
    desc = fm.get("description")
    if "description" not in fm or desc is None or (isinstance(desc, str) and not desc.strip()):
        errors.append(Diagnostic(display, *at("description"), "description",
                                 "missing required `description`" + hint("description")))
        desc = None
    elif not isinstance(desc, str):
        errors.append(Diagnostic(display, *at("description"), "description", "description must be a string"))
        desc = None
    elif len(desc) > DESCRIPTION_MAX_CHARS:
        errors.append(Diagnostic(display, *at("description"), "description",
                                 f"description is {len(desc)} characters; the Agent Skills limit is "
                                 f"{DESCRIPTION_MAX_CHARS:,} (characters, not bytes)"))
    comp = fm.get("compatibility")
    if isinstance(comp, str) and len(comp) > COMPATIBILITY_MAX_CHARS:
        errors.append(Diagnostic(display, *at("compatibility"), "compatibility",
                                 f"compatibility is {len(comp)} characters; the Agent Skills limit is {COMPATIBILITY_MAX_CHARS}"))
    triggers: tuple[str, ...] | None = None
    meta = fm.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        errors.append(Diagnostic(display, *at("metadata"), "metadata", "metadata must be a mapping"))
    elif isinstance(meta, dict) and "triggers" in meta:
        raw_t = meta["triggers"]
        items = [t.strip() for t in raw_t.split(",")] if isinstance(raw_t, str) else raw_t
        where = at("metadata.triggers")
        if not isinstance(items, list) or not items or not all(isinstance(t, str) and t.strip() for t in items):
            errors.append(Diagnostic(display, *where, "metadata.triggers",
                                     "metadata.triggers must be a non-empty list of non-empty strings "
                                     "(or one comma-separated string)"))
        else:
            long = [t for t in items if len(t) > LIMITS["max_trigger_chars"]]
            if long:
                errors.append(Diagnostic(display, *where, "metadata.triggers",
                                         f"a trigger of {len(long[0])} characters, more than the limit "
                                         f"{LIMITS['max_trigger_chars']}"))
            else:
                seen: dict[str, None] = {}
                for t in items:
                    seen.setdefault(t.strip(), None)
                triggers = tuple(seen)
    if errors:
        raise SkillFileError(sorted(errors, key=lambda d: (d.line, d.column)), warnings)
    assert isinstance(name, str) and isinstance(desc, str)
    return AgentSkill(name, desc, path, fm, triggers, close + 2, sorted(warnings, key=lambda d: (d.line, d.column)))


# --------------------------------------------------------------------------- discovering


def discover(paths: list[str | Path]) -> tuple[list[Path], list[Diagnostic]]:
    """SKILL.md files named by ``paths``: a file is taken as is; a folder
    holding ``SKILL.md`` gives that file; any other folder gives its
    ``*/SKILL.md`` (one level down), sorted by folder name. Returns the files
    (duplicates removed, first occurrence kept) and an error per path that
    does not exist or holds no SKILL.md."""
    found: list[Path] = []
    seen: set[Path] = set()
    errors: list[Diagnostic] = []
    for p in map(Path, paths):
        if p.is_file():
            files = [p]
        elif p.is_dir():
            files = [p / SKILL_FILE] if (p / SKILL_FILE).is_file() else sorted(
                (c / SKILL_FILE for c in p.iterdir() if (c / SKILL_FILE).is_file()), key=lambda f: f.parent.name)
            if not files:
                errors.append(Diagnostic(str(p), 1, 1, "", f"no {SKILL_FILE} in this folder or its subfolders"))
        else:
            errors.append(Diagnostic(str(p), 1, 1, "", "no such file or folder"))
            continue
        for f in files:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                found.append(f)
    return found, errors


# --------------------------------------------------------------------------- proposing

_QUOTED = re.compile(r"\"([^\"\n]{3,60})\"|“([^”\n]{3,60})”|「([^」\n]{2,60})」|`([^`\n]{3,60})`|(?<![\w])'([^'\n]{3,60})'(?![\w])")
_USE_WHEN = re.compile(r"\b(?:use (?:this skill )?(?:when|for|to)|when (?:the user )?(?:asks|wants) (?:to|for|about))\s+([^.;:,()\n]+)", re.I)


def propose_triggers(name: str, description: str) -> list[str]:
    """Trigger phrases proposed from a skill's name and description, for a
    person to review: the name with hyphens as spaces, phrases quoted in the
    description ("...", “...”, 「...」, `...`, '...'), and the words after
    "Use when"/"Use for"/"when the user asks to" (at most 6 words). Phrases of
    3 characters or fewer and stop words are left out, duplicates (case
    folded) removed; at most 5, in that order. Deterministic."""
    cands = [name.replace("-", " ")]
    for m in _QUOTED.finditer(description):
        cands.append(next(g for g in m.groups() if g))
    m = _USE_WHEN.search(description)
    if m:
        rest = re.sub(r"^(?:(?:the user|someone|you)\s+)?(?:asks?|wants?|needs?)(?:\s+(?:for|to|about))?\s*", "",
                      m.group(1), flags=re.I)
        rest = re.split(r"[\"“「`']|\s(?:or|and)\s+(?:when|if)\b", rest)[0]
        cands.append(" ".join(rest.split()[:6]))
    out: list[str] = []
    seen: set[str] = set()
    for c in cands:
        c = " ".join(c.split()).strip(" .,;:!?")
        key = c.casefold()
        if len(c) <= 3 or key in STOP_WORDS or key in seen or len(c) > LIMITS["max_trigger_chars"]:
            continue
        seen.add(key)
        out.append(c)
    return out[:5] or [name]


@dataclass
class Proposal:
    """A registry entry proposed from a SKILL.md.

    ``path``: the SKILL.md relative to the registry's folder, with ``/``;
    ``triggers_from``: ``"metadata.triggers"`` or ``"proposed"`` (then the
    entry carries ``review:`` metadata); ``description``: the SKILL.md
    description made one line; ``extra``: further keys written after the
    standard ones (``when_to_use`` when the SKILL.md has one).
    """

    id: str
    path: str
    priority: str
    description: str
    triggers: tuple[str, ...]
    triggers_from: str
    source: Path
    extra: dict[str, str] = field(default_factory=dict)

    def entry(self) -> dict[str, Any]:
        """The entry's value as written to the registry, in key order."""
        d: dict[str, Any] = {"path": self.path, "priority": self.priority, "triggers": list(self.triggers),
                             "description": self.description}
        d.update(self.extra)
        return d


@dataclass
class ImportPlan:
    """What ``routelens import`` would do. ``proposals``: entries to add, in
    the order given; ``skipped``: ``(id, SKILL.md, reason)`` for skills that
    are already in the registry or named twice; ``errors``/``warnings``:
    diagnostics of broken SKILL.md files and of paths (positions in the
    SKILL.md files)."""

    registry_path: Path
    proposals: list[Proposal] = field(default_factory=list)
    skipped: list[tuple[str, Path, str]] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)


def _rel_posix(target: Path, base: Path) -> str | None:
    t, b = target.resolve(), base.resolve()
    try:
        return t.relative_to(b).as_posix()
    except ValueError:
        return None


def plan_import(paths: list[str | Path], registry_path: str | Path, reg: Registry | None,
                priority: str = "P2") -> ImportPlan:
    """Read every SKILL.md under ``paths`` and propose entries for the
    registry at ``registry_path`` (``reg`` is that registry, or None when the
    file does not exist yet). A broken SKILL.md becomes an error in the plan
    and the others are still proposed. A skill whose name is already an id
    of the registry (skill, composition or rule) is skipped, never replaced;
    so is a SKILL.md outside the registry's folder (its body path could not
    be relative) and a second skill of the same name."""
    registry_path = Path(registry_path)
    plan = ImportPlan(registry_path)
    files, errs = discover(paths)
    plan.errors.extend(errs)
    taken = set()
    if reg is not None:
        taken = set(reg.skills) | set(reg.compositions) | set(reg.rules)
    for f in files:
        try:
            sk = read_skill_md(f)
        except SkillFileError as exc:
            plan.errors.extend(exc.diagnostics)
            plan.warnings.extend(exc.warnings)
            continue
        plan.warnings.extend(sk.warnings)
        if sk.name in taken:
            kind = "skill" if reg and sk.name in reg.skills else "entry"
            plan.skipped.append((sk.name, f, f"already a {kind} id in {registry_path.name}; never replaced"))
            continue
        if any(p.id == sk.name for p in plan.proposals):
            plan.skipped.append((sk.name, f, "a skill of this name was already proposed from another folder"))
            continue
        rel = _rel_posix(f, registry_path.parent)
        if rel is None:
            plan.errors.append(Diagnostic(
                str(f), 1, 1, "",
                f"outside the registry's folder {registry_path.parent.resolve()}: a skill's path must be relative "
                "to it; move or copy the skill folder under it first"))
            continue
        from routelens.prompt import one_line

        extra: dict[str, str] = {}
        wtu = sk.frontmatter.get("when_to_use")
        if isinstance(wtu, str) and wtu.strip():
            extra["when_to_use"] = one_line(wtu)
        if sk.triggers is not None:
            triggers, source = sk.triggers, "metadata.triggers"
        else:
            triggers, source = tuple(propose_triggers(sk.name, sk.description)), "proposed"
            extra["review"] = "triggers proposed from the name and description; edit them, then delete this key"
        plan.proposals.append(Proposal(sk.name, rel, priority, one_line(sk.description), triggers, source, f, extra))
        taken.add(sk.name)
    plan.errors.sort(key=lambda d: (d.file, d.line, d.column))
    plan.warnings.sort(key=lambda d: (d.file, d.line, d.column))
    return plan


# --------------------------------------------------------------------------- writing


ImportFailure = SkillImportError  # the name before the error hierarchy


@dataclass(frozen=True)
class _Layout:
    key_indent: int
    map_step: int
    seq_offset: int
    blank_between: bool


def _layout(reg: Registry | None) -> _Layout:
    """Indentation of the registry's skills (key column, mapping step,
    sequence dash offset) and whether entries are separated by a blank line,
    so appended entries look like the existing ones."""
    if reg is None or not reg.skills:
        return _Layout(2, 2, 2, True)
    lines = reg.lines
    entries = sorted(reg.skills.values(), key=lambda s: s.source_start)
    last = entries[-1]
    key_line = lines[last.source_start - 1]
    key_indent = len(key_line) - len(key_line.lstrip(" "))
    step, offset = 2, 2
    for ln in lines[last.source_start : last.source_end]:
        if ln.strip() and not ln.lstrip().startswith("#"):
            step = max(len(ln) - len(ln.lstrip(" ")) - key_indent, 1)
            break
    for s in entries:
        for i in range(s.source_start, s.source_end - 1):
            if re.match(r"^\s*triggers\s*:\s*$", lines[i]):
                nxt = lines[i + 1]
                if nxt.lstrip().startswith("-"):
                    offset = (len(nxt) - len(nxt.lstrip(" "))) - (len(lines[i]) - len(lines[i].lstrip(" ")))
                break
        else:
            continue
        break
    blank = any(lines[s.source_start - 2].strip() == "" for s in entries[1:]) if len(entries) > 1 else True
    return _Layout(key_indent, step, max(offset, 0), blank)


def entries_yaml(proposals: list[Proposal], reg: Registry | None = None) -> str:
    """The YAML text (LF line ends) of the entries to append under
    ``skills:``, dumped with ruamel.yaml's round-trip dumper in the
    registry's own indentation (a value that would read as another type,
    such as ``yes`` or ``1.10``, comes out quoted). Entries are separated by
    a blank line when the registry's are."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    lay = _layout(reg)
    y = YAML()  # round-trip
    y.width = 1_000_000
    y.allow_unicode = True
    y.indent(mapping=lay.map_step, sequence=lay.seq_offset + 2, offset=lay.seq_offset)
    chunks = []
    for p in proposals:
        value = CommentedMap()
        for k, v in p.entry().items():
            if isinstance(v, list):
                seq = CommentedSeq(v)
                value[k] = seq
            else:
                value[k] = v
        buf = io.StringIO()
        y.dump(CommentedMap([(p.id, value)]), buf)
        text = "".join(" " * lay.key_indent + ln if ln.strip() else ln for ln in buf.getvalue().splitlines(True))
        chunks.append(text)
    return ("\n" if lay.blank_between else "").join(chunks)


def _line_end_offset(raw: bytes, line: int) -> tuple[int, bytes]:
    """Byte offset just after the line end of 1-based ``line`` in ``raw``
    (counting CRLF, CR and LF as one line end each, as the registry does),
    and that line end (b"" when the line is the last one and unterminated)."""
    i, n, count = 0, len(raw), 0
    while i < n:
        j = i
        while j < n and raw[j] not in (0x0A, 0x0D):
            j += 1
        if j >= n:
            return n, b""
        end = raw[j : j + 2] if raw[j : j + 2] == b"\r\n" else raw[j : j + 1]
        count += 1
        if count == line:
            return j + len(end), end
        i = j + len(end)
    return n, b""


def apply_import(plan: ImportPlan, reg: Registry | None) -> tuple[bytes, bytes, int, Registry]:
    """Compute the registry bytes with the plan's entries appended.

    Returns ``(old_bytes, new_bytes, offset, new_registry)``: the entries'
    text is inserted at byte ``offset`` (just after the last line of the last
    skill, so every other byte is unchanged: ``new[:offset] == old[:offset]``
    and ``new[offset + k:] == old[offset:]``), in the file's own line ends.
    The result is checked before anything is written: it must load with
    ruamel.yaml's round-trip loader and with routelens's reader, keep every
    existing entry's value, and hold each proposal as proposed. Raises
    :class:`ImportFailure` otherwise. Writes nothing.
    """
    path = plan.registry_path
    if reg is None:
        old = b""
        head = b"schema_version: 1\n\nskills:\n"
        offset, eol = 0, b"\n"
        insert = head + entries_yaml(plan.proposals, None).encode("utf-8")
    else:
        old = path.read_bytes()
        if canonical_bytes(old).decode("utf-8") != reg.text:
            raise ImportFailure(f"{path} changed while importing; run the import again")
        if not reg.skills:
            raise ImportFailure(f"{path}: `skills` has no entries written in block style to append after "
                               "(e.g. `skills: {}`); write `skills:` with one entry by hand first")
        last = max(reg.skills.values(), key=lambda s: s.source_end)
        offset, eol = _line_end_offset(old, last.source_end)
        if not eol:
            eol = b"\r\n" if b"\r\n" in old else (b"\r" if b"\r" in old else b"\n")
            prefix = eol
        else:
            prefix = b""
        lay = _layout(reg)
        text = ("\n" if lay.blank_between else "") + entries_yaml(plan.proposals, reg)
        insert = prefix + text.encode("utf-8").replace(b"\n", eol)
    new = old[:offset] + insert + old[offset:]
    # check 1: ruamel.yaml round-trip loads the result
    from ruamel.yaml import YAML

    try:
        YAML().load(canonical_bytes(new).decode("utf-8"))
    except Exception as exc:  # pragma: no cover - entries are dumped by ruamel itself
        raise ImportFailure(f"the appended registry would not load with ruamel.yaml: {exc}") from None
    # check 2: routelens reads it, old entries unchanged, new ones as proposed
    try:
        new_reg = parse_registry(new, path)
    except RegistryError as exc:
        raise ImportFailure("the appended registry would be invalid:\n" + "\n".join(map(str, exc.diagnostics))) from None
    if reg is not None:
        for sid, s in reg.skills.items():
            n = new_reg.skills.get(sid)
            if n is None or (n.path, n.priority, n.triggers, n.description, n.status, n.metadata) != (
                    s.path, s.priority, s.triggers, s.description, s.status, s.metadata):
                raise ImportFailure(f"appending would change the existing skill {sid!r}; nothing was written")
        for cid, c in reg.compositions.items():
            if cid not in new_reg.compositions or new_reg.compositions[cid].members != c.members:
                raise ImportFailure(f"appending would change the composition {cid!r}; nothing was written")
    for p in plan.proposals:
        n = new_reg.skills.get(p.id)
        if n is None or (n.path, n.priority, list(n.triggers), n.description) != (
                p.path, p.priority, list(p.triggers), p.description):
            raise ImportFailure(f"the appended entry {p.id!r} would not read back as proposed; nothing was written")
    return old, new, offset, new_reg


def write_registry(path: Path, old: bytes, new: bytes) -> None:
    """Replace ``path``'s bytes ``old`` by ``new`` atomically (temporary file
    in the same folder + rename, keeping the file mode). Raises
    :class:`ImportFailure` when the file changed since it was read."""
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        current = b""
    if current != old:
        raise ImportFailure(f"{path} changed while importing; nothing was written, run the import again")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(new)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
