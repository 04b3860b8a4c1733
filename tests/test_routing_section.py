"""The registry's `routing:` section read from its own lines (the index's
settings check, docs/formats.md §6.6) without splitting the whole registry:
a cold route at 100,000 skills spent 0.1 s splitting 28 MB into lines for
it. The lines must be those the whole split gives."""

from pathlib import Path

import pytest

from routelens.routing.sections import routing_line, routing_section
from routelens.text.canonical import editor_lines

ROOT = Path(__file__).resolve().parents[1]


def _by_splitting(text: str):
    """The section as the check read it before: every line of the text, then the section's."""
    lines = editor_lines(text)
    at = routing_line(text)
    if at is None:
        return None
    end = at + 1
    while end < len(lines) and (lines[end][:1] in ("", " ", "\t", "#")):
        end += 1
    while end > at + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return at, lines[at:end]


TEXTS = [
    "schema_version: 1\nskills: {}\nrouting:\n  threshold: 80\n",
    "schema_version: 1\nrouting:\n  threshold: 80\n  # a comment\n\nskills: {}\n",
    "routing: {threshold: 70}\nschema_version: 1\nskills: {}\n",
    "schema_version: 1\nskills: {}\nrouting:\n  high_risk:\n    - rm -rf\n\n# trailing comment\n\n",
    "schema_version: 1\nskills: {}\nrouting:\n  threshold: 80",  # no final LF
    "schema_version: 1\nskills: {}\n",  # no routing section
    "schema_version: 1\nskills: {}\n? routing\n: {threshold: 80}\n",
    "schema_version: 1\nskills: {}\nrouting:\n\tthreshold: 80\n#x\nrules: {}\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_routing_section_is_what_splitting_gives(text):
    assert routing_section(text) == _by_splitting(text)


@pytest.mark.parametrize("registry", ["skills.yaml", *sorted(str(p.relative_to(ROOT)) for p in
                                                            (ROOT / "benchmarks" / "registries").glob("*/skills.yaml"))])
def test_routing_section_of_every_shipped_registry(registry):
    text = (ROOT / registry).read_text(encoding="utf-8")
    got = routing_section(text)
    assert got is not None and got == _by_splitting(text)
    assert got[1][0] == "routing:"
