"""``routelens check``: are the generated files what a fresh build gives,
byte for byte, and is the size budget kept (docs/formats.md §3.6, §5.2)? Never
writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routelens.artifacts.build import BuildOutput, build
from routelens.artifacts.jsonfmt import compact
from routelens.artifacts.sizes import budget_advice, size_stats
from routelens.errors import FileReadError
from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.text.numbers import budget_max_chars, num
from routelens.registry.model import Registry

__all__ = ["CheckResult", "check"]


@dataclass
class CheckResult:
    """Outcome of :func:`check`: ``ok`` iff both files equal a fresh build
    and the size budget holds. ``problems`` are sentences for people;
    ``added``/``removed``/``changed`` are ids (skills, compositions, rules)
    compared with the generated files on disk: ``changed`` means a routing
    field (triggers) or a catalog field (path, priority, status, members,
    description, metadata...) differs; ``moved`` lists ids whose only change
    is their line range (lines inserted or removed above them)."""

    ok: bool
    problems: list[str]
    added: list[str]
    removed: list[str]
    changed: list[str]
    output: BuildOutput
    moved: list[str] = field(default_factory=list)


_RANGE_KEYS = ("source_start", "source_end", "stats")


def _entries(obj: Any, from_catalog: bool) -> dict[str, tuple[str, str]]:
    """``"kind:id" -> (range part, rest)`` as comparable JSON strings, from a
    parsed index (tuples) or catalog (objects); junk rows are skipped."""
    out: dict[str, tuple[str, str]] = {}
    if not isinstance(obj, dict):
        return out
    for key in ("skills", "compositions", "rules"):
        rows = obj.get(key)
        if from_catalog and isinstance(rows, dict):
            for rid, entry in rows.items():
                if isinstance(entry, dict):
                    rng = compact([entry.get("source_start"), entry.get("source_end")])
                    rest = compact({k: v for k, v in entry.items() if k not in _RANGE_KEYS})
                    out[f"{key}:{rid}"] = (rng, rest)
        elif not from_catalog and isinstance(rows, list):
            for row in rows:
                if isinstance(row, list) and row and isinstance(row[0], str):
                    out[f"{key}:{row[0]}"] = (compact(row[1:3]), compact(row[3:]))
    return out


def _load_json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def _body_changes(old: dict, new: dict, reg: Registry) -> dict[str, str]:
    """Skill id -> what happened to its Layer-2 body between the catalog
    ``old`` and a fresh one ``new`` (docs/formats.md §4.4): "its body PATH
    is missing now", "... can be read again", "... changed" (its length in
    characters); only for skills in both. A newcomer deleted a body and
    read "hand-edited, or a body changed?" beside a "changed" skill."""
    out: dict[str, str] = {}
    olds, news = old.get("skills"), new.get("skills")
    if not isinstance(olds, dict) or not isinstance(news, dict):
        return out
    for sid, entry in news.items():
        was = olds.get(sid)
        a = was.get("body") if isinstance(was, dict) else None
        b = entry.get("body") if isinstance(entry, dict) else None
        if not isinstance(a, dict) or not isinstance(b, dict) or a == b:
            continue
        path = reg.skills[sid].path if sid in reg.skills else entry.get("path")
        if a.get("exists") and not b.get("exists"):
            out[sid] = f"its body {path} is missing now"
        elif b.get("exists") and not a.get("exists"):
            out[sid] = f"its body {path} can be read again"
        else:
            out[sid] = f"its body {path} changed"
    return out


def check(reg: Registry, out_dir: str | Path) -> CheckResult:
    """Compare the generated files in ``out_dir`` with a fresh in-memory
    build of ``reg`` (byte for byte) and check the size budget (docs/formats.md
    §5). Never writes."""
    out_dir = Path(out_dir)
    out = build(reg)
    problems: list[str] = []
    added: list[str] = []
    removed: list[str] = []
    changed: list[str] = []
    added_s: set[str] = set()
    removed_s: set[str] = set()
    changed_s: set[str] = set()
    moved_s: set[str] = set()
    #: entries whose catalog entry changed, and whether the catalog was compared at all (equal bytes included)
    catalog_changed: set[str] = set()
    catalog_read = False
    stale_files: list[tuple[Path, Any]] = []
    for name, fresh in ((INDEX_NAME, out.index), (CATALOG_NAME, out.catalog)):
        path = out_dir / name
        limit = LIMITS["max_index_bytes"] if name == INDEX_NAME else LIMITS["max_catalog_bytes"]
        try:
            old = read_bounded(path, limit, what="generated file")
        except FileReadError as exc:
            if exc.kind == "missing":
                problems.append(f"{path} is missing: run `routelens build`")
            else:
                problems.append(f"{path} cannot be used: it {str(exc).removeprefix(f'generated file {path}: ')}; "
                                "run `routelens build` to replace it")
            continue
        catalog_read = catalog_read or name == CATALOG_NAME
        if old == fresh:
            continue
        old_obj = _load_json(old)
        if not isinstance(old_obj, dict):
            problems.append(f"{path} is not valid JSON: run `routelens build`")
            continue
        stale_files.append((path, old_obj))
        from_catalog = name == CATALOG_NAME
        new_e = _entries(json.loads(fresh), from_catalog)
        old_e = _entries(old_obj, from_catalog)
        added_s |= {k for k in new_e.keys() - old_e.keys()}
        removed_s |= {k for k in old_e.keys() - new_e.keys()}
        for k in new_e.keys() & old_e.keys():
            if new_e[k][1] != old_e[k][1]:
                changed_s.add(k)
                if from_catalog:
                    catalog_changed.add(k)
            elif new_e[k][0] != old_e[k][0]:
                moved_s.add(k)
    moved_s -= changed_s
    plain = lambda keys: sorted({k.split(":", 1)[1] for k in keys})  # noqa: E731
    added, removed, changed, moved = plain(added_s), plain(removed_s), plain(changed_s), plain(moved_s)
    old_catalog = next((o for p, o in stale_files if p.name == CATALOG_NAME), None)
    bodies = _body_changes(old_catalog, json.loads(out.catalog), reg) if old_catalog is not None else {}
    for path, old_obj in stale_files:
        parts = []
        if old_obj.get("source_sha256") != reg.source_sha256:
            parts.append("the registry changed since it was built")
        elif old_obj.get("authority") != reg.path.name:
            parts.append(f"it was built for registry {old_obj.get('authority')!r}, not {reg.path.name!r}")
        elif bodies:
            parts.append("a skill's body changed since it was built (the registry did not)")
        else:
            parts.append("it differs from a fresh build although its hash matches (hand-edited, or a body changed?)")
        problems.append(f"{path} is stale: " + "; ".join(parts) + ".")
    if stale_files:
        # a skill whose catalog entry is the same changed in the index's domain terms only: they are re-chosen
        # for the size budget as the registry grows or shrinks (a newcomer's check named "postmortem", never edited)
        # (only when the registry changed: with its hash kept, a difference is a hand edit of the file)
        rebuilt = any(p.name == INDEX_NAME and o.get("source_sha256") != reg.source_sha256 for p, o in stale_files)
        terms_only = {k.split(":", 1)[1] for k in changed_s - catalog_changed if k.startswith("skills:")} \
            if catalog_read and rebuilt else set()
        shown = [f"{sid} ({bodies[sid]})" if sid in bodies else sid for sid in changed if sid not in terms_only]
        terms = sorted(terms_only & set(changed))
        summary = [f"{label}: {', '.join(ids)}" for label, ids in
                   (("added", added), ("removed", removed), ("changed", shown)) if ids]
        if terms:
            more = f" and {num(len(terms) - 5)} more" if len(terms) > 5 else ""
            summary.append(f"domain terms re-chosen to fit the size budget as the registry's size changed "
                           f"(docs/formats.md §3.7; the entries themselves did not change): {', '.join(terms[:5])}{more}")
        if moved:
            n = len(moved)
            entries = f"{num(n)} {'entry' if n == 1 else 'entries'}"
            hand = all(o.get("source_sha256") == reg.source_sha256 for _, o in stale_files)
            if hand:  # the registry is the one built from: nothing above moved, the file's ranges were edited
                summary.append(f"{entries if not summary else num(n) + ' more'} with other line ranges than the "
                               "registry gives (the registry did not change: the generated file was edited)")
            elif summary:  # after the ids above: "more", and the rest are not named
                summary.append(f"{num(n)} more only moved to other lines")
            else:
                summary.append(f"{entries} only moved to other lines (lines above {'it' if n == 1 else 'them'} "
                               "were added or removed; the content is the same)")
        problems.append(("Since the build: " + "; ".join(summary) + ". " if summary else "") + "Run `routelens build`.")
    st = size_stats(reg, out.index, (0, 0, 0))
    budget = st["budget"]
    if not budget["ok"]:
        most = budget_max_chars(st["registry"]["chars"], budget["max_index_ratio"])
        problems.append(
            f"size budget exceeded: the index has {num(budget['index_chars'])} chars; max_index_ratio "
            f"{budget['max_index_ratio']} of the registry's {num(st['registry']['chars'])} chars allows at most "
            f"{num(most)}: over by {num(budget['index_chars'] - most)} chars; "
            + budget_advice(out.index, budget["max_index_ratio"])
        )
    return CheckResult(not problems, problems, added, removed, changed, out, moved)
