"""``routelens mcp``: a stdio MCP server (tools route_task and load_skill)."""

from __future__ import annotations

import importlib.util
import sys

from routelens.cli.commands.common import load_or_exit
from routelens.cli.commands.route import open_log
from routelens.errors import DecisionLogError
from routelens.mcp_server import serve
from routelens.paths import INDEX_NAME


def register(sub, common) -> None:
    p = sub.add_parser(
        "mcp", parents=[common], help="run a stdio MCP server with the tools route_task and load_skill",
        description="Serve the registry over MCP on standard input/output (official `mcp` SDK; install with "
        "pip install 'routelens[mcp]'). Tools: route_task(task) returns the decision as pointers (ids, line "
        "ranges and the expanded YAML, or the fallback reason and the registry to read); load_skill(id) "
        "returns a skill's Layer-2 body. The tool definitions never contain registry content. The registry "
        "and index are re-read on every call.")
    p.add_argument("--log", default=None, metavar="FILE",
                   help="append each route_task decision to FILE as one JSON line (for `routelens replay`)")
    p.set_defaults(func=run)


def run(args) -> int:
    if importlib.util.find_spec("mcp") is None:
        print("routelens mcp needs the MCP Python SDK: pip install 'routelens[mcp]'", file=sys.stderr)
        return 2
    log = open_log(args)
    loaded = load_or_exit(args)  # refuse to start on a broken registry, with file:line:col
    on_decision = None
    if log is not None:
        def on_decision(d) -> None:
            try:
                log.append(d)
            except DecisionLogError as exc:  # a full disk must not fail the agent's tool call
                print(f"routelens mcp: the decision was not logged: {exc}", file=sys.stderr)
    serve(loaded.registry_path, loaded.out_dir / INDEX_NAME, on_decision)
    return 0
