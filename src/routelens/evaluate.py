"""Former home of :mod:`routelens.tools.evaluate`; kept one release so that old imports work.
New code imports :mod:`routelens.tools.evaluate`."""

from routelens.tools.evaluate import (
    QUALITY_BAR,
    Case,
    CaseResult,
    CasesError,
    EvalReport,
    check_ids,
    evaluate,
    load_cases,
    parse_cases,
)

__all__ = [
    "QUALITY_BAR",
    "Case",
    "CaseResult",
    "EvalReport",
    "CasesError",
    "load_cases",
    "parse_cases",
    "check_ids",
    "evaluate",
]
