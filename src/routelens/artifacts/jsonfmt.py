"""JSON as routelens writes it: the one compact encoder (the compact index,
docs/formats.md §3) and a fast, exact pretty printer (the debug catalog,
§4). Both write UTF-8 text without ASCII escaping.

Nothing in this module imports a routelens module.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["compact", "encode_str", "pretty", "pretty_into", "LITERALS", "json_problem"]

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
#: A JSON string literal of a ``str``, quotes included (the C implementation when available).
encode_str = json.encoder.encode_basestring
#: JSON literals of None, True, False.
LITERALS = {None: "null", True: "true", False: "false"}


def compact(obj: Any) -> str:
    """``obj`` as compact JSON text: no spaces, no ASCII escaping, keys in
    dict order (docs/formats.md §3: "UTF-8 without ASCII escaping, no
    spaces")."""
    return _COMPACT.encode(obj)


def pretty_into(o: Any, pad: str, out: list[str]) -> None:
    """Append the chunks of ``json.dumps(o, ensure_ascii=False, indent=2)``
    at the indentation ``pad`` (a LF followed by spaces) to ``out``. The
    stdlib's pretty printer runs in pure Python, one generator per value;
    this one writes a scalar member together with its key and joins whole
    lists of strings in C. It is exact for what routelens writes (dicts with
    string keys, lists, strings, ints, finite floats, bools, None) and raises
    ``TypeError`` for anything else."""
    t = type(o)
    if t is dict:
        if not o:
            out.append("{}")
            return
        inner = pad + "  "
        sep = "{" + inner
        enc = encode_str
        for k, v in o.items():
            if type(k) is not str:
                raise TypeError("non-string key")
            tv = type(v)
            if tv is str:
                out.append(f"{sep}{enc(k)}: {enc(v)}")
            elif tv is int:
                out.append(f"{sep}{enc(k)}: {int.__repr__(v)}")
            elif v is None or tv is bool:
                out.append(f"{sep}{enc(k)}: {LITERALS[v]}")
            else:
                out.append(f"{sep}{enc(k)}: ")
                pretty_into(v, inner, out)
            sep = "," + inner
        out.append(pad + "}")
    elif t is list or t is tuple:
        if not o:
            out.append("[]")
            return
        inner = pad + "  "
        if type(o[0]) is str and all(type(x) is str for x in o):
            out.append("[" + inner + ("," + inner).join(map(encode_str, o)) + pad + "]")
            return
        sep = "[" + inner
        for v in o:
            out.append(sep)
            pretty_into(v, inner, out)
            sep = "," + inner
        out.append(pad + "]")
    elif t is str:
        out.append(encode_str(o))
    elif o is None or t is bool:
        out.append(LITERALS[o])
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float and o == o and o not in (float("inf"), float("-inf")):
        out.append(float.__repr__(o))
    else:
        raise TypeError(f"cannot encode {t.__name__}")


def pretty(obj: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2) + "\\n"``, byte for byte
    (falls back to the stdlib for anything unusual)."""
    out: list[str] = []
    try:
        pretty_into(obj, "\n", out)
    except (TypeError, RecursionError):
        return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"
    out.append("\n")
    return "".join(out)


def json_problem(exc: json.JSONDecodeError, line: bool = True) -> str:
    """What a JSON decoder error says, as a phrase that ends in its place:
    ``"Unterminated string starting at line 1 column 457"`` (``line``
    False: ``"... at column 457"``, for a message whose line is given
    elsewhere). The decoder's own ``msg`` of several errors ends in "at"
    and waits for the position ("Unterminated string starting at"); put
    after it as ``"{msg} at line ..."`` it read "starting at at line"."""
    where = f"line {exc.lineno} column {exc.colno}" if line else f"column {exc.colno}"
    msg = exc.msg.removesuffix(" at")
    return f"{msg} at {where}"

