"""Former home of trigger matching; kept one release so that old imports
work. New code imports :mod:`routelens.routing.matching`."""

from routelens.routing.matching import (
    FUZZY_CAP,
    MATCHER_VERSION,
    MAX_TASK_CHARS,
    NEAR_MISS_FLOOR,
    SHORT_TRIGGER_CHARS,
    Match,
    PreparedTask,
    TriggerMatcher,
    normalize,
    normalize_text,
    prepare,
    prepare_tail,
    stem,
    tokenize,
    word_similarity,
)

__all__ = [
    "MATCHER_VERSION",
    "MAX_TASK_CHARS",
    "SHORT_TRIGGER_CHARS",
    "FUZZY_CAP",
    "NEAR_MISS_FLOOR",
    "Match",
    "PreparedTask",
    "TriggerMatcher",
    "normalize",
    "normalize_text",
    "tokenize",
    "stem",
    "word_similarity",
    "prepare",
    "prepare_tail",
]
