"""``routelens schema``: print the JSON Schema of skills.yaml."""

from __future__ import annotations

import sys
from importlib import resources

from routelens.tools.schema import SCHEMA_RESOURCE, schema_text


def register(sub, common) -> None:
    p = sub.add_parser(
        "schema", help="print the JSON Schema of skills.yaml (for editors)",
        description="Print the JSON Schema (draft-07) of the registry, shipped in the package as "
        "routelens/data/skills.schema.json. Point your editor at it, e.g. with the first line "
        "`# yaml-language-server: $schema=./skills.schema.json` after `routelens schema > skills.schema.json`.")
    p.add_argument("--path", action="store_true", help="print the installed schema file's path instead")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.path:
        print(resources.files("routelens").joinpath(SCHEMA_RESOURCE))
        return 0
    sys.stdout.write(schema_text())
    return 0
