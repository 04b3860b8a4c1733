"""Where routelens finds and puts its files, and the lexical rule for a
relative path that must stay inside a folder.

- the registry used when none is named (:func:`default_registry`): found
  like git finds its repository (:func:`find_registry`), never the bundled
  example silently; the bundled example only when asked (``--demo``,
  :func:`bundled_registry`);
- the generated folder beside it (:data:`GENERATED_DIR`,
  :func:`default_out_dir`) and the two generated files in it
  (:data:`INDEX_NAME`, :data:`CATALOG_NAME`, docs/formats.md §3, §4);
- :func:`is_absolute_or_escaping`, the check a skill's ``path`` passes
  (docs/formats.md §1: "never absolute, never outside it").

Nothing in this module imports another routelens module but
:mod:`routelens.errors`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from routelens.errors import NoRegistryError

__all__ = [
    "INDEX_NAME",
    "CATALOG_NAME",
    "GENERATED_DIR",
    "REGISTRY_ENV",
    "REGISTRY_NAME",
    "find_registry",
    "default_registry",
    "bundled_registry",
    "default_out_dir",
    "default_index_path",
    "is_absolute_or_escaping",
    "cache_dir",
]

#: The compact index's file name in the generated folder (docs/formats.md §3).
INDEX_NAME = "routing.min.json"
#: The debug catalog's file name in the generated folder (docs/formats.md §4).
CATALOG_NAME = "catalog.json"
#: The generated folder's name, beside the registry.
GENERATED_DIR = "generated"
#: Environment variable naming the registry when no ``--registry`` is given.
REGISTRY_ENV = "ROUTELENS_REGISTRY"

#: The registry's file name, looked for by :func:`find_registry`.
REGISTRY_NAME = "skills.yaml"

#: the routelens source checkout's top folder (``src/routelens/paths.py`` -> ``.``)
_CHECKOUT = Path(__file__).resolve().parents[2]
#: the bundled example inside the package (links in a checkout, files in a wheel)
_PACKAGED_EXAMPLE = Path(__file__).resolve().parent / "example" / REGISTRY_NAME


def find_registry(start: str | Path | None = None) -> Path | None:
    """The ``skills.yaml`` routelens uses when none is named, found like git
    finds its repository: in ``start`` (default: the current folder), then
    in each parent folder, up to and including the top of the git work tree
    (a folder holding ``.git``) or the filesystem root. None when there is
    none. Without ``start`` the path is relative to the current folder
    (``skills.yaml``, ``../skills.yaml``), as people name it."""
    folder = Path(os.path.abspath(start if start is not None else "."))
    while True:
        candidate = folder / REGISTRY_NAME
        if candidate.exists() or candidate.is_symlink():
            return Path(os.path.relpath(candidate)) if start is None else candidate
        if (folder / ".git").exists() or folder.parent == folder:
            return None
        folder = folder.parent


def _search_end(start: Path) -> Path:
    """The last folder :func:`find_registry` looks in from ``start``."""
    absolute = Path(os.path.abspath(start))
    while not (absolute / ".git").exists() and absolute.parent != absolute:
        absolute = absolute.parent
    return absolute


def default_registry(start: str | Path | None = None) -> Path:
    """The registry when ``--registry`` is not given: ``$ROUTELENS_REGISTRY``
    when set (a file, or a folder holding a ``skills.yaml``, as
    ``--registry`` takes it), else :func:`find_registry`. Raises
    :class:`~routelens.errors.NoRegistryError` saying where it looked and
    what to do (``routelens init``, ``--registry``, ``--demo``) when there
    is none: the bundled example is never used without ``--demo``."""
    env = os.environ.get(REGISTRY_ENV)
    if env:
        named = Path(env)
        if named.is_dir() and (named / REGISTRY_NAME).is_file():  # a folder, as --registry takes it
            return named / REGISTRY_NAME
        return named
    found = find_registry(start)
    if found is not None:
        return found
    here = Path(os.path.abspath(start if start is not None else "."))
    top = _search_end(here)
    where = f"{here} or its parents" + (f" (up to {top})" if top != here else "")
    raise NoRegistryError(
        f"no {REGISTRY_NAME} in {where}. Create one with `routelens init`, name one with --registry PATH "
        f"or ${REGISTRY_ENV}, or try the bundled example with --demo")


def bundled_registry() -> Path:
    """The bundled example registry (53 skills, English and Japanese), used
    only when asked for (``--demo``): inside the installed package, else at
    the top of the routelens source checkout. Raises
    :class:`~routelens.errors.NoRegistryError` when this installation has
    none."""
    for candidate in (_PACKAGED_EXAMPLE, _CHECKOUT / REGISTRY_NAME):
        if candidate.is_file():
            return candidate
    raise NoRegistryError("the bundled example is not part of this installation")


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


def cache_dir() -> Path | None:
    """The folder of routelens's caches (the matcher cache, docs/formats.md
    §11.4, and the word-frequency cache of :mod:`routelens.artifacts.wordfreq_cache`),
    or None when they are switched off (``ROUTELENS_MATCHER_CACHE`` =
    ``off``, ``0``, ``no`` or ``false``): ``$ROUTELENS_MATCHER_CACHE`` when
    it names a folder, else ``$XDG_CACHE_HOME/routelens/matchers`` (default
    ``~/.cache/routelens/matchers``)."""
    env = os.environ.get("ROUTELENS_MATCHER_CACHE", "").strip()
    if env.lower() in ("off", "0", "no", "false"):
        return None
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "routelens" / "matchers"
