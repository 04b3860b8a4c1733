"""The JSON Schema of ``skills.yaml`` shipped in the package, and readers
that see the registry's YAML as text.

The schema (``routelens/data/skills.schema.json``, JSON Schema draft-07,
which YAML editors such as yaml-language-server support) describes the
structure of docs/formats.md §1. The bundled registry's first
line, ``# yaml-language-server: $schema=./src/routelens/data/skills.schema.json``,
makes editors validate and complete it.

routelens reads every scalar as the text written in the file, while an
editor reads ``1.10`` as a number and ``true`` as a boolean; so wherever the
registry takes text, the schema accepts strings, numbers and booleans, and
where it takes a number (``routing``) it accepts numbers and numeric text.
The schema and routelens's own validation then agree whichever way the YAML
is loaded. Checks that need the whole file — composition members exist, an
id is not both a skill and a composition — are routelens-only (``routelens
check``); a schema cannot express them.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from routelens.errors import RegistryError
from routelens.text.yaml_events import MAP, SCALAR, SEQ, compose_bytes

__all__ = ["SCHEMA_RESOURCE", "schema_text", "schema_object", "text_tree", "node_positions", "validate"]

#: Package resource of the schema.
SCHEMA_RESOURCE = "data/skills.schema.json"


def schema_text() -> str:
    """The schema file's exact text (UTF-8, trailing LF)."""
    return resources.files("routelens").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _schema_cached() -> str:
    return schema_text()


def schema_object() -> dict[str, Any]:
    """The schema as a dict (a fresh copy on each call)."""
    return json.loads(_schema_cached())


def text_tree(raw: bytes, display: str = "skills.yaml") -> Any:
    """The registry's YAML as plain JSON-able values with every scalar kept
    as the text written (``1.10`` -> ``"1.10"``; a plain ``null``/``~``/empty
    value -> None), merge keys applied, read by routelens's own event reader
    (so tags, duplicate keys, a second document and alias bombs are
    refused). Raises :class:`RegistryError` with every YAML-level error
    (file, line, column) — the problems an editor's YAML parser would report
    before any schema is applied."""
    r, root = compose_bytes(raw, display)
    if root is None:
        return None
    value = r.to_python(root, "")
    if r.errors:
        raise RegistryError(sorted(r.errors, key=lambda d: (d.line, d.column)))
    return value


def node_positions(raw: bytes, display: str = "skills.yaml") -> dict[str, tuple[int, int]]:
    """``key path -> (line, column)`` (1-based, counted in the file as an
    editor shows it) for every mapping key (``skills.x``, ``skills.x.path``)
    and every list item (``skills.x.triggers[2]``), following routelens's
    key-path notation. For a key the position is the key's; for a list item
    the item's. Aliased content is not followed. Raises
    :class:`RegistryError` on a YAML-level error."""
    r, root = compose_bytes(raw, display)
    out: dict[str, tuple[int, int]] = {}
    if root is None:
        return out
    todo = [("", root)]
    while todo:
        path, node = todo.pop()
        if node.kind == MAP:
            for i in range(0, len(node.items) - 1, 2):
                k, v = node.items[i], node.items[i + 1]
                if k.kind != SCALAR:
                    continue
                p = f"{path}.{k.value}" if path else str(k.value)
                out.setdefault(p, r.pos(k.start))
                todo.append((p, v))
        elif node.kind == SEQ:
            for i, item in enumerate(node.items):
                p = f"{path}[{i}]"
                out.setdefault(p, r.pos(item.start))
                todo.append((p, item))
    return out


def validate(raw: bytes, display: str = "skills.yaml") -> list[str]:
    """Schema errors of registry bytes as ``"key.path: message"`` strings
    (sorted), or the YAML-level errors; ``[]`` when the text tree satisfies
    the schema. Needs the ``jsonschema`` package (raises ``ImportError``
    without it)."""
    import jsonschema

    try:
        tree = text_tree(raw, display)
    except RegistryError as exc:
        return [str(d) for d in exc.diagnostics]
    validator = jsonschema.Draft7Validator(schema_object())
    errors = []
    for e in validator.iter_errors(tree):
        path = ""
        for part in e.absolute_path:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
        errors.append(f"{path}: {e.message}" if path else e.message)
    return sorted(errors)

