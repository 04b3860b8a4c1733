"""Former home of the size statistics; kept one release so that old imports
work. New code imports :mod:`routelens.artifacts.sizes` and
:func:`routelens.artifacts.build.compute_stats`.

Assigning a name here (``monkeypatch.setattr(routelens.stats,
"token_count", ...)``, as tests do to pin token counts) also assigns it in
:mod:`routelens.artifacts.sizes`, where the Layer-1 figures look it up.
"""

import sys
import types

from routelens.artifacts import sizes as _sizes
from routelens.artifacts.build import compute_stats
from routelens.artifacts.sizes import measure, size_stats, token_count, top_contributors

__all__ = ["size_stats", "compute_stats", "measure", "top_contributors", "token_count"]


class _ForwardingModule(types.ModuleType):
    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(_sizes, name):
            setattr(_sizes, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _ForwardingModule
