"""Former home of the index, the catalog, writing, freshness and check; kept
one release so that old imports work. New code imports the modules of
:mod:`routelens.artifacts` (and :mod:`routelens.paths` for file names)."""

from routelens.artifacts.bodies import body_info, resolve_body_path
from routelens.artifacts.build import BuildOutput, build
from routelens.artifacts.catalog import catalog_bytes, catalog_object
from routelens.artifacts.check import CheckResult, check
from routelens.artifacts.freshness import Freshness, freshness, index_problem
from routelens.artifacts.index_file import (
    COMPOSITION_FIELDS,
    INDEX_VERSION,
    RULE_FIELDS,
    SKILL_FIELDS,
    CompactIndex,
    index_bytes,
    index_object,
    load_index,
    parse_index,
)
from routelens.artifacts.write import write_generated
from routelens.errors import BuildError, IndexInvalidError
from routelens.paths import CATALOG_NAME, INDEX_NAME

IndexInvalid = IndexInvalidError  # the name before the error hierarchy

__all__ = [
    "INDEX_NAME",
    "CATALOG_NAME",
    "INDEX_VERSION",
    "SKILL_FIELDS",
    "COMPOSITION_FIELDS",
    "RULE_FIELDS",
    "CompactIndex",
    "IndexInvalid",
    "IndexInvalidError",
    "BuildError",
    "BuildOutput",
    "Freshness",
    "CheckResult",
    "index_object",
    "index_bytes",
    "catalog_object",
    "catalog_bytes",
    "build",
    "write_generated",
    "parse_index",
    "load_index",
    "freshness",
    "index_problem",
    "check",
    "body_info",
    "resolve_body_path",
]
