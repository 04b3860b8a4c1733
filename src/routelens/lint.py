"""Former home of :mod:`routelens.tools.lint`; kept one release so that old imports work.
New code imports :mod:`routelens.tools.lint`."""

from routelens.text.unicode import JA_STOP_WORDS, STOP_WORDS
from routelens.tools.lint import (
    BUDGET_ENV,
    CHARS_PER_TOKEN,
    CLAUDE_CODE_BUDGET_FRACTION,
    CLAUDE_CODE_ENTRY_CAP,
    DEFAULT_CONTEXT_WINDOW,
    Finding,
    LintReport,
    lint,
    listing_budget,
    listing_line,
)

__all__ = [
    "STOP_WORDS",
    "JA_STOP_WORDS",
    "Finding",
    "LintReport",
    "lint",
    "listing_budget",
    "listing_line",
    "CLAUDE_CODE_BUDGET_FRACTION",
    "CLAUDE_CODE_ENTRY_CAP",
    "DEFAULT_CONTEXT_WINDOW",
    "CHARS_PER_TOKEN",
    "BUDGET_ENV",
]
