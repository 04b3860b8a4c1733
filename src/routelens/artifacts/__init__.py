"""Stage 3 of the data's path: Registry -> the generated files
(docs/formats.md §3-§5), and judging them.

- :mod:`~routelens.artifacts.jsonfmt`: the compact encoder and the pretty printer;
- :mod:`~routelens.artifacts.index_file`: the compact index's bytes, and reading it back;
- :mod:`~routelens.artifacts.bodies`: skill body paths and what the catalog says about a body;
- :mod:`~routelens.artifacts.sizes`: size statistics (§5) and token counts;
- :mod:`~routelens.artifacts.catalog`: the debug catalog's bytes;
- :mod:`~routelens.artifacts.build`: both files in memory, and their statistics;
- :mod:`~routelens.artifacts.write`: writing them atomically, as a pair;
- :mod:`~routelens.artifacts.freshness`: may an index be trusted for the registry now?
- :mod:`~routelens.artifacts.check`: are the files on disk a fresh build within budget?

Nothing in this package imports a routelens module above it.
"""
