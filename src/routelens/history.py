"""Former home of :mod:`routelens.tools.history`; kept one release so that old imports work.
New code imports :mod:`routelens.tools.history`."""

from routelens.tools.history import (
    MAX_COMMITS,
    HistoryError,
    common_prefix_len,
    diff_ids,
    format_since,
    index_commit_summary,
    repo_of,
    since,
)

__all__ = [
    "HistoryError",
    "repo_of",
    "since",
    "diff_ids",
    "common_prefix_len",
    "index_commit_summary",
    "format_since",
    "MAX_COMMITS",
]
