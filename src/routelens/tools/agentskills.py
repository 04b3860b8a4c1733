"""Agent Skills folders (``<name>/SKILL.md``): the format's rules, reading
and validating a SKILL.md, and finding them. Proposing registry entries
from them and appending those to ``skills.yaml`` is
:mod:`routelens.tools.skill_import`.

The Agent Skills format (the Agent Skills specification, agentskills.io):
a skill is a folder holding
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
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routelens.errors import Diagnostic, FileReadError, RegistryError, SkillFileError
from routelens.fileio import file_kind, read_bounded
from routelens.limits import LIMITS
from routelens.text.canonical import decode_canonical, editor_lines
from routelens.text.visible import describe_control, first_control
from routelens.text.yaml_events import parse_fragment

__all__ = [
    "NAME_MAX_CHARS",
    "DESCRIPTION_MAX_CHARS",
    "COMPATIBILITY_MAX_CHARS",
    "NAME_RE",
    "SKILL_FILE",
    "MAX_SKILL_BYTES",
    "AgentSkill",
    "SkillFileError",
    "agentskills_name_problem",
    "read_skill_md",
    "discover",
]

#: Agent Skills limits (the Agent Skills specification), in characters.
NAME_MAX_CHARS = 64
DESCRIPTION_MAX_CHARS = 1024
COMPATIBILITY_MAX_CHARS = 500
#: lowercase letters, digits and single hyphens; no leading/trailing hyphen.
NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SKILL_FILE = "SKILL.md"
#: largest SKILL.md read, in bytes (the Agent Skills specification's guidance is < 500 lines).
MAX_SKILL_BYTES = LIMITS["max_skill_md_bytes"]


def agentskills_name_problem(name: str) -> str | None:
    """Why ``name`` breaks the Agent Skills name rules, or None when it is
    valid (at most 64 characters; lowercase letters, digits and single
    hyphens; not starting or ending with a hyphen)."""
    if not name:
        return "name is empty"
    if len(name) > NAME_MAX_CHARS:
        return f"name is {len(name):,} characters; the Agent Skills limit is {NAME_MAX_CHARS:,}"
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
    file); ``warnings``: problems that did not stop the reading;
    ``positions``: where each key is written (for diagnostics).
    """

    name: str
    description: str
    path: Path
    frontmatter: dict[str, Any]
    triggers: tuple[str, ...] | None
    body_start_line: int
    warnings: list[Diagnostic] = field(default_factory=list)
    #: ``key path -> (line, column)`` in the file for top-level keys and the
    #: keys one level below them (``metadata.triggers``), 1-based
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)


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


def read_skill_md(path: str | Path, display: str | None = None, folder_name: str | None = None,
                  inside: str | Path | None = None) -> AgentSkill:
    """Read and validate one SKILL.md.

    ``display`` names the file in diagnostics (default: ``path``);
    ``folder_name`` is the name the skill's ``name`` must equal (default:
    the file's parent folder); ``inside``: a folder the file's real path
    must lie in (a SKILL.md symlink leading out of it is refused, never
    read). The file is read with the bounded reader: a regular file of at
    most :data:`MAX_SKILL_BYTES` bytes. Returns an :class:`AgentSkill`; raises
    :class:`SkillFileError` with every error found (positions counted in the
    file) when the file is unreadable, has no or an unclosed frontmatter,
    invalid YAML, or breaks the Agent Skills rules (name, description,
    compatibility, metadata). Lengths are in characters.
    """
    path = Path(path)
    display = display or str(path)
    folder = folder_name if folder_name is not None else path.resolve().parent.name
    try:
        raw = read_bounded(path, MAX_SKILL_BYTES, what="SKILL.md", display=display, inside=inside)
    except FileReadError as exc:
        if exc.kind == "too_big":
            message = f"larger than {MAX_SKILL_BYTES} bytes; not read"
        elif exc.kind == "outside":
            message = f"a symlink that leads outside {inside}: not read"
        else:
            message = f"cannot read: it {str(exc).removeprefix(f'SKILL.md {display}: ')}"
        raise SkillFileError([Diagnostic(display, 1, 1, "", message)]) from None
    try:
        text = decode_canonical(raw, display)
    except RegistryError as exc:
        raise SkillFileError(exc.diagnostics) from None
    lines = editor_lines(text)
    warnings: list[Diagnostic] = []
    at = first_control(text)
    if at is not None:  # the file is the skill's body: it reaches an agent, and terminals, as it is
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        warnings.append(Diagnostic(display, line, col, "", f"the file holds the control character "
                                   f"{describe_control(text[at])}: routelens shows it escaped, but an agent that "
                                   "loads this body gets it raw", "warning"))

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
                                _before_fence(d.message) if d.line == close + 1 else d.message)
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
                                 f"description is {len(desc):,} characters; the Agent Skills limit is "
                                 f"{DESCRIPTION_MAX_CHARS:,} (characters, not bytes)"))
    comp = fm.get("compatibility")
    if isinstance(comp, str) and len(comp) > COMPATIBILITY_MAX_CHARS:
        errors.append(Diagnostic(display, *at("compatibility"), "compatibility",
                                 f"compatibility is {len(comp):,} characters; the Agent Skills limit is {COMPATIBILITY_MAX_CHARS:,}"))
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
                                         f"a trigger of {len(long[0]):,} characters, more than the limit "
                                         f"{LIMITS['max_trigger_chars']:,}"))
            else:
                seen: dict[str, None] = {}
                for t in items:
                    seen.setdefault(t.strip(), None)
                triggers = tuple(seen)
                if len(triggers) > LIMITS["max_triggers_per_entry"]:
                    errors.append(Diagnostic(display, *where, "metadata.triggers",
                                             f"{len(triggers)} triggers, more than the limit "
                                             f"{LIMITS['max_triggers_per_entry']} of a registry entry"))
                    triggers = None
    if errors:
        raise SkillFileError(sorted(errors, key=lambda d: (d.line, d.column)), warnings)
    assert isinstance(name, str) and isinstance(desc, str)
    return AgentSkill(name, desc, path, fm, triggers, close + 2, sorted(warnings, key=lambda d: (d.line, d.column)),
                      pos)


# --------------------------------------------------------------------------- discovering


def _before_fence(message: str) -> str:
    """A syntax error found at the closing ``---``, said so (before the
    YAML parser's own words, when the message carries them)."""
    words, sep, parser = message.partition(" (YAML parser: ")
    return f"{words} before the closing `---`{sep}{parser}"


#: How many folders below a given one SKILL.md files are looked for (``plugins/<p>/skills/<s>/SKILL.md`` is 3).
MAX_DISCOVERY_DEPTH = 6
#: Folders never searched for skills.
SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox"})


def _skill_files_below(folder: Path) -> list[Path]:
    """``<dir>/SKILL.md`` of every skill folder below ``folder`` (not
    ``folder`` itself), at most :data:`MAX_DISCOVERY_DEPTH` levels down,
    sorted by path. A skill folder is not searched further (its own
    subfolders are its scripts, references, assets); symlinked folders are
    not followed; :data:`SKIPPED_FOLDERS` are not searched."""
    found: list[Path] = []

    def walk(d: Path, depth: int) -> None:
        try:
            children = sorted((c for c in d.iterdir() if c.is_dir() and not c.is_symlink()
                               and c.name not in SKIPPED_FOLDERS), key=lambda c: c.name)
        except OSError:
            return
        for c in children:
            f = c / SKILL_FILE
            if f.exists() or os.path.islink(f):
                found.append(f)
            elif depth < MAX_DISCOVERY_DEPTH:
                walk(c, depth + 1)

    walk(folder, 1)
    return found


def discover(paths: list[str | Path]) -> tuple[list[Path], list[Diagnostic]]:
    """SKILL.md files named by ``paths``: a file is taken as is; a folder
    holding ``SKILL.md`` gives that file; any other folder gives the
    ``SKILL.md`` of every skill folder below it (:func:`_skill_files_below`:
    ``skills/<name>/SKILL.md``, ``plugins/<p>/skills/<name>/SKILL.md``, at
    most :data:`MAX_DISCOVERY_DEPTH` levels down), sorted by path. Returns the files
    (duplicates removed, first occurrence kept) and an error per path that
    does not exist, holds no SKILL.md, or names a ``SKILL.md`` that is not a
    regular file (a FIFO, a folder, a device: reported, never opened)."""
    found: list[Path] = []
    seen: set[Path] = set()
    errors: list[Diagnostic] = []

    def special(f: Path) -> str | None:
        """What ``f`` is when it exists but is not a regular file (links followed)."""
        try:
            st = os.stat(f)
        except OSError:
            return "a broken symlink" if os.path.islink(f) else None
        return None if stat.S_ISREG(st.st_mode) else file_kind(st.st_mode)

    for p in map(Path, paths):
        kind = special(p)
        if p.is_file():
            files = [p]
        elif p.is_dir():
            inner = p / SKILL_FILE
            if inner.is_file():
                files = [inner]
            elif (what := special(inner)) is not None:
                errors.append(Diagnostic(str(inner), 1, 1, "", f"{SKILL_FILE} is {what}, not a regular file: not imported"))
                continue
            else:
                files = []
                before = len(errors)
                for f in _skill_files_below(p):
                    if f.is_file():
                        files.append(f)
                    elif (what := special(f)) is not None:
                        errors.append(Diagnostic(str(f), 1, 1, "", f"{SKILL_FILE} is {what}, not a regular file: "
                                                                   "not imported"))
                if not files and len(errors) == before:
                    errors.append(Diagnostic(str(p), 1, 1, "", f"no {SKILL_FILE} in this folder or below it"))
        elif kind is not None:
            errors.append(Diagnostic(str(p), 1, 1, "", f"{kind}, not a regular file or a folder: not imported"))
            continue
        else:
            errors.append(Diagnostic(str(p), 1, 1, "", "no such file or folder"))
            continue
        for f in files:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                found.append(f)
    return found, errors
