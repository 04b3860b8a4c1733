"""Stage 2 of the data's path: the canonical registry (``skills.yaml``), the
single source of truth (docs/formats.md §1, §2).

- :mod:`routelens.registry.model`: :class:`Skill`, :class:`Composition`,
  :class:`Rule`, :class:`RoutingSettings` (the only defaults),
  :class:`Registry`;
- :mod:`routelens.registry.validate`: a node tree -> :class:`Registry`, all
  errors with file:line:col and key path;
- :mod:`routelens.registry.load`: bytes or a file -> :class:`Registry`, or a
  :class:`RegistryError` with every error.

This face re-exports what callers use (the names of the single module this
package replaced included: the canonical-text helpers and
:func:`parse_fragment` live in :mod:`routelens.text`).
"""

from routelens.errors import Diagnostic, RegistryError
from routelens.limits import LIMITS
from routelens.registry.load import load_registry, parse_registry, read_registry_bytes
from routelens.registry.model import (
    ID_RE,
    PRIORITIES,
    STATUSES,
    Composition,
    Registry,
    RoutingSettings,
    Rule,
    Skill,
    iter_entries,
)
from routelens.text.canonical import canonical_bytes, decode_canonical, source_sha256
from routelens.text.yaml_events import NULL_WORDS, parse_fragment

__all__ = [
    "Diagnostic",
    "RegistryError",
    "Skill",
    "Composition",
    "Rule",
    "RoutingSettings",
    "Registry",
    "load_registry",
    "parse_registry",
    "read_registry_bytes",
    "iter_entries",
    "ID_RE",
    "PRIORITIES",
    "STATUSES",
    "LIMITS",
    # in routelens.text, re-exported for callers of the former single module
    "canonical_bytes",
    "decode_canonical",
    "source_sha256",
    "parse_fragment",
    "NULL_WORDS",
]
