"""routelens: a canonical YAML skill registry, a compact routing index built
from it, a router that falls back to the full registry, and a Textual UI.

The public core API (no Textual import happens here):

- :func:`routelens.registry.load_registry` / :func:`parse_registry` -> :class:`Registry`
- :func:`routelens.index.build` / :func:`routelens.index.check` / :func:`routelens.index.freshness`
- :func:`routelens.stats.compute_stats`
- :func:`routelens.router.route`
"""

__version__ = "0.1.0"

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
    "Rule",
    "RoutingSettings",
    "Skill",
    "load_registry",
    "parse_registry",
]
