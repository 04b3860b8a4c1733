"""Former home of :mod:`routelens.tools.schema`; kept one release so that old imports work.
New code imports :mod:`routelens.tools.schema`."""

from routelens.tools.schema import (
    SCHEMA_RESOURCE,
    node_positions,
    schema_object,
    schema_text,
    text_tree,
    validate,
)

__all__ = [
    "SCHEMA_RESOURCE",
    "schema_text",
    "schema_object",
    "text_tree",
    "node_positions",
    "validate",
]
