"""Issue 11: files that arrive in a pull request, third-party text, and a
new user in the wrong folder. Each item's failing input is a test here:
``generated/`` files that are FIFOs or links to ``/dev/zero``, FIFO and
device bodies behind MCP, ``eval`` on a FIFO, escape sequences in
descriptions and bodies, a tampered index that keeps its hash, a folder
without a registry, missing bodies, and ``import --write`` edge cases.

A command that could hang or eat memory runs in a subprocess with a
timeout and an address-space cap, so a regression fails the test instead
of the suite."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.errors import NoRegistryError, RegistryError, ToolCallError
from routelens.mcp_server import load_skill_text, route_task_payload
from routelens.paths import CATALOG_NAME, INDEX_NAME, default_registry, find_registry
from routelens.registry import load_registry, parse_registry
from routelens.routing.router import Router

ROOT = Path(__file__).resolve().parents[1]
FIX = Path(__file__).parent / "fixtures" / "agentskills"


def run(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 60):
    """``routelens ARGS`` in a subprocess: at most 2 GiB of address space and
    ``timeout`` seconds (a hang or a runaway read fails, never stalls)."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run([sys.executable, "-m", "routelens", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})}, preexec_fn=cap)


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the bundled registry, its bodies and a fresh generated/."""
    shutil.copy(ROOT / "skills.yaml", tmp_path / "skills.yaml")
    shutil.copytree(ROOT / "skills", tmp_path / "skills")
    write_generated(load_registry(tmp_path / "skills.yaml"), tmp_path / "generated")
    return tmp_path


def make_zero_device(path: Path) -> bool:
    """A character device like /dev/zero at ``path``; False where a test may not make one."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except (PermissionError, OSError, AttributeError):
        return False
    return True


def hostile(path: Path, kind: str) -> None:
    """Replace ``path`` by a FIFO or a symlink to /dev/zero."""
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)


# --------------------------------------------------------------------------- 1. generated/ files


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_check_build_and_route_on_a_hostile_index(project, kind):
    index = project / "generated" / INDEX_NAME
    hostile(index, kind)
    what = "a FIFO" if kind == "fifo" else "a character device"
    p = run("check", cwd=project)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.splitlines() == [
        f"routelens check: generated/{INDEX_NAME} cannot be used: it is {what}, not a regular file (refused "
        "without reading); run `routelens build` to replace it"]
    p = run("route", "review this PR", "--json", cwd=project)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert (d["mode"], d["reason"], d["freshness"], d["skills"]) == ("full", "index_invalid", "invalid", [])
    assert f"it is {what}, not a regular file" in d["message"]
    p = run("build", "-q", cwd=project)
    assert (p.returncode, p.stderr) == (0, "")
    assert stat.S_ISREG(os.lstat(index).st_mode)  # replaced by a regular file, never read
    assert run("check", cwd=project).returncode == 0


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_check_and_build_on_a_hostile_catalog(project, kind):
    catalog = project / "generated" / CATALOG_NAME
    hostile(catalog, kind)
    p = run("check", cwd=project)
    assert p.returncode == 1 and f"generated/{CATALOG_NAME} cannot be used: it is a" in p.stderr
    assert run("build", "-q", cwd=project).returncode == 0
    assert stat.S_ISREG(os.lstat(catalog).st_mode) and run("check", cwd=project).returncode == 0


def test_mcp_route_task_on_a_fifo_index_answers_at_once(project):
    hostile(project / "generated" / INDEX_NAME, "fifo")
    p = route_task_payload(project / "skills.yaml", "review this PR")
    assert (p["mode"], p["reason"], p["freshness"]) == ("full", "index_invalid", "invalid")


# --------------------------------------------------------------------------- 2. MCP load_skill on FIFO and device bodies


def test_load_skill_refuses_fifo_and_device_bodies_every_time(project):
    hostile(project / "skills" / "code-review.md", "fifo")
    for _ in range(60):  # each call used to leave a worker thread blocked: ~45 filled the pool
        with pytest.raises(ToolCallError) as exc:
            load_skill_text(project / "skills.yaml", "code-review")
    assert str(exc.value).startswith("skill 'code-review': the body skills/code-review.md is a FIFO, not a regular "
                                     "file; refused without reading. The registry names it at ")
    hostile(project / "skills" / "changelog.md", "dev-zero")  # outside the folder, through a link
    with pytest.raises(ToolCallError, match="leads outside the registry folder"):
        load_skill_text(project / "skills.yaml", "changelog")
    dev = project / "skills" / "debugging.md"
    dev.unlink()
    if make_zero_device(dev):
        with pytest.raises(ToolCallError, match="is a character device, not a regular file"):
            load_skill_text(project / "skills.yaml", "debugging")


def test_mcp_server_keeps_answering_after_many_fifo_bodies(project):
    pytest.importorskip("mcp")
    from test_mcp import _session_run

    hostile(project / "skills" / "code-review.md", "fifo")

    async def script(s):
        errors = 0
        for _ in range(50):
            r = await s.call_tool("load_skill", {"id": "code-review"})
            errors += r.is_error
        r = await s.call_tool("route_task", {"task": "keep a changelog for the release"})
        return errors, json.loads(r.content[0].text)

    (project / "sub").mkdir()  # _session_run writes its log beside the registry's folder
    errors, decision = _session_run(project / "skills.yaml", script)
    assert errors == 50
    assert decision["skills"] == ["changelog"]


# --------------------------------------------------------------------------- 3. eval


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_eval_on_a_hostile_cases_file(project, kind):
    cases = project / "cases.yaml"
    hostile(cases, kind)
    what = "a FIFO" if kind == "fifo" else "a character device"
    p = run("eval", cases, cwd=project)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr == (f"{cases}:1:1: cannot read the cases: it is {what}, not a regular file (refused without "
                        "reading)\n")


# --------------------------------------------------------------------------- 4. escape sequences


EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;aGk=\x07\x9b31m"


@pytest.fixture
def evil(tmp_path) -> Path:
    """A registry whose description and trigger hold escape sequences (written
    as YAML escapes), with a body that holds them raw."""
    reg = tmp_path / "skills.yaml"
    reg.write_text('schema_version: 1\nskills:\n  evil:\n    path: skills/evil.md\n    priority: P1\n'
                   '    triggers: [evil task, "evil \\e]0;t\\a"]\n'
                   '    description: "Looks fine \\e]0;pwned\\a\\e[2J\\e]52;c;aGk=\\a\\x9b31m"\n', encoding="utf-8")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "evil.md").write_text(f"# evil\n{EVIL}\n", encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    return reg


def no_controls(text: str) -> bool:
    return not any(c in text for c in "\x1b\x07\x9b")


def test_human_output_shows_control_characters_escaped(evil, cli):
    assert load_registry(evil).skills["evil"].description == "Looks fine " + EVIL
    code, out, err = cli("prompt", "--registry", evil)
    assert code == 0 and no_controls(out + err)
    assert out.splitlines()[1] == "- evil: Looks fine \\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;aGk=\\x07\\u009b31m"
    code, out, err = cli("explain", "evil task", "--skill", "evil", "--registry", evil)
    assert code == 0 and no_controls(out + err)
    code, out, err = cli("route", "evil 0 t", "--registry", evil)  # matches the trigger holding ESC and BEL
    assert code == 0 and no_controls(out + err)
    assert 'Routed to "evil": trigger "evil \\x1b]0;t\\x07" scored 100' in out
    code, out, err = cli("lint", "--registry", evil)
    assert no_controls(out + err)
    # every one is counted, not the first alone (a newcomer's trial)
    assert f"{evil}:7:5: warning: skills.evil.description: holds 6 control characters: U+001B (ESC) 3 times, " \
           "U+0007 (BEL) twice and U+009B (CSI) once" in out
    assert f"{evil.parent / 'skills' / 'evil.md'}:2:1: warning: the body of evil holds 6 control characters: " \
           "U+001B (ESC) 3 times, U+0007 (BEL) twice and U+009B (CSI) once (the first here)" in out
    # an error message quoting data: the key path of a bad value
    bad = evil.parent / "bad.yaml"
    bad.write_text('schema_version: 1\nskills:\n  "a\\e[2J":\n    path: a.md\n', encoding="utf-8")
    code, out, err = cli("check", "--registry", bad)
    assert code == 2 and no_controls(out + err) and "\\x1b[2J" in err


def test_json_output_stays_exact(evil, cli):
    code, out, _ = cli("prompt", "--registry", evil, "--json")
    assert code == 0 and no_controls(out)
    assert json.loads(out)["block"].splitlines()[1].startswith("- evil: Looks fine \\x1b]0;")
    code, out, _ = cli("route", "evil task \x1b[2J\x9b", "--json", "--registry", evil)
    assert code == 0 and no_controls(out)
    d = json.loads(out)
    assert d["task"] == "evil task \x1b[2J\x9b"  # exactly the task, through JSON escapes


def test_import_removes_control_characters_and_says_so(tmp_path, cli):
    skill = tmp_path / "ext" / "evil-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text('---\nname: evil-skill\ndescription: "Fine \\e]0;pwned\\a text"\n---\n# b\n'
                                    'raw \x1b[2J here\n', encoding="utf-8")
    reg = tmp_path / "skills.yaml"
    code, out, err = cli("import", "--registry", reg, "--write", tmp_path / "ext")
    assert code == 0 and no_controls(out + err)
    assert err.splitlines() == [
        f"{skill / 'SKILL.md'}:3:14: warning: description: the description holds the control character U+001B "
        "(ESC): removed (it would reach terminals and prompts as an escape sequence)",
        f"{skill / 'SKILL.md'}:6:5: warning: the file holds the control character U+001B (ESC): routelens shows it "
        "escaped, but an agent that loads this body gets it raw"]
    assert load_registry(reg).skills["evil-skill"].description == "Fine ]0;pwned text"


# --------------------------------------------------------------------------- 5. a tampered index


def _swap_triggers(index: Path, a: str, b: str, section: str = "skills") -> None:
    obj = json.loads(index.read_bytes())
    rows = {r[0]: r for r in obj[section]}
    rows[a][3], rows[b][3] = rows[b][3], rows[a][3]
    index.write_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def test_a_tampered_index_with_the_right_hash_never_routes(project):
    index = project / "generated" / INDEX_NAME
    _swap_triggers(index, "code-review", "changelog")
    assert json.loads(index.read_bytes())["source_sha256"] == load_registry(project / "skills.yaml").source_sha256
    router = Router.from_paths(project / "skills.yaml")
    assert router.freshness.state == "fresh"  # the hash and every range's first line still match
    for task in ("review this PR", "keep a changelog", "/changelog"):
        d = router.route(task)
        assert (d.mode, d.reason, d.freshness, d.skills) == ("full", "index_invalid", "invalid", ()), task
    d = router.route("review this PR")
    assert d.message.startswith('Fell back to the full registry: the index is invalid: the index gives skill '
                                '"changelog" the triggers ["code review", "review this PR", ')
    assert 'but its canonical range (' in d.message and 'holds ["changelog", "keep a changelog"]' in d.message
    p = route_task_payload(project / "skills.yaml", "review this PR")
    assert (p["mode"], p["reason"], p["freshness"], p["skills"]) == ("full", "index_invalid", "invalid", [])
    assert run("check", cwd=project).returncode == 1


def test_an_index_invalid_message_names_the_trigger_that_differs(project):
    # a newcomer's hand edit: "fix ci" -> "fix  ci" in the index; both lists, cut after 5 triggers, looked the same
    index = project / "generated" / INDEX_NAME
    index.write_text(index.read_text(encoding="utf-8").replace('"fix ci"', '"fix  ci"', 1), encoding="utf-8")
    d = Router.from_paths(project / "skills.yaml").route("fix  ci")
    assert (d.mode, d.reason) == ("full", "index_invalid")
    assert ('; they first differ at trigger 7: "fix  ci" in the index, "fix ci" in the range: the index does not '
            'match the registry (hand-edited?)') in d.message
    # the best candidate was matched on the index's triggers: a fifth newcomer read "via "fix  ci"" as the
    # registry's trigger, which the README says the matching of an invalid index runs over
    assert d.message.endswith('Best candidate (by the index\'s triggers, matched before it was found invalid): '
                              '"ci-fix" scored 100 via "fix  ci"')


def test_a_forced_rule_s_triggers_moved_to_another_rule_never_route(project):
    index = project / "generated" / INDEX_NAME
    _swap_triggers(index, "production-change", "secrets-handling", "rules")
    d = Router.from_paths(project / "skills.yaml").route("review this PR before the 本番 deploy")
    assert (d.mode, d.reason, d.freshness) == ("full", "index_invalid", "invalid")
    d = Router.from_paths(project / "skills.yaml").route("write the changelog")  # no rule matched: still checked
    assert (d.reason, d.freshness) == ("index_invalid", "invalid")


def _edit_index(index: Path, edit) -> None:
    obj = json.loads(index.read_bytes())
    edit(obj)
    index.write_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def test_tampered_routing_settings_never_route(project):
    index = project / "generated" / INDEX_NAME
    task = "review this PR, then rm -rf the build folder"
    assert Router.from_paths(project / "skills.yaml").route(task).reason == "high_risk"
    _edit_index(index, lambda o: o["routing"].update(high_risk=[]))
    # the built-in destructive intents (docs/formats.md §6.11) still hold the task back ...
    assert Router.from_paths(project / "skills.yaml").route(task).reason == "high_risk"
    # ... and the tampered settings are found before anything routes
    d = Router.from_paths(project / "skills.yaml").route("review this PR")
    assert (d.mode, d.reason, d.freshness) == ("full", "index_invalid", "invalid")
    assert "the index's routing settings (threshold 85, margin 5, high_risk [none]) differ from the registry's " \
           "`routing:` section (" in d.message
    _edit_index(index, lambda o: o["routing"].update(high_risk=["rm -rf", "drop table", "force push", "全削除",
                                                                "delete production"], threshold=60))
    assert Router.from_paths(project / "skills.yaml").route("review this PR").reason == "index_invalid"


def test_routing_settings_written_with_an_alias_are_checked_from_the_registry(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nshared: &r {threshold: 80, high_risk: [rm -rf]}\nskills:\n  a:\n"
                   "    path: a.md\n    priority: P1\n    triggers: [sync the ledger]\nrouting: *r\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n")
    write_generated(load_registry(reg), tmp_path / "generated")
    router = Router.from_paths(reg)
    assert router.route("sync the ledger").reason == "clear_candidate"
    assert router.route("sync the ledger, rm -rf").reason == "high_risk"
    _edit_index(tmp_path / "generated" / INDEX_NAME, lambda o: o["routing"].update(threshold=70))
    assert Router.from_paths(reg).route("sync the ledger").reason == "index_invalid"


def test_an_index_with_settings_for_a_registry_without_a_section_never_routes(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers: [sync the ledger]\n",
                   encoding="utf-8")
    (tmp_path / "a.md").write_text("# a\n")
    write_generated(load_registry(reg), tmp_path / "generated")
    assert Router.from_paths(reg).route("sync the ledger").reason == "clear_candidate"
    _edit_index(tmp_path / "generated" / INDEX_NAME,
                lambda o: o.update(source_sha256=o.pop("source_sha256"), routing={"threshold": 10}) or
                o.update(source_sha256=o.pop("source_sha256")))
    d = Router.from_paths(reg).route("sync the ledger")
    assert d.reason == "index_invalid" and "the registry has no `routing:` section" in d.message


# --------------------------------------------------------------------------- 7. no silent demo registry


def test_a_folder_without_a_registry_is_an_error_not_the_demo(tmp_path):
    work = tmp_path / "repo" / "deeper"
    work.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()  # the search stops at the top of the work tree
    checkout = {p.name: os.stat(p).st_mtime_ns for p in (ROOT / "generated").iterdir()}
    for cmd in (["check"], ["build"], ["route", "review this PR"], ["stats"], ["lint"], ["prompt"], ["mcp"]):
        p = run(*cmd, cwd=work, env={"ROUTELENS_REGISTRY": ""})
        assert p.returncode == 2, (cmd, p.stderr)
        assert p.stderr == (f"routelens: no skills.yaml in {work} or its parents (up to {tmp_path / 'repo'}). "
                            "Create one with `routelens init`, name one with --registry PATH or "
                            "$ROUTELENS_REGISTRY, or try the bundled example with --demo\n"), cmd
        assert p.stdout == ""
    assert sorted(os.listdir(tmp_path / "repo")) == [".git", "deeper"] and os.listdir(work) == []
    # the bundled example's generated/ (in this checkout) was not rewritten either
    assert {p.name: os.stat(p).st_mtime_ns for p in (ROOT / "generated").iterdir()} == checkout


def test_the_registry_is_found_in_a_parent_folder(project, monkeypatch):
    sub = project / "docs" / "notes"
    sub.mkdir(parents=True)
    (project / ".git").mkdir()
    monkeypatch.delenv("ROUTELENS_REGISTRY", raising=False)
    assert find_registry(sub) == project / "skills.yaml"
    monkeypatch.chdir(sub)
    assert default_registry() == Path("../../skills.yaml")
    p = run("check", cwd=sub, env={"ROUTELENS_REGISTRY": ""})
    assert p.returncode == 0 and p.stdout.startswith("ok: ../../generated is fresh for ../../skills.yaml (")
    # the search stops at the top of the git work tree
    inner = project / "vendor" / "lib"
    inner.mkdir(parents=True)
    (project / "vendor" / ".git").mkdir()
    assert find_registry(inner) is None
    with pytest.raises(NoRegistryError, match="no skills.yaml in .*lib or its parents"):
        default_registry(inner)
    monkeypatch.setenv("ROUTELENS_REGISTRY", str(project / "skills.yaml"))
    assert default_registry(inner) == project / "skills.yaml"  # the environment comes first


def test_demo_is_explicit_and_labelled(tmp_path):
    p = run("check", "--demo", cwd=tmp_path, env={"ROUTELENS_REGISTRY": ""})
    assert p.returncode == 0
    assert p.stderr.startswith("routelens: using the bundled example registry (--demo): ")
    assert p.stdout.startswith("ok: ") and "for the bundled example registry (--demo) " in p.stdout
    p = run("route", "review this PR", "--demo", "--json", cwd=tmp_path)
    assert json.loads(p.stdout)["skills"] == ["code-review"] and "bundled example registry (--demo)" in p.stderr
    p = run("route", "x", "--demo", "--registry", "skills.yaml", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr == "routelens: --demo and --registry name two registries: give one\n"
    assert os.listdir(tmp_path) == []


def test_the_bundled_example_ships_in_the_package():
    """A wheel carries src/routelens/example/ (links to the top-level files in
    a checkout), so --demo works after a normal install too."""
    import tomllib

    from routelens.paths import bundled_registry

    example = Path(routelens_pkg().__file__).parent / "example"
    assert bundled_registry() == example / "skills.yaml"
    assert (example / "skills.yaml").read_bytes() == (ROOT / "skills.yaml").read_bytes()
    assert sorted(p.name for p in (example / "skills").iterdir()) == sorted(p.name for p in (ROOT / "skills").iterdir())
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = data["tool"]["setuptools"]["package-data"]["routelens"]
    assert {"example/skills.yaml", "example/skills/*.md", "example/generated/*.json"} <= set(globs)


def routelens_pkg():
    import routelens

    return routelens


def test_demo_is_labelled_in_the_tui_header(tmp_path):
    from routelens.paths import bundled_registry
    from routelens.tui.model import Paths
    from routelens.tui.widgets.header_bar import HeaderBar, HeaderState

    paths = Paths.make(bundled_registry(), demo=True)
    assert paths.demo
    for width in (200, 80, 40):
        bar = HeaderBar()
        bar.state = HeaderState(registry="skills.yaml", freshness="fresh", demo=True, skills=53)
        bar._size = type(bar.size)(width, 1)  # noqa: SLF001 - render at a given width without an app
        assert "EXAMPLE" in bar.render().plain


def test_options_without_a_command_open_the_ui(project, capsys, monkeypatch):
    from routelens.cli.commands import tui as tui_cmd

    seen = []
    monkeypatch.setattr(tui_cmd, "run", lambda args: seen.append((args.command, args.registry, args.task)) or 0)
    reg = project / "skills.yaml"
    assert main(["--registry", str(reg)]) == 0
    assert main(["--task", "review this PR", "--registry", str(reg)]) == 0
    assert seen == [("tui", reg, ""), ("tui", reg, "review this PR")]
    with pytest.raises(SystemExit) as exc:
        main(["--out", "", "--registry", str(reg)])
    assert exc.value.code == 2
    assert "argument --out/--generated: an empty path" in capsys.readouterr().err


def test_common_options_before_the_command_word_go_to_the_command(project, capsys):
    """`routelens --demo route X` and `routelens --registry R check` (a
    global option typed first) ran the UI's parser and failed with
    "unrecognized arguments"."""
    from routelens.cli.entry import common_first

    reg = project / "skills.yaml"
    assert common_first(["--demo", "route", "x"]) == ["route", "--demo", "x"]
    assert common_first(["--registry", "r.yaml", "--out", "g", "check"]) == ["check", "--registry", "r.yaml", "--out", "g"]
    assert common_first(["--registry=r.yaml", "stats", "--json"]) == ["stats", "--registry=r.yaml", "--json"]
    assert common_first(["--registry", "route", "check"]) == ["check", "--registry", "route"]  # a file named route
    assert common_first(["--registry", "r.yaml"]) == ["--registry", "r.yaml"]  # the UI
    assert common_first(["--task", "x", "route"]) == ["--task", "x", "route"]  # --task is the UI's own
    capsys.readouterr()
    assert main(["--registry", str(reg), "route", "--json", "review this PR"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["reason"] == "clear_candidate"
    assert main(["--demo", "check"]) == 0
    assert "using the bundled example registry (--demo)" in capsys.readouterr().err


def test_a_mistyped_command_or_a_task_as_the_command_says_what_to_type(capsys, monkeypatch, tmp_path):
    """`routelens rout x` said "unrecognized arguments: rout x" (the words
    went to the UI's parser); a task typed as the command the same."""
    monkeypatch.chdir(tmp_path)
    assert main(["rout", "x"]) == 2
    assert capsys.readouterr().err == ("routelens: unknown command 'rout': did you mean `routelens route`? "
                                       "(`routelens --help` lists the commands)\n")
    assert main(["review my PR"]) == 2
    assert capsys.readouterr().err == ("routelens: 'review my PR' is no command. To route a task: routelens route "
                                       "'review my PR'; to open the UI with it: routelens --task 'review my PR'; "
                                       "`routelens --help` lists the commands\n")
    assert main(["--demo", "--json", "route", "x"]) == 2
    assert capsys.readouterr().err == ("routelens: --demo --json comes before the command: a command's own options "
                                       "go after its name (routelens route --demo --json ...)\n")


def test_the_entry_points_option_lists_are_the_parsers():
    """common_first and the "options before the command" check read two
    lists of option names; they must be the parsers' own."""
    from routelens.cli import entry
    from routelens.cli.commands.common import common_options

    def arity(parser):
        return {o: a.nargs != 0 for a in parser._actions for o in a.option_strings if o not in ("-h", "--help")}

    common = arity(common_options())
    assert set(entry._COMMON) == set(common)
    tui = entry.build_parser(only="tui")._subparsers._group_actions[0].choices["tui"]
    assert set(entry._VALUED) == {o for o, valued in arity(tui).items() if valued}


def test_a_missing_registry_is_not_asked_for_again_where_it_was_named(capsys, monkeypatch, tmp_path):
    """`build --registry nothere.yaml` ended "pass --registry PATH", though
    --registry was given; with $ROUTELENS_REGISTRY it said to set it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ROUTELENS_REGISTRY", raising=False)
    assert main(["build", "--registry", "nothere.yaml"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("routelens: no registry there: check the path given with --registry, run routelens in a "
                       "folder that holds skills.yaml, or create one with `routelens init`")
    monkeypatch.setenv("ROUTELENS_REGISTRY", str(tmp_path / "gone.yaml"))
    assert main(["check"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (f"routelens: no registry there: $ROUTELENS_REGISTRY names {tmp_path / 'gone.yaml'}; "
                       "correct it or unset it, pass --registry PATH, or create one with `routelens init`")


# --------------------------------------------------------------------------- 8. missing bodies


def test_a_missing_body_is_said_by_build_check_route_and_mcp(project, cli):
    (project / "skills" / "changelog.md").unlink()
    reg = project / "skills.yaml"
    line = next(n for n, text in enumerate(reg.read_text(encoding="utf-8").split("\n"), 1)
                if text == "    path: skills/changelog.md")
    warning = (f"{reg}:{line}:11: warning: skills.changelog.path: the body 'skills/changelog.md' is missing; "
               "changelog still routes, and its decisions say the body cannot be loaded")
    code, _, err = cli("build", "--registry", reg, "-q")
    assert (code, err.splitlines()) == (0, [warning])
    code, _, err = cli("check", "--registry", reg)
    assert (code, err.splitlines()) == (0, [warning])
    catalog = json.loads((project / "generated" / CATALOG_NAME).read_bytes())
    assert catalog["skills"]["changelog"]["body"] == {"exists": False, "error": "missing"}
    d = Router.from_paths(reg).route("keep a changelog")
    assert d.skills == ("changelog",)
    assert d.missing_bodies == (("changelog", "skills/changelog.md", "missing"),)
    assert d.message.endswith("; warning: the body 'skills/changelog.md' is missing (skill \"changelog\"): its body "
                              "cannot be loaded")
    assert d.to_dict()["missing_bodies"] == [{"id": "changelog", "path": "skills/changelog.md", "problem": "missing"}]
    p = route_task_payload(reg, "keep a changelog")
    assert p["missing_bodies"] == [{"id": "changelog", "path": "skills/changelog.md", "problem": "missing"}]
    assert p["next"].endswith("the body of changelog cannot be loaded (see missing_bodies): follow that skill's "
                              "registry entry in expansions instead, and tell the user its body file needs fixing")
    with pytest.raises(ToolCallError) as exc:
        load_skill_text(reg, "changelog")
    assert str(exc.value).startswith("skill 'changelog': the body skills/changelog.md is missing. The registry "
                                     f"names it at {reg} lines ")
    assert Router.from_paths(reg).route("review this PR").missing_bodies == ()


# --------------------------------------------------------------------------- 9. import --write


def test_import_write_goes_through_a_symlinked_registry(tmp_path, cli):
    real = tmp_path / "real"
    real.mkdir()
    (real / "skills.yaml").write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n"
                                      "    triggers: [a task]\n", encoding="utf-8")
    (real / "a.md").write_text("# a\n")
    shutil.copytree(FIX / "good" / "pdf-tools", real / "ext" / "pdf-tools")
    link = tmp_path / "skills.yaml"
    os.symlink(real / "skills.yaml", link)
    code, out, err = cli("import", "--registry", link, "--write", real / "ext")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real / "skills.yaml")
    assert "pdf-tools:" in (real / "skills.yaml").read_text(encoding="utf-8")
    assert out.splitlines()[0] == f"appended 1 skill to {real / 'skills.yaml'} (through the symlink {link}) and " \
                                  f"rebuilt {tmp_path / 'generated'}"
    # the bodies of a symlinked registry are beside its target
    reg = load_registry(link)
    assert reg.base_dir == real
    assert json.loads((tmp_path / "generated" / CATALOG_NAME).read_bytes())["skills"]["a"]["body"]["exists"]
    assert load_skill_text(link, "a") == "# a\n"
    assert Router.from_paths(link).route("an a task").missing_bodies == ()


def test_import_dry_run_and_write_agree_on_too_many_triggers(tmp_path, cli):
    (tmp_path / "skills.yaml").write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n"
                                          "    triggers: [a task]\n", encoding="utf-8")
    many = tmp_path / "ext" / "many"
    many.mkdir(parents=True)
    triggers = "\n".join(f"    - trigger {i}" for i in range(300))
    (many / "SKILL.md").write_text(f"---\nname: many\ndescription: Many triggers\nmetadata:\n  triggers:\n"
                                   f"{triggers}\n---\n# many\n", encoding="utf-8")
    shutil.copytree(FIX / "good" / "pdf-tools", tmp_path / "ext" / "pdf-tools")
    reg = tmp_path / "skills.yaml"
    dry = cli("import", "--registry", reg, tmp_path / "ext")
    wet = cli("import", "--registry", reg, "--write", tmp_path / "ext")
    error = f"{many / 'SKILL.md'}:5:3: metadata.triggers: 300 triggers, more than the limit 256 of a registry entry"
    for code, out, err in (dry, wet):
        assert code == 2
        assert err.splitlines() == [error]
    assert dry[1].splitlines()[0].startswith("dry run: would append 1 skill to ")
    assert wet[1].splitlines()[0] == f"appended 1 skill to {reg} and rebuilt {tmp_path / 'generated'}"
    assert list(load_registry(reg).skills) == ["a", "pdf-tools"]


def test_import_reports_fifo_and_folder_skill_files(tmp_path, cli):
    ext = tmp_path / "ext"
    (ext / "fifo-skill").mkdir(parents=True)
    os.mkfifo(ext / "fifo-skill" / "SKILL.md")
    (ext / "dir-skill" / "SKILL.md").mkdir(parents=True)
    shutil.copytree(FIX / "good" / "pdf-tools", ext / "pdf-tools")
    code, out, err = cli("import", "--registry", tmp_path / "skills.yaml", ext)
    assert code == 2
    assert err.splitlines() == [
        f"{ext / 'dir-skill' / 'SKILL.md'}:1:1: SKILL.md is a directory, not a regular file: not imported",
        f"{ext / 'fifo-skill' / 'SKILL.md'}:1:1: SKILL.md is a FIFO, not a regular file: not imported",
    ]
    assert "pdf-tools" in out


def test_import_never_follows_a_skill_file_link_out_of_the_folder(tmp_path, cli):
    secret = tmp_path / "secret.txt"
    secret.write_text("---\nname: SECRET-VALUE\n---\n")
    reg_dir = tmp_path / "project"
    (reg_dir / "ext" / "leak").mkdir(parents=True)
    os.symlink(secret, reg_dir / "ext" / "leak" / "SKILL.md")
    code, out, err = cli("import", "--registry", reg_dir / "skills.yaml", reg_dir / "ext")
    assert code == 2 and "SECRET" not in out + err
    assert err.splitlines() == [
        f"{reg_dir / 'ext' / 'leak' / 'SKILL.md'}:1:1: a symlink that leads outside the registry's folder "
        f"{reg_dir}: not read; a skill's path must be relative to that folder: move or copy the skill folder under it "
        "first"]


def test_import_keeps_a_comment_on_the_last_skill_where_it_was(tmp_path, cli):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P1\n    triggers:\n"
                   "      - a task\n      # TODO: more triggers for a\n\ncomposition:\n  c: [a]\n", encoding="utf-8")
    shutil.copytree(FIX / "good" / "pdf-tools", tmp_path / "ext" / "pdf-tools")
    assert cli("import", "--registry", reg, "--write", tmp_path / "ext")[0] == 0
    text = reg.read_text(encoding="utf-8")
    assert "      - a task\n      # TODO: more triggers for a\n\n  pdf-tools:\n" in text
    assert text.endswith("\ncomposition:\n  c: [a]\n")


# --------------------------------------------------------------------------- 10. smaller items


def test_a_killed_build_s_temporary_files_are_removed_by_the_next(project):
    out = project / "generated"
    stale = [out / ".routing.min.json.abc123.tmp", out / ".catalog.json.zz_9.tmp"]
    for f in stale:
        f.write_bytes(b"half written")
    (out / "notes.tmp").write_text("mine")
    write_generated(load_registry(project / "skills.yaml"), out)
    assert sorted(os.listdir(out)) == [CATALOG_NAME, "notes.tmp", INDEX_NAME]


def test_a_backslash_path_means_the_same_to_the_catalog_and_load_skill(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  ok:\n    path: 'skills\\ok.md'\n    priority: P1\n"
                   "    triggers: [ok task]\n", encoding="utf-8")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "ok.md").write_text("# ok\n")
    write_generated(load_registry(reg), tmp_path / "generated")
    catalog = json.loads((tmp_path / "generated" / CATALOG_NAME).read_bytes())
    assert catalog["skills"]["ok"]["path"] == "skills\\ok.md"
    assert catalog["skills"]["ok"]["body"] == {"exists": True, "chars": 5}
    assert load_skill_text(reg, "ok") == "# ok\n"
    assert Router.from_paths(reg).route("ok task").missing_bodies == ()


def test_a_rule_id_may_not_be_a_skill_or_composition_id():
    text = ("schema_version: 1\nskills:\n  deploy:\n    path: d.md\n    priority: P1\n    triggers: [deploy]\n"
            "composition:\n  bundle: [deploy]\nrules:\n  deploy:\n    triggers: [prod]\n  bundle:\n"
            "    triggers: [x]\n")
    with pytest.raises(RegistryError) as exc:
        parse_registry(text.encode(), "s.yaml")
    assert [str(d) for d in exc.value.diagnostics] == [
        "s.yaml:10:3: rules.deploy: rule id 'deploy' is also a skill id: every id must name one thing (decisions, "
        "lint and the UI name entries by id)",
        "s.yaml:12:3: rules.bundle: rule id 'bundle' is also a composition id: every id must name one thing "
        "(decisions, lint and the UI name entries by id)",
    ]


def test_an_empty_out_or_registry_is_refused(project, cli, capsys):
    for opt in ("--out", "--registry"):
        with pytest.raises(SystemExit) as exc:
            main(["build", opt, ""])
        assert exc.value.code == 2
        assert "an empty path (give a file or folder name)" in capsys.readouterr().err
    assert not (Path.cwd() / INDEX_NAME).exists()


def test_the_top_level_help_names_the_options_every_command_takes(capsys):
    """`routelens --help` listed only -h and --version: --registry and
    --demo, which its own description mentions, were in no help but each
    command's."""
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    tail = out[out.index("options every command"):]
    assert tail == (
        "options every command but init and schema takes, before or after its name:\n"
        "  --registry PATH         the canonical registry, or a folder holding its\n"
        "                          skills.yaml (default: $ROUTELENS_REGISTRY, else\n"
        "                          skills.yaml in this folder or the nearest parent, up\n"
        "                          to the top of the git work tree)\n"
        "  --demo                  use the bundled example registry (53 skills, English\n"
        "                          and Japanese) instead of yours; every output says so\n"
        "  --out, --generated DIR  folder of routing.min.json and catalog.json (default:\n"
        "                          generated/ beside the registry)\n"
        "\n"
        "the UI also takes --index PATH, --task TEXT, --theme NAME, --cases FILE,\n"
        "  --replay FILE (routelens tui --help)\n"
        "each command's own options: routelens COMMAND --help\n")
    assert max(len(line) for line in tail.splitlines()) <= 79


def test_an_unquoted_task_is_told_to_be_quoted(capsys):
    """`routelens route please review my diff` said only "unrecognized
    arguments: review my diff" under the top-level usage."""
    assert main(["route", "please", "review", "my", "diff", "--demo"]) == 2
    assert capsys.readouterr().err == ("routelens route: the task is one argument: quote it (routelens route "
                                       "'please review my diff'); 'review my diff' came as further arguments\n")
    assert main(["explain", "please", "review", "--skill", "code-review"]) == 2
    assert capsys.readouterr().err == ("routelens explain: the task is one argument: quote it (routelens explain "
                                       "'please review'); 'review' came as further arguments\n")
    with pytest.raises(SystemExit) as exc:  # an unknown option is argparse's to say
        main(["route", "review", "--nope"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --nope" in capsys.readouterr().err


def test_a_key_path_shows_invisible_characters_as_escapes(tmp_path):
    """A newcomer's trial: an id holding a zero-width space was refused with its key path printed raw
    (`skills.a​: bad id 'a\\u200b'`), so the path looked like `skills.a`."""
    from routelens.errors import Diagnostic
    assert str(Diagnostic("r.yaml", 3, 3, "skills.a\u200b", "bad id")) == "r.yaml:3:3: skills.a\\u200b: bad id"
    assert str(Diagnostic("r.yaml", 3, 3, "skills.a\x1b[31m\u202e", "bad id")) == (
        "r.yaml:3:3: skills.a\\x1b[31m\\u202e: bad id")
    assert str(Diagnostic("r.yaml", 3, 3, "skills.code-review.triggers[0]", "x")) == (
        "r.yaml:3:3: skills.code-review.triggers[0]: x")


@pytest.mark.parametrize("given, held, said", [
    (("a", "b"), ("a", "b", "c"), '; the index has 2 triggers, the range 3 (the range\'s trigger 3 is "c")'),
    (("a", "b", "c"), ("a", "b"), '; the index has 3 triggers, the range 2 (the index\'s trigger 3 is "c")'),
    (("a", "x"), ("a", "b"), '; they first differ at trigger 2: "x" in the index, "b" in the range'),
    (("a",), ("a",), ""),
])
def test_first_difference_of_two_trigger_lists(given, held, said):
    from routelens.routing.entries import _first_difference

    assert _first_difference(given, held) == said
