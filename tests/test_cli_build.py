"""``routelens build`` / ``check`` / ``stats`` through the CLI: every bad input
of issue 2 exits 2 with ``FILE:LINE:COL: key.path: message``, no traceback,
and the generated files already there stay byte for byte the same."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE
from routelens.cli.commands import build as build_cmd
from routelens.paths import CATALOG_NAME, INDEX_NAME

H = "schema_version: 1\nskills:\n"
S = "  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n"
OLD = {INDEX_NAME: b'{"old": "index"}\n', CATALOG_NAME: b'{"old": "catalog"}\n'}

#: (name, registry bytes, the diagnostics after "FILE:"), one per bad input of issue 2
BAD = [
    ("yaml-syntax-flow", H + S + "  b: [unclosed\n",
     ["7:6: YAML syntax error: the [ opened on line 7, column 6 is not closed where its value ends, or two of its "
      "items lack a comma between them: close it with ] (YAML parser: did not find expected ',' or ']' while "
      "parsing a flow sequence, at line 8, column 1)"]),
    ("yaml-syntax-indent", H + "  a:\n    path: a.md\n   priority: P0\n",
     ["5:4: YAML syntax error: line 5 is indented by 3 spaces, less than line 4 above it (4), and lines up with no "
      "line above: indent it by 4 like line 4, or by 2 like line 3, or by 0 like line 2 (YAML parser: did not find "
      "expected key while parsing a block mapping)"]),
    ("duplicate-top-level-key", H + S + "skills:\n  c:\n    path: c.md\n",
     ["7:1: skills: duplicate key (first defined on line 2)"]),
    ("duplicate-skill-id", H + S + S,
     ["7:3: skills.a: duplicate key (first defined on line 3)"]),
    ("duplicate-key-inside-a-skill", H + S + "    priority: P1\n",
     ["7:5: skills.a.priority: duplicate key (first defined on line 5)"]),
    ("missing-schema-version", "skills:\n" + S,
     ["1:1: schema_version: missing required key (schema_version: 1)"]),
    ("wrong-schema-version", "schema_version: 2\nskills:\n" + S,
     ["1:17: schema_version: must be the integer 1, got '2'"]),
    ("quoted-schema-version", "schema_version: '1'\nskills:\n" + S,
     ["1:17: schema_version: must be the integer 1, got the quoted string '1' (write 1 without quotes)"]),
    ("skills-is-a-list", "schema_version: 1\nskills:\n  - a\n",
     ["3:3: skills: `skills` must be a mapping, not a list"]),
    ("skills-is-a-scalar", "schema_version: 1\nskills: hello\n",
     ["2:9: skills: `skills` must be a mapping, not the scalar 'hello'"]),
    ("missing-path", H + "  a:\n    priority: P0\n    triggers: [x]\n",
     ["3:3: skills.a.path: missing required key `path`"]),
    ("missing-priority", H + "  a:\n    path: a.md\n    triggers: [x]\n",
     ["3:3: skills.a.priority: missing required key `priority`"]),
    ("missing-triggers", H + "  a:\n    path: a.md\n    priority: P0\n",
     ["3:3: skills.a.triggers: missing required key `triggers`"]),
    ("empty-trigger-list", H + "  a:\n    path: a.md\n    priority: P0\n    triggers: []\n",
     ["6:15: skills.a.triggers: triggers is empty: give at least one trigger"]),
    ("null-trigger", H + "  a:\n    path: a.md\n    priority: P0\n    triggers:\n      - x\n      -\n      - ~\n",
     ["8:8: skills.a.triggers[1]: a trigger is null or empty (quote it if you mean the word)",
      "9:9: skills.a.triggers[2]: a trigger is null or empty (quote it if you mean the word)"]),
    ("non-string-trigger", H + "  a:\n    path: a.md\n    priority: P0\n    triggers:\n      - [x, y]\n      - {k: v}\n",
     ["7:9: skills.a.triggers[0]: a trigger must be a string, not a list",
      "8:9: skills.a.triggers[1]: a trigger must be a string, not a mapping"]),
    ("bad-id", H + "  Bad_Id:\n    path: a.md\n    priority: P0\n    triggers: [x]\n",
     ["3:3: skills.Bad_Id: bad id 'Bad_Id': ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)"]),
    ("unknown-priority", H + "  a:\n    path: a.md\n    priority: P9\n    triggers: [x]\n",
     ["5:15: skills.a.priority: unknown priority 'P9' (one of P0, P1, P2)"]),
    ("unknown-status", H + S + "    status: retired\n",
     ["7:13: skills.a.status: unknown status 'retired' (one of active, deprecated, disabled)"]),
    ("composition-names-an-unknown-skill", H + S + "composition:\n  c:\n    - a\n    - nope\n",
     ["10:7: composition.c[1]: unknown skill 'nope'"]),
    ("absolute-path", H + "  a:\n    path: /etc/passwd\n    priority: P0\n    triggers: [x]\n",
     ["4:11: skills.a.path: path '/etc/passwd' must be relative to the registry's folder and stay inside it "
      "(no absolute path, no '..')"]),
    ("dotdot-path", H + "  a:\n    path: skills/../../x.md\n    priority: P0\n    triggers: [x]\n",
     ["4:11: skills.a.path: path 'skills/../../x.md' must be relative to the registry's folder and stay inside it "
      "(no absolute path, no '..')"]),
    ("second-document", H + S + "---\nschema_version: 1\n",
     ["7:1: a second YAML document: the registry must be a single document"]),
    ("object-building-tag", H + "  a:\n    path: a.md\n    priority: P0\n    triggers: !!python/object/apply:os.system [id]\n",
     ["6:15: skills.a.triggers: tag !!python/object/apply:os.system is not allowed: routelens never builds "
      "objects from the registry"]),
    ("local-tag", H + "  a: !thing\n    path: a.md\n    priority: P0\n    triggers: [x]\n",
     ["3:6: skills.a: tag !thing is not allowed: routelens never builds objects from the registry"]),
    ("alias-bomb", "schema_version: 1\nx: &a [1,2,3,4,5,6,7,8,9,10]\ny: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                   "z: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nw: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                   "v: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nskills:\n" + S,
     ["6:5: v[0]: alias *d expands to 11111 nodes, more than the limit 10000 (alias bomb?)"]),
    # 5,001 nodes per alias: the 20th brings the total over 100,000
    ("alias-bomb-in-total", "schema_version: 1\nx: &a [" + ",".join(["1"] * 5000) + "]\n"
                            "y: [" + ",".join(["*a"] * 21) + "]\nskills:\n" + S,
     ["3:62: y[19]: aliases expand to more than 100000 nodes in all (alias bomb?)"]),
    ("undefined-alias", H + "  a:\n    path: a.md\n    priority: P0\n    triggers: *nothing\n",
     ["6:15: skills.a.triggers: alias *nothing has no anchor defined before it"]),
    ("not-utf8", (H + "  a:\n    path: a.md\n    priority: P0\n    triggers: [caf").encode() + b"\xe9]\n",
     ["6:19: not UTF-8: byte 0xe9 cannot be decoded"]),
    ("utf16", "schema_version: 1\n".encode("utf-16"), ["1:1: not UTF-8: byte 0xff cannot be decoded"]),
    ("nul-character", H + "  a:\n    path: a\x00.md\n", ["4:12: a NUL character: this is not a text file"]),
    ("empty-file", "", ["1:1: the registry is empty: expected a mapping with schema_version and skills"]),
    ("only-comments", "# nothing here\n\n", ["1:1: the registry is empty: expected a mapping with schema_version and skills"]),
    ("top-level-list", "- a\n- b\n", ["1:1: the registry's top level must be a mapping, not a list"]),
    ("double-merge", "schema_version: 1\nx: &p {priority: P1}\ny: &t {triggers: [d]}\nskills:\n"
                     "  a:\n    <<: *p\n    <<: *t\n    path: a.md\n",
     ["7:5: skills.a.<<: a second merge key '<<' in the same mapping (the first is on line 6; only one is allowed)"]),
]


def _registry(tmp_path: Path, content: str | bytes) -> tuple[Path, Path]:
    reg = tmp_path / "skills.yaml"
    reg.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    out = tmp_path / "generated"
    out.mkdir()
    for name, data in OLD.items():
        (out / name).write_bytes(data)
    return reg, out


@pytest.mark.parametrize("name, content, diagnostics", BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_naming_file_line_column_and_key_path(tmp_path, cli, name, content, diagnostics):
    reg, out = _registry(tmp_path, content)
    code, stdout, stderr = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert stdout == ""
    n = len(diagnostics)
    # the registry's warnings follow its errors (test_warnings_that_explain_an_error_are_printed_with_it)
    assert [line for line in stderr.splitlines() if ": warning: " not in line] == [
        f"{reg}:{d}" for d in diagnostics] + [f"{reg}: {n} error{'s' if n != 1 else ''}; nothing was written"]
    assert "Traceback" not in stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD  # untouched, nothing added


@pytest.mark.parametrize("name", ["object-building-tag", "alias-bomb"])
def test_bad_input_in_a_subprocess(tmp_path, name):
    content, diagnostics = next((c, d) for n, c, d in BAD if n == name)
    reg, out = _registry(tmp_path, content)
    marker = tmp_path / "pwned"
    proc = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(reg), "--out", str(out)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == f"{reg}:{diagnostics[0]}"
    assert "Traceback" not in proc.stderr
    assert not marker.exists()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD


def test_missing_registry_file(tmp_path, cli):
    code, _, err = cli("build", "--registry", tmp_path / "none.yaml", "--out", tmp_path / "g")
    assert code == 2
    assert err.splitlines() == [f"{tmp_path / 'none.yaml'}:1:1: cannot read the registry: No such file or directory",
                                f"{tmp_path / 'none.yaml'}: 1 error; nothing was written",
                                "routelens: no registry there: check the path given with --registry, run routelens "
                                "in a folder that holds skills.yaml, or create one with `routelens init`"]
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("command", ["check", "stats", "prompt"])
def test_read_only_commands_do_not_claim_nothing_was_written(tmp_path, cli, command):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 2\nskills: {}\n", encoding="utf-8")
    code, _, err = cli(command, "--registry", reg)
    assert code == 2
    assert err.splitlines()[-1] == f"{reg}: 1 error"


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "dir"])
def test_registry_that_is_not_a_regular_file_is_refused_without_blocking(tmp_path, cli, special):
    """Found by a user trial: /dev/zero grew to 12 GB, a FIFO hung forever."""
    import os

    if special == "fifo":
        path = tmp_path / "fifo.yaml"
        os.mkfifo(path)
        why = "it is a FIFO, not a regular file (refused without reading)"
    elif special == "dir":
        path = tmp_path
        why = "it is a folder with no skills.yaml in it"
    else:
        path = special
        why = "it is a character device, not a regular file (refused without reading)"
    code, _, err = cli("build", "--registry", path, "--out", tmp_path / "g")
    assert code == 2
    assert err.splitlines()[0] == f"{path}:1:1: cannot read the registry: {why}"
    assert not (tmp_path / "g").exists()


def missing_bodies(reg, *skills: tuple[str, int]) -> list[str]:
    """The warnings build and check give for skills (id, line of ``path:``)
    whose body ``skills/<id>.md`` is missing (issue 11: said, at the value)."""
    return [f"{reg}:{line}:11: warning: skills.{sid}.path: the body 'skills/{sid}.md' is missing; {sid} still "
            "routes, and its decisions say the body cannot be loaded" for sid, line in skills]


def example_bodies(reg) -> list[str]:
    """:func:`missing_bodies` of the example registry (it ships no bodies)."""
    return missing_bodies(reg, ("repository-change", 5), ("grounded-research", 13), ("document-production", 22))


def test_build_success_prints_the_size_summary(example_dir, cli):
    reg, out = example_dir / "skills.yaml", example_dir / "generated"
    code, stdout, stderr = cli("build", "--registry", reg, "--out", out)
    assert (code, stderr.splitlines()) == (0, example_bodies(reg))
    assert stdout.splitlines() == [
        f"built {out / INDEX_NAME} and {out / CATALOG_NAME} from {reg} (3 skills, 2 compositions, 0 rules; "
        f"{INDEX_NAME}, {CATALOG_NAME})",
        "              chars     bytes   lines  vs the registry",
        "registry        564       618      35",
        "catalog       3,495     3,549     168  519.7% larger",
        "index           608       678       1  7.8% larger",
        "budget: index 608 chars = 107.8% of the registry; max_index_ratio 0.7 allows at most 394 chars: "
        "not checked below 6,000 chars of registry",
    ]
    code, stdout, _ = cli("build", "--registry", reg, "--out", out)
    assert code == 0 and stdout.splitlines()[0].endswith("0 rules; unchanged)")
    assert cli("build", "--registry", reg, "--out", out, "--quiet")[:2] == (0, "")
    for sid in ("repository-change", "grounded-research", "document-production"):
        (example_dir / "skills").mkdir(exist_ok=True)
        (example_dir / "skills" / f"{sid}.md").write_text(f"# {sid}\n", encoding="utf-8")
    assert cli("build", "--registry", reg, "--out", out, "--quiet") == (0, "", "")  # bodies there: no word


def test_build_error_when_out_cannot_be_written(example_dir, cli):
    out = example_dir / "generated"
    out.write_bytes(b"a file")
    code, stdout, stderr = cli("build", "--registry", example_dir / "skills.yaml", "--out", out)
    assert (code, stdout) == (2, "")
    # user trial: this said "File exists"
    assert stderr.splitlines() == example_bodies(example_dir / "skills.yaml") + [
        f"routelens build: cannot write to {out}: it is a file, not a folder; nothing was written"]
    assert out.read_bytes() == b"a file"


@pytest.mark.parametrize("how", ["named", "hard link"])
def test_build_never_writes_the_registry_under_a_generated_files_name(tmp_path, cli, how):
    """A trial: `build --registry catalog.json --out .` exited 0 and replaced
    the registry with the catalog it built from it; the registry was lost."""
    raw = EXAMPLE.read_bytes()
    if how == "named":
        reg = tmp_path / CATALOG_NAME
        reg.write_bytes(raw)
        clash = tmp_path / CATALOG_NAME
    else:
        reg = tmp_path / "skills.yaml"
        reg.write_bytes(raw)
        clash = tmp_path / INDEX_NAME
        os.link(reg, clash)
    code, stdout, stderr = cli("build", "--registry", reg, "--out", tmp_path)
    assert (code, stdout) == (2, "")
    assert stderr.splitlines()[-1] == (
        f"routelens build: cannot write {clash}: it is the registry itself ({reg}), which routelens never writes; "
        "give the generated files another folder (--out DIR) or the registry another name; nothing was written")
    assert reg.read_bytes() == raw
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({reg.name, clash.name})


def test_warnings_go_to_stderr_and_build_succeeds(tmp_path, cli):
    reg, out = _registry(tmp_path, H + S + "extras: 1\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 0
    assert err == (f"{reg}:7:1: warning: extras: unknown top-level key (known: schema_version, skills, "
                   "composition, rules, routing); ignored\n"
                   f"{reg}:4:11: warning: skills.a.path: the body 'a.md' is missing; a still routes, and its "
                   "decisions say the body cannot be loaded\n")


def test_build_and_check_name_a_misspelled_key(tmp_path, cli):
    """`satus: disabled` is metadata: the skill kept routing, and only lint
    said so; build and check now give lint's warning (block and flow
    entries, at the key)."""
    reg, out = _registry(tmp_path, H + S + "    when_to_us: later\n"
                         "  b: {path: b.md, priority: P1, triggers: [y], descripton: Bee, owner: me}\n")
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text("# body\n", encoding="utf-8")
    # (`satus: disabled` is an error since a newcomer's trial: it left the skill active)
    warnings = (f"{reg}:7:5: warning: skills.a.when_to_us: `when_to_us` is no key routelens reads (it is kept as "
                "metadata): did you mean `when_to_use`?\n"
                f"{reg}:8:48: warning: skills.b.descripton: `descripton` is no key routelens reads (it is kept as "
                "metadata): did you mean `description`?\n")
    code, _, err = cli("build", "-q", "--registry", reg, "--out", out)
    assert (code, err) == (0, warnings)
    code, _, err = cli("check", "--registry", reg, "--out", out)
    assert (code, err) == (0, warnings)


def test_a_misspelled_key_is_named_after_another_entrys_error(tmp_path, cli):
    """A newcomer's `satus: disabled` was named only once the registry's
    other error (an unknown priority) was fixed: the warning now comes
    after the errors (docs/formats.md §1.3)."""
    reg, out = _registry(tmp_path, H + S + "    descripton: hello\n"
                         "  b: {path: b.md, priority: P9, triggers: [y]}\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert err == (f"{reg}:8:29: skills.b.priority: unknown priority 'P9' (one of P0, P1, P2)\n"
                   f"{reg}:7:5: warning: skills.a.descripton: `descripton` is no key routelens reads (it is kept as "
                   "metadata): did you mean `description`?\n"
                   f"{reg}: 1 error; nothing was written\n")


def test_a_misspelt_status_or_not_when_is_an_error(tmp_path, cli):
    """A newcomer's `stauts: disabled` left the skill active and routing, and `not_wen:` dropped its negative
    triggers, each with a warning and exit 0; a rule's misspelt `forced` was already an error (§1.3)."""
    reg, out = _registry(tmp_path, H + S + "    stauts: disabled\n"
                         "  b: {path: b.md, priority: P1, triggers: [y], not_wen: [pay rise]}\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert err == (f"{reg}:7:5: skills.a.stauts: `stauts` is no key routelens reads: did you mean `status`? (as "
                   "written it is metadata, and the skill stays active)\n"
                   f"{reg}:8:48: skills.b.not_wen: `not_wen` is no key routelens reads: did you mean `not_when`? (as "
                   "written it is metadata, and its not_when phrases are dropped)\n"
                   f"{reg}: 2 errors; nothing was written\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD  # the previous files are kept


def test_warnings_that_explain_an_error_are_printed_with_it(tmp_path, cli):
    """`skils:` gave only "missing required key `skills`" at line 1: the
    warning naming `skils` was dropped because the registry had errors."""
    reg, out = _registry(tmp_path, "schema_version: 1\nskils:\n  a:\n    path: a.md\n    priority: P0\n"
                         "    triggers: [x]\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert err == (f"{reg}:2:1: skills: missing required key `skills` (a mapping of skill id -> skill; `skils` "
                   "here looks like a misspelling of it)\n"
                   f"{reg}:2:1: warning: skils: unknown top-level key (known: schema_version, skills, composition, "
                   "rules, routing); ignored; did you mean `skills`?\n"
                   f"{reg}: 1 error; nothing was written\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD


def test_a_missing_required_key_is_found_at_its_misspelling(tmp_path, cli):
    """`priorty: P0` gave "missing required key `priority`" at the skill's
    id, two lines above the key to fix."""
    reg, out = _registry(tmp_path, H + "  a:\n    path: a.md\n    priorty: P0\n    triggers: [x]\n"
                         "  b:\n    path: b.md\n    triggers: [y]\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert err == (f"{reg}:5:5: skills.a.priority: missing required key `priority` (`priorty` here looks like a "
                   "misspelling of it)\n"
                   f"{reg}:7:3: skills.b.priority: missing required key `priority`\n"
                   f"{reg}: 2 errors; nothing was written\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD


# --------------------------------------------------------------------------- check


ROOMY = (EXAMPLE.read_text(encoding="utf-8") + "\nrouting:\n  max_index_ratio: 1.0  # room for the index's vocabulary: "
         + "room " * 60 + "\n")


def test_check_exit_codes(tmp_path, cli):
    reg = tmp_path / "skills.yaml"
    reg.write_text(ROOMY, encoding="utf-8")
    out = tmp_path / "generated"
    code, stdout, stderr = cli("check", "--registry", reg, "--out", out)
    assert code == 1
    assert stderr.splitlines() == example_bodies(reg) + [
        f"routelens check: {out / INDEX_NAME} is missing: run `routelens build`",
        f"routelens check: {out / CATALOG_NAME} is missing: run `routelens build`"]
    assert not out.exists()
    assert cli("build", "--registry", reg, "--out", out)[0] == 0
    code, stdout, stderr = cli("check", "--registry", reg, "--out", out)
    assert (code, stderr.splitlines()) == (0, example_bodies(reg))
    assert stdout == f"ok: {out} is fresh for {reg} (09fe3ba3c37c) and the size budget is not checked below 6,000 chars of registry\n"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    reg.write_text(ROOMY.replace("  article-writing:", "  article-drafting:"), encoding="utf-8")
    code, stdout, stderr = cli("check", "--registry", reg, "--out", out)
    assert (code, stdout) == (1, "")
    # the renamed composition's members changed too: their catalog entries list their compositions
    assert stderr.splitlines() == example_bodies(reg) + [
        f"routelens check: {out / INDEX_NAME} is stale: the registry changed since it was built.",
        f"routelens check: {out / CATALOG_NAME} is stale: the registry changed since it was built.",
        "routelens check: Since the build: added: article-drafting; removed: article-writing; "
        "changed: document-production, grounded-research. Run `routelens build`.",
    ]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # never writes


def test_check_names_only_real_changes_not_ids_that_moved(tmp_path, cli):
    """User trial: adding one trigger reported every later entry as changed;
    changing a priority (not in the index) named no id at all."""
    reg = tmp_path / "skills.yaml"
    reg.write_text(ROOMY, encoding="utf-8")
    out = tmp_path / "generated"
    cli("build", "--registry", reg, "--out", out)
    edited = ROOMY.replace("      - 実装修正\n", "      - 実装修正\n      - repo fix\n", 1)
    edited = edited.replace("priority: P1", "priority: P2", 1)
    reg.write_text(edited, encoding="utf-8")
    code, _, stderr = cli("check", "--registry", reg, "--out", out)
    assert code == 1
    assert stderr.splitlines()[-1] == (
        "routelens check: Since the build: changed: document-production, repository-change; "
        "3 more only moved to other lines. Run `routelens build`.")


def test_check_hand_edited_index_and_budget(tmp_path, cli):
    reg = tmp_path / "skills.yaml"
    reg.write_text(ROOMY, encoding="utf-8")
    out = tmp_path / "generated"
    cli("build", "--registry", reg, "--out", out)
    idx = out / INDEX_NAME
    idx.write_bytes(idx.read_bytes().replace(b'"repository change"', b'"repo change"'))
    code, _, stderr = cli("check", "--registry", reg, "--out", out)
    assert code == 1
    assert stderr.splitlines() == example_bodies(reg) + [
        f"routelens check: {idx} is stale: it differs from a fresh build although its hash "
        "matches (hand-edited, or a body changed?).",
        "routelens check: Since the build: changed: repository-change. Run `routelens build`."]
    shutil_example = tmp_path / "tight"
    shutil_example.mkdir()
    (shutil_example / "skills.yaml").write_bytes(EXAMPLE.read_bytes())
    cli("build", "--registry", shutil_example / "skills.yaml")
    code, stdout, stderr = cli("check", "--registry", shutil_example / "skills.yaml")
    assert code == 0  # 564 chars: under 6,000 the budget is not checked (docs/formats.md §5.2)
    assert stdout.endswith(") and the size budget is not checked below 6,000 chars of registry\n")
    tight = tmp_path / "tight2"
    tight.mkdir()
    text = (Path(__file__).resolve().parents[1] / "skills.yaml").read_text(encoding="utf-8")
    (tight / "skills.yaml").write_text(text.replace("max_index_ratio: 0.70", "max_index_ratio: 0.2"), encoding="utf-8")
    code, stdout, _ = cli("build", "--registry", tight / "skills.yaml", "--quiet")
    code, _, stderr = cli("check", "--registry", tight / "skills.yaml")
    assert code == 1
    assert stderr.splitlines()[-1] == (
        "routelens check: size budget exceeded: the index has 7,386 chars; max_index_ratio 0.2 of the "
        "registry's 17,730 chars allows at most 3,545: over by 3,841 chars; every skill's domain terms were left "
        "out to fit (docs/formats.md §3.7: routing rests on the triggers alone); 2,074 of the index's chars are its "
        "header and word lists, which do not shrink with the registry (a registry of a few skills fills its budget "
        "with them); to allow more, raise `routing: max_index_ratio` (now 0.2, at most 1) in the registry")
    code, stdout, _ = cli("build", "--registry", tight / "skills.yaml")
    assert stdout.splitlines()[-1] == (
        "  every skill's domain terms were left out to fit (docs/formats.md §3.7: routing rests on the triggers "
        "alone); 2,074 of the index's chars are its header and word lists, which do not shrink with the registry (a "
        "registry of a few skills fills its budget with them); to allow more, raise `routing: max_index_ratio` "
        "(now 0.2, at most 1) in the registry")


def test_check_bad_registry_exits_2(tmp_path, cli):
    reg, out = _registry(tmp_path, "")
    code, _, err = cli("check", "--registry", reg, "--out", out)
    assert code == 2 and err.startswith(f"{reg}:1:1: the registry is empty")


# --------------------------------------------------------------------------- stats


def test_stats_json_on_the_example(example_dir, cli):
    code, stdout, stderr = cli("stats", "--registry", example_dir / "skills.yaml", "--json", "--top", "2")
    assert (code, stderr) == (0, "")
    st = json.loads(stdout)
    assert list(st) == ["registry", "catalog", "index", "budget", "top_contributors"]
    assert st["registry"] == {"chars": 564, "bytes": 618, "lines": 35}
    # authority is "skills.yaml" here (8 characters fewer than "example-skills.yaml")
    assert st["index"] == {"chars": 608, "bytes": 678, "lines": 1, "reduction": -0.078}
    assert st["catalog"] == {"chars": 3495, "bytes": 3549, "lines": 168, "reduction": -5.1968}
    assert st["budget"] == {"max_index_ratio": 0.7, "index_chars": 608, "limit_chars": 394.8, "ratio": 1.078,
                            "ok": True}  # under 6,000 registry chars: not checked
    assert st["top_contributors"] == [
        {"id": "repository-change", "kind": "skill", "chars": 81, "share": 0.1332},
        {"id": "grounded-research", "kind": "skill", "chars": 58, "share": 0.0954},
    ]


def test_stats_text(example_dir, cli):
    code, stdout, _ = cli("stats", "--registry", example_dir / "skills.yaml", "--top", "1")
    assert code == 0
    assert stdout.splitlines() == [
        f"{example_dir / 'skills.yaml'}: 3 skills, 2 compositions, 0 rules",
        "              chars     bytes   lines  vs the registry",
        "registry        564       618      35",
        "catalog       3,495     3,549     168  519.7% larger",
        "index           608       678       1  7.8% larger",
        "budget: index 608 chars = 107.8% of the registry; max_index_ratio 0.7 allows at most 394 chars: "
        "not checked below 6,000 chars of registry",
        "biggest contributors to the index:",
        "      81 chars   13.3%  skill       repository-change",
    ]


# --------------------------------------------------------------------------- progress for big registries


def test_progress_lines_when_not_a_terminal(example_dir, cli, monkeypatch):
    monkeypatch.setattr(build_cmd, "BIG_REGISTRY_BYTES", 100)
    reg = example_dir / "skills.yaml"
    code, _, err = cli("build", "--registry", reg, "--out", example_dir / "g", "-q")
    assert code == 0
    lines = err.splitlines()
    assert lines[0] == f"reading {reg} (0.0 MB)..."
    assert lines[1:4] == example_bodies(reg)
    assert lines[4].startswith("validated 3 skills in ") and lines[4].endswith(f"s; writing {example_dir / 'g'}...")
    assert lines[5].startswith("done in ") and len(lines) == 6


def test_progress_percentage_on_a_terminal(example_dir, capsys, monkeypatch):
    from routelens.cli import main

    monkeypatch.setattr(build_cmd, "BIG_REGISTRY_BYTES", 100)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    reg = example_dir / "skills.yaml"
    assert main(["build", "--registry", str(reg), "--out", str(example_dir / "g"), "-q"]) == 0
    err = capsys.readouterr().err
    first = err.split("\n")[0]
    assert first.startswith(f"reading {reg} (0.0 MB)...\rreading {reg} (0.0 MB): ")
    assert first.endswith(f"\rreading {reg} (0.0 MB): 100%")
    assert err.split("\n")[1:4] == example_bodies(reg)
    assert err.split("\n")[4].startswith("validated 3 skills in ")


def test_no_progress_for_small_registries(example_dir, cli):
    code, _, err = cli("build", "--registry", example_dir / "skills.yaml", "-q")
    assert (code, err.splitlines()) == (0, example_bodies(example_dir / "skills.yaml"))
    assert sorted(os.listdir(example_dir / "generated")) == [CATALOG_NAME, INDEX_NAME]


@pytest.mark.parametrize("value", ["0", "-3", "x"])
def test_stats_top_must_be_positive(value, cli, capsys):
    with pytest.raises(SystemExit) as info:
        cli("stats", "--top", value)
    assert info.value.code == 2


def test_a_mistyped_registry_never_opens_the_ui(tmp_path, cli, monkeypatch):
    # was: `routelens --registry /nope` opened the TUI on "nothing loaded" (exit 0 when closed)
    missing = tmp_path / "nope.yaml"
    code, _, err = cli("tui", "--registry", missing)
    assert (code, err) == (2, f"routelens: {missing}: no such file (the registry given by --registry); "
                              "`routelens init` writes a starter registry\n")
    monkeypatch.setenv("ROUTELENS_REGISTRY", str(missing))
    code, _, err = cli("tui")
    assert (code, err) == (2, f"routelens: {missing}: no such file (the registry given by $ROUTELENS_REGISTRY); "
                              "`routelens init` writes a starter registry\n")


def test_the_stats_screen_says_a_small_registrys_budget_is_not_checked():
    # check and build say "not checked below 6,000 chars"; F3 must not say OVER for the same registry
    from routelens.tui.screens.stats import _row
    assert _row("index", 596, 394, False, "note", 20, checked=False).plain.startswith(" N/A   index")
    assert _row("index", 596, 394, False, "note", 20).plain.startswith(" OVER  index")
    assert _row("index", 300, 394, False, "note", 20).plain.startswith(" PASS  index")


def test_size_summary_columns_grow_with_their_figures():
    """At 100,000 skills the catalog's chars ran into its bytes
    ("11,394,40511,482,645"; a newcomer's trial): each column is as wide as
    its widest figure, and never narrower than before."""
    from routelens.cli.commands.build import size_summary

    f = {"chars": 58_309_311, "bytes": 58_709_315, "lines": 2_228_136, "reduction": -1.483}
    st = {"registry": {"chars": 23_481_668, "bytes": 23_881_672, "lines": 906_019}, "catalog": f,
          "index": {"chars": 11_142_993, "bytes": 11_542_997, "lines": 1, "reduction": 0.525},
          "budget": {"index_chars": 11_142_993, "ratio": 0.475, "max_index_ratio": 0.7}}
    assert size_summary(st)[:4] == [
        "               chars      bytes     lines  vs the registry",
        "registry  23,481,668 23,881,672   906,019",
        "catalog   58,309,311 58,709,315 2,228,136  148.3% larger",
        "index     11,142,993 11,542,997         1  52.5% smaller",
    ]


def test_the_reduction_in_words_is_rounded_once():
    """A trial: the bundled registry's index (10,173 of 17,111 chars, 40.547%
    smaller) was "40.6% smaller" in build and stats and "40.5% smaller" in
    the TUI: the JSON's reduction (0.4055, 4 places) was rounded again."""
    from routelens.cli.commands.build import size_summary

    st = {"registry": {"chars": 17_111, "bytes": 17_425, "lines": 644},
          "catalog": {"chars": 38_186, "bytes": 38_500, "lines": 1_552, "reduction": -1.2317},
          "index": {"chars": 10_173, "bytes": 10_599, "lines": 1, "reduction": 0.4055},
          "budget": {"index_chars": 10_173, "ratio": 0.5945, "max_index_ratio": 0.7}}
    assert size_summary(st)[3] == "index        10,173    10,599       1  40.5% smaller"


def test_the_layer1_line_says_1_skill():
    from routelens.tools.prompt import format_stats

    st = {"skills": 1, "chars": 80, "bytes": 80, "tokens": None, "tokens_unavailable": "tiktoken not installed"}
    assert format_stats(st) == "layer-1 block: 1 skill, 80 chars, 80 bytes, tokens: unavailable (tiktoken not installed)"


def test_a_folder_holding_skills_yaml_names_its_registry(tmp_path, cli):
    """`routelens check --registry my-skills` (the folder `routelens init
    my-skills` just wrote) said "it is a directory, not a file"."""
    assert cli("init", tmp_path / "my-skills")[0] == 0
    code, out, err = cli("check", "--registry", tmp_path / "my-skills")
    assert (code, err) == (0, "")
    reg = tmp_path / "my-skills" / "skills.yaml"
    sha = hashlib.sha256(reg.read_bytes()).hexdigest()[:12]
    assert out == f"ok: {reg.parent / 'generated'} is fresh for {reg} ({sha}) and the size budget is not checked below 6,000 chars of registry\n"
    code, _, err = cli("check", "--registry", tmp_path)  # a folder without one is still refused
    assert code == 2
    assert err.splitlines() == [
        f"{tmp_path}:1:1: cannot read the registry: it is a folder with no skills.yaml in it", f"{tmp_path}: 1 error",
        # a fifth newcomer's trial: a missing path said what to do, a folder without a registry did not
        "routelens: no registry in that folder: check the path given with --registry, run routelens in a folder "
        "that holds skills.yaml, or create one with `routelens init`"]


def test_a_bad_not_when_or_high_risk_list_is_named_as_itself(tmp_path, cli):
    """`not_when: review` said "skills.c.not_when: triggers must be a
    non-empty list of strings": the key path was right, the words named
    another key."""
    reg, out = _registry(tmp_path, H + S + "    not_when: review\n  b:\n    path: b.md\n    priority: P1\n"
                         "    triggers: [y]\n    not_when: []\nrouting:\n  high_risk: oops\n")
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 2
    assert err == (f"{reg}:7:15: skills.a.not_when: not_when must be a non-empty list of strings, not the string "
                   "'review': write `not_when: [review]`\n"
                   f"{reg}:12:15: skills.b.not_when: not_when is empty: give at least one phrase\n"
                   f"{reg}:14:14: routing.high_risk: high_risk must be a list of strings (it may be empty: "
                   "`high_risk: []`), not the string 'oops': write `high_risk: [oops]`\n"
                   f"{reg}: 3 errors; nothing was written\n")


def test_a_build_process_leaves_without_teardown_and_loses_no_output(tmp_path):
    """``python -m routelens build`` leaves with ``os._exit`` after flushing
    (cli.entry.run, QUICK_EXIT): every line of its summary reaches a pipe,
    and its exit code is main()'s; a command outside QUICK_EXIT exits as
    before, and bad input still exits 2 with its diagnostics."""
    out = tmp_path / "g"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(EXAMPLE), "--out", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    from routelens.cli import main

    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"built {out / INDEX_NAME} and {out / CATALOG_NAME} from {EXAMPLE} (3 skills, 2 compositions")
    assert lines[-1].startswith("budget: index ") and len(lines) == 6, lines
    assert (out / INDEX_NAME).is_file() and (out / CATALOG_NAME).is_file()
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nskills:\n  a:\n    path: [\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "routelens", "check", "--registry", str(bad)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert proc.returncode == 2 and proc.stderr.rstrip().endswith(f"{bad}: 1 error") and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "routelens", "--version"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)
    assert proc.returncode == 0 and proc.stdout.startswith("routelens ")
    # in-process, main() still returns its code (only run() leaves the process)
    assert main(["build", "--registry", str(EXAMPLE), "--out", str(out), "-q"]) == 0


def test_a_folder_where_a_generated_file_goes_is_named_and_kept(tmp_path, cli):
    """A newcomer's trial: a folder at generated/routing.min.json gave 'cannot write to generated: Is a
    directory', naming the folder above it. The error names the file and says the folder is never removed."""
    import shutil

    shutil.copyfile(EXAMPLE, tmp_path / "skills.yaml")
    (tmp_path / "g" / "routing.min.json").mkdir(parents=True)
    (tmp_path / "g" / "routing.min.json" / "keep.txt").write_text("mine\n", encoding="utf-8")
    code, _, err = cli("build", "--registry", tmp_path / "skills.yaml", "--out", tmp_path / "g")
    assert code == 2
    assert err.splitlines()[-1] == (
        f"routelens build: cannot write {tmp_path / 'g' / 'routing.min.json'}: it is a folder, which routelens never "
        "removes: move it away, then build again; nothing was written")
    assert (tmp_path / "g" / "routing.min.json" / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert not (tmp_path / "g" / "catalog.json").exists()


def _skills_without_bodies(n: int, folder: str = "skills") -> str:
    return H + "".join(f"  s{i:03d}:\n    path: {folder}/s{i:03d}.md\n    priority: P1\n    triggers: [t{i}]\n"
                       for i in range(n))


def test_a_few_missing_bodies_are_named_one_by_one(tmp_path, cli):
    reg, out = _registry(tmp_path, _skills_without_bodies(20))
    for command in (("build", "--out", out), ("check", "--out", out)):
        code, _, err = cli(*command, "--registry", reg)
        assert code == 0
        assert err.splitlines() == missing_bodies(reg, *((f"s{i:03d}", 4 + 4 * i) for i in range(20)))


def test_many_missing_bodies_are_summed_up_naming_the_folder(tmp_path, cli):
    # 24 skills and no skills/ folder: one line naming the folder and the count, and lint for the list
    reg, out = _registry(tmp_path, _skills_without_bodies(24))
    summary = (f"{reg}: warning: 24 of the 24 skills have a body that cannot be loaded: the folder 'skills/' does "
               "not exist (24 skills). They still route, and their decisions say the body cannot be loaded; "
               "`routelens lint` lists every one")
    for command in (("build", "--out", out), ("check", "--out", out)):
        code, _, err = cli(*command, "--registry", reg)
        assert code == 0 and err.splitlines() == [summary]
    # the folder there, some bodies in it, one a folder: counted by kind
    (tmp_path / "skills").mkdir()
    for i in range(3):
        (tmp_path / "skills" / f"s{i:03d}.md").write_text("# body\n", encoding="utf-8")
    (tmp_path / "skills" / "s003.md").mkdir()
    code, _, err = cli("build", "--registry", reg, "--out", out)
    assert code == 0
    assert err.splitlines() == [
        f"{reg}: warning: 21 of the 24 skills have a body that cannot be loaded: 20 missing, 1 that are folders in "
        "'skills/'. They still route, and their decisions say the body cannot be loaded; `routelens lint` lists "
        "every one"]


@pytest.mark.parametrize("edit", ["append", "same bytes", "removed"])
def test_a_registry_changed_while_building_is_never_written_from(tmp_path, cli, monkeypatch, edit):
    # the registry changes between the read and the write (an editor saving, a git checkout): the generated
    # files would describe bytes that are no longer on disk, so nothing is renamed (docs/formats.md §3.3)
    import routelens.cli.commands.build as write_module

    reg, out = _registry(tmp_path, H + S)
    raw = reg.read_bytes()
    real_build = write_module.build

    def build_then_edit(registry, *args, **kwargs):
        built = real_build(registry, *args, **kwargs)
        if edit == "append":
            reg.write_bytes(raw + b"# saved meanwhile\n")
        elif edit == "same bytes":
            reg.write_bytes(raw)  # rewritten, the same text: nothing changed that the files describe
        else:
            reg.unlink()
        return built

    monkeypatch.setattr(write_module, "build", build_then_edit)
    code, stdout, stderr = cli("build", "--registry", reg, "--out", out, "--jobs", "1")
    if edit == "same bytes":
        assert code == 0 and stdout.startswith("built ")
        assert (out / INDEX_NAME).read_bytes() != OLD[INDEX_NAME]
        return
    assert (code, stdout) == (2, "")
    why = ("changed while routelens built from it (its bytes are no longer those read)" if edit == "append"
           else "cannot be read any more (missing): it changed while routelens built from it")
    assert stderr.splitlines()[-1] == (f"routelens build: {reg} {why}; nothing was written (the previous "
                                       "generated files are unchanged): build again")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == OLD  # no temporary file left either
