"""Every file the README, docs/ and pyproject.toml cite is in the
repository (issue 13 item 10: they cited files that were not)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: a cited path starts with one of the repository's top-level folders of code, tests and docs
#: (``skills/x.md`` and ``generated/`` also name example files in the docs, so they are not checked)
TOP = ("src/", "tests/", "docs/", "benchmarks/", "screenshots/", ".ci/")
TOP_FILES = {"pyproject.toml", ".pre-commit-hooks.yaml"}


def cited(text: str) -> set[tuple[str, bool]]:
    """Paths cited in Markdown, each with whether it is a link (relative to
    the document) or a path of the repository: link targets, and words in
    `code` that start like a path of this repository (placeholders such as
    ``<id>`` and globs are not paths)."""
    found = {(t, True) for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:|#", t)}
    for code in re.findall(r"`([^`\n]+)`", text):
        for word in code.split():
            word = word.strip("'\",;:()[]")
            if any(c in word for c in "<>*{}$~") or "..." in word:
                continue
            if word.startswith(TOP) or word in TOP_FILES:
                found.add((word.split("#")[0].rstrip("."), False))
    return found


def test_every_cited_file_exists():
    missing = []
    for doc in DOCS:
        for path, link in sorted(cited(doc.read_text(encoding="utf-8"))):
            if not ((doc.parent if link else ROOT) / path).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert missing == []


def test_pyproject_cites_files_that_exist():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert (ROOT / meta["project"]["readme"]).is_file()
    for f in meta["project"].get("license-files", []):
        assert list(ROOT.glob(f)), f
    pkg = ROOT / "src" / "routelens"
    for pattern in meta["tool"]["setuptools"]["package-data"]["routelens"]:
        assert list(pkg.glob(pattern)), pattern


def test_the_checker_sees_a_missing_file():
    assert cited("see `docs/nothing.md` and [x](screenshots/none.png), not `src/<id>.md`") == {
        ("docs/nothing.md", False), ("screenshots/none.png", True)}
