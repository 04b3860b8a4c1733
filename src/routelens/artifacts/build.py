"""Building both generated files in memory (docs/formats.md §3, §4), and
their size statistics (§5). Nothing is written here (see
:mod:`routelens.artifacts.write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from routelens.artifacts.catalog import catalog_bytes
from routelens.artifacts.index_file import index_bytes
from routelens.artifacts.sizes import measure, size_stats
from routelens.gcpause import gc_paused
from routelens.registry.model import Registry

__all__ = ["BuildOutput", "build", "compute_stats"]


@dataclass
class BuildOutput:
    """The two generated files' bytes for one registry."""

    index: bytes
    catalog: bytes


def build(reg: Registry) -> BuildOutput:
    """Build both generated files in memory (nothing is written): the
    exact bytes of ``routing.min.json`` (docs/formats.md §3) and
    ``catalog.json`` (§4)."""
    with gc_paused():
        idx = index_bytes(reg)
        return BuildOutput(idx, catalog_bytes(reg, idx))


def compute_stats(reg: Registry, index_data: bytes | None = None, catalog_data: bytes | None = None) -> dict[str, Any]:
    """Section 5 statistics for a registry; builds the index and catalog in
    memory when their bytes are not given."""
    idx = index_data if index_data is not None else index_bytes(reg)
    cat = catalog_data if catalog_data is not None else catalog_bytes(reg, idx)
    cm = measure(cat.decode("utf-8"))
    return size_stats(reg, idx, (cm["chars"], cm["bytes"], cm["lines"]))
