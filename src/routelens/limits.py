"""The bounds routelens enforces on what it reads (docs/formats.md §8,
README "Security and limits"). The values are part of the contract: tests assert them.

Nothing in this module imports another routelens module.
"""

from __future__ import annotations

__all__ = ["LIMITS", "AUTO_FIXES_MAX_SKILLS"]

#: name -> bound; every registry read, fragment read and body read checks them.
#: Every file is read through :func:`routelens.fileio.read_bounded` with one of
#: the ``max_*_bytes`` values as its limit.
LIMITS = {
    "max_registry_bytes": 64 * 1024 * 1024,  # bytes of skills.yaml
    "max_alias_expansion": 10_000,  # nodes one alias may expand to
    "max_total_alias_expansion": 100_000,  # nodes all aliases together may expand to
    "max_depth": 64,  # nesting of collections
    "max_triggers_per_entry": 256,  # triggers of one skill or rule
    "max_trigger_chars": 200,  # characters of one trigger
    "max_errors": 200,  # diagnostics reported before giving up
    "max_body_bytes": 16 * 1024 * 1024,  # bytes of one skill body the catalog (and the TUI) reads
    "max_mcp_body_bytes": 1024 * 1024,  # bytes of one body the MCP tool load_skill returns
    "max_index_bytes": 64 * 1024 * 1024,  # bytes of generated/routing.min.json read back
    "max_catalog_bytes": 256 * 1024 * 1024,  # bytes of generated/catalog.json read back
    "max_cases_bytes": 64 * 1024 * 1024,  # bytes of a labelled cases file (routelens eval)
    "max_skill_md_bytes": 4 * 1024 * 1024,  # bytes of one SKILL.md (routelens import)
    "max_log_bytes": 256 * 1024 * 1024,  # bytes of a decision log read back
    "max_matcher_cache_bytes": 1024 * 1024 * 1024,  # bytes of one matcher cache file (docs/formats.md §11.4)
}

#: Above this many skills a fallback's fixes are checked only when asked (``route --fixes``, the TUI's
#: F7): each check parses and indexes a patched copy of the whole registry, seconds each at 10,000
#: skills, so a route that fell back would wait its whole ``--fixes-seconds`` (docs/formats.md §15).
AUTO_FIXES_MAX_SKILLS = 5_000
