"""``routelens import``: propose registry entries from Agent Skills folders
(read by :mod:`routelens.tools.agentskills`), and append them to
``skills.yaml`` without touching any existing byte of it.

A proposal's id is the skill's ``name``, its path the SKILL.md relative to
the registry's folder, its description the SKILL.md's made one line; its
triggers come from ``metadata.triggers``, or are proposed from the name and
the description and marked ``review:``. Appending is checked before
anything is written (the result loads with ruamel.yaml's round-trip loader
and with routelens's reader, every existing entry unchanged), and written
atomically. This is the only code that writes the registry, and only when
asked (``--write``).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from routelens.artifacts.vocabulary import zipf
from routelens.artifacts.write import atomic_write
from routelens.errors import Diagnostic, RegistryError, SkillFileError, SkillImportError
from routelens.limits import LIMITS
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.registry.model import Registry
from routelens.text.canonical import canonical_bytes
from routelens.routing.lexicon import EVERYDAY_ZIPF
from routelens.text.unicode import STOP_WORDS, normalize_text
from routelens.text.visible import CONTROL_RE, describe_control, first_control
from routelens.tools.agentskills import discover, read_skill_md
from routelens.tools.prompt import one_line

__all__ = [
    "Proposal",
    "ImportPlan",
    "SkillImportError",
    "propose_triggers",
    "registry_folder",
    "plan_import",
    "entries_yaml",
    "apply_import",
    "write_registry",
]

# --------------------------------------------------------------------------- proposing

_QUOTED = re.compile(r"\"([^\"\n]{3,60})\"|“([^”\n]{3,60})”|「([^」\n]{2,60})」|`([^`\n]{3,60})`|(?<![\w])'([^'\n]{3,60})'(?![\w])")
#: "Use when ...", "Use for ...", "when the user asks to ...": what follows is the clause triggers come from
_USE_WHEN = re.compile(r"\b(?:use (?:this skill )?(?:when|for|to|with)|when (?:the user )?(?:asks|wants) (?:to|for|about))"
                       r"\s+([^.;:()\n]+)", re.I)
#: who and what verb starts such a clause ("the user mentions", "working with", "you need to")
_LEAD = re.compile(r"^(?:(?:the user|users?|someone|you|they|a user|people)(?:\s+|$))?"
                   r"(?:(?:asks?|wants?|needs?|mentions?|says?|talks?|refers?|requests?|is|are|has|have|works?|"
                   r"working|deals?|dealing|writes?|writing|edits?|editing)(?:\s+|$))?"
                   r"(?:(?:for|to|about|with|on|of)(?:\s+|$))?", re.I)
_ARTICLE = re.compile(r"^(?:a|an|the|their|your|some|any|his|her|its|our)\s+", re.I)
#: the longest phrase kept as a proposed trigger, in words (a longer one is left out, never cut)
MAX_PHRASE_WORDS = 4


def _alternatives(clause: str) -> list[str]:
    """The phrases a clause lists: split at commas and at "or"/"and" (and
    "or when"/"and if", which start another clause), each without its
    subject, verb and article; phrases over :data:`MAX_PHRASE_WORDS` words
    are left out rather than cut."""
    clause = re.split(r"[\"“「`']", clause)[0]
    out = []
    for part in re.split(r",|\s(?:or|and)\s+(?:when|if)\b|\s(?:or|and)\s", clause):
        part = _LEAD.sub("", part.strip()).strip()
        part = _ARTICLE.sub("", part).strip()
        if part and len(part.split()) <= MAX_PHRASE_WORDS:
            out.append(part)
    return out


#: a clause, not the name of a piece of work: a pronoun, a form of "be" or a word that opens a question or a
#: condition ("what was in it", "whether it shipped", "there is a chargeback": a newcomer's imported proposals)
_CLAUSE_WORDS = frozenset("i you he she it we they them me us what whether which who whom how why there if is are "
                          "was were be been am".split())
#: a Japanese clause: a comma inside, or a "when ..." ending ("在庫が少ないとき、欠品を防ぎたいとき")
_JA_CLAUSE = re.compile(r"[、，,]|(?:とき|時|場合)$")
#: the endings that are no regular plural: "analytics", "address", "status", "analysis", "news"
_NOT_PLURAL = re.compile(r"(?:ss|us|is|ics|news|series|species)$")


def _singular_last(phrase: str) -> str:
    """``phrase`` with its last word in the singular when it is a regular
    plural ("discount codes" -> "discount code", "review replies" ->
    "review reply"): a singular trigger matches its plural as an inflection
    (docs/formats.md §6.7), while a plural trigger's singular scores as a
    near miss."""
    head, _, last = phrase.rpartition(" ")
    low = last.lower()
    if (not last.isascii() or not last.isalpha() or len(low) < 4 or not low.endswith("s") or _NOT_PLURAL.search(low)
            or low.endswith(("ves", "oes"))):  # "knives", "potatoes": irregular, left as written
        return phrase
    if low.endswith("ies"):  # "replies" -> "reply", "movies" -> "movie": the one everyday language knows better
        ones = [last[:-3] + ("Y" if last[-3:].isupper() else "y"), last[:-1]]
        best = max(ones, key=lambda w: zipf(w.lower()))
        if zipf(best.lower()) == 0:
            return phrase
        one = best
    elif re.search(r"(?:ch|sh|x|z|ss)es$", low):
        one = last[:-2]
    else:
        one = last[:-1]
    return f"{head} {one}" if head else one


def propose_triggers(name: str, description: str, when_to_use: str = "") -> list[str]:
    """Trigger phrases proposed from a skill's name, description and
    ``when_to_use``, for a person to review: the name with hyphens as
    spaces, phrases quoted in the description ("...", “...”, 「...」,
    `...`, '...'), and the phrases listed after "Use when"/"Use for"/"when
    the user asks to" (and in ``when_to_use``, which says when to use the
    skill), split at commas and "or"/"and", without the subject and verb
    ("the user mentions") and article. A phrase is whole or left out: never
    a sentence cut after a few words. Phrases of 3 characters or fewer and
    stop words are left out, duplicates (case folded) removed; at most 5, in
    that order. Besides the quoted phrases (kept as written), a clause is
    left out (a pronoun, a form of "be", what/whether/there ...; in
    Japanese a comma or a とき/場合 ending), and so is one everyday word
    (Zipf 4.0 or more: "billing", "label"), and a phrase's last word is
    written in the singular ("discount codes" -> "discount code", which
    matches the plural too). Deterministic."""
    cands = [(name.replace("-", " "), None)]  # (phrase, quoted: kept as written; None: the name, a clause never)
    for m in _QUOTED.finditer(description):
        cands.append((next(g for g in m.groups() if g), True))
    m = _USE_WHEN.search(description)
    if m:
        cands += [(a, False) for a in _alternatives(m.group(1))]
    if when_to_use.strip():
        for m in _QUOTED.finditer(when_to_use):
            cands.append((next(g for g in m.groups() if g), True))
        wtu = re.sub(r"^\s*(?:use (?:this skill )?)?(?:when|for|if)\s+", "", when_to_use.strip(), flags=re.I)
        for sentence in re.split(r"[.;:()\n]", wtu):
            cands += [(a, False) for a in _alternatives(sentence)]
    out: list[str] = []
    seen: set[str] = set()
    for c, quoted in cands:
        c = " ".join(c.split()).strip(" .,;:!?")
        if not quoted:
            words = c.lower().split()
            # "IT" and "US" in capitals are no pronouns ("IT access requests"); the name is never a clause ("it-support")
            if quoted is not None and (any(w.lower() in _CLAUSE_WORDS and not (w.isupper() and len(w) > 1)
                                           for w in c.split()) or (not c.isascii() and _JA_CLAUSE.search(c))):
                continue  # a clause, not the name of a piece of work
            if len(words) == 1 and c.isascii() and zipf(normalize_text(c)) >= EVERYDAY_ZIPF:
                continue  # one everyday word ("billing", "label") is weak evidence alone (§6.10): no trigger
            c = _singular_last(c)
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
    """``target`` relative to ``base`` with ``/``, both with symlinks
    resolved; None when its real path is not inside ``base``."""
    t, b = target.resolve(), base.resolve()
    try:
        return t.relative_to(b).as_posix()
    except ValueError:
        return None


def registry_folder(registry_path: str | Path) -> Path:
    """The folder a registry's skill paths are relative to: the real folder
    of the registry file (a symlinked ``skills.yaml`` counts as its target,
    docs/formats.md §1.1). The file need not exist."""
    return Path(os.path.realpath(registry_path)).parent


def _clean(text: str, sk: Any, key: str, what: str, warnings: list[Diagnostic]) -> str:
    """``text`` without control characters (ESC, BEL, C1, ...), with a
    warning on the SKILL.md when some were removed: they would reach the
    registry, the Layer-1 block and every terminal showing them."""
    at = first_control(text)
    if at is None:
        return text
    line, col = sk.positions.get(key, (1, 1))
    warnings.append(Diagnostic(str(sk.path), line, col, key,
                               f"{what} holds the control character {describe_control(text[at])}: removed "
                               f"(it would reach terminals and prompts as an escape sequence)", "warning"))
    return CONTROL_RE.sub("", text)


def _proposal_problems(p: Proposal, sk: Any) -> list[Diagnostic]:
    """The registry's own errors for one proposal, checked alone (a registry
    of that one entry, read by routelens's reader), as diagnostics on the
    SKILL.md at the key the value came from: so a bad file is reported with
    its own file and line, and the dry run says what ``--write`` would."""
    text = "schema_version: 1\nskills:\n" + entries_yaml([p])
    try:
        parse_registry(text.encode("utf-8"), "proposal.yaml")
    except RegistryError as exc:
        out = []
        for d in exc.diagnostics:
            field_name = d.key_path.split(".")[2] if d.key_path.count(".") >= 2 else ""
            key = {"triggers": "metadata.triggers", "description": "description"}.get(
                field_name.split("[")[0], "name")
            if key == "metadata.triggers" and p.triggers_from != "metadata.triggers":
                key = "name"
            line, col = sk.positions.get(key, (1, 1))
            out.append(Diagnostic(str(sk.path), line, col, key, f"as a registry entry: {d.message}"))
        return out
    return []


def _trigger_key(trigger: str) -> str:
    """A trigger as the router compares it: NFKC + case folded, words only."""
    return " ".join(re.findall(r"\w+", normalize_text(trigger)))


def plan_import(paths: list[str | Path], registry_path: str | Path, reg: Registry | None,
                priority: str = "P2") -> ImportPlan:
    """Read every SKILL.md under ``paths`` and propose entries for the
    registry at ``registry_path`` (``reg`` is that registry, or None when the
    file does not exist yet). A broken SKILL.md becomes an error in the plan
    (with its own file, line and column) and the others are still proposed;
    so does one whose entry the registry would refuse (more than 256
    triggers, ...), checked here so that the dry run says what ``--write``
    would do. A skill whose name is already an id of the registry (skill,
    composition or rule) is skipped, never replaced; a SKILL.md whose real
    path lies outside the registry's folder (a symlink leading out, or a
    folder elsewhere) is refused before it is read; a second skill of the
    same name is skipped. Control characters are removed from descriptions
    and triggers, with a warning."""
    registry_path = Path(registry_path)
    base = registry_folder(registry_path)
    plan = ImportPlan(registry_path)
    files, errs = discover(paths)
    plan.errors.extend(errs)
    taken = set()
    #: a trigger as the router compares it -> the skill that has it (the registry's, then earlier proposals)
    owners: dict[str, str] = {}
    if reg is not None:
        taken = set(reg.skills) | set(reg.compositions) | set(reg.rules)
        for s in reg.skills.values():
            for t in s.triggers:
                owners.setdefault(_trigger_key(t), s.id)
    for f in files:
        rel = _rel_posix(f, base)
        if rel is None:
            why = ("a symlink that leads outside the registry's folder " if os.path.islink(f)
                   else "outside the registry's folder ")
            plan.errors.append(Diagnostic(
                str(f), 1, 1, "",
                f"{why}{base}: not read; a skill's path must be relative to that folder: move or copy the skill "
                "folder under it first"))
            continue
        try:
            sk = read_skill_md(f, inside=base)
        except SkillFileError as exc:
            plan.errors.extend(exc.diagnostics)
            plan.warnings.extend(exc.warnings)
            continue
        plan.warnings.extend(sk.warnings)
        first = next((p for p in plan.proposals if p.id == sk.name), None)
        if first is not None:
            # two folders of one import with one name: an error of the input, at the second's name (a newcomer read
            # "already a entry id in skills.yaml" for an id no registry had, and the import exited 0)
            line, col = sk.positions.get("name", (1, 1))
            plan.errors.append(Diagnostic(str(f), line, col, "name",
                                          f"name {sk.name!r} is also the name of {first.path}, proposed first: "
                                          "two skills cannot share an id; rename one (this one is not imported)"))
            continue
        if sk.name in taken:
            kind = "skill" if sk.name in reg.skills else "composition" if sk.name in reg.compositions else "rule"
            plan.skipped.append((sk.name, f, f"already a {kind} id in {registry_path.name}; never replaced"))
            continue
        extra: dict[str, str] = {}
        wtu = sk.frontmatter.get("when_to_use")
        if isinstance(wtu, str) and wtu.strip():
            extra["when_to_use"] = _clean(one_line(wtu), sk, "when_to_use", "when_to_use", plan.warnings)
        if sk.triggers is not None:
            triggers, source = sk.triggers, "metadata.triggers"
            cleaned = tuple(_clean(t, sk, "metadata.triggers", "a trigger", plan.warnings) for t in triggers)
            triggers = tuple(dict.fromkeys(t for t in cleaned if t.strip()))
        else:
            proposed = propose_triggers(sk.name, CONTROL_RE.sub("", sk.description),
                                        CONTROL_RE.sub("", wtu) if isinstance(wtu, str) else "")
            # a trigger another skill has already would make both match: leave it out, and say so
            kept = []
            for t in proposed:
                owner = owners.get(_trigger_key(t))
                if owner is not None:
                    plan.warnings.append(Diagnostic(
                        str(f), 1, 1, "triggers",
                        f"proposed trigger {t!r} left out: it is already a trigger of {owner} in "
                        f"{registry_path.name} (a task saying it would match both)"))
                else:
                    kept.append(t)
            triggers, source = tuple(kept or [sk.name]), "proposed"
            extra["review"] = "triggers proposed from the name and description; edit them, then delete this key"
        description = _clean(one_line(sk.description), sk, "description", "the description", plan.warnings)
        proposal = Proposal(sk.name, rel, priority, description, triggers, source, f, extra)
        problems = _proposal_problems(proposal, sk)
        if problems:
            plan.errors.extend(problems)
            continue
        plan.proposals.append(proposal)
        taken.add(sk.name)
        for t in proposal.triggers:
            owners.setdefault(_trigger_key(t), sk.name)
    plan.errors.sort(key=lambda d: (d.file, d.line, d.column))
    plan.warnings.sort(key=lambda d: (d.file, d.line, d.column))
    return plan


# --------------------------------------------------------------------------- writing


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


def _end_of_comments(reg: Registry, last: Any) -> int:
    """The line after which entries are appended: the last line of the last
    skill, or of the comment lines that follow it indented deeper than its
    key (they belong to it: "# TODO: more triggers" under its list), so such
    a comment stays with its skill instead of ending up under an appended
    entry. Blank lines between those comments are kept with them."""
    lines = reg.lines
    key_line = lines[last.source_start - 1]
    key_indent = len(key_line) - len(key_line.lstrip(" "))
    end = last.source_end
    i = end  # 0-based index of the line after the range
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped:
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
        if stripped.startswith("#") and indent > key_indent:
            end = i + 1
            i += 1
            continue
        break
    return end


def apply_import(plan: ImportPlan, reg: Registry | None) -> tuple[bytes, bytes, int, Registry]:
    """Compute the registry bytes with the plan's entries appended.

    Returns ``(old_bytes, new_bytes, offset, new_registry)``: the entries'
    text is inserted at byte ``offset`` (just after the last line of the last
    skill, so every other byte is unchanged: ``new[:offset] == old[:offset]``
    and ``new[offset + k:] == old[offset:]``), in the file's own line ends.
    The result is checked before anything is written: it must load with
    ruamel.yaml's round-trip loader and with routelens's reader, keep every
    existing entry's value, and hold each proposal as proposed. Raises
    :class:`SkillImportError` otherwise. Writes nothing.
    """
    path = plan.registry_path
    if reg is None:
        old = b""
        head = b"schema_version: 1\n\nskills:\n"
        offset, eol = 0, b"\n"
        insert = head + entries_yaml(plan.proposals, None).encode("utf-8")
    else:
        try:
            old = read_registry_bytes(path)
        except RegistryError as exc:
            raise SkillImportError(str(exc)) from None
        if canonical_bytes(old).decode("utf-8", "replace") != reg.text:
            raise SkillImportError(f"{path} changed while importing; run the import again")
        if not reg.skills:
            raise SkillImportError(f"{path}: `skills` has no entries written in block style to append after "
                               "(e.g. `skills: {}`); write `skills:` with one entry by hand first")
        last = max(reg.skills.values(), key=lambda s: s.source_end)
        offset, eol = _line_end_offset(old, _end_of_comments(reg, last))
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
    try:
        YAML().load(canonical_bytes(new).decode("utf-8"))
    except Exception as exc:  # pragma: no cover - entries are dumped by ruamel itself
        raise SkillImportError(f"the appended registry would not load with ruamel.yaml: {exc}") from None
    # check 2: routelens reads it, old entries unchanged, new ones as proposed
    try:
        new_reg = parse_registry(new, path)
    except RegistryError as exc:
        raise SkillImportError("the appended registry would be invalid:\n" + "\n".join(map(str, exc.diagnostics))) from None
    if reg is not None:
        for sid, s in reg.skills.items():
            n = new_reg.skills.get(sid)
            if n is None or (n.path, n.priority, n.triggers, n.description, n.status, n.metadata) != (
                    s.path, s.priority, s.triggers, s.description, s.status, s.metadata):
                raise SkillImportError(f"appending would change the existing skill {sid!r}; nothing was written")
        for cid, c in reg.compositions.items():
            if cid not in new_reg.compositions or new_reg.compositions[cid].members != c.members:
                raise SkillImportError(f"appending would change the composition {cid!r}; nothing was written")
    for p in plan.proposals:
        n = new_reg.skills.get(p.id)
        if n is None or (n.path, n.priority, list(n.triggers), n.description) != (
                p.path, p.priority, list(p.triggers), p.description):
            raise SkillImportError(f"the appended entry {p.id!r} would not read back as proposed; nothing was written")
    return old, new, offset, new_reg


def write_registry(path: Path, old: bytes, new: bytes) -> Path:
    """Replace ``path``'s bytes ``old`` by ``new`` atomically (a temporary
    file in the same folder, then a rename; the file's mode is kept, a new
    file gets the umask's). A symlinked registry is written through: its
    target gets the new bytes and the link stays a link. Returns the file
    written (the target). Raises :class:`SkillImportError` when the file
    changed since it was read or cannot be read, ``OSError`` when it cannot
    be written."""
    target = Path(os.path.realpath(path))
    if os.path.lexists(target):
        try:
            current = read_registry_bytes(target, str(path))
        except RegistryError as exc:
            raise SkillImportError(f"{exc}; nothing was written") from None
    else:
        current = b""
    if current != old:
        raise SkillImportError(f"{path} changed while importing; nothing was written, run the import again")
    atomic_write(target, new)
    return target
