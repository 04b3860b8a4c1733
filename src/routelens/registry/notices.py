"""The warnings every command prints about a valid registry, as people read them.

The reader's warnings (:attr:`Registry.warnings`, kept one by one in the
catalog and in ``routelens lint``) are printed as they are, except that more
than :data:`NOT_SELF_CONTAINED_SHOWN` entries that are not self-contained
(docs/formats.md §2.3: a registry that merges shared defaults, ``<<: *d``,
into every skill) are summed up in one line (:func:`not_self_contained_line`).
After them, in file order, comes one warning per disabled member of a
composition (:func:`disabled_members`), which ``routelens lint`` reports as
the error ``disabled-in-composition``: a user who only builds learns of it
too (docs/formats.md §1.3, §6.5). Nothing here imports Textual.
"""

from __future__ import annotations

import re

from routelens.errors import Diagnostic
from routelens.registry.model import Composition, Registry
from routelens.registry.validate import NOT_SELF_CONTAINED
from routelens.text.canonical import dedent_range, range_cut
from routelens.text.yaml_events import MAP, SEQ, ReadStoppedError, Reader, mask_separators

__all__ = ["NOT_SELF_CONTAINED_SHOWN", "DISABLED_MEMBERS_SHOWN", "warning_lines", "not_self_contained_line",
           "disabled_members", "disabled_members_line"]

#: the most entries that are not self-contained whose warnings are printed one by one; more are summed up
NOT_SELF_CONTAINED_SHOWN = 3
#: the most disabled members of compositions whose warnings are printed one by one; more are summed up
DISABLED_MEMBERS_SHOWN = 3
#: the most ids the summary names (the rest are counted)
_IDS_SHOWN = 3

#: an alias (``*d``) or an anchor (``&d``) as YAML writes them: after a space, a bracket, a comma or at a line start
_MARK = re.compile(r"(?:^|(?<=[\s\[{,]))([*&])([^\s,\[\]{}]+)")


def warning_lines(reg: Registry) -> list[str]:
    """The registry's warnings as commands print them (``str`` lines, no
    line break, file order): the reader's own, with more than
    :data:`NOT_SELF_CONTAINED_SHOWN` not-self-contained ones replaced by
    :func:`not_self_contained_line` where the first of them was, then
    merged in by position the warnings of :func:`disabled_members`, or,
    when there are more than :data:`DISABLED_MEMBERS_SHOWN`, the one line
    of :func:`disabled_members_line` where the first of them is
    (docs/formats.md §1.3)."""
    apart = [w for w in reg.warnings if w.message == NOT_SELF_CONTAINED and w.severity == "warning"]
    summed = len(apart) > NOT_SELF_CONTAINED_SHOWN
    placed: list[tuple[int, int, int, str]] = []
    for order, w in enumerate(reg.warnings):
        if summed and w.message == NOT_SELF_CONTAINED and w.severity == "warning":
            if w is apart[0]:
                placed.append((w.line, w.column, order, not_self_contained_line(reg, apart)))
            continue
        placed.append((w.line, w.column, order, str(w)))
    n = len(reg.warnings)
    members = _disabled(reg)
    if len(members) > DISABLED_MEMBERS_SHOWN:
        first = _diagnostic(reg, *members[0])
        placed.append((first.line, first.column, n, disabled_members_line(reg, members, first)))
    else:
        placed += [(d.line, d.column, n + i, str(d)) for i, d in enumerate(disabled_members(reg))]
    placed.sort()
    return [line for *_k, line in placed]


def _entry_of(reg: Registry, key_path: str) -> tuple[str, str, int, int] | None:
    """``(kind, id, source_start, source_end)`` of a warning's entry (``skills.ID``, ``composition.ID``)."""
    section, _, eid = key_path.partition(".")
    entry = reg.skills.get(eid) if section == "skills" else reg.compositions.get(eid) if section == "composition" \
        else None
    if entry is None:
        return None
    return ("skill" if section == "skills" else "composition"), eid, entry.source_start, entry.source_end


def _outside_anchors(reg: Registry, entries: list[tuple[str, str, int, int]]) -> list[tuple[str, int]]:
    """``(name, line)`` of the anchors the entries' aliases use from outside
    their ranges, in the order first used, as far as the text tells them
    plainly (an alias ``*x`` whose anchor ``&x`` is on a line outside the
    range; the last one above the alias, as YAML reads it)."""
    lines = reg.lines
    anchors: dict[str, list[int]] = {}
    for number, text in enumerate(lines, 1):
        if "&" in text:
            for kind, name in _MARK.findall(text):
                if kind == "&":
                    anchors.setdefault(name, []).append(number)
    found: dict[str, int] = {}
    for _kind, _eid, start, end in entries:
        for number in range(start, min(end, len(lines)) + 1):
            text = lines[number - 1]
            if "*" not in text:
                continue
            for kind, name in _MARK.findall(text):
                above = [a for a in anchors.get(name, ()) if a <= number]
                if kind == "*" and above and not (start <= above[-1] <= end):
                    found.setdefault(name, above[-1])
    return list(found.items())


def not_self_contained_line(reg: Registry, warnings: list[Diagnostic]) -> str:
    """One warning line for many entries that are not self-contained
    (docs/formats.md §1.3, §2.3): how many skills (and compositions), the
    first :data:`_IDS_SHOWN` ids in file order and how many more, the anchor
    their aliases use when the text names one (or up to three), what it
    means (their canonical ranges do not hold the aliased values, so the
    router resolves them from the whole registry) and a pointer to
    ``routelens lint``, which lists each one."""
    entries = [e for e in (_entry_of(reg, w.key_path) for w in warnings) if e is not None]
    kinds = [k for k, *_rest in entries]
    counts = [(kinds.count(k), k) for k in ("skill", "composition") if k in kinds] or [(len(warnings), "entry")]
    what = " and ".join(f"{n:,} {k if n == 1 else ('entries' if k == 'entry' else k + 's')}" for n, k in counts)
    ids = [w.key_path.partition(".")[2] for w in warnings]
    shown = ", ".join(ids[:_IDS_SHOWN]) + (f" and {len(ids) - _IDS_SHOWN:,} more" if len(ids) > _IDS_SHOWN else "")
    anchors = _outside_anchors(reg, entries)
    if len(anchors) == 1:
        name, line = anchors[0]
        use = f"the alias *{name}, whose anchor &{name} is on line {line:,}, outside their line ranges"
    elif 1 < len(anchors) <= 3:
        use = (f"the aliases {_and(['*' + name for name, _l in anchors])}, whose anchors are on lines "
               f"{_and([f'{line:,}' for _n, line in anchors])}, outside their line ranges")
    else:
        use = "aliases whose anchors lie outside their line ranges"
    noun = counts[0][1] + "s" if len(counts) == 1 and counts[0][1] != "entry" else "entries"
    return (f"{reg.display_name}: warning: {what} are not self-contained ({shown}): they use {use}, so those ranges "
            f"do not hold the aliased values and the router resolves these {noun} from the whole registry; "
            "`routelens lint` lists every one")


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def disabled_members(reg: Registry) -> list[Diagnostic]:
    """One warning (:class:`~routelens.errors.Diagnostic`, severity
    ``"warning"``) per disabled skill a composition lists, in file order,
    at the member's list item: ``FILE:LINE:COL: warning:
    composition.ID[I]: SKILL is disabled: the router drops it, so ID is
    never served whole`` (docs/formats.md §6.5). ``routelens lint`` gives
    the same line as the error ``disabled-in-composition``. Raises nothing."""
    found: list[Diagnostic] = []
    at: dict[str, list[tuple[int, int]]] = {}
    for c, i in _disabled(reg):
        if c.id not in at:
            at[c.id] = _member_positions(reg, c)
        found.append(_diagnostic(reg, c, i, at[c.id]))
    found.sort(key=lambda d: (d.line, d.column))
    return found


def disabled_members_line(reg: Registry, members: list[tuple[Composition, int]], first: Diagnostic) -> str:
    """One warning line for many disabled members of compositions
    (docs/formats.md §1.3, §6.5), at the first one's list item: how many
    members of how many compositions, the first :data:`_IDS_SHOWN` in file
    order and how many more, what it means and a pointer to ``routelens
    lint``, which lists each one (as the error ``disabled-in-composition``).
    ``members`` is :func:`_disabled`'s list, ``first`` the warning of its
    first item."""
    names = [f"{c.id}[{i}]: {c.members[i]}" for c, i in members]
    shown = ", ".join(names[:_IDS_SHOWN]) + (f" and {len(names) - _IDS_SHOWN:,} more" if len(names) > _IDS_SHOWN
                                             else "")
    groups = len({c.id for c, _i in members})
    return (f"{first.file}:{first.line}:{first.column}: warning: {len(members):,} members of {groups:,} "
            f"compositions are disabled skills ({shown}): the router drops them, so those compositions are "
            "never served whole; `routelens lint` lists every one")


def _disabled(reg: Registry) -> list[tuple[Composition, int]]:
    """``(composition, member index)`` of each disabled skill a composition
    lists, compositions in file order, members in list order."""
    found: list[tuple[Composition, int]] = []
    for c in sorted(reg.compositions.values(), key=lambda c: c.source_start):
        for i, m in enumerate(c.members):
            skill = reg.skills.get(m)
            if skill is not None and skill.status == "disabled":
                found.append((c, i))
    return found


def _diagnostic(reg: Registry, c: Composition, i: int, at: list[tuple[int, int]] | None = None) -> Diagnostic:
    """The warning of member ``i`` of ``c`` (a disabled skill), at its list
    item (``at``: :func:`_member_positions`, read when not given)."""
    if at is None:
        at = _member_positions(reg, c)
    line, col = at[i] if i < len(at) else at[-1] if at else (c.source_start, 1)
    m = c.members[i]
    return Diagnostic(reg.display_name, line, col, f"composition.{c.id}[{i}]",
                      f"{m} is disabled: the router drops it, so {c.id} is never served whole", severity="warning")


def _member_positions(reg: Registry, c: Composition) -> list[tuple[int, int]]:
    """The 1-based (line, column) of each member item of ``c``, read from
    its canonical line range alone (§2.3); when the range does not give
    them (its list is an alias), the composition's key, for each."""
    text = reg.range_text(c.source_start, c.source_end)
    cut = range_cut(text)
    key_at = (c.source_start, len(text) - len(text.lstrip(" ")) + 1)
    body = dedent_range(text, cut)
    parse_text, back = mask_separators(body)
    r = Reader(body, reg.display_name, fragment_offset=c.source_start - 1, column_offset=cut)
    try:
        root = r.compose(parse_text, back)
    except (ReadStoppedError, RecursionError):
        return [key_at] * len(c.members)
    if root is None or root.kind != MAP or len(root.items) != 2 or root.items[1].kind != SEQ:
        return [key_at] * len(c.members)
    return [r.pos(item.start) for item in root.items[1].items]
