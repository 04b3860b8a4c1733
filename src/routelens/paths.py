"""Where routelens finds and puts its files, and the lexical rule for a
relative path that must stay inside a folder.

- the registry used when none is named (:func:`bundled_registry`);
- the generated folder beside it (:data:`GENERATED_DIR`,
  :func:`default_out_dir`) and the two generated files in it
  (:data:`INDEX_NAME`, :data:`CATALOG_NAME`, docs/formats.md §3, §4);
- :func:`is_absolute_or_escaping`, the check a skill's ``path`` passes
  (docs/formats.md §1: "never absolute, never outside it").

Nothing in this module imports another routelens module.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = [
    "INDEX_NAME",
    "CATALOG_NAME",
    "GENERATED_DIR",
    "REGISTRY_ENV",
    "bundled_registry",
    "default_out_dir",
    "default_index_path",
    "is_absolute_or_escaping",
]

#: The compact index's file name in the generated folder (docs/formats.md §3).
INDEX_NAME = "routing.min.json"
#: The debug catalog's file name in the generated folder (docs/formats.md §4).
CATALOG_NAME = "catalog.json"
#: The generated folder's name, beside the registry.
GENERATED_DIR = "generated"
#: Environment variable naming the registry when no ``--registry`` is given.
REGISTRY_ENV = "ROUTELENS_REGISTRY"

#: the repository's top folder (``src/routelens/paths.py`` -> ``.``)
_CHECKOUT = Path(__file__).resolve().parents[2]


def bundled_registry() -> Path:
    """The registry used when none is named: ``$ROUTELENS_REGISTRY``, else
    ``./skills.yaml`` when it exists, else the ``skills.yaml`` bundled at the
    top of the routelens checkout. The file need not exist."""
    env = os.environ.get(REGISTRY_ENV)
    if env:
        return Path(env)
    here = Path("skills.yaml")
    if here.exists():
        return here
    return _CHECKOUT / "skills.yaml"


def default_out_dir(registry_path: str | Path) -> Path:
    """The generated folder of a registry: ``generated/`` beside it."""
    return Path(registry_path).parent / GENERATED_DIR


def default_index_path(registry_path: str | Path) -> Path:
    """The compact index of a registry: ``generated/routing.min.json`` beside it."""
    return default_out_dir(registry_path) / INDEX_NAME


_DRIVE = re.compile(r"^[A-Za-z]:")
_SEPARATORS = re.compile(r"[\\/]")


def is_absolute_or_escaping(rel: str) -> bool:
    """True for a path that is absolute (``/x``, ``\\x``, ``C:x``) or has a
    ``..`` part (``/`` and ``\\`` both separate parts), judged on the text
    alone, whatever the operating system (docs/formats.md §1: a skill's
    ``path`` is relative to the registry's folder, never absolute, never
    outside it). Symlinks are checked where a body is opened."""
    if ".." not in rel and rel[:1] not in ("/", "\\") and rel[1:2] != ":":
        return False
    if rel.startswith(("/", "\\")) or _DRIVE.match(rel):
        return True
    return ".." in _SEPARATORS.split(rel)
