"""A second round of newcomers' findings in the CLI (round 9), each with
the input that failed."""

from __future__ import annotations

import subprocess
import sys

REGISTRY = """\
schema_version: 1
skills:
  code-review:
    path: skills/code-review.md
    priority: P0
    triggers:
      - code review
      - "review my diff
      - review the patch
    description: Review a diff
  blog-post:
    path: skills/blog-post.md
    priority: P1
    triggers: ["blog post"]
    description: Draft a blog post
"""


def test_an_unclosed_quote_names_the_line_it_opened_on_with_its_key_path(tmp_path):
    """The quote of a list item was closed by the next quoted value, two
    entries down; the error named that line ("line 14 is not a list item")
    and no key."""
    reg = tmp_path / "skills.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(reg)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[0] == (
        f"{reg}:8:9: skills.code-review.triggers[1]: YAML syntax error: the double quote opened on line 8, "
        "column 9 is not closed on its line, so the value runs on to line 14: close it on line 8 (YAML parser: did "
        "not find expected '-' indicator while parsing a block collection, at line 14, column 17)")
    assert not (tmp_path / "generated").exists()


def test_an_unterminated_description_in_the_middle_of_a_skill(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text(REGISTRY.replace('"review my diff', "review my diff").replace(
        "description: Review a diff", 'description: "unterminated').replace('["blog post"]', "[blog post]"),
        encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "routelens", "check", "--registry", str(reg)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[0] == (
        f"{reg}:10:18: skills.code-review.description: YAML syntax error: the double quote opened on line 10, "
        "column 18 is never closed: add the closing \" at the end of the value (YAML parser: found unexpected end of "
        "stream while scanning a quoted scalar, at line 16, column 1)")
