"""`routelens mcp`: the stdio server driven by the official SDK's client
(list tools, route a task, load a skill, refuse an escaping path), and the
tool list staying identical when the registry changes."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import subprocess
from pathlib import Path

import pytest

import routelens

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.errors import ToolCallError
from routelens.mcp_server import load_skill_text, route_task_payload
from routelens.paths import INDEX_NAME
from routelens.registry import load_registry

REGISTRY = """\
schema_version: 1
skills:
  code-review:
    path: skills/code-review.md
    priority: P0
    triggers: [code review, review my diff]
    description: Review a diff
  escape:
    path: skills/escape.md
    priority: P2
    triggers: [escape hatch]
    description: Its body is a symlink that leads outside the registry folder
  old-docs:
    path: skills/old-docs.md
    priority: P2
    triggers: [old docs]
    status: disabled
"""
ADDED = """\
  release-notes:
    path: skills/release-notes.md
    priority: P1
    triggers: [release notes]
    description: Write release notes
"""
BODY = "---\nname: code-review\ndescription: Review a diff\n---\n\n# Code review\n\nRead the diff twice.\n"


@pytest.fixture
def registry(tmp_path) -> Path:
    reg_dir = tmp_path / "reg"
    (reg_dir / "skills").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("SECRET outside the registry folder\n")
    (reg_dir / "skills" / "code-review.md").write_bytes(BODY.replace("\n", "\r\n").encode())  # CRLF on disk
    (reg_dir / "skills" / "old-docs.md").write_text("# old\n")
    (reg_dir / "skills" / "release-notes.md").write_text("# Release notes\n")
    os.symlink(tmp_path / "outside" / "secret.md", reg_dir / "skills" / "escape.md")
    path = reg_dir / "skills.yaml"
    path.write_text(REGISTRY)
    write_generated(load_registry(path), reg_dir / "generated")
    return path


# --------------------------------------------------------------------------- without the SDK


def test_route_task_payload_index_mode(registry):
    p = route_task_payload(registry, "please review my diff")
    idx = (registry.parent / "generated" / INDEX_NAME).read_bytes()
    from routelens.routing.matching import MATCHER_VERSION

    assert p["mode"] == "index" and p["reason"] == "clear_candidate"
    assert p["skills"] == ["code-review"] and p["composition"] is None
    assert p["expansions"] == [{
        "id": "code-review", "kind": "skill", "lines": [3, 7],
        "yaml": "  code-review:\n    path: skills/code-review.md\n    priority: P0\n"
                "    triggers: [code review, review my diff]\n    description: Review a diff\n",
        "path": "skills/code-review.md", "priority": "P0", "status": "active", "resolved_from": "range"}]
    assert p["candidates"][0] == {"id": "code-review", "score": 100.0, "trigger": "review my diff",
                                  "span": [7, 21], "selected": True}
    assert p["registry"] == str(registry.resolve())
    assert p["next"] == "call load_skill with each id in skills and follow those bodies"
    assert p["payload_chars"] == len(p["expansions"][0]["yaml"])
    assert p["source_sha256"] == load_registry(registry).source_sha256
    assert p["index_sha256"] == hashlib.sha256(idx).hexdigest()
    assert p["matcher_version"] == MATCHER_VERSION


def test_route_task_payload_fallback_points_at_the_registry(registry):
    p = route_task_payload(registry, "bake a cake")
    assert (p["mode"], p["reason"], p["skills"], p["expansions"]) == ("full", "no_match", [], [])
    assert p["payload_chars"] == len(REGISTRY)
    assert p["next"] == (f"the router fell back (no_match): read the whole registry at {registry.resolve()} "
                         f"({len(REGISTRY)} characters) and choose the skills yourself")


def test_load_skill_text(registry):
    assert load_skill_text(registry, "code-review") == BODY  # canonical: CRLF -> LF
    cases = {
        "escape": "skill 'escape': body path 'skills/escape.md' leads outside the registry folder "
                  "(through a symlink): refused",
        "old-docs": "skill 'old-docs' is disabled",
        "../outside/secret": "unknown skill id '../outside/secret': ids are lowercase kebab-case",
        "/etc/passwd": "unknown skill id '/etc/passwd': ids are lowercase kebab-case",
        "nope": "unknown skill id 'nope'",
    }
    for sid, message in cases.items():
        with pytest.raises(ToolCallError) as exc:
            load_skill_text(registry, sid)
        assert str(exc.value) == message


def test_load_skill_of_a_composition_names_its_members(registry):
    """Issue 13 item 16: ``load_skill("release-train")`` said "unknown skill id"."""
    registry.write_text(REGISTRY + ADDED + "composition:\n  docs-train: [code-review, release-notes]\n")
    with pytest.raises(ToolCallError) as exc:
        load_skill_text(registry, "docs-train")
    assert str(exc.value) == ("'docs-train' is a composition, not a skill: call load_skill for each of its members, "
                              "code-review and release-notes")
    with pytest.raises(ToolCallError) as exc:
        load_skill_text(registry, "code-reveiw")
    assert str(exc.value) == "unknown skill id 'code-reveiw' (closest: 'code-review')"


def test_broken_registry_is_a_tool_error(registry):
    registry.write_text(REGISTRY.replace("priority: P0", "priority: P7"))
    with pytest.raises(ToolCallError) as exc:
        route_task_payload(registry, "please review my diff")
    assert str(exc.value) == (
        "the registry has errors; fix them, then run `routelens build`:\n"
        f"{registry}:5:15: skills.code-review.priority: unknown priority 'P7' (one of P0, P1, P2)")


# --------------------------------------------------------------------------- CLI without the SDK / broken registry


def test_cli_without_mcp_says_how_to_install(monkeypatch, registry, capsys):
    """Issue 13 item 16: the hint assumed a release on a package index."""
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` raises ImportError
    assert main(["mcp", "--registry", str(registry)]) == 2
    assert capsys.readouterr().err == (
        "routelens mcp needs the MCP Python SDK, the package `mcp`: pip install 'mcp>=2,<3' "
        "(or, in a routelens checkout, pip install -e '.[mcp]')\n")


def test_cli_refuses_a_broken_registry(registry, capsys):
    pytest.importorskip("mcp")
    registry.write_text("schema_version: 1\nskills:\n  a:\n    path: a.md\n")
    assert main(["mcp", "--registry", str(registry)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"{registry}:3:3: skills.a.priority: missing required key `priority`"


# --------------------------------------------------------------------------- over stdio with the SDK client


def _session_run(registry: Path, script):
    """Start `routelens mcp` as a subprocess and run ``script(session)``."""
    mcp = pytest.importorskip("mcp")
    import anyio
    from mcp.client.stdio import stdio_client

    params = mcp.StdioServerParameters(
        command=sys.executable, args=["-m", "routelens", "mcp", "--registry", str(registry)],
        env={**os.environ, "PYTHONUNBUFFERED": "1"})

    errlog = registry.parent.parent / "server-stderr.txt"

    async def go():
        with open(errlog, "w") as err:  # pytest's captured stderr has no file descriptor
            async with stdio_client(params, errlog=err) as (r, w):
                async with mcp.ClientSession(r, w) as session:
                    session.init_result = await session.initialize()
                    return await script(session)

    try:
        return anyio.run(go)
    finally:
        sys.stderr.write(errlog.read_text())  # shown by pytest when a test fails


def _tools_dump(result) -> list[dict]:
    return [t.model_dump(mode="json") for t in result.tools]


def test_bad_arguments_are_said_in_words_not_pydantic_text(registry):
    """A call without its argument (or with a number) answered "1 validation
    error for route_taskArguments ... Field required [type=missing ...":
    now the tool's own words, still an error result."""
    async def script(s):
        out = []
        for name, args in (("route_task", {}), ("route_task", {"tsk": "x"}), ("route_task", {"task": 5}),
                           ("load_skill", {}), ("route_task", {"task": "please review my diff"})):
            r = await s.call_tool(name, args)
            out.append((r.is_error, r.content[0].text))
        return out

    out = _session_run(registry, script)
    assert out[:4] == [
        (True, "route_task needs the argument 'task': the task to route, as a string"),
        (True, "route_task needs the argument 'task': the task to route, as a string; it was called with 'tsk'"),
        (True, "route_task: the argument 'task' must be a string (the task to route, as a string), not int"),
        (True, "load_skill needs the argument 'id': a skill or composition id from route_task's answer, as a string"),
    ]
    assert out[4][0] is False and json.loads(out[4][1])["skills"] == ["code-review"]


def test_stdio_server_end_to_end(registry):
    async def script(s):
        out = {"server": (s.init_result.server_info.name, s.init_result.server_info.version)}
        out["tools_before"] = _tools_dump(await s.list_tools())
        r = await s.call_tool("route_task", {"task": "please review my diff"})
        out["route"] = (r.is_error, json.loads(r.content[0].text))
        r = await s.call_tool("load_skill", {"id": "code-review"})
        out["load"] = (r.is_error, r.content[0].text)
        r = await s.call_tool("load_skill", {"id": "escape"})
        out["escape"] = (r.is_error, r.content[0].text)
        r = await s.call_tool("load_skill", {"id": "../outside/secret"})
        out["dotdot"] = (r.is_error, r.content[0].text)
        # a skill is added and the index rebuilt while the server runs
        registry.write_text(REGISTRY + ADDED)
        write_generated(load_registry(registry), registry.parent / "generated")
        out["tools_after"] = _tools_dump(await s.list_tools())
        r = await s.call_tool("route_task", {"task": "write the release notes"})
        out["route_added"] = json.loads(r.content[0].text)
        return out

    out = _session_run(registry, script)
    assert out["server"] == ("routelens", routelens.__version__)  # issue 13 item 16: the version was ''
    before = out["tools_before"]
    assert [t["name"] for t in before] == ["route_task", "load_skill"]
    assert [t["input_schema"]["required"] for t in before] == [["task"], ["id"]]
    # the definitions carry no registry content ...
    text = json.dumps(before)
    for word in ("code-review", "escape", "old-docs", "review my diff", "skills.yaml", str(registry.parent)):
        assert word not in text
    # ... so adding a skill leaves the tool list identical
    assert out["tools_after"] == before

    is_error, decision = out["route"]
    assert is_error is False
    assert (decision["mode"], decision["skills"], decision["expansions"][0]["lines"]) == ("index", ["code-review"], [3, 7])
    assert out["load"] == (False, BODY)
    assert out["escape"][0] is True
    assert out["escape"][1].endswith("skill 'escape': body path 'skills/escape.md' leads outside the registry "
                                     "folder (through a symlink): refused")
    assert "SECRET" not in out["escape"][1]
    assert out["dotdot"][0] is True and out["dotdot"][1].endswith("unknown skill id '../outside/secret': ids are "
                                                                  "lowercase kebab-case")
    added = out["route_added"]
    assert (added["mode"], added["skills"], added["expansions"][0]["lines"]) == ("index", ["release-notes"], [18, 22])


def test_tool_list_identical_for_another_registry(registry, tmp_path):
    """A server started on a different registry lists exactly the same tools."""
    async def script(s):
        return _tools_dump(await s.list_tools())

    first = _session_run(registry, script)
    other = tmp_path / "other" / "skills.yaml"
    other.parent.mkdir()
    other.write_text(REGISTRY.replace("code-review", "pull-request-review") + ADDED)
    assert _session_run(other, script) == first


def test_route_task_candidates_are_cut_like_the_decision_json(tmp_path):
    """§10: on a registry where a phrase reaches 30 skills, the answer lists
    the matches as the decision JSON does (the best 20, ties by id), then
    the near misses, and says how many there were uncut."""
    lines = ["schema_version: 1", "skills:"]
    for i in range(1, 31):
        lines += [f"  notes-{i:02d}:", f"    path: skills/notes-{i:02d}.md", "    priority: P1",
                  f"    triggers: [release notes, notes job {i}]", f"    description: Release notes {i}"]
    reg = tmp_path / "skills.yaml"
    reg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    p = route_task_payload(reg, "write the release notes")
    assert (p["mode"], p["reason"]) == ("full", "ambiguous")
    ids = [c["id"] for c in p["candidates"]]
    assert ids == [f"notes-{i:02d}" for i in range(1, 21)]
    assert p["candidates_total"] == 30
    assert not any(c["selected"] for c in p["candidates"])


def test_every_request_read_before_end_of_input_is_answered(registry):
    """`printf REQUESTS | routelens mcp` answered the initialize and the
    unknown-tool call but never the route_task calls between them, exit 0:
    the SDK's stdio loop cancels running calls at end of input (python-sdk
    issue #2678). The server now drains them first."""
    pytest.importorskip("mcp")
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *({"jsonrpc": "2.0", "id": i, "method": "tools/call",
           "params": {"name": "route_task", "arguments": {"task": "please review my diff"}}} for i in range(2, 8)),
        {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "nope", "arguments": {}}},
    ]
    proc = subprocess.run([sys.executable, "-m", "routelens", "mcp", "--registry", str(registry)],
                          input="".join(json.dumps(m) + "\n" for m in lines), capture_output=True, text=True,
                          timeout=120)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert sorted(a["id"] for a in answers) == [1, 2, 3, 4, 5, 6, 7, 8]
    routed = [json.loads(a["result"]["content"][0]["text"]) for a in answers if 2 <= a["id"] <= 7]
    assert {(d["mode"], tuple(d["skills"])) for d in routed} == {("index", ("code-review",))}


def test_a_registry_stopped_at_the_error_limit_counts_its_errors_not_the_note():
    """200 errors and the reader's "too many errors: stopped after 200" note
    were "... and 181 more" (the note counted as an error)."""
    from routelens.errors import Diagnostic, RegistryError
    from routelens.mcp_server import _registry_errors

    diags = [Diagnostic("s.yaml", i, 1, f"skills.s{i}", "bad") for i in range(1, 201)]
    exc = RegistryError(diags + [Diagnostic("s.yaml", 400, 1, "", "too many errors: stopped after 200")])
    assert (exc.error_count, exc.stopped) == (200, True)
    assert _registry_errors(exc).splitlines()[-1] == "... and 180 more (reading stopped there: there may be more)"
    assert (RegistryError(diags[:3]).error_count, RegistryError(diags[:3]).stopped) == (3, False)
