"""The generated files' exact bytes, pinned by sha256 for every registry the
repository ships and for a synthetic one.

A refactoring must not change a single byte of the compact index or the
debug catalog (``docs/formats.md`` §3, §4: deterministic output). A change
of format changes these digests on purpose, in the same commit as the
contract. (Issue 10: the index became v2, carrying each skill's
``not_when`` and domain terms and the vocabulary of docs/formats.md §3.7;
the catalog carries ``not_when`` and ``routing.destructive_intents``. The
catalogs of registries under 2,000 characters changed once more when their
size budget stopped being checked: ``"ok": true``, docs/formats.md §5.2.
Matcher 6 cut the index's Zipf values down to one decimal instead of
rounding them, and looked an acronym's final ``S`` up as a letter,
docs/formats.md §3.7: the indexes of the bundled registry, the example,
the TUI fixture and three case fixtures changed, and the bundled catalog
with them, through the index size it states.)
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest

from routelens.artifacts.catalog import catalog_bytes
from routelens.artifacts.index_file import index_bytes
from routelens.registry import load_registry

ROOT = Path(__file__).resolve().parents[1]

#: registry (relative to the repository) -> (index sha256, catalog sha256)
PINNED = {
    "skills.yaml": ("9d431a4a191c9c08", "a5357be0590e6d7a"),
    "tests/fixtures/example-skills.yaml": ("bd19095e3239613e", "9462f7b311c4f9c1"),
    "tests/tui/fixtures/routing/skills.yaml": ("63583940bc907d25", "6ae769885d47804d"),
    "tests/fixtures/cases/anchors-merge.yaml": ("84162c6bdd35deeb", "c75bd641fd546581"),
    "tests/fixtures/cases/end-mark-next-key.yaml": ("35afb46013f7e3b0", "eed1c16d588f0229"),
    "tests/fixtures/cases/header-bom-crlf.yaml": ("1f5704c029eb739e", "f3ffc8da9f4e5971"),
    "tests/fixtures/cases/header-bom.yaml": ("f87c0c425829795e", "e0aac2e5fc532c64"),
    "tests/fixtures/cases/header-crlf.yaml": ("801166b8dcf77c99", "dcd7b821ea729e78"),
    "tests/fixtures/cases/header-lf.yaml": ("187c00b229f00483", "20e9c29f74aa26a3"),
    "tests/fixtures/cases/implicit-types-triggers.yaml": ("fe13cdb447c15107", "f30560803c9deb25"),
    "tests/fixtures/cases/line-endings-crlf.yaml": ("f9e79345015c590e", "fbb8a3253c5b031d"),
    "tests/fixtures/cases/line-endings-lf.yaml": ("3a7039a69ee27ebe", "68dedb7d6257f17d"),
    "tests/fixtures/cases/short-triggers.yaml": ("9ab2c08315015b84", "39bc6ed6496af774"),
    "tests/fixtures/cases/unicode-line-separator.yaml": ("24743e595e8d66cd", "0239dac9cc60d996"),
    "tests/fixtures/cases/width-forms.yaml": ("838fb5aafcdd8728", "21647c9ee2cf20d8"),
    "tests/fixtures/cases/yaml11-booleans.yaml": ("af0281bc43689b32", "2fdd79ea60d92242"),
}


def _digests(path: Path, display: str) -> tuple[str, str]:
    reg = load_registry(path, display_name=display)
    idx = index_bytes(reg)
    return (hashlib.sha256(idx).hexdigest()[:16], hashlib.sha256(catalog_bytes(reg, idx)).hexdigest()[:16])


@pytest.mark.parametrize("rel", sorted(PINNED))
def test_generated_bytes_are_pinned(rel: str) -> None:
    assert _digests(ROOT / rel, rel) == PINNED[rel]


def test_generated_bytes_of_a_synthetic_registry_are_pinned(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_build import make_registry
    finally:
        sys.path.pop(0)
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_text(make_registry(300, seed=11), encoding="utf-8")
    (tmp_path / "skills").mkdir()
    assert _digests(reg_path, "skills.yaml") == PINNED_SYNTHETIC


PINNED_SYNTHETIC = ("dbc5f0dd7fae2048", "44f764ec90dc8c8e")
