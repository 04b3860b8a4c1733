"""routelens: a canonical YAML skill registry, a compact routing index built
from it, a router that falls back to the full registry, and a Textual UI.

The package is one folder per stage of the data's path (README,
"Architecture"): :mod:`routelens.text` < :mod:`routelens.registry` <
:mod:`routelens.artifacts` < :mod:`routelens.routing` < :mod:`routelens.tools`
< the front ends (:mod:`routelens.cli`, :mod:`routelens.mcp_server`,
:mod:`routelens.tui`). The public core API (no Textual import happens here):

- :func:`routelens.registry.load_registry` / :func:`parse_registry` -> :class:`Registry`
  (also importable from here)
- :func:`routelens.artifacts.build.build` / :func:`routelens.artifacts.write.write_generated`
  / :func:`routelens.artifacts.check.check` / :func:`routelens.artifacts.freshness.freshness`
- :func:`routelens.artifacts.build.compute_stats`
- :class:`routelens.routing.router.Router` / :func:`routelens.routing.router.route`
- :mod:`routelens.errors`: :class:`Diagnostic`, :class:`RoutelensError` and its subclasses
"""

__version__ = "0.1.0"

from routelens.errors import RoutelensError  # noqa: E402
from routelens.registry import (  # noqa: E402
    Composition,
    Diagnostic,
    Registry,
    RegistryError,
    Rule,
    RoutingSettings,
    Skill,
    load_registry,
    parse_registry,
)

__all__ = [
    "__version__",
    "Composition",
    "Diagnostic",
    "Registry",
    "RegistryError",
    "RoutelensError",
    "Rule",
    "RoutingSettings",
    "Skill",
    "load_registry",
    "parse_registry",
]
