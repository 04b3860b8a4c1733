"""A newcomer's three misleading YAML errors (round 10), each from the
command line as they met it: the line to fix named, exit code 2, no
traceback, nothing written."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAD = """\
schema_version: 1
skills:
  gpu-request:
    path: skills/gpu-request.md
    priority: P1
    triggers: [request gpus]
"""

CASES = [
    # `path:` indented by 5 under a skill whose other keys have 4: the words blamed `gpu-quota:` above
    ("over-indented-first-key",
     "  gpu-quota:\n     path: skills/gpu-quota.md\n    priority: P2\n    triggers: [gpu quota]\n",
     "{reg}:8:6: skills.gpu-quota.path: YAML syntax error: line 8 (`path: skills/gpu-quota.md`) is indented by 5, "
     "the keys below it by 4: indent line 8 by 4 like them (or line 9 and the keys after it by 5) (YAML parser: did "
     "not find expected key while parsing a block mapping, at line 9, column 5)"),
    # two full-width spaces (U+3000) as indentation: "missing required key `priority`" and "indented by 0"
    ("full-width-indentation",
     "  gpu-quota:\n    path: skills/gpu-quota.md\n\u3000\u3000priority: P2\n    triggers: [gpu quota]\n",
     "{reg}:9:1: YAML syntax error: line 9 is indented with 2 full-width spaces (U+3000): YAML indents with ASCII "
     "spaces only, so replace them with spaces"),
    # no space after a list item's dash: "a dash is missing (`- -request gpus`)"
    ("dash-without-space",
     "  gpu-quota:\n    path: skills/gpu-quota.md\n    priority: P2\n    triggers:\n      - gpu quota\n"
     "      -request gpus\n      - gpu limit\n",
     "{reg}:12:7: skills.gpu-quota.triggers[1]: YAML syntax error: line 12 (`-request gpus`) is neither `key: value` "
     "nor a list item: a space is missing after the dash: write `- request gpus` (YAML parser: could not find "
     "expected ':' while scanning a simple key, at line 13, column 7)"),
    # the same as a list's first item: YAML reads one string, "triggers must be a non-empty list of strings"
    ("dash-without-space-first",
     "  gpu-quota:\n    path: skills/gpu-quota.md\n    priority: P2\n    triggers:\n      -request gpus\n"
     "      - gpu limit\n",
     "{reg}:11:7: skills.gpu-quota.triggers: triggers must be a non-empty list of strings, not the string "
     "'-request gpus - gpu limit': a space is missing after the dash: write `- request gpus`"),
]


@pytest.mark.parametrize("name, entry, first", CASES, ids=[c[0] for c in CASES])
def test_the_build_names_the_line_to_fix(tmp_path, name, entry, first):
    reg = tmp_path / "skills.yaml"
    reg.write_text(HEAD + entry, encoding="utf-8")
    (tmp_path / "skills").mkdir()
    for sid in ("gpu-request", "gpu-quota"):
        (tmp_path / "skills" / f"{sid}.md").write_text(f"# {sid}\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(reg)],
                         capture_output=True, text=True, cwd=tmp_path, encoding="utf-8")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [first.format(reg=reg), f"{reg}: 1 error; nothing was written"]
    assert not (tmp_path / "generated").exists()
