"""Building both generated files in memory (docs/formats.md §3, §4), and
their size statistics (§5). Nothing is written here (see
:mod:`routelens.artifacts.write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from routelens.artifacts.catalog import CatalogFrame, SkillsChunks, catalog_and_stats, skills_chunks
from routelens.artifacts.index_file import index_bytes
from routelens.artifacts.sizes import measure, size_stats
from routelens.artifacts.vocabulary import TriggerFacts, WordFacts
from routelens.gcpause import gc_paused
from routelens.registry.model import Registry

__all__ = ["BuildOutput", "build", "compute_stats"]


@dataclass
class BuildOutput:
    """The two generated files' bytes for one registry, and (when built by
    :func:`build`) their size statistics (docs/formats.md §5, the dict of
    :func:`compute_stats`)."""

    index: bytes
    catalog: bytes
    stats: dict[str, Any] | None = None


class Helper(Protocol):
    """What another process prepares for :func:`build` (``routelens build
    --jobs 2``): each method is called once, when its answer is needed, and
    gives None when it has none (the work is then done here)."""

    #: the catalog's skills (in id order) before this index are the other process's to render
    split: int

    def trigger_facts(self) -> TriggerFacts | None:
        """:func:`routelens.artifacts.vocabulary.triggers_facts` of the registry."""

    def word_facts(self) -> WordFacts | None:
        """:func:`routelens.artifacts.vocabulary.words_facts` of the registry."""

    def skills(self) -> SkillsChunks | None:
        """:func:`routelens.artifacts.catalog.skills_chunks` of the registry's skills ``0:split``."""

    def frame(self) -> CatalogFrame | None:
        """:func:`routelens.artifacts.catalog.catalog_frame` of the registry (asked after :meth:`word_facts`)."""


def build(reg: Registry, helper: Helper | None = None,
          bodies: dict[str, dict[str, Any]] | None = None) -> BuildOutput:
    """Build both generated files in memory (nothing is written): the
    exact bytes of ``routing.min.json`` (docs/formats.md §3) and
    ``catalog.json`` (§4). ``helper``, when given, gives what the index's
    vocabulary takes from the triggers alone while the index is built and,
    once it is and this process has rendered the catalog's skills from
    ``helper.split`` on, the catalog's skills before them and the rest of
    its text but the statistics, made meanwhile by another process
    (``routelens build --jobs 2``); what it does not give is made here. The
    bytes are the same either way. ``bodies``, when given (a dict), receives
    what the catalog says about each body (skill path ->
    :func:`routelens.artifacts.bodies.body_info`'s dict), as the index's
    terms read them (for the warnings:
    :func:`routelens.artifacts.bodies.body_problems`)."""
    if bodies is None:
        bodies = {}  # each body read once: for the index's terms and the catalog
    with gc_paused():
        frame = base = None
        if helper is None:
            idx = index_bytes(reg, bodies)
            chunks = None
        else:
            idx = index_bytes(reg, bodies, helper.trigger_facts, helper.word_facts)
            frame = helper.frame()
            # the index's and the registry's figures while the other process still renders
            base = size_stats(reg, idx, (0, 0, 0), frame[2] if frame is not None else None)
            split = min(max(helper.split, 0), len(reg.skills))
            mine = skills_chunks(reg, bodies, split)
            theirs = helper.skills()
            if theirs is None:
                theirs = skills_chunks(reg, bodies, 0, split)
            chunks = (theirs[0] + mine[0], theirs[1] + mine[1], theirs[2] + mine[2])
        cat, stats = catalog_and_stats(reg, idx, bodies, chunks, frame, base)
        return BuildOutput(idx, cat, stats)


def compute_stats(reg: Registry, index_data: bytes | None = None, catalog_data: bytes | None = None) -> dict[str, Any]:
    """Section 5 statistics for a registry; builds the index and catalog in
    memory when their bytes are not given (a :class:`BuildOutput` from
    :func:`build` carries the same dict as ``stats``)."""
    idx = index_data if index_data is not None else index_bytes(reg)
    if catalog_data is None:  # the catalog states its own size: no second measure
        with gc_paused():
            return catalog_and_stats(reg, idx)[1]
    cat = catalog_data
    cm = measure(cat.decode("utf-8"))
    return size_stats(reg, idx, (cm["chars"], cm["bytes"], cm["lines"]))
