"""Stage 1 of the data's path: bytes -> canonical text.

- :mod:`routelens.text.canonical`: canonical bytes and their hash, editor
  lines, the text of a line range, and the key-line check (docs/formats.md
  §2, §3);
- :mod:`routelens.text.yaml_events`: routelens's own YAML reader over parse
  events (docs/formats.md §1 "Rules of reading", §2), and fragment parsing;
- :mod:`routelens.text.unicode`: the one table of scripts written without
  spaces, NFKC + case folding, stop words (docs/formats.md §6).

Nothing in this package imports a routelens module above it (only the
ground floor: :mod:`routelens.errors`, :mod:`routelens.limits`).
"""
