"""The generated files' exact bytes, pinned by sha256 for every registry the
repository ships and for a synthetic one.

A refactoring must not change a single byte of the compact index or the
debug catalog (``docs/formats.md`` §3, §4: deterministic output). A change
of format changes these digests on purpose, in the same commit as the
contract. (Issue 10: the index became v2, carrying each skill's
``not_when`` and domain terms and the vocabulary of docs/formats.md §3.7;
the catalog carries ``not_when`` and ``routing.destructive_intents``.)
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
    "skills.yaml": ("9c76ee2ae8a7eb96", "585544a48335d22c"),
    "tests/fixtures/example-skills.yaml": ("6e75adbe286beaec", "7e536cc927eef37b"),
    "tests/tui/fixtures/routing/skills.yaml": ("a72c2d4c2641ee03", "6ae769885d47804d"),
    "tests/fixtures/cases/anchors-merge.yaml": ("f6f8969622ca51c6", "1e528f8c3076f299"),
    "tests/fixtures/cases/end-mark-next-key.yaml": ("bc176ba7eb5632c7", "890011fb0e60eca3"),
    "tests/fixtures/cases/header-bom-crlf.yaml": ("1f5704c029eb739e", "19751f1116ec4ba7"),
    "tests/fixtures/cases/header-bom.yaml": ("f87c0c425829795e", "50d306e68f0e3f8f"),
    "tests/fixtures/cases/header-crlf.yaml": ("801166b8dcf77c99", "169a777ecb3c2131"),
    "tests/fixtures/cases/header-lf.yaml": ("187c00b229f00483", "1fa28a26424f91a8"),
    "tests/fixtures/cases/implicit-types-triggers.yaml": ("fe13cdb447c15107", "76f12d9627acce25"),
    "tests/fixtures/cases/line-endings-crlf.yaml": ("f9e79345015c590e", "6b1f6fd2ae37e099"),
    "tests/fixtures/cases/line-endings-lf.yaml": ("3a7039a69ee27ebe", "dcba7097e5046f0b"),
    "tests/fixtures/cases/short-triggers.yaml": ("66c29e46c7382054", "9ebcb8f028a262bb"),
    "tests/fixtures/cases/unicode-line-separator.yaml": ("24743e595e8d66cd", "43629894e435ad27"),
    "tests/fixtures/cases/width-forms.yaml": ("838fb5aafcdd8728", "d8745597cdb255c4"),
    "tests/fixtures/cases/yaml11-booleans.yaml": ("af0281bc43689b32", "ea204b521021a3bc"),
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
