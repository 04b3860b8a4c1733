"""Agent Skills: SKILL.md reading (real trees in fixtures/agentskills), import
proposals, and `import --write` leaving every existing byte unchanged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from routelens.artifacts.check import check
from routelens.artifacts.index_file import index_bytes
from routelens.cli import main
from routelens.errors import SkillFileError
from routelens.paths import INDEX_NAME
from routelens.registry import load_registry
from routelens.tools.agentskills import agentskills_name_problem, discover, read_skill_md
from routelens.tools.skill_import import apply_import, entries_yaml, plan_import, propose_triggers

FIX = Path(__file__).parent / "fixtures" / "agentskills"
ROOT = Path(__file__).resolve().parents[1]


def errors_of(path: Path) -> list[str]:
    with pytest.raises(SkillFileError) as exc:
        read_skill_md(path, display=path.relative_to(FIX).as_posix())
    return [str(d) for d in exc.value.diagnostics]


def read(rel: str):
    return read_skill_md(FIX / rel, display=rel)


# --------------------------------------------------------------------------- reading


def test_fixture_bytes_are_what_the_tests_claim():
    raw = (FIX / "good/release-notes-ja/SKILL.md").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf---\r\n") and raw.count(b"\r\n") == 12 and b"\n" not in raw.replace(b"\r\n", b"")
    assert (FIX / "broken/bad-yaml/SKILL.md").read_bytes().count(b"\r\n") == 8
    too_long = (FIX / "broken/too-long/SKILL.md").read_text(encoding="utf-8")
    assert "説" * 1025 in too_long and "説" * 1026 not in too_long


def test_block_scalar_and_metadata_triggers():
    s = read("good/pdf-tools/SKILL.md")
    assert s.name == "pdf-tools"
    assert s.description == "Extract text, tables and form fields from PDF files, and fill in PDF forms."
    assert s.triggers == ("pdf extraction", "fill a pdf form", "PDFから抽出")
    assert s.frontmatter["license"] == "Apache-2.0"
    assert s.frontmatter["metadata"]["author"] == "docs-team"
    assert s.body_start_line == 14
    assert s.warnings == []


def test_crlf_and_bom_with_literal_block():
    s = read("good/release-notes-ja/SKILL.md")
    assert s.name == "release-notes-ja"
    assert s.description == ("リリースノートを日本語で書く。\n"
                             "Use when the user asks for \"release notes\" in Japanese or says 「リリースノート作成」.\n")
    assert s.triggers is None
    assert s.body_start_line == 8
    assert s.warnings == []


def test_hash_inside_values():
    s = read("good/csharp-style/SKILL.md")
    # 'C#' and 'F#' stay text; ' #42' starts a YAML comment, as in every YAML reader, and is reported
    assert s.description == "Format C# and F# code to the team style, see issue"
    # a comment after two spaces is an ordinary comment: no warning
    assert s.triggers == ("csharp style", "format c# code")
    assert [str(w) for w in s.warnings] == [
        "good/csharp-style/SKILL.md:3:65: warning: description: ' #' starts a YAML comment, so the value ends "
        "before it ('Format C# and F# code to the team style, see issue'); quote the value if the '#...' "
        "belongs to it"
    ]


def test_unquoted_colons_are_read_as_text_with_a_warning():
    s = read("good/incident-timeline/SKILL.md")
    assert s.description == ("Build an incident timeline. Use when: an outage ended and someone asks "
                             "for the timeline: what happened when")
    assert [str(w) for w in s.warnings] == [
        "good/incident-timeline/SKILL.md:3:50: warning: description: unquoted ': ' inside a plain value: read "
        "the rest of the line as text; quote the value, strict YAML readers (and so some agents) reject this line"
    ]


def test_rules_in_the_body_are_body_text():
    s = read("good/runbook-writing/SKILL.md")
    assert s.name == "runbook-writing"
    assert s.description == "Write an operational runbook with prerequisites, steps, checks and rollback"
    assert s.body_start_line == 5
    assert "not-frontmatter" not in json.dumps(s.frontmatter)


def test_lengths_are_characters_not_bytes():
    s = read("good/long-ja/SKILL.md")
    assert len(s.description) == 1024 and len(s.description.encode("utf-8")) == 3072
    assert errors_of(FIX / "broken/too-long/SKILL.md") == [
        "broken/too-long/SKILL.md:3:14: description: description is 1,025 characters; the Agent Skills limit "
        "is 1,024 (characters, not bytes)"
    ]


def test_broken_files_exact_diagnostics():
    got = {p.parent.name: errors_of(p) for p in sorted((FIX / "broken").glob("*/SKILL.md"))}
    assert got == {
        "Bad_Name": ["broken/Bad_Name/SKILL.md:2:7: name: name 'Bad_Name' may hold only lowercase letters, "
                     "digits and hyphens (Agent Skills format)"],
        # CRLF file: the line counts the file's lines; the error names the unclosed '[' (the parser
        # stopped where the flow list runs into the fence)
        "bad-yaml": ["broken/bad-yaml/SKILL.md:5:13: YAML syntax error: the [ opened on line 5, column 13 is not "
                     "closed where its value ends, or two of its items lack a comma between them: close it with ] "
                     "(YAML parser: did not find expected ',' or ']' while parsing a flow sequence, at line 6, "
                     "column 1)"],
        "name-mismatch": ["broken/name-mismatch/SKILL.md:3:7: name: name 'other-name' does not match its "
                          "folder 'name-mismatch' (Agent Skills format)"],
        # the `---` on line 9 is a rule in the body, not the closing fence
        "no-closing": ["broken/no-closing/SKILL.md:7:1: the frontmatter opened on line 1 is not closed before "
                       "the Markdown body: this line is not YAML (the `---` on line 9 is then a rule in the "
                       "body); add a line `---` after line 3"],
        "no-frontmatter": ["broken/no-frontmatter/SKILL.md:1:1: no YAML frontmatter: a SKILL.md starts with a "
                           "line `---`, then name and description, then `---`"],
        "too-long": ["broken/too-long/SKILL.md:3:14: description: description is 1,025 characters; the Agent "
                     "Skills limit is 1,024 (characters, not bytes)"],
    }


@pytest.mark.parametrize("text, expected", [
    ("---\nname: x\ndescription: d\n", "f/x/SKILL.md:1:1: the frontmatter opened on line 1 is never closed by a line `---`"),
    ("---\nname: x\ndescription: d\n\nBody text here.\n",
     "f/x/SKILL.md:5:1: the frontmatter opened on line 1 is never closed: this line looks like the Markdown body; "
     "add a line `---` after line 3"),
    ("---\n---\nBody\n", "f/x/SKILL.md:1:1: the frontmatter is empty: name and description are required"),
    ("---\nname: x\n---\n", "f/x/SKILL.md:1:1: description: missing required `description`"),
    ("---\nname: x\ndescription: #tag first\n---\n",
     "f/x/SKILL.md:3:14: description: missing required `description` (the '#' after ': ' starts a YAML "
     "comment: quote the value)"),
    ("---\nname: x\ndescription: d\ncompatibility: " + "c" * 501 + "\n---\n",
     "f/x/SKILL.md:4:16: compatibility: compatibility is 501 characters; the Agent Skills limit is 500"),
    ("---\nname: x\ndescription: d\nmetadata:\n  triggers: []\n---\n",
     "f/x/SKILL.md:5:13: metadata.triggers: metadata.triggers must be a non-empty list of non-empty strings "
     "(or one comma-separated string)"),
    ("---\nname: x\nname: y\ndescription: d\n---\n", "f/x/SKILL.md:3:1: name: duplicate key (first defined on line 2)"),
    ("\ufeff---\r\nname: x--y\r\ndescription: d\r\n---\r\n",
     "f/x/SKILL.md:2:7: name: name 'x--y' must not contain '--' (Agent Skills format)"),
    ("---\nname: x\ndescription: !!python/object:os.system d\n---\n",
     "f/x/SKILL.md:3:14: tag !!python/object:os.system is not allowed: routelens never builds objects from the registry"),
])
def test_frontmatter_problems(tmp_path, text, expected):
    p = tmp_path / "x" / "SKILL.md"
    p.parent.mkdir()
    p.write_bytes(text.encode("utf-8"))
    with pytest.raises(SkillFileError) as exc:
        read_skill_md(p, display="f/x/SKILL.md")
    assert [str(d) for d in exc.value.diagnostics] == [expected]


def test_yaml_scalars_stay_text(tmp_path):
    p = tmp_path / "v1" / "SKILL.md"
    p.parent.mkdir()
    p.write_text("---\nname: v1\ndescription: 1.10\nmetadata:\n  triggers: [yes, 0777, 2024-01-01]\n---\n")
    s = read_skill_md(p)
    assert s.description == "1.10"
    assert s.triggers == ("yes", "0777", "2024-01-01")


def test_name_rules():
    assert agentskills_name_problem("a" * 64) is None
    assert agentskills_name_problem("a" * 65) == "name is 65 characters; the Agent Skills limit is 64"
    assert agentskills_name_problem("-a") == "name '-a' must not start or end with a hyphen (Agent Skills format)"
    assert agentskills_name_problem("a-") == "name 'a-' must not start or end with a hyphen (Agent Skills format)"
    assert agentskills_name_problem("pdf-2") is None


# --------------------------------------------------------------------------- proposing


def test_discover(tmp_path):
    files, errors = discover([FIX / "good", FIX / "good/pdf-tools", tmp_path / "nothing", tmp_path])
    assert [f.parent.name for f in files] == ["csharp-style", "incident-timeline", "long-ja", "pdf-tools",
                                              "release-notes-ja", "runbook-writing"]
    assert [str(e) for e in errors] == [
        f"{tmp_path / 'nothing'}:1:1: no such file or folder",
        f"{tmp_path}:1:1: no SKILL.md in this folder or below it",
    ]


def test_propose_triggers():
    assert propose_triggers("release-notes-ja", "リリースノートを日本語で書く。\nUse when the user asks for "
                            "\"release notes\" in Japanese or says 「リリースノート作成」.") == [
        "release notes ja", "release notes", "リリースノート作成"]
    assert propose_triggers("pdf", "Use this skill when working with PDF files or when the user mentions "
                            "'forms'.") == ["forms", "PDF file"]
    assert propose_triggers("ci", "Fix CI") == ["ci"]


@pytest.fixture
def workspace(tmp_path):
    """A copy of the bundled registry and bodies, with the fixture trees beside it."""
    shutil.copy(ROOT / "skills.yaml", tmp_path / "skills.yaml")
    shutil.copytree(ROOT / "skills", tmp_path / "skills")
    shutil.copytree(FIX / "good", tmp_path / "agent-skills")
    shutil.copytree(FIX / "broken", tmp_path / "broken")
    return tmp_path


def test_plan_imports_good_ones_and_reports_broken_ones(workspace):
    reg = load_registry(workspace / "skills.yaml")
    plan = plan_import([workspace / "agent-skills", workspace / "broken"], workspace / "skills.yaml", reg)
    assert [(p.id, p.path, p.triggers_from) for p in plan.proposals] == [
        ("csharp-style", "agent-skills/csharp-style/SKILL.md", "metadata.triggers"),
        ("incident-timeline", "agent-skills/incident-timeline/SKILL.md", "proposed"),
        ("long-ja", "agent-skills/long-ja/SKILL.md", "proposed"),
        ("pdf-tools", "agent-skills/pdf-tools/SKILL.md", "metadata.triggers"),
        ("release-notes-ja", "agent-skills/release-notes-ja/SKILL.md", "proposed"),
        ("runbook-writing", "agent-skills/runbook-writing/SKILL.md", "proposed"),
    ]
    assert [(d.line, d.column, Path(d.file).parent.name) for d in plan.errors] == [
        (2, 7, "Bad_Name"), (5, 13, "bad-yaml"), (3, 7, "name-mismatch"), (7, 1, "no-closing"),
        (1, 1, "no-frontmatter"), (3, 14, "too-long")]
    assert all(p.priority == "P2" for p in plan.proposals)


def test_existing_id_is_never_replaced(workspace):
    clash = workspace / "clash" / "code-review"
    shutil.copytree(FIX / "good/pdf-tools", clash)
    md = clash / "SKILL.md"
    md.write_text(md.read_text().replace("name: pdf-tools", "name: code-review"))
    reg = load_registry(workspace / "skills.yaml")
    plan = plan_import([workspace / "clash"], workspace / "skills.yaml", reg)
    assert plan.proposals == []
    assert [(i, r) for i, _, r in plan.skipped] == [("code-review", "already a skill id in skills.yaml; never replaced")]


def test_skill_outside_the_registry_folder_is_refused(tmp_path):
    (tmp_path / "reg").mkdir()
    reg_path = tmp_path / "reg" / "skills.yaml"
    plan = plan_import([FIX / "good/pdf-tools"], reg_path, None)
    assert plan.proposals == []
    assert len(plan.errors) == 1
    assert str(plan.errors[0]).startswith(f"{FIX / 'good/pdf-tools/SKILL.md'}:1:1: outside the registry's folder ")


SMALL = """\
# a registry written by hand: this comment, the spacing and the quoting must survive
schema_version: 1

skills:
  pdf-tools:   # already here
    path: "skills/pdf.md"
    priority: P1
    triggers: [pdf]

  notes:
    path: skills/notes.md
    priority: P2
    triggers:
    - note taking
    - 'yes'
composition:
  docs: [pdf-tools, notes]
"""


def _write_small(tmp_path, text: str = SMALL, crlf: bool = False) -> Path:
    p = tmp_path / "skills.yaml"
    data = text.replace("\n", "\r\n") if crlf else text
    p.write_bytes(data.encode("utf-8"))
    (tmp_path / "skills").mkdir()
    for n in ("pdf", "notes"):
        (tmp_path / "skills" / f"{n}.md").write_text(f"# {n}\n")
    shutil.copytree(FIX / "good", tmp_path / "ext")
    return p


APPENDED = """\

  csharp-style:
    path: ext/csharp-style/SKILL.md
    priority: P2
    triggers:
    - csharp style
    - format c# code
    description: Format C# and F# code to the team style, see issue

  runbook-writing:
    path: ext/runbook-writing/SKILL.md
    priority: P2
    triggers:
    - runbook writing
    description: Write an operational runbook with prerequisites, steps, checks and rollback
    review: triggers proposed from the name and description; edit them, then delete this key
"""


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_write_appends_and_changes_no_existing_byte(tmp_path, capsys, crlf):
    reg_path = _write_small(tmp_path, crlf=crlf)
    old = reg_path.read_bytes()
    args = ["import", "--registry", str(reg_path), "--write",
            str(tmp_path / "ext/pdf-tools"), str(tmp_path / "ext/csharp-style"), str(tmp_path / "ext/runbook-writing")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"appended 2 skills to {reg_path} and rebuilt {tmp_path / 'generated'}"
    assert f"skipped pdf-tools ({tmp_path / 'ext/pdf-tools/SKILL.md'}): already a skill id in skills.yaml; never replaced" in out
    new = reg_path.read_bytes()
    eol = b"\r\n" if crlf else b"\n"
    inserted = APPENDED.encode("utf-8").replace(b"\n", eol)
    # the entries go right after the last skill's last line; every other byte is unchanged
    offset = old.index(b"composition:")
    assert new == old[:offset] + inserted + old[offset:]
    reg = load_registry(reg_path)
    assert list(reg.skills) == ["csharp-style", "notes", "pdf-tools", "runbook-writing"]
    assert reg.skills["pdf-tools"].priority == "P1"  # the existing entry is not replaced
    assert reg.skills["notes"].triggers == ("note taking", "yes")
    assert reg.skills["csharp-style"].triggers == ("csharp style", "format c# code")
    assert (reg.skills["csharp-style"].source_start, reg.skills["csharp-style"].source_end) == (17, 23)
    # rebuilt: the generated files are fresh for the new registry
    assert (tmp_path / "generated" / INDEX_NAME).read_bytes() == index_bytes(reg)
    # fresh (a registry this small cannot hold the index's vocabulary within the size budget)
    assert [p for p in check(reg, tmp_path / "generated").problems if not p.startswith("size budget")] == []


def test_write_at_end_of_file_keeps_old_bytes_as_prefix(tmp_path, capsys):
    text = SMALL.split("composition:")[0].rstrip("\n")  # skills last, no final newline
    reg_path = _write_small(tmp_path, text)
    old = reg_path.read_bytes()
    assert main(["import", "--registry", str(reg_path), "--write", str(tmp_path / "ext/runbook-writing")]) == 0
    new = reg_path.read_bytes()
    assert new.startswith(old)
    assert new[len(old):] == b"\n\n" + APPENDED.split("\n\n")[1].encode()
    assert load_registry(reg_path).skills["runbook-writing"].source_start == 17


def test_values_that_would_change_type_are_quoted(tmp_path):
    reg_path = _write_small(tmp_path)
    p = tmp_path / "ext" / "v1" / "SKILL.md"
    p.parent.mkdir()
    p.write_text("---\nname: v1\ndescription: 'yes'\nmetadata:\n  triggers: ['1.10', 'on', 'a: b']\n---\n")
    reg = load_registry(reg_path)
    plan = plan_import([p.parent], reg_path, reg)
    assert entries_yaml(plan.proposals, reg) == (
        "  v1:\n    path: ext/v1/SKILL.md\n    priority: P2\n    triggers:\n    - '1.10'\n    - on\n"
        "    - 'a: b'\n    description: yes\n")
    _, _, _, new_reg = apply_import(plan, reg)
    assert new_reg.skills["v1"].triggers == ("1.10", "on", "a: b")
    assert new_reg.skills["v1"].description == "yes"


def test_dry_run_writes_nothing_and_broken_ones_exit_2(workspace, capsys):
    reg_path = workspace / "skills.yaml"
    old = reg_path.read_bytes()
    code = main(["import", "--registry", str(reg_path), str(workspace / "agent-skills/pdf-tools"),
                 str(workspace / "broken/no-closing")])
    assert code == 2
    out, err = capsys.readouterr()
    assert reg_path.read_bytes() == old
    assert not (workspace / "generated").exists()
    assert out.splitlines()[:2] == [
        f"dry run: would append 1 skill to {reg_path} (run with --write to append and rebuild {workspace / 'generated'}):",
        f"  pdf-tools  triggers from metadata.triggers   {workspace / 'agent-skills/pdf-tools/SKILL.md'}",
    ]
    assert out.endswith(
        "# entries to append under `skills:` in skills.yaml\n"
        "  pdf-tools:\n    path: agent-skills/pdf-tools/SKILL.md\n    priority: P2\n    triggers:\n"
        "      - pdf extraction\n      - fill a pdf form\n      - PDFから抽出\n"
        "    description: Extract text, tables and form fields from PDF files, and fill in PDF forms.\n")
    assert err == (f"{workspace / 'broken/no-closing/SKILL.md'}:7:1: the frontmatter opened on line 1 is not "
                   "closed before the Markdown body: this line is not YAML (the `---` on line 9 is then a rule in "
                   "the body); add a line `---` after line 3\n")


def test_write_with_broken_ones_still_imports_the_others(workspace, capsys):
    reg_path = workspace / "skills.yaml"
    old = reg_path.read_bytes()
    code = main(["import", "--registry", str(reg_path), "--write", str(workspace / "agent-skills"),
                 str(workspace / "broken")])
    assert code == 2
    new = reg_path.read_bytes()
    last_skill_end = old.index(b"instead of by feel\n") + len(b"instead of by feel\n")
    assert new[:last_skill_end] == old[:last_skill_end]
    assert new[-(len(old) - last_skill_end):] == old[last_skill_end:]
    reg = load_registry(reg_path)
    assert len(reg.skills) == 53 + 6  # 53 bundled, 6 imported
    assert check(reg, workspace / "generated").ok


def test_json_plan(workspace, capsys):
    assert main(["import", "--json", "--registry", str(workspace / "skills.yaml"),
                 str(workspace / "agent-skills/runbook-writing")]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["proposals"] == [{
        "id": "runbook-writing", "path": "agent-skills/runbook-writing/SKILL.md", "priority": "P2",
        "description": "Write an operational runbook with prerequisites, steps, checks and rollback",
        "triggers": ["runbook writing"], "triggers_from": "proposed",
        "source": str(workspace / "agent-skills/runbook-writing/SKILL.md")}]
    assert obj["written"] is False and obj["errors"] == []


def test_new_registry_is_created_on_write(tmp_path, capsys):
    shutil.copytree(FIX / "good/pdf-tools", tmp_path / "pdf-tools")
    reg_path = tmp_path / "skills.yaml"
    assert main(["import", "--registry", str(reg_path), "--write", "--priority", "P1", str(tmp_path)]) == 0
    assert reg_path.read_text() == (
        "schema_version: 1\n\nskills:\n  pdf-tools:\n    path: pdf-tools/SKILL.md\n    priority: P1\n"
        "    triggers:\n      - pdf extraction\n      - fill a pdf form\n      - PDFから抽出\n"
        "    description: Extract text, tables and form fields from PDF files, and fill in PDF forms.\n")
