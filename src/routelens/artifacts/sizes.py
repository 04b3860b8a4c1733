"""Size statistics of the registry, the debug catalog and the compact index
(docs/formats.md §5), and token counts where a tokenizer is available.

Units: ``chars`` are Unicode code points, ``bytes`` are UTF-8 bytes, both of
the *canonical* text (BOM removed, LF line ends, so a CRLF checkout gives
the same figures); ``lines`` count as an editor does. ``reduction`` is
``1 - x_chars / registry_chars``. Token counts are not part of these
figures (they depend on an optional tokenizer); see :func:`token_count`.
"""

from __future__ import annotations

import heapq
import json
from typing import Any

from routelens.artifacts.jsonfmt import compact
from routelens.errors import FileReadError
from routelens.fileio import read_bounded
from routelens.registry.model import Registry
from routelens.text.numbers import within_budget

__all__ = ["measure", "measure_registry", "top_contributors", "size_stats", "token_count", "exact_reduction",
           "budget_advice"]


def measure(text: str) -> dict[str, int]:
    """``{"chars", "bytes", "lines"}`` of a text (a final LF adds no line)."""
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return {"chars": len(text), "bytes": len(text.encode("utf-8")), "lines": lines}


def measure_registry(reg: Registry) -> dict[str, int]:
    """:func:`measure` of the registry's canonical text (docs/formats.md
    §5): its bytes counted by the reader when it read them, so a big
    registry is not encoded again to count them."""
    text = reg.text
    if reg._nbytes is None:
        return measure(text)
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return {"chars": len(text), "bytes": reg._nbytes, "lines": lines}


#: the compact index's sections in file order, with the key that follows each
_SECTIONS = (("skills", "skill"), ("compositions", "composition"), ("rules", "rule"))
_NEXT_KEYS = ('],"composition_fields":', '],"rule_fields":', '],"routing":', '],"vocabulary":', '],"source_sha256":')


def _rows_from_text(text: str) -> list[tuple[str, str, int]] | None:
    """``(kind, id, chars)`` of every entry of a compact index that routelens
    wrote (docs/formats.md §3 layout), cut out of the text without decoding it:
    the rows of an array are separated by ``],["`` (skill rows, whose last
    field is a list, by ``]],["``), which no row holds inside (quotes inside
    JSON strings are escaped, a skill row's lists hold only strings, ids are
    kebab-case).
    None when the text does not have that layout."""
    out: list[tuple[str, str, int]] = []
    for key, kind in _SECTIONS:
        marker = f'"{key}":['
        at = text.find(marker)
        if at < 0:
            if key == "rules":
                continue
            return None
        start = at + len(marker) - 1  # the '['
        ends = [e for e in (text.find(k, start) for k in _NEXT_KEYS) if e >= 0]
        if not ends:
            return None
        body = text[start + 1 : min(ends)]  # between the array's brackets
        if not body:
            continue
        if not body.startswith('["') or not body.endswith("]"):
            return None
        # a skill row ends with its list of terms (``...]]``); the other rows hold no list
        sep, close = (']],["', "]]") if key == "skills" else ('],["', "]")
        parts = body.split(sep)
        if not parts[-1].endswith(close):
            return None
        parts[0] = parts[0][2:]  # each part now starts with its row's id (the split took the '["' of the others)
        extra = 2 + len(close)  # the '["' and the closing brackets the split took
        for part in parts:
            q = part.find('"')
            if q < 0:
                return None
            out.append((kind, part[:q], len(part) + extra))
        out[-1] = (kind, out[-1][1], out[-1][2] - len(close))  # the last row's brackets are in its part
    return out


def budget_advice(index_data: bytes, max_index_ratio: float) -> str:
    """What to do about an index over its size budget (docs/formats.md
    §5.2), for people: how many of the index's characters are not its
    entries (its header and word lists, which do not shrink with the
    registry: a registry of a few skills fills its budget with them), and
    the setting that moves the budget; first, when no skill keeps a domain
    term, that they were all left out to fit (§3.7). Raises ``ValueError``
    for bytes that are not a JSON index."""
    text = index_data.decode("utf-8").rstrip("\n")
    obj = json.loads(text)  # said only of an index over its budget: parsed once, whatever its layout
    found = _rows_from_text(text)
    if found is None:
        found = [(kind, row[0], len(compact(row))) for key, kind in _SECTIONS for row in obj.get(key, [])]
    rest = len(text) - sum(n + 1 for _, _, n in found)
    rows = obj.get("skills", [])
    gone = ("every skill's domain terms were left out to fit (docs/formats.md §3.7: routing rests on the triggers "
            "alone); " if rows and not any(len(r) > 5 and r[5] for r in rows) else "")
    return (f"{gone}{rest:,} of the index's chars are its header and word lists, which do not shrink with the registry "
            f"(a registry of a few skills fills its budget with them); to allow more, raise `routing: max_index_ratio` "
            f"(now {max_index_ratio}, at most 1) in the registry")


def top_contributors(index_data: bytes, limit: int = 10) -> list[dict[str, Any]]:
    """The index entries that take the most characters: ``[{"id", "kind",
    "chars", "share"}]``, biggest first (ties by id, then skill before
    composition before rule); ``chars`` is the length of the entry's compact
    JSON tuple plus its separating comma, ``share`` its fraction of the
    index's characters (4 decimals). Raises ``ValueError`` for bytes that
    are not a JSON index."""
    return _top_of_text(index_data.decode("utf-8"), limit)


def _top_of_text(text: str, limit: int = 10) -> list[dict[str, Any]]:
    """:func:`top_contributors` of the index's decoded text."""
    total = max(len(text), 1)
    found = _rows_from_text(text)
    if found is None:
        obj = json.loads(text)
        found = [(kind, row[0], len(compact(row)))
                 for key, kind in _SECTIONS for row in obj.get(key, [])]
    order = {"skill": 0, "composition": 1, "rule": 2}
    # the first `limit` of the sorted rows (+ the comma), without sorting all of them (110,000 at 100,000 skills)
    rows = heapq.nsmallest(limit, ((-(n + 1), rid, order[kind], kind) for kind, rid, n in found))
    return [{"id": rid, "kind": kind, "chars": -neg, "share": round(-neg / total, 4)}
            for neg, rid, _, kind in rows]


def size_stats(reg: Registry, index_data: bytes, catalog_measure: tuple[int, int, int],
               registry_measure: dict[str, int] | None = None) -> dict[str, Any]:
    """Section 5 statistics as a JSON-able dict.

    ``catalog_measure`` is ``(chars, bytes, lines)`` of the catalog (the
    catalog builder passes its own, found by iteration);
    ``registry_measure`` :func:`measure` of the registry's text, when the
    caller has it (measured here otherwise). Shape::

        {"registry": {chars, bytes, lines},
         "catalog": {chars, bytes, lines, reduction},
         "index": {chars, bytes, lines, reduction},
         "budget": {max_index_ratio, index_chars, limit_chars, ratio, ok},
         "top_contributors": [...]}
    """
    reg_m = dict(registry_measure) if registry_measure is not None else measure_registry(reg)
    idx_text = index_data.decode("utf-8")  # decoded once (the bytes are its UTF-8: no encoding again)
    idx_m = {"chars": len(idx_text), "bytes": len(index_data),
             "lines": idx_text.count("\n") + (0 if idx_text.endswith("\n") or not idx_text else 1)}
    cat_m = {"chars": catalog_measure[0], "bytes": catalog_measure[1], "lines": catalog_measure[2]}
    rc = max(reg_m["chars"], 1)
    cat_m["reduction"] = round(1 - cat_m["chars"] / rc, 4)
    idx_m["reduction"] = round(1 - idx_m["chars"] / rc, 4)
    ratio = reg.routing.max_index_ratio
    limit = reg_m["chars"] * ratio
    return {
        "registry": reg_m,
        "catalog": cat_m,
        "index": idx_m,
        "budget": {
            "max_index_ratio": ratio,
            "index_chars": idx_m["chars"],
            "limit_chars": round(limit, 2),
            "ratio": round(idx_m["chars"] / rc, 4),
            "ok": within_budget(idx_m["chars"], reg_m["chars"], ratio),
        },
        "top_contributors": _top_of_text(idx_text),
    }


_ENCODER: Any = None
_ENCODER_ERROR: str | None = None

#: tiktoken's download URL and sha256 of the encodings routelens may count
#: with (from tiktoken_ext/openai_public.py); tiktoken caches the file
#: under sha1(url) in its cache folder.
#: the cl100k_base file is about 1.7 MB; a cache file bigger than this is not it
_MAX_ENCODING_BYTES = 16 * 1024 * 1024
_TIKTOKEN_FILES = {
    "cl100k_base": ("https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
                    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
}


def _tiktoken_installed() -> bool:
    """Whether the optional tiktoken package can be imported."""
    import importlib.util

    return importlib.util.find_spec("tiktoken") is not None


def _tiktoken_offline_problem(encoding: str) -> str | None:
    """None when tiktoken can load ``encoding`` from its local cache (so no
    network is touched: tiktoken re-downloads a missing or corrupt cache
    file, which could hang offline); otherwise the reason, for people."""
    import hashlib
    import os
    import tempfile

    if not _tiktoken_installed():
        return "tiktoken is not installed: pip install tiktoken, or pip install -e '.[tokens]' in a routelens checkout"
    if encoding not in _TIKTOKEN_FILES:
        return f"routelens only counts with {', '.join(_TIKTOKEN_FILES)}"
    url, sha = _TIKTOKEN_FILES[encoding]
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get("DATA_GYM_CACHE_DIR"))
    if cache_dir is None:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if cache_dir == "":
        return "TIKTOKEN_CACHE_DIR is empty (cache disabled) and routelens never downloads the encoding"
    path = os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())
    try:
        data = read_bounded(path, _MAX_ENCODING_BYTES, what="tiktoken cache file")
    except FileReadError:
        return f"{encoding} is not in tiktoken's cache at {cache_dir}; routelens never downloads it"
    if hashlib.sha256(data).hexdigest() != sha:
        return f"the cached {encoding} file in {cache_dir} is corrupt (sha256 mismatch)"
    return None


def token_count(text: str, encoding: str = "cl100k_base") -> dict[str, Any]:
    """Tokens of ``text`` with tiktoken's ``encoding`` when it loads without
    a network: ``{"encoding", "tokens"}``; otherwise ``{"encoding",
    "tokens": None, "unavailable": reason}`` — never an unlabelled estimate.
    The encoding is only loaded when tiktoken's cache holds a file with the
    right sha256, so this never waits on a network."""
    global _ENCODER, _ENCODER_ERROR
    if _ENCODER is None and _ENCODER_ERROR is None:
        _ENCODER_ERROR = _tiktoken_offline_problem(encoding)
        if _ENCODER_ERROR is None:
            try:
                import tiktoken  # optional extra: routelens[tokens]

                _ENCODER = tiktoken.get_encoding(encoding)
            except Exception as exc:  # pragma: no cover - cache checked above
                _ENCODER_ERROR = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".strip()
    if _ENCODER is None:
        return {"encoding": encoding, "tokens": None, "unavailable": _ENCODER_ERROR}
    return {"encoding": encoding, "tokens": len(_ENCODER.encode(text, disallowed_special=()))}


def exact_reduction(measure: dict, registry: dict) -> float:
    """``1 - chars / registry chars`` from the characters themselves
    (docs/formats.md §5.2), for words on screen: the JSON's ``reduction``
    is rounded to 4 places, and rounding that again to one decimal of a
    percentage said 40.6% where the TUI, from the characters, said 40.5%."""
    return 1 - measure["chars"] / max(registry["chars"], 1)
