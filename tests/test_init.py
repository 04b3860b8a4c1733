"""``routelens init [DIR]``: a starter registry that builds, checks and lints
clean, a comment on every field, and a refusal that writes nothing."""

from __future__ import annotations

import re

import pytest

from routelens.artifacts.check import check
from routelens.cli import main
from routelens.registry import load_registry
from routelens.routing.router import Router
from routelens.tools import init as init_tool
from routelens.tools.lint import lint
from routelens.tools.schema import schema_text, validate

WRITTEN = ["skills/code-review.md", "skills/release-notes.md", "skills/bug-triage.md", "skills.schema.json",
           "skills.yaml", "generated/catalog.json", "generated/routing.min.json"]


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_init_writes_exactly_the_starter_files(tmp_path, capsys):
    target = tmp_path / "new"
    assert main(["init", str(target)]) == 0
    out = capsys.readouterr().out
    assert _files(target) == sorted(WRITTEN)
    assert [line.removeprefix("wrote ") for line in out.splitlines()[:7]] == [str(target / w) for w in WRITTEN]
    assert (target / "skills.yaml").read_text(encoding="utf-8") == init_tool.STARTER_REGISTRY
    assert (target / "skills.schema.json").read_text(encoding="utf-8") == schema_text()
    for sid, body in init_tool.STARTER_BODIES.items():
        assert (target / "skills" / f"{sid}.md").read_text(encoding="utf-8") == body
    assert "routelens tui --registry" in out


def test_starter_registry_is_fresh_clean_and_routes(tmp_path):
    init_tool.init_registry(tmp_path)
    reg = load_registry(tmp_path / "skills.yaml")
    assert sorted(reg.skills) == ["bug-triage", "code-review", "release-notes"]
    assert reg.warnings == []
    result = check(reg, tmp_path / "generated")
    assert result.ok, result
    report = lint(reg)
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.findings == [], [str(f) for f in report.findings]
    assert validate((tmp_path / "skills.yaml").read_bytes()) == []
    router = Router.from_paths(tmp_path / "skills.yaml")
    assert router.freshness.state == "fresh"
    d = router.route("please triage this bug from the support queue")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("bug-triage",))
    d = router.route("review my diff, then the release notes")
    assert (d.mode, d.composition) == ("index", "ship-release")


def test_every_field_has_a_comment_and_the_modeline_comes_first():
    lines = init_tool.STARTER_REGISTRY.splitlines()
    assert lines[0] == "# yaml-language-server: $schema=./skills.schema.json"
    key_line = re.compile(r"^\s*[a-z_-]+:")
    for i, line in enumerate(lines):
        if not key_line.match(line) or line.lstrip().startswith("#"):
            continue
        ids = ("code-review:", "release-notes:", "bug-triage:", "ship-release:", "production-change:")
        if line.strip() in ids:
            continue  # an id is a name, not a field
        follows = lines[i + 1].strip() if i + 1 < len(lines) else ""
        assert "#" in line or follows.startswith("#"), f"line {i + 1} has no comment: {line!r}"


def test_refuses_when_any_file_exists_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "bug-triage.md").write_text("mine\n", encoding="utf-8")
    before = _files(tmp_path)
    assert main(["init", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"routelens init: {tmp_path / 'skills' / 'bug-triage.md'} already exists" in err
    assert "nothing was written" in err
    assert _files(tmp_path) == before
    assert (tmp_path / "skills" / "bug-triage.md").read_text(encoding="utf-8") == "mine\n"


def test_refuses_an_existing_registry_or_generated_file(tmp_path, capsys):
    (tmp_path / "skills.yaml").write_text("schema_version: 1\nskills: {}\n", encoding="utf-8")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "routing.min.json").write_text("{}", encoding="utf-8")
    assert main(["init", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == [f"routelens init: {tmp_path / 'skills.yaml'} already exists",
                       f"routelens init: {tmp_path / 'generated' / 'routing.min.json'} already exists"]
    assert _files(tmp_path) == ["generated/routing.min.json", "skills.yaml"]


@pytest.mark.parametrize("blocker", ["target", "skills", "generated"])
def test_refuses_a_file_where_a_folder_goes(tmp_path, capsys, blocker):
    target = tmp_path / "t"
    if blocker == "target":
        target.write_text("x", encoding="utf-8")
    else:
        target.mkdir()
        (target / blocker).write_text("x", encoding="utf-8")
    assert main(["init", str(target)]) == 2
    err = capsys.readouterr().err
    assert "nothing was written" in err and "Traceback" not in err
    if blocker != "target":
        assert f"{target / blocker} already exists" in err
        assert _files(target) == [blocker]


def test_a_dangling_symlink_counts_as_existing(tmp_path, capsys):
    (tmp_path / "skills.yaml").symlink_to(tmp_path / "nowhere.yaml")
    assert main(["init", str(tmp_path)]) == 2
    assert not (tmp_path / "nowhere.yaml").exists()
    assert "skills.yaml already exists" in capsys.readouterr().err
