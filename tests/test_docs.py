"""Every file the README, docs/ and pyproject.toml cite is in the
repository (issue 13 item 10: they cited files that were not)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
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


# --------------------------------------------------------------------------- the contract's examples

FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")


def _bundled_stats() -> dict:
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "routelens", "stats", "--json", "--registry", str(ROOT / "skills.yaml")],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_the_contracts_decision_examples_are_what_the_bundled_registry_gives():
    """docs/formats.md §6.1 says its examples come from the bundled registry;
    a newcomer found its hashes, sizes and budget three registry edits old.
    Each full decision example must be `route --json` of its task, key for key."""
    import json

    from routelens.routing.router import Router

    router = Router.from_paths(ROOT / "skills.yaml")
    checked = 0
    for block in re.findall(r"```json\n(.*?)```", FORMATS, re.S):
        try:
            shown = json.loads(block)
        except ValueError:
            continue  # a shape with "..." in it, not a whole value
        if isinstance(shown, dict) and "task" in shown and "mode" in shown and "matcher_version" in shown:
            got = json.loads(json.dumps(router.route(shown["task"]).to_dict(), ensure_ascii=False))
            got["message"] = got["message"].replace(str(ROOT / "skills.yaml"), "skills.yaml")
            assert shown == got, shown["task"]
            checked += 1
    assert checked == 2


def test_the_contracts_bundled_figures_are_the_bundled_registrys():
    """The sizes, hash and budget docs/formats.md quotes for the bundled
    registry (its preamble, §3.1, §3.2, §5.2) are what `stats` says now."""
    st = _bundled_stats()
    reg, idx, cat, budget = st["registry"], st["index"], st["catalog"], st["budget"]
    from routelens.text.canonical import source_sha256

    sha = source_sha256((ROOT / "skills.yaml").read_bytes())
    assert (f"({reg['lines']} lines, {reg['chars']:,} characters, {reg['bytes']:,} bytes, "
            f"`source_sha256` `{sha[:12]}…`)") in FORMATS
    for key in ("registry", "catalog", "index", "budget"):
        import json
        assert f'"{key}": {json.dumps(st[key])}' in FORMATS, key
    limit = reg["chars"] * budget["max_index_ratio"]
    assert f"{reg['chars']:,} x {budget['max_index_ratio']} = {limit:,.1f}, so at most {int(limit):,}" in FORMATS
    assert f"`{round(idx['reduction'] * 100, 1)}% smaller`, `{round(-cat['reduction'] * 100, 1)}% larger`" in FORMATS
    edited = source_sha256((ROOT / "skills.yaml").read_bytes() + b"# edit\n")
    assert f"`{sha[:12]}…` to `{edited[:12]}…`" in FORMATS


def test_the_readme_and_contract_state_the_current_matcher_version():
    """The README's "(now `N`)" and docs/formats.md §6.1's "currently `"N"`"
    are MATCHER_VERSION: the README said `15` two matcher versions after
    it changed."""
    from routelens.routing.matching import MATCHER_VERSION

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"`matcher_version` \(now `(\d+)`\)", readme) == [MATCHER_VERSION]
    assert re.findall(r"\| `matcher_version` \|[^|]*currently `\"(\d+)\"`", FORMATS) == [MATCHER_VERSION]
