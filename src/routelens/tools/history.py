"""Prompt-cache stability measured on the registry's git history.

A prompt cache keeps the longest *unchanged leading part* of a prompt. For
the compact index and the Layer-1 block this module tells, between a git
revision and the working tree, how many leading bytes are unchanged (the
cached prefix that survives the edits), and which ids were added, removed or
changed. Both sides are built by this routelens from the registry's content
(``git cat-file blob REV:path`` for the old side, the file on disk for the
new one), so the figures compare like with like even when the generated
files committed at REV were stale.

Units: ``bytes`` are UTF-8 bytes of the index (``routing.min.json``) and of
the Layer-1 block (:func:`routelens.tools.prompt.layer1_block`).

"Changed" means the entry's value changed (path, priority, triggers,
description, status, metadata; members of a composition; a rule's fields),
not merely its line range.

Git is run as a subprocess (``git`` on PATH); nothing here writes to the
repository. Nothing in this module imports Textual.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from routelens.artifacts.index_file import index_bytes, load_index
from routelens.errors import HistoryError, IndexInvalidError, RegistryError
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.registry.model import Registry
from routelens.text.canonical import source_sha256
from routelens.tools.prompt import layer1_block

__all__ = ["HistoryError", "repo_of", "registry_at", "since", "diff_ids", "common_prefix_len", "index_commit_summary",
           "format_since", "MAX_COMMITS"]

#: How many commits that touched the registry :func:`index_commit_summary` searches.
MAX_COMMITS = 500
_TIMEOUT = 60


def _git(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, LC_ALL="C", GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        return subprocess.run(["git", "-c", "core.quotepath=off", *args], cwd=cwd, input=stdin,
                              capture_output=True, env=env, timeout=_TIMEOUT, check=False)
    except FileNotFoundError:
        raise HistoryError("git is not installed (or not on PATH)") from None
    except subprocess.TimeoutExpired:
        raise HistoryError(f"git {' '.join(args[:2])} did not finish within {_TIMEOUT}s") from None


def repo_of(path: str | Path) -> tuple[Path, str] | None:
    """``(work tree root, path relative to it with '/')`` of a file inside a
    git work tree, or None when it is not in one (or git is missing)."""
    path = Path(path).resolve()
    try:
        res = _git(["rev-parse", "--show-toplevel"], path.parent)
    except HistoryError:
        return None
    if res.returncode != 0:
        return None
    top = Path(res.stdout.decode("utf-8", "replace").strip()).resolve()
    try:
        return top, path.relative_to(top).as_posix()
    except ValueError:
        return None


def _resolve_rev(top: Path, rev: str) -> str:
    if rev.startswith("-"):
        raise HistoryError(f"unknown revision {rev!r}")
    res = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], top)
    if res.returncode != 0:
        raise HistoryError(f"unknown revision {rev!r} in {top}")
    return res.stdout.decode().strip()


def _blob(top: Path, commit: str, rel: str) -> bytes | None:
    res = _git(["cat-file", "blob", f"{commit}:{rel}"], top)
    return res.stdout if res.returncode == 0 else None


def registry_at(registry_path: str | Path, rev: str) -> tuple[str, str, bytes | None]:
    """The registry's bytes at git revision ``rev``: ``(commit, path in the
    repository, bytes)``, the bytes None when the file did not exist at
    ``rev``. Raises :class:`HistoryError` when the registry is not in a git
    work tree or ``rev`` is not a commit (``unknown revision 'x' in DIR``)."""
    registry_path = Path(registry_path)
    repo = repo_of(registry_path)
    if repo is None:
        raise HistoryError(f"{registry_path} is not inside a git work tree")
    top, rel = repo
    commit = _resolve_rev(top, rev)
    return commit, rel, _blob(top, commit, rel)


def common_prefix_len(a: bytes, b: bytes) -> int:
    """Number of leading bytes ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo], a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _entry_values(reg: Registry | None) -> dict[tuple[str, str], tuple]:
    if reg is None:
        return {}
    out: dict[tuple[str, str], tuple] = {}
    for s in reg.skills.values():
        out[("skill", s.id)] = (s.path, s.priority, s.triggers, s.description, s.status, repr(s.metadata))
    for c in reg.compositions.values():
        out[("composition", c.id)] = (c.members,)
    for r in reg.rules.values():
        out[("rule", r.id)] = (r.forced, r.triggers, r.description, repr(r.metadata))
    return out


def diff_ids(old: Registry | None, new: Registry | None) -> dict[str, Any]:
    """Ids added, removed and changed from ``old`` to ``new`` (None is an
    empty registry)::

        {"added": [ids], "removed": [ids], "changed": [ids],   # sorted, all kinds
         "by_kind": {"skill"|"composition"|"rule": {"added", "removed", "changed"}}}
    """
    a, b = _entry_values(old), _entry_values(new)
    by_kind: dict[str, dict[str, list[str]]] = {
        k: {"added": [], "removed": [], "changed": []} for k in ("skill", "composition", "rule")}
    for key in sorted(b.keys() - a.keys()):
        by_kind[key[0]]["added"].append(key[1])
    for key in sorted(a.keys() - b.keys()):
        by_kind[key[0]]["removed"].append(key[1])
    for key in sorted(a.keys() & b.keys()):
        if a[key] != b[key]:
            by_kind[key[0]]["changed"].append(key[1])
    flat = {what: sorted(i for k in by_kind.values() for i in k[what]) for what in ("added", "removed", "changed")}
    return {**flat, "by_kind": by_kind}


def _prefix_figures(old: bytes, new: bytes) -> dict[str, Any]:
    common = common_prefix_len(old, new)
    return {
        "old_bytes": len(old),
        "new_bytes": len(new),
        "unchanged_prefix_bytes": common,
        "unchanged_share_of_new": round(common / len(new), 4) if new else 1.0,
    }


def since(registry_path: str | Path, rev: str, current: Registry | None = None) -> dict[str, Any]:
    """Compare the registry at git revision ``rev`` with the working tree.

    ``current`` is the registry as loaded from disk (loaded here when None).
    Returns::

        {"rev": rev, "commit": full sha, "registry": path in the repository,
         "existed": bool,                      # the registry existed at rev
         "index":  {"old_bytes", "new_bytes", "unchanged_prefix_bytes", "unchanged_share_of_new"},
         "layer1": {same keys, for the Layer-1 block},
         "added": [...], "removed": [...], "changed": [...], "by_kind": {...}}

    When the registry did not exist at ``rev`` the old side is empty (0
    bytes, every id added). Raises :class:`HistoryError` when the registry is
    not in a git work tree, ``rev`` is unknown, or the registry at ``rev``
    (or on disk) is invalid.
    """
    registry_path = Path(registry_path)
    commit, rel, raw = registry_at(registry_path, rev)
    if current is None:
        try:
            current = parse_registry(read_registry_bytes(registry_path), registry_path)
        except RegistryError as exc:
            raise HistoryError(f"the registry on disk is invalid: {exc.diagnostics[0]}") from None
    old_reg = None
    if raw is not None:
        try:
            old_reg = parse_registry(raw, registry_path, display_name=f"{rev}:{rel}")
        except RegistryError as exc:
            raise HistoryError(f"the registry at {rev} is invalid: {exc.diagnostics[0]}") from None
    old_idx = index_bytes(old_reg) if old_reg else b""
    old_l1 = layer1_block(old_reg).encode("utf-8") if old_reg else b""
    return {
        "rev": rev,
        "commit": commit,
        "registry": rel,
        "existed": raw is not None,
        "index": _prefix_figures(old_idx, index_bytes(current)),
        "layer1": _prefix_figures(old_l1, layer1_block(current).encode("utf-8")),
        **diff_ids(old_reg, current),
    }


def format_since(s: dict[str, Any]) -> list[str]:
    """Lines for people describing a :func:`since` result."""
    lines = [f"since {s['rev']} ({s['commit'][:12]}), for {s['registry']}:"]
    if not s["existed"]:
        lines.append(f"  the registry did not exist at {s['rev']}")
    for key, label in (("index", "index"), ("layer1", "layer-1 block")):
        f = s[key]
        lines.append(f"  {label + ':':15}{f['old_bytes']:>8} -> {f['new_bytes']:>8} bytes; leading "
                     f"{f['unchanged_prefix_bytes']} bytes unchanged ({f['unchanged_share_of_new'] * 100:.1f}% of the new)")
    for what, sign in (("added", "+"), ("changed", "~"), ("removed", "-")):
        ids = s[what]
        lines.append(f"  {what + ':':15}{sign}{len(ids)}" + (f"  {', '.join(ids)}" if ids else ""))
    return lines


def _blobs(top: Path, names: list[str]) -> list[bytes | None]:
    """Contents of ``rev:path`` object names through one ``git cat-file --batch``."""
    if not names:
        return []
    res = _git(["cat-file", "--batch"], top, stdin=("\n".join(names) + "\n").encode("utf-8"))
    if res.returncode != 0:
        raise HistoryError(f"git cat-file failed: {res.stderr.decode('utf-8', 'replace').strip()}")
    out: list[bytes | None] = []
    data, i = res.stdout, 0
    for _ in names:
        nl = data.index(b"\n", i)
        header = data[i:nl].split()
        i = nl + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            out.append(data[i : i + size])
            i += size + 1
        else:
            out.append(None)
            if len(header) == 3:  # a tree or other object: skip its contents
                i += int(header[2]) + 1
    return out


def index_commit_summary(registry_path: str | Path, index_path: str | Path) -> str | None:
    """One line for the TUI: ``"index built from commit abc1234; since then
    +a ~b -c"`` — the newest commit (among the last :data:`MAX_COMMITS`
    touching the registry) whose registry's canonical hash equals the
    index's ``source_sha256``, and the ids added (+), changed (~) and
    removed (-) between that commit's registry and the one on disk.

    Other answers: ``"index built from the working tree (not committed)"``,
    ``"index built from a registry not found in the last N commits"``,
    ``"no index: ..."`` / ``"index invalid: ..."``, ``"skills.yaml is in a
    git work tree but has no commit yet: ..."``. Returns None when the
    registry is not in a git work tree or git is missing.
    """
    repo = repo_of(registry_path)
    if repo is None:
        return None
    top, rel = repo
    try:
        res = _git(["log", f"-n{MAX_COMMITS}", "--format=%H", "--", rel], top)
    except HistoryError:
        return None
    commits = res.stdout.decode().split() if res.returncode == 0 else []
    if not commits:
        # in a work tree, but never committed: not "outside git" (the stats panel said so beside "since HEAD")
        return f"{rel} is in a git work tree but has no commit yet: no commit to trace"
    try:
        idx = load_index(index_path)
    except FileNotFoundError:
        return f"no index at {index_path}"
    except (IndexInvalidError, OSError) as exc:
        return f"index invalid: {exc}"
    try:
        raw_now = read_registry_bytes(registry_path)
    except RegistryError:
        return None
    try:
        blobs = _blobs(top, [f"{c}:{rel}" for c in commits])
    except HistoryError:
        return None
    found = next((c for c, b in zip(commits, blobs) if b is not None and source_sha256(b) == idx.source_sha256), None)
    if found is None:
        if source_sha256(raw_now) == idx.source_sha256:
            return "index built from the working tree (not committed)"
        return f"index built from a registry not found in the last {len(commits)} commits that touched {rel}"
    short = _git(["rev-parse", "--short=7", found], top).stdout.decode().strip() or found[:7]
    try:
        old = parse_registry(blobs[commits.index(found)] or b"", Path(registry_path))
        new = parse_registry(raw_now, Path(registry_path))
    except RegistryError:
        return f"index built from commit {short}; since then: the registry has errors"
    d = diff_ids(old, new)
    return f"index built from commit {short}; since then +{len(d['added'])} ~{len(d['changed'])} -{len(d['removed'])}"
