"""The registry's ``routing:`` section read into :class:`RoutingSettings`
(docs/formats.md §1.1): threshold, ambiguity margin, high-risk terms, the
built-in destructive intents, the index's size budget and who writes the
tasks (``audience``). Errors and warnings go to the reader, each at its key.
"""

from __future__ import annotations

import re
from typing import Any

from routelens.registry.model import AUDIENCES, RoutingSettings
from routelens.text.words import closest
from routelens.text.yaml_events import FALSE_WORDS, SCALAR, SEQ, TRUE_WORDS, Node, Reader, join_path

__all__ = ["ROUTING_KEYS", "MISSPELT_CUTOFF", "routing_settings"]

#: The keys of ``routing:`` (docs/formats.md §1.1); others are a warning.
ROUTING_KEYS = ("threshold", "ambiguity_margin", "high_risk", "destructive_intents", "max_index_ratio", "audience")
#: how alike (rapidfuzz ``fuzz.ratio``, 0-100) a key must be to a routing key to be its misspelling (an error)
MISSPELT_CUTOFF = 80
#: A number as YAML 1.2's core schema writes it (no .inf/.nan, no 0x, no 1_000).
_NUMBER_RE = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def routing_settings(r: Reader, v: Any, vn: Node) -> RoutingSettings:
    """The settings of the ``routing:`` value node ``vn``; ``v`` is the
    registry's :class:`~routelens.registry.validate.Validator` (its
    ``mapping``, ``string`` and ``triggers`` checks). A bad value is an
    error at it and leaves that setting at its default; a misspelt key
    (``highrisk``) is an error, since the setting it meant would silently
    stay at its default; another unknown key is a warning."""
    if not v.mapping(vn, "routing", "`routing`"):
        return RoutingSettings()
    vals: dict[str, Any] = {"present": True}
    for key, k2, v2 in r.mapping_pairs(vn, "routing"):
        p = join_path("routing", key)
        d = r.deref(v2)
        if key in ("threshold", "ambiguity_margin", "max_index_ratio"):
            if d.kind != SCALAR:  # a list or mapping: what is wanted is a number, not a string
                r.error(v2.start, p, f"must be a number, not a {'list' if d.kind == SEQ else 'mapping'}")
                continue
            s = v.string(v2, p, key)
            if s is None:
                continue
            if not _NUMBER_RE.match(s.strip()):
                r.error(v2.start, p, f"must be a number, got {s!r}")
                continue
            num = float(s)
            lo, hi = (0.0, 100.0) if key != "max_index_ratio" else (0.0, 1.0)
            if not (lo <= num <= hi) or num != num or (key == "max_index_ratio" and num == 0):
                r.error(v2.start, p, f"must be a number in {'(0, 1]' if key == 'max_index_ratio' else '[0, 100]'}, got {s}")
                continue
            vals[key] = int(num) if num.is_integer() and key != "max_index_ratio" else num
        elif key == "destructive_intents":
            word = d.value if d.kind == SCALAR and d.plain else None
            if word in TRUE_WORDS:
                vals[key] = True
            elif word in FALSE_WORDS:
                vals[key] = False
            else:
                r.error(v2.start, p, "must be true or false (plain, not quoted)")
        elif key == "audience":
            if d.kind == SCALAR and d.value in AUDIENCES:
                vals[key] = d.value
            else:
                shown = repr(d.value) if d.kind == SCALAR else "a list" if d.kind == SEQ else "a mapping"
                r.error(v2.start, p, f"must be one of {', '.join(AUDIENCES)}, got {shown} (team: the organisation's "
                                     "own people write the tasks, the default; public: its customers do)")
        elif key == "high_risk":
            if d.kind == SEQ and not d.items:
                vals["high_risk"] = ()
            else:
                vals["high_risk"] = v.triggers(v2, p)
        else:
            misspelt = closest(key, ROUTING_KEYS, MISSPELT_CUTOFF)
            if misspelt is not None:
                # a misspelt setting silently changes routing (`highrisk:` switched the high-risk terms off): an
                # error, not a warning
                r.error(k2.start, p, f"unknown routing key: did you mean `{misspelt}`? (as written it "
                                     f"would be ignored and `{misspelt}` left at its default)")
            else:
                hint = closest(key, ROUTING_KEYS)
                r.warn(k2.start, p, "unknown routing key; ignored" + (f"; did you mean `{hint}`?" if hint else ""))
    return RoutingSettings(**vals)
