"""``routelens mcp``: a stdio MCP server (tools route_task and load_skill)."""

from __future__ import annotations

import importlib.util
import sys

from routelens.cli.commands.common import load_or_exit
from routelens.cli.commands.route import open_log
from routelens.errors import DecisionLogError
from routelens.mcp_server import serve
from routelens.paths import INDEX_NAME


#: How to get the MCP SDK: from the package index by its own name (routelens itself may come from a
#: checkout, not an index), or through routelens's extra in a checkout.
INSTALL_HINT = ("routelens mcp needs the MCP Python SDK, the package `mcp`: pip install 'mcp>=2,<3' "
                "(or, in a routelens checkout, pip install -e '.[mcp]')")


def register(sub, common) -> None:
    p = sub.add_parser(
        "mcp", parents=[common], help="run a stdio MCP server with the tools route_task and load_skill",
        description="Serve the registry over MCP on standard input/output (the official `mcp` SDK: "
        "pip install 'mcp>=2,<3', or pip install -e '.[mcp]' in a routelens checkout). Tools: route_task(task) returns the decision as pointers (ids, line "
        "ranges and the expanded YAML, or the fallback reason and the registry to read); load_skill(id) "
        "returns a skill's Layer-2 body. The tool definitions never contain registry content. The registry "
        "and index are re-read on every call.")
    p.add_argument("--log", default=None, metavar="FILE",
                   help="append each route_task decision to FILE as one JSON line (for `routelens replay`)")
    p.set_defaults(func=run)


def run(args) -> int:
    if importlib.util.find_spec("mcp") is None:
        print(INSTALL_HINT, file=sys.stderr)
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
