"""The decision log (``route --log``, ``mcp --log``) and ``routelens replay``
(docs/formats.md §12): a log of more than 200 real tasks, a one-trigger
edit, and exactly the decisions that changed named; bad input exits 2."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.errors import DecisionLogError
from routelens.mcp_server import route_task_payload
from routelens.registry import load_registry
from routelens.routing.router import Router
from routelens.tools.evaluate import load_cases
from routelens.tools.replay import DecisionLog, log_record, parse_log, read_log

ROOT = Path(__file__).resolve().parents[1]

#: tasks the one-trigger edit below must change (or not), added to the real ones
CRAFTED = [
    ("the flaky widget on the settings page", ("full", "no_match", [], None),
     ("index", "clear_candidate", ["debugging"], None)),
    ("why is that flaky widget back again", ("full", "no_match", [], None),
     ("index", "clear_candidate", ["debugging"], None)),
    # two distinct asks, each with a phrase: both are selected (docs/formats.md §6.10)
    ("flaky widget, and write the release notes", ("index", "clear_candidate", ["release-notes"], None),
     ("index", "multi_need", ["debugging", "release-notes"], None)),
    ("the flaky widget broke the production deploy", ("full", "forced_rule", [], None),
     ("full", "forced_rule", [], None)),
]
EDIT_AFTER = "               原因調査,\n"  # debugging's triggers are a flow list
EDIT = EDIT_AFTER + "               flaky widget,\n"


@pytest.fixture
def bundled(tmp_path):
    """A copy of the bundled registry (with a fresh index) in tmp_path."""
    shutil.copyfile(ROOT / "skills.yaml", tmp_path / "skills.yaml")
    reg = tmp_path / "skills.yaml"
    write_generated(load_registry(reg), tmp_path / "generated")
    return reg


def _tasks() -> list[str]:
    tasks = []
    for name in ("routing.yaml", "routing-holdout.yaml"):
        for c in load_cases(ROOT / "tests" / "cases" / name):
            one = " ".join(c.task.split())  # one task per stdin line
            if one and one not in tasks:
                tasks.append(one)
    return tasks + [t for t, _, _ in CRAFTED]


def _log_batch(monkeypatch, capsys, reg: Path, log: Path, tasks: list[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(tasks) + "\n"))
    assert main(["route", "--json", "--log", str(log), "--registry", str(reg), "-"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(tasks)


def _edit(reg: Path) -> None:
    text = reg.read_text(encoding="utf-8")
    assert text.count(EDIT_AFTER) == 1
    reg.write_text(text.replace(EDIT_AFTER, EDIT), encoding="utf-8")
    write_generated(load_registry(reg), reg.parent / "generated")


def _key(d: dict) -> tuple:
    return (d["mode"], d["reason"], d["skills"], d["composition"])


def test_route_log_writes_one_line_per_decision(bundled, tmp_path, monkeypatch, capsys):
    log = tmp_path / "agent.log"
    _log_batch(monkeypatch, capsys, bundled, log, ["review this PR", "deploy to 本番 today"])
    assert main(["route", "jenkinsfile is broken", "--log", str(log), "--registry", str(bundled)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    rec = json.loads(lines[2])
    assert list(rec) == ["v", "time", "task", "decision", "source_sha256", "index_sha256", "matcher_version"]
    router = Router.from_paths(bundled)
    d = router.route("jenkinsfile is broken")
    assert rec["task"] == "jenkinsfile is broken" and rec["v"] == 1
    assert rec["source_sha256"] == d.source_sha256 and rec["index_sha256"] == d.index_sha256
    assert rec["matcher_version"] == d.matcher_version
    assert _key(rec["decision"]) == ("index", "clear_candidate", ["jenkins-pipeline"], None)
    assert rec["decision"]["expansions"] == [{"id": "jenkins-pipeline", "kind": "skill", "source_start": 184,
                                              "source_end": 192, "path": "skills/jenkins-pipeline.md",
                                              "priority": "P2", "status": "deprecated", "resolved_from": "range"}]
    assert "task" not in rec["decision"] and "text" not in rec["decision"]["expansions"][0]
    assert rec["time"].endswith("Z") and len(rec["time"]) == 20
    assert _key(json.loads(lines[1])["decision"]) == ("full", "forced_rule", [], None)


def test_replay_names_exactly_the_decisions_a_one_trigger_edit_changed(bundled, tmp_path, monkeypatch, capsys):
    tasks = _tasks()
    assert len(tasks) >= 300
    log = tmp_path / "agent.log"
    _log_batch(monkeypatch, capsys, bundled, log, tasks)
    assert len(read_log(log)) == len(tasks)

    # nothing edited: nothing changed, exit 0
    assert main(["replay", str(log), "--registry", str(bundled)]) == 0
    out = capsys.readouterr().out
    assert f"replayed {len(tasks)} logged decisions" in out and "0 changed" in out

    _edit(bundled)
    assert main(["replay", str(log), "--json", "--registry", str(bundled)]) == 1
    rep = json.loads(capsys.readouterr().out)
    first = len(tasks) - len(CRAFTED) + 1
    expected = [(first + i, t, list(b), list(a)) for i, (t, b, a) in enumerate(CRAFTED) if b != a]
    got = [(c["line"], c["task"], list(_key(c["before"])), list(_key(c["after"]))) for c in rep["changes"]]
    assert got == [(ln, t, [*b[:2], b[2], b[3]], [*a[:2], a[2], a[3]]) for ln, t, b, a in expected]
    assert (rep["replayed"], rep["changed"], rep["unchanged"]) == (len(tasks), 3, len(tasks) - 3)
    assert rep["transitions"] == {"no_match -> clear_candidate": 2, "clear_candidate -> multi_need": 1}
    assert rep["changes"][0]["what"] == ["mode", "reason", "skills"]
    assert rep["changes"][2]["after"]["message"].startswith(
        'Routed to "debugging" and "release-notes": the task asks for 2 distinct things')

    # the same edit seen against the logged decisions in text
    assert main(["replay", str(log), "--registry", str(bundled)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"3 changed, {len(tasks) - 3} unchanged"
    assert f"{log}:{first}: \"the flaky widget on the settings page\"" in out
    i = out.index(f"{log}:{first}: \"the flaky widget on the settings page\"")
    assert out[i + 1] == "    before  full  no_match              (full registry)"
    assert out[i + 2] == "    after   index clear_candidate       debugging"


def _git(cwd: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t.invalid", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t.invalid")
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_replay_since_a_revision(bundled, tmp_path, monkeypatch, capsys):
    log = tmp_path / "agent.log"
    tasks = [t for t, _, _ in CRAFTED] + ["review this PR"]
    _log_batch(monkeypatch, capsys, bundled, log, tasks)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "skills.yaml")
    _git(tmp_path, "commit", "-qm", "registry")
    _edit(bundled)
    # the log is rewritten with the edited registry: against the log nothing changed ...
    log.unlink()
    _log_batch(monkeypatch, capsys, bundled, log, tasks)
    assert main(["replay", str(log), "--registry", str(bundled)]) == 0
    capsys.readouterr()
    # ... against HEAD's registry, the edit's three changes
    assert main(["replay", str(log), "--since", "HEAD", "--json", "--registry", str(bundled)]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["before"].startswith("HEAD (") and rep["changed"] == 3
    assert [c["line"] for c in rep["changes"]] == [1, 2, 3]
    # an unknown revision is bad input
    assert main(["replay", str(log), "--since", "no-such-rev", "--registry", str(bundled)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("routelens replay: unknown revision 'no-such-rev'") and "Traceback" not in err


def test_replay_since_outside_git_is_bad_input(bundled, tmp_path, capsys):
    log = tmp_path / "a.log"
    DecisionLog(log).append(Router.from_paths(bundled).route("review this PR"))
    assert main(["replay", str(log), "--since", "HEAD", "--registry", str(bundled)]) == 2
    assert "is not inside a git work tree" in capsys.readouterr().err


@pytest.mark.parametrize("content, expected", [
    ('{"v":1,"task":"x","decision":{"mode":"full","reason":"no_match","skills":[],"composition":null}}\nnot json\n',
     ["LOG:2:1: not a JSON decision line: Expecting value at column 1"]),
    # the decoder's "Unterminated string starting at" ended the sentence mid-way (a newcomer's trial)
    ('{"v":1,"task":"cut\n', ['LOG:1:15: not a JSON decision line: Unterminated string starting at column 15']),
    ('[1, 2]\n', ["LOG:1:1: a log line must be a JSON object (one decision per line)"]),
    ('{"v":2,"task":"x"}\n', ["LOG:1:1: v: unknown log version 2 (this routelens writes and reads 1)"]),
    ('{"v":1,"task":5}\n\n{"v":1,"task":"y","decision":{"mode":"sideways"}}\n',
     ["LOG:1:1: task: missing, or not a string", "LOG:3:1: decision.mode: unknown mode 'sideways' (fast, index or full)",
      "LOG: 2 errors; nothing was done"]),
    ('{"v":1,"task":"x","decision":{"mode":"full","reason":"no_match","skills":"a","composition":null}}\n',
     ["LOG:1:1: decision.skills: must be a list of skill ids"]),
    (b'{"v":1,"task":"caf\xe9"}\n', ["LOG:1:19: not UTF-8"]),
])
def test_a_bad_log_line_is_named_file_line(bundled, tmp_path, capsys, content, expected):
    log = tmp_path / "LOG"
    (log.write_bytes if isinstance(content, bytes) else lambda c: log.write_text(c, encoding="utf-8"))(content)
    assert main(["replay", str(log), "--registry", str(bundled)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [line.replace("LOG", str(log), 1) for line in expected]


def test_unreadable_logs_exit_2_without_blocking(bundled, tmp_path, capsys):
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)
    for target, words in ((fifo, "cannot read the log: it is a FIFO, not a regular file"),
                          (tmp_path, "cannot read the log: it is a directory, not a file"),
                          (tmp_path / "missing.log", "cannot read the log: it is missing (no such file); a decision "
                           "log is written by `routelens route --log FILE` or `routelens mcp --log FILE`")):
        assert main(["replay", str(target), "--registry", str(bundled)]) == 2
        assert words in capsys.readouterr().err
    # writing into a FIFO is refused too, before routing
    assert main(["route", "x", "--log", str(fifo), "--registry", str(bundled)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_the_log_is_never_the_registry_or_a_generated_file(bundled, tmp_path, capsys):
    link = tmp_path / "link.yaml"
    link.symlink_to(bundled)
    for target in (bundled, link, bundled.parent / "generated" / "routing.min.json",
                   bundled.parent / "generated" / "catalog.json"):
        before = bundled.read_bytes()
        assert main(["route", "review this PR", "--log", str(target), "--registry", str(bundled)]) == 2
        assert "refusing to log here" in capsys.readouterr().err
        assert bundled.read_bytes() == before


def test_a_logged_matcher_version_other_than_ours_is_said(bundled, tmp_path):
    router = Router.from_paths(bundled)
    rec = log_record(router.route("review this PR"), now="2026-01-01T00:00:00Z")
    rec["matcher_version"] = "1"
    entries = parse_log((json.dumps(rec) + "\n").encode())
    from routelens.tools.replay import replay

    rep = replay(entries, router, matcher_version=router.route("x").matcher_version)
    assert rep.notes == ["the log holds decisions of matcher version 1; this routelens is version "
                         f"{router.route('x').matcher_version}, so a change may come from the matcher, not the registry"]


def test_two_writers_never_interleave(bundled, tmp_path):
    """Appends from two processes land as whole lines."""
    log = tmp_path / "shared.log"
    code = (
        "import sys; from routelens.routing.router import Router; from routelens.tools.replay import DecisionLog\n"
        f"r = Router.from_paths({str(bundled)!r}); log = DecisionLog({str(log)!r})\n"
        "for i in range(150): log.append(r.route(f'review this PR number {i} ' + 'x' * 3000))\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
    assert [p.wait() for p in procs] == [0, 0]
    entries = read_log(log)
    assert len(entries) == 300


def test_mcp_route_task_logs_its_decision(bundled, tmp_path):
    log = DecisionLog(tmp_path / "mcp.log", clock=lambda: "2026-12-01T00:00:00Z")
    payload = route_task_payload(bundled, "review this PR", on_decision=log.append)
    (entry,) = read_log(tmp_path / "mcp.log")
    assert (entry.task, entry.time, entry.decision["skills"]) == ("review this PR", "2026-12-01T00:00:00Z",
                                                                 payload["skills"])
    assert entry.index_sha256 == payload["index_sha256"] and entry.source_sha256 == payload["source_sha256"]


def test_log_errors_are_diagnostics(tmp_path):
    with pytest.raises(DecisionLogError) as exc:
        DecisionLog(tmp_path)
    assert str(exc.value) == f"{tmp_path}:1:1: is a folder, not a file"


def test_a_log_that_cannot_be_opened_is_refused_at_start(bundled, tmp_path, capsys):
    """`mcp --log /nonexistent/dir/x.log` served every call and lost every
    decision (said only on stderr, which MCP clients hide); `route --log`
    routed first and failed after. Both now refuse before routing."""
    missing = tmp_path / "no-such-folder" / "x.log"
    with pytest.raises(DecisionLogError) as exc:
        DecisionLog(missing)
    assert str(exc.value) == f"{missing}:1:1: cannot open the log: its folder {missing.parent} does not exist"
    proc = subprocess.run([sys.executable, "-m", "routelens", "mcp", "--registry", str(bundled), "--log", str(missing)],
                          input="", capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == f"{missing}:1:1: cannot open the log: its folder {missing.parent} does not exist\n"
    assert main(["route", "review this PR", "--json", "--log", str(missing), "--registry", str(bundled)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and not missing.parent.exists()


def test_the_ui_names_its_log_option_replay_and_keeps_log_as_its_alias(tmp_path):
    """`routelens tui --log FILE` reads a log where `route --log FILE`
    appends one (a newcomer expected the UI to write it): the UI's option is
    `--replay FILE`, `--log` stays an alias of it, and neither writes."""
    from routelens.cli.entry import build_parser

    parser = build_parser("tui")
    for flag in ("--replay", "--log"):
        args = parser.parse_args(["tui", flag, str(tmp_path / "d.jsonl")])
        assert args.log == tmp_path / "d.jsonl"
    assert "never writes to it" in parser._subparsers._group_actions[0].choices["tui"].format_help()
