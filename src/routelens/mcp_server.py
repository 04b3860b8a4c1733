"""``routelens mcp``: a stdio MCP server with two tools (docs/formats.md
§10), on the official ``mcp`` Python SDK (the package ``mcp``; in a
checkout, the optional extra ``.[mcp]``). It reports routelens's version to
clients.

Tools (their names, descriptions and input schemas are constants of this
module: they never contain registry content, so adding, removing or editing
a skill never changes the tool list an agent has cached):

``route_task(task)``
    Routes a task and returns the decision as *pointers*, JSON text:
    the selected ids, their line ranges in the registry and the exact YAML
    of those ranges (mode ``fast``/``index``); or, when the router falls back
    (mode ``full``), the reason and the registry file to read in full. Every
    answer carries ``source_sha256``, ``index_sha256`` and
    ``matcher_version`` so it can be replayed.

``load_skill(id)``
    Returns a skill's Layer-2 body (the Markdown file its ``path`` names).
    The body is read by :func:`routelens.artifacts.bodies.read_body` (the
    bounded reader: a regular file only, never blocking on a FIFO, never
    reading a device, at most :data:`MAX_BODY_BYTES`): an
    absolute path, a ``..`` escape or a symlink leading outside the
    registry's folder is refused; an unknown id or a disabled skill is
    refused too. Bodies larger than :data:`MAX_BODY_BYTES` are refused.

The registry and index are read on every call (the router caches by file
stats), so edits are picked up without restarting the server; a stale index
makes the router fall back to the full registry, as everywhere in routelens.

The pure functions :func:`route_task_payload` and :func:`load_skill_text`
hold the logic and do not need the SDK. Nothing in this module imports
Textual.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable


from routelens import __version__
from routelens.artifacts.bodies import read_body
from routelens.errors import FileReadError, RegistryError, ToolCallError
from routelens.limits import LIMITS
from routelens.paths import default_index_path
from routelens.registry.load import load_registry
from routelens.registry.model import ID_RE
from routelens.routing.decision import Decision
from routelens.routing.explain import SUGGEST_CUTOFF
from routelens.routing.router import route
from routelens.text.canonical import canonical_bytes
from routelens.text.words import closest

__all__ = [
    "argument_problem",
    "TOOL_ARGUMENTS",
    "SERVER_NAME",
    "INSTRUCTIONS",
    "ROUTE_TASK_DESCRIPTION",
    "LOAD_SKILL_DESCRIPTION",
    "MAX_BODY_BYTES",
    "ToolCallError",
    "route_task_payload",
    "load_skill_text",
    "build_server",
    "serve",
]

SERVER_NAME = "routelens"
#: Largest Layer-2 body returned by ``load_skill``, in bytes (``LIMITS["max_mcp_body_bytes"]``).
MAX_BODY_BYTES = LIMITS["max_mcp_body_bytes"]

INSTRUCTIONS = (
    "routelens routes a task to the skills of a canonical YAML skill registry. Call route_task with the "
    "user's task first. If its mode is 'fast' or 'index', call load_skill for each id in 'skills' and follow "
    "those bodies. If its mode is 'full', the router could not decide safely (see 'reason'): read the whole "
    "registry file named in 'registry' and choose yourself."
)
ROUTE_TASK_DESCRIPTION = (
    "Route a task to skills of the routelens registry. Returns JSON: mode ('fast' | 'index' | 'full'), "
    "reason, message, skills (selected ids), composition, expansions (per selected entry: id, line range "
    "[start, end] in the registry, the exact YAML of that range, path, priority, status), candidates "
    "(scores and matched triggers), and, when mode is 'full', the registry file to read in full. Also "
    "source_sha256, index_sha256 and matcher_version, to replay the decision."
)
LOAD_SKILL_DESCRIPTION = (
    "Return the Layer-2 body (Markdown) of one skill of the routelens registry, by id. Refuses unknown ids, "
    "disabled skills, and bodies whose path leaves the registry's folder."
)



def _index_path(registry_path: Path, index_path: Path | None) -> Path:
    return index_path if index_path is not None else default_index_path(registry_path)


def _registry_errors(exc: RegistryError) -> str:
    lines = [str(d) for d in exc.diagnostics[:20]]
    more = exc.error_count - len(lines)  # the reader's "stopped after N" note is no error
    if more > 0:
        lines.append(f"... and {more} more" + (" (reading stopped there: there may be more)" if exc.stopped else ""))
    return "the registry has errors; fix them, then run `routelens build`:\n" + "\n".join(lines)


def route_task_payload(registry_path: str | Path, task: str, index_path: str | Path | None = None,
                       on_decision: Callable[[Decision], None] | None = None) -> dict[str, Any]:
    """The ``route_task`` answer as a dict (see the module docstring)::

        {"mode", "reason", "message", "skills": [ids], "composition": id | None,
         "expansions": [{"id", "kind", "lines": [start, end], "yaml", "path", "priority",
                         "status", "resolved_from"}],
         "candidates": [{"id", "score", "trigger", "span": [s, e], "selected": bool}], "candidates_total",
         "dropped": [[id, why]], "rule": id | None, "high_risk": [terms],
         "registry": absolute path, "next": what to do with this answer (a sentence),
         "payload_chars", "freshness", "source_sha256", "index_sha256", "matcher_version",
         "missing_bodies": [{"id", "path", "problem"}]}

    ``candidates`` are the matches as the decision JSON lists them (cut
    to the best 20 and every lower one selected or named, docs/formats.md
    §6.1) then the near misses, best first; ``candidates_total`` counts
    them uncut (§10).
    ``on_decision``, when given, is called with the router's decision
    (``routelens mcp --log`` appends it to the decision log).
    Raises :class:`ToolCallError` when the registry cannot be read or is
    broken, or ``task`` is not a string.
    """
    if not isinstance(task, str):
        raise ToolCallError("task must be a string")
    registry_path = Path(registry_path)
    try:
        d = route(task, registry_path, _index_path(registry_path, Path(index_path) if index_path else None))
    except RegistryError as exc:
        raise ToolCallError(_registry_errors(exc)) from None
    if on_decision is not None:
        on_decision(d)
    reg_abs = str(registry_path.resolve())
    if d.mode == "full":
        nxt = (f"the router fell back ({d.reason}): read the whole registry at {reg_abs} "
               f"({d.payload_chars:,} characters) and choose the skills yourself")
    else:
        nxt = "call load_skill with each id in skills and follow those bodies"
        if d.missing_bodies:
            ids = ", ".join(sid for sid, _, _ in d.missing_bodies)
            nxt += (f"; the body of {ids} cannot be loaded (see missing_bodies): follow that skill's registry "
                    "entry in expansions instead, and tell the user its body file needs fixing")
    selected = set(d.skills)
    return {
        "mode": d.mode,
        "reason": d.reason,
        "message": d.message,
        "skills": list(d.skills),
        "composition": d.composition,
        "expansions": [
            {"id": e.id, "kind": e.kind, "lines": [e.source_start, e.source_end], "yaml": e.text,
             "path": e.path, "priority": e.priority, "status": e.status, "resolved_from": e.resolved_from}
            for e in d.expansions
        ],
        "candidates": [
            {**m.to_dict(), "selected": m.id in selected} for m in (*d.listed()[0], *d.near_misses)
        ],
        "candidates_total": len(d.matches) + len(d.near_misses),
        "dropped": [[a, b] for a, b in d.dropped],
        "rule": d.rule,
        "high_risk": list(d.high_risk),
        "registry": reg_abs,
        "next": nxt,
        "payload_chars": d.payload_chars,
        "freshness": d.freshness,
        "source_sha256": d.source_sha256,
        "index_sha256": d.index_sha256,
        "matcher_version": d.matcher_version,
        "missing_bodies": [{"id": i, "path": p, "problem": w} for i, p, w in d.missing_bodies],
    }


def load_skill_text(registry_path: str | Path, skill_id: str) -> str:
    """The Layer-2 body of ``skill_id`` as text (canonical: BOM removed, LF
    line ends). Raises :class:`ToolCallError` for a broken registry, an
    unknown id, a disabled skill, a body path that is absolute, uses ``..``
    or leads outside the registry's folder through a symlink, a missing or
    unreadable body, a body over :data:`MAX_BODY_BYTES` bytes, or one that
    is not UTF-8. A composition's id is answered with its members (to load
    one by one); an unknown id with the closest skill id, when one is close."""
    if not isinstance(skill_id, str) or not ID_RE.match(skill_id):
        raise ToolCallError(f"unknown skill id {skill_id!r}: ids are lowercase kebab-case")
    try:
        reg = load_registry(Path(registry_path))
    except RegistryError as exc:
        raise ToolCallError(_registry_errors(exc)) from None
    skill = reg.skills.get(skill_id)
    if skill is None:
        comp = reg.compositions.get(skill_id)
        if comp is not None:
            members = list(comp.members)
            named = members[0] if len(members) == 1 else ", ".join(members[:-1]) + " and " + members[-1]
            raise ToolCallError(f"{skill_id!r} is a composition, not a skill: call load_skill for each of its "
                                f"members, {named}")
        best = closest(skill_id, reg.skills, SUGGEST_CUTOFF)
        raise ToolCallError(f"unknown skill id {skill_id!r}" + (f" (closest: {best!r})" if best else ""))
    if skill.status == "disabled":
        raise ToolCallError(f"skill {skill_id!r} is disabled")
    try:
        data = read_body(reg, skill.path, MAX_BODY_BYTES)
    except ValueError as exc:
        raise ToolCallError(f"skill {skill_id!r}: {exc}") from None
    except FileReadError as exc:
        raise ToolCallError(f"skill {skill_id!r}: {missing_body_advice(reg, skill, exc)}") from None
    try:
        return canonical_bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise ToolCallError(f"skill {skill_id!r}: the body {skill.path} is not UTF-8") from None


def missing_body_advice(reg: Any, skill: Any, exc: FileReadError) -> str:
    """Why ``load_skill`` cannot return a body, and what to do, for an
    agent: the problem (missing, a FIFO, a device, too big...), where the
    registry names the path, and that the skill's registry entry is the
    only instructions there are until the body is fixed."""
    if exc.kind == "too_big":
        what = f"the body {skill.path} is larger than {MAX_BODY_BYTES} bytes; refused"
    elif exc.kind == "directory":
        what = f"the body {skill.path} is a directory"
    elif exc.kind in ("missing", "not_a_folder"):
        what = f"the body {skill.path} is missing"
    elif exc.kind == "not_regular":
        what = f"the body {skill.path} is {exc.detail}, not a regular file; refused without reading"
    else:
        what = f"the body {skill.path} cannot be read: {exc.detail or exc}"
    return (f"{what}. The registry names it at {reg.display_name} lines {skill.source_start}-{skill.source_end}; "
            "until the path is fixed (then `routelens build`), follow that registry entry (description, "
            "triggers) or read the whole registry")


def build_server(registry_path: str | Path, index_path: str | Path | None = None,
                 on_decision: Callable[[Decision], None] | None = None) -> Any:
    """The MCP server object (``mcp.server.mcpserver.MCPServer`` of mcp 2.x,
    or ``FastMCP`` of mcp 1.x) with the two tools registered;
    ``on_decision`` is passed to :func:`route_task_payload`. Raises
    ``ImportError`` when the ``mcp`` package is not installed."""
    try:  # mcp 2.x
        from mcp.server.mcpserver import MCPServer as _Server
        from mcp.server.mcpserver.exceptions import ToolError
        server = _Server(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING", version=__version__)
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP as _Server  # type: ignore[no-redef]
        from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]
        server = _Server(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    reg_path = Path(registry_path)
    idx_path = Path(index_path) if index_path is not None else None

    def route_task(task: str) -> str:
        try:
            payload = route_task_payload(reg_path, task, idx_path, on_decision)
        except ToolCallError as exc:
            raise ToolError(str(exc)) from None
        return json.dumps(payload, ensure_ascii=False, indent=1)

    def load_skill(id: str) -> str:  # noqa: A002 - the tool's parameter is named "id"
        try:
            return load_skill_text(reg_path, id)
        except ToolCallError as exc:
            raise ToolError(str(exc)) from None

    server.add_tool(route_task, name="route_task", description=ROUTE_TASK_DESCRIPTION, structured_output=False)
    server.add_tool(load_skill, name="load_skill", description=LOAD_SKILL_DESCRIPTION, structured_output=False)
    call_tool = server.call_tool

    async def checked_call_tool(name: str, arguments: dict[str, Any], *rest: Any, **kw: Any) -> Any:
        problem = argument_problem(name, arguments)
        if problem is not None:
            raise ToolError(problem)
        return await call_tool(name, arguments, *rest, **kw)

    server.call_tool = checked_call_tool  # the server calls it through the instance for every tool call
    return server


#: each tool's one argument and what it holds
TOOL_ARGUMENTS = {"route_task": ("task", "the task to route, as a string"),
                  "load_skill": ("id", "a skill or composition id from route_task's answer, as a string")}


def argument_problem(tool: str, arguments: Any) -> str | None:
    """What is wrong with a call's ``arguments`` in a person's words (the
    client's agent reads it), or None: the tool's one argument must be
    there and be a string; other names are named. Without this the answer
    was pydantic's validation text ("1 validation error for
    route_taskArguments ... Field required [type=missing ...")."""
    if tool not in TOOL_ARGUMENTS:
        return None
    want, what = TOOL_ARGUMENTS[tool]
    args = arguments if isinstance(arguments, dict) else {}
    if want not in args:
        others = sorted(k for k in args if k != want)
        got = f"; it was called with {', '.join(repr(k) for k in others)}" if others else ""
        return f"{tool} needs the argument {want!r}: {what}{got}"
    if not isinstance(args[want], str):
        return f"{tool}: the argument {want!r} must be a string ({what}), not {type(args[want]).__name__}"
    return None


#: Seconds the server waits after standard input closes for the answers to
#: the requests it has read (then it exits, and unanswered ones are lost).
DRAIN_SECONDS = 30.0


def serve(registry_path: str | Path, index_path: str | Path | None = None,
          on_decision: Callable[[Decision], None] | None = None) -> None:
    """Run the server on standard input/output until the client closes it
    (``on_decision``: see :func:`build_server`). Every request read before
    standard input closes is answered first (within :data:`DRAIN_SECONDS`):
    the SDK's own stdio loop cancels the calls still running at end of
    input, so ``printf REQUESTS | routelens mcp`` lost the last answers
    (python-sdk issue #2678, open for mcp 2.3)."""
    server = build_server(registry_path, index_path, on_decision)
    low = getattr(server, "_lowlevel_server", None) or getattr(server, "_mcp_server", None)
    if low is None:  # an SDK whose insides differ: its own loop, with its behaviour at end of input
        server.run("stdio")
        return
    import anyio

    anyio.run(_serve_stdio_draining, low)


def _message_of(item: Any) -> Any:
    """The JSON-RPC object of a transport item (mcp 1.x wraps it in ``.root``), or None."""
    message = getattr(item, "message", None)
    return getattr(message, "root", message)


async def _serve_stdio_draining(low: Any) -> None:
    """The SDK's stdio transport with the server behind a relay that, at end
    of input, holds the server's input open until every request read has
    its response (or :data:`DRAIN_SECONDS` pass); a request the client
    cancels (``notifications/cancelled``) is not waited for."""
    import anyio
    from mcp.server.stdio import stdio_server

    try:  # mcp 2.x: the server's streams carry context
        from mcp.shared._context_streams import create_context_streams as streams
    except ImportError:  # mcp 1.x
        streams = anyio.create_memory_object_stream
    pending: set[Any] = set()
    answered = anyio.Event()

    async with stdio_server() as (read_stream, write_stream):
        to_server, server_in = streams(0)
        server_out, from_server = streams(0)

        async def relay_in() -> None:
            nonlocal answered
            async with to_server:
                async with read_stream:
                    async for item in read_stream:
                        m = _message_of(item)
                        if getattr(m, "method", None) is not None and getattr(m, "id", None) is not None:
                            pending.add(m.id)
                        elif getattr(m, "method", None) == "notifications/cancelled":
                            params = getattr(m, "params", None) or {}
                            rid = params.get("requestId") if isinstance(params, dict) else getattr(params, "requestId", None)
                            pending.discard(rid)
                        await to_server.send(item)
                with anyio.move_on_after(DRAIN_SECONDS):
                    while pending:
                        await answered.wait()
                        answered = anyio.Event()

        async def relay_out() -> None:
            async with write_stream:
                async with from_server:
                    async for item in from_server:
                        await write_stream.send(item)
                        m = _message_of(item)
                        if getattr(m, "method", None) is None and getattr(m, "id", None) in pending:
                            pending.discard(m.id)
                            answered.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(relay_in)
            tg.start_soon(relay_out)
            await low.run(server_in, server_out, low.create_initialization_options())
