"""Prompt-cache stability on a small git repository made in the test:
`history.since`, `stats --since`, `history.index_commit_summary`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from routelens.artifacts.index_file import index_bytes
from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.errors import HistoryError
from routelens.registry import load_registry
from routelens.tools.history import common_prefix_len, index_commit_summary, since
from routelens.tools.prompt import layer1_block

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

V1 = """\
schema_version: 1
skills:
  alpha:
    path: a.md
    priority: P0
    triggers: [alpha task]
    description: First skill
  beta:
    path: b.md
    priority: P1
    triggers: [beta task]
    description: Second skill
  gamma:
    path: c.md
    priority: P2
    triggers: [gamma task]
    description: Third skill
"""
# v2: gamma's trigger changes (its line range does not), zeta is added at the end
V2 = V1.replace("[gamma task]", "[gamma job]") + """\
  zeta:
    path: z.md
    priority: P2
    triggers: [zeta task]
    description: Last skill
"""
# v3: alpha's description changes, beta is removed
V3 = V2.replace("First skill", "First skill, reworded").replace(
    "  beta:\n    path: b.md\n    priority: P1\n    triggers: [beta task]\n    description: Second skill\n", "")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    cfg = tmp_path / "gitconfig"
    cfg.write_text("")
    for k, v in {"GIT_CONFIG_GLOBAL": str(cfg), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
                 "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                 "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CEILING_DIRECTORIES": str(tmp_path)}.items():
        monkeypatch.setenv(k, v)
    git(root, "init", "-q", "-b", "main")
    return root


def git(root: Path, *args: str) -> str:
    res = subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=root, capture_output=True, text=True,
                         check=True)
    return res.stdout.strip()


def commit(root: Path, text: str, message: str, build: bool = True) -> str:
    (root / "skills.yaml").write_text(text)
    if build:
        write_generated(load_registry(root / "skills.yaml"), root / "generated")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


def test_common_prefix_len():
    assert common_prefix_len(b"", b"abc") == 0
    assert common_prefix_len(b"abc", b"abc") == 3
    assert common_prefix_len(b"abcd", b"abxd") == 2
    assert common_prefix_len(b"abc", b"abcdef") == 3


def test_since_reports_surviving_prefix_and_ids(repo):
    c1 = commit(repo, V1, "v1")
    commit(repo, V2, "v2")
    reg_path = repo / "skills.yaml"
    s = since(reg_path, "HEAD~1")
    old_idx = index_bytes(load_registry_text(repo, V1))
    new_idx = index_bytes(load_registry(reg_path))
    # the index is unchanged up to gamma's trigger, "gamma " then differs ("task" vs "job")
    expected_idx_prefix = old_idx.index(b'["gamma task"]') + len(b'["gamma ')
    assert s["index"] == {"old_bytes": 441, "new_bytes": 487, "unchanged_prefix_bytes": 228,
                          "unchanged_share_of_new": 0.4682}
    assert expected_idx_prefix == 228 and (len(old_idx), len(new_idx)) == (441, 487)
    # descriptions did not change: the whole old Layer-1 block survives, zeta's line is appended
    old_l1 = layer1_block(load_registry_text(repo, V1)).encode()
    assert s["layer1"] == {"old_bytes": 116, "new_bytes": 135, "unchanged_prefix_bytes": 116,
                           "unchanged_share_of_new": 0.8593}
    assert len(old_l1) == 116
    assert (s["added"], s["changed"], s["removed"]) == (["zeta"], ["gamma"], [])
    assert s["by_kind"]["skill"] == {"added": ["zeta"], "removed": [], "changed": ["gamma"]}
    assert s["commit"] == c1 and s["registry"] == "skills.yaml" and s["existed"] is True


def load_registry_text(root: Path, text: str):
    from routelens.registry import parse_registry

    return parse_registry(text.encode(), root / "skills.yaml")


def test_since_working_tree_edit_early_in_the_block(repo):
    commit(repo, V2, "v2")
    (repo / "skills.yaml").write_text(V3)  # not committed: the working tree is compared
    s = since(repo / "skills.yaml", "HEAD")
    header = b"Available skills (id: when to use it), sorted by id:\n- alpha: First skill"
    assert s["layer1"]["unchanged_prefix_bytes"] == len(header) == 73
    assert (s["added"], s["changed"], s["removed"]) == ([], ["alpha"], ["beta"])


def test_since_before_the_registry_existed(repo):
    (repo / "README").write_text("x\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "readme")
    commit(repo, V1, "v1")
    s = since(repo / "skills.yaml", "HEAD~1")
    assert s["existed"] is False
    assert s["index"]["old_bytes"] == 0 and s["index"]["unchanged_prefix_bytes"] == 0
    assert s["added"] == ["alpha", "beta", "gamma"]


def test_since_errors(repo, tmp_path):
    commit(repo, V1, "v1")
    with pytest.raises(HistoryError, match=r"^unknown revision 'nope' in "):
        since(repo / "skills.yaml", "nope")
    with pytest.raises(HistoryError, match=r"^unknown revision '--all'$"):
        since(repo / "skills.yaml", "--all")
    outside = tmp_path / "nogit"
    outside.mkdir()
    (outside / "skills.yaml").write_text(V1)
    with pytest.raises(HistoryError, match="is not inside a git work tree"):
        since(outside / "skills.yaml", "HEAD")


def test_stats_since_cli(repo, capsys):
    c1 = commit(repo, V1, "v1")
    commit(repo, V2, "v2")
    assert main(["stats", "--registry", str(repo / "skills.yaml"), "--since", "HEAD~1"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(
        f"since HEAD~1 ({c1[:12]}), for skills.yaml:\n"
        "  index:              441 ->      487 bytes; leading 228 bytes unchanged (46.8% of the new)\n"
        "  layer-1 block:      116 ->      135 bytes; leading 116 bytes unchanged (85.9% of the new)\n"
        "  added:         +1  zeta\n"
        "  changed:       ~1  gamma\n"
        "  removed:       -0\n")
    assert main(["stats", "--json", "--registry", str(repo / "skills.yaml"), "--since", "HEAD~1"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["since"]["index"]["unchanged_prefix_bytes"] == 228
    assert main(["stats", "--registry", str(repo / "skills.yaml"), "--since", "nope"]) == 2
    err = capsys.readouterr().err
    assert err == f"routelens stats --since: unknown revision 'nope' in {repo.resolve()}\n"


def test_index_commit_summary(repo, tmp_path):
    reg_path, idx_path = repo / "skills.yaml", repo / "generated" / "routing.min.json"
    c1 = commit(repo, V1, "v1")
    short1 = git(repo, "rev-parse", "--short=7", c1)
    assert index_commit_summary(reg_path, idx_path) == f"index built from commit {short1}; since then +0 ~0 -0"
    # the registry is edited, the index is not rebuilt
    reg_path.write_text(V2)
    assert index_commit_summary(reg_path, idx_path) == f"index built from commit {short1}; since then +1 ~1 -0"
    # rebuilt from the edited, uncommitted registry
    write_generated(load_registry(reg_path), repo / "generated")
    assert index_commit_summary(reg_path, idx_path) == "index built from the working tree (not committed)"
    c2 = commit(repo, V2, "v2")
    short2 = git(repo, "rev-parse", "--short=7", c2)
    assert index_commit_summary(reg_path, idx_path) == f"index built from commit {short2}; since then +0 ~0 -0"
    reg_path.write_text(V3)
    assert index_commit_summary(reg_path, idx_path) == f"index built from commit {short2}; since then +0 ~1 -1"
    # an index from a registry that never was committed nor is on disk
    write_generated(load_registry_text(repo, V1.replace("First", "Other")), repo / "generated")
    assert index_commit_summary(reg_path, idx_path) == (
        "index built from a registry not found in the last 2 commits that touched skills.yaml")
    idx_path.unlink()
    assert index_commit_summary(reg_path, idx_path) == f"no index at {idx_path}"


def test_index_commit_summary_outside_git(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    (tmp_path / "skills.yaml").write_text(V1)
    write_generated(load_registry(tmp_path / "skills.yaml"), tmp_path / "generated")
    assert index_commit_summary(tmp_path / "skills.yaml", tmp_path / "generated" / "routing.min.json") is None


def test_index_commit_summary_untracked_registry(repo):
    (repo / "README").write_text("x\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "readme")
    (repo / "skills.yaml").write_text(V1)
    write_generated(load_registry(repo / "skills.yaml"), repo / "generated")
    # a trial: the stats panel said "not in a git work tree" here, beside "since HEAD (...) +11000"
    assert index_commit_summary(repo / "skills.yaml", repo / "generated" / "routing.min.json") == (
        "skills.yaml is in a git work tree but has no commit yet: no commit to trace")
