"""The generated files' exact bytes, pinned by sha256 for every registry the
repository ships and for a synthetic one.

A refactoring must not change a single byte of the compact index or the
debug catalog (``docs/formats.md`` §3, §4: deterministic output). A change
of format changes these digests on purpose, in the same commit as the
contract.
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
    "skills.yaml": ("c1c0fddb2f0b32e8", "8e0ed8377bd6466c"),
    "tests/fixtures/example-skills.yaml": ("47ebdb6e6e1fb9ef", "f33b7733fe683dec"),
    "tests/tui/fixtures/routing/skills.yaml": ("1be91fa88a4a9d09", "4ebd39bc7f54b9d8"),
    "tests/fixtures/cases/anchors-merge.yaml": ("c322fb4ea3474b5a", "ed488bff35639b3c"),
    "tests/fixtures/cases/end-mark-next-key.yaml": ("73679ae141cc3d85", "d651e9a3875ac385"),
    "tests/fixtures/cases/header-bom-crlf.yaml": ("5355a0760f937a7b", "868994e13d49cb64"),
    "tests/fixtures/cases/header-bom.yaml": ("5477fff7b258aff7", "347ccd5c95b3f72c"),
    "tests/fixtures/cases/header-crlf.yaml": ("3dbe33dd08db6a0c", "5333cdb29e8e9d4d"),
    "tests/fixtures/cases/header-lf.yaml": ("f140c0a9858579ac", "f35cd81f6ab18f3d"),
    "tests/fixtures/cases/implicit-types-triggers.yaml": ("c591f10c88f0aa24", "bcd5e259d7a0cd2f"),
    "tests/fixtures/cases/line-endings-crlf.yaml": ("e92156ca27a1643d", "ebed628107480453"),
    "tests/fixtures/cases/line-endings-lf.yaml": ("ea8abfe7fa5bb5ba", "7da08ab915062724"),
    "tests/fixtures/cases/short-triggers.yaml": ("fa46476a9547753c", "92665dbb9d014fb2"),
    "tests/fixtures/cases/unicode-line-separator.yaml": ("8bcce21e807dc334", "7da60648bdc69cad"),
    "tests/fixtures/cases/width-forms.yaml": ("c8d1d727b37f4c36", "cb8c2f88478e9931"),
    "tests/fixtures/cases/yaml11-booleans.yaml": ("8f7e97b0c7cc87a3", "0e3f1c8ef7d2166c"),
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


PINNED_SYNTHETIC = ("f5db85bb218a8fff", "c51cc515f043c59f")
