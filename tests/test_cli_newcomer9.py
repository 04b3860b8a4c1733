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


def test_lint_counts_every_control_character_of_a_field_and_a_body(tmp_path, capsys):
    """lint named only the first control character of a value: a newcomer
    removed the ESC it named and ran it again to learn of the BEL."""
    from routelens.cli import main

    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "a.md").write_bytes(b"# a\n\x1b[31mred\x1b[0m and \x07\n")
    (tmp_path / "skills.yaml").write_text(
        "schema_version: 1\nskills:\n  a:\n    path: skills/a.md\n    priority: P1\n    triggers: [alpha task]\n"
        '    description: "\\e[31mred\\e[0m text \\a ring"\n  b:\n    path: skills/a.md\n    priority: P1\n'
        '    triggers: ["beta \\e task"]\n', encoding="utf-8")
    assert main(["lint", "--registry", str(tmp_path / "skills.yaml")]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if "[control-character]" in line]
    reg, body = tmp_path / "skills.yaml", tmp_path / "skills" / "a.md"
    assert out == [
        f"{body}:2:1: warning: the body of a holds 3 control characters: U+001B (ESC) twice and U+0007 (BEL) once "
        "(the first here): printed raw, they can retitle, clear or take over a terminal [control-character]",
        f"{body}:2:1: warning: the body of b holds 3 control characters: U+001B (ESC) twice and U+0007 (BEL) once "
        "(the first here): printed raw, they can retitle, clear or take over a terminal [control-character]",
        f"{reg}:7:5: warning: skills.a.description: holds 3 control characters: U+001B (ESC) twice and U+0007 (BEL) "
        "once: printed raw, they can retitle, clear or take over a terminal; routelens "
        "shows them as `\\x1b`, `\\x07` [control-character]",
        f"{reg}:11:16: warning: skills.b.triggers[0]: holds the control character U+001B (ESC): "
        "printed raw, it can retitle, clear or take over a terminal; routelens shows it as `\\x1b` "
        "[control-character]",
    ]


def test_describe_controls_names_five_kinds_then_counts():
    from routelens.text.visible import controls_in, describe_controls

    assert describe_controls(controls_in("\x1b")) == "the control character U+001B (ESC)"
    assert describe_controls(controls_in("\x01\x02\x03\x04\x05\x06\x06\x06")) == (
        "8 control characters: U+0001 once, U+0002 once, U+0003 once, U+0004 once, U+0005 once and 1 other kind")
