"""Former home of :mod:`routelens.tools.prompt`; kept one release so that old imports work.
New code imports :mod:`routelens.tools.prompt`."""

from routelens.tools.prompt import (
    HEADER,
    format_stats,
    layer1_block,
    layer1_entries,
    layer1_stats,
    one_line,
)

__all__ = [
    "HEADER",
    "one_line",
    "layer1_entries",
    "layer1_block",
    "layer1_stats",
    "format_stats",
]
