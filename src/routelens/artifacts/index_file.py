"""The compact runtime index, ``generated/routing.min.json`` (docs/formats.md
§3): its exact bytes from a registry, and reading it back (validated) for
routing.
"""

from __future__ import annotations

import errno
import json
import re
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from routelens.artifacts.jsonfmt import compact, json_problem
from routelens.artifacts.vocabulary import TriggerFacts, WordFacts, vocabulary
from routelens.errors import FileReadError, IndexInvalidError
from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.registry.model import AUDIENCES, ID_RE, Registry, RoutingSettings
from routelens.text.canonical import sha256_hex
from routelens.text.numbers import budget_checked

__all__ = [
    "INDEX_VERSION",
    "SKILL_FIELDS",
    "COMPOSITION_FIELDS",
    "RULE_FIELDS",
    "index_object",
    "index_bytes",
    "CompactIndex",
    "parse_index",
    "read_index_bytes",
    "load_index",
    "index_summary",
    "vouched_index",
    "summary_rows",
    "SortedRows",
]

#: The index format version, ``v`` (docs/formats.md §3).
INDEX_VERSION = 2
#: Column names of the index's tuples (docs/formats.md §3).
SKILL_FIELDS = ["id", "source_start", "source_end", "triggers", "not_when", "terms"]
COMPOSITION_FIELDS = ["id", "source_start", "source_end"]
RULE_FIELDS = ["id", "source_start", "source_end", "triggers"]
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def index_object(reg: Registry, bodies: dict[str, dict[str, Any]] | None = None, *,
                 _text: list[str] | None = None,
                 trigger_facts: Callable[[], TriggerFacts | None] | None = None,
                 word_facts: Callable[[], WordFacts | None] | None = None) -> dict[str, Any]:
    """The compact index as a dict in docs/formats.md §3 key order.
    ``bodies``, ``trigger_facts`` and ``word_facts`` are passed to
    :func:`routelens.artifacts.vocabulary.vocabulary` (``bodies`` receives
    what the catalog says about each body)."""
    vocab = vocabulary(reg, bodies, trigger_facts, word_facts)
    terms = vocab["skill_terms"]
    obj: dict[str, Any] = {
        "v": INDEX_VERSION,
        "authority": reg.path.name,
        "skill_fields": SKILL_FIELDS,
        "skills": [[s.id, s.source_start, s.source_end, list(s.triggers), list(s.not_when), terms.get(s.id, [])]
                   for s in reg.skills.values()],
        "composition_fields": COMPOSITION_FIELDS,
        "compositions": [[c.id, c.source_start, c.source_end] for c in reg.compositions.values()],
    }
    if reg.rules:
        obj["rule_fields"] = RULE_FIELDS
        obj["rules"] = [[r.id, r.source_start, r.source_end, list(r.triggers)] for r in reg.rules.values()]
    if reg.routing.present:
        obj["routing"] = {
            "threshold": reg.routing.threshold,
            "ambiguity_margin": reg.routing.ambiguity_margin,
            "high_risk": list(reg.routing.high_risk),
            "destructive_intents": reg.routing.destructive_intents,
        }
        if reg.routing.audience != "team":  # written only when set: every other index keeps its bytes (§3)
            obj["routing"]["audience"] = reg.routing.audience
    voc = {"zipf": vocab["zipf"], "common": vocab["common"], "near": vocab["near"], "terms": vocab["registry_terms"],
           "life": vocab["life"]}
    voc = {k: v for k, v in voc.items() if v}  # what is empty is left out
    if voc:
        obj["vocabulary"] = voc
    obj["source_sha256"] = reg.source_sha256
    _fit_terms(obj, reg, _text)
    return obj


def _index_text(reg: Registry, bodies: dict[str, dict[str, Any]] | None = None,
                trigger_facts: Callable[[], TriggerFacts | None] | None = None,
                word_facts: Callable[[], WordFacts | None] | None = None) -> str:
    """``compact(index_object(reg, bodies))``, encoded once when no skill
    term has to be left out (the common case; the text measured for the
    budget is the text written)."""
    measured: list[str] = []
    obj = index_object(reg, bodies, _text=measured, trigger_facts=trigger_facts, word_facts=word_facts)
    return measured[0] if measured else compact(obj)


#: The share of the size budget (docs/formats.md §5.2) the index may fill
#: before skill terms are left out, so a registry stays well inside its budget.
TERMS_BUDGET_SHARE = 0.85


def _fit_terms(obj: dict[str, Any], reg: Registry, text_out: list[str] | None = None) -> None:
    """Leave out the lowest-ranked skill terms (the last of each skill's
    list, longest lists first) until the index, without its ``life`` list,
    is at most :data:`TERMS_BUDGET_SHARE` of the size budget (docs/formats.md §3.7;
    never for a registry the budget does not apply to, §5.2);
    deterministic. When nothing is left out and ``text_out`` is a list, the
    compact text measured is appended to it (the caller writes it as is)."""
    limit = len(reg.text) * reg.routing.max_index_ratio * TERMS_BUDGET_SHARE
    life = obj.get("vocabulary", {}).get("life")
    if life:
        limit += len(compact(life)) + len(',"life":')  # the words of everyday life take nothing from the terms
    text = compact(obj)
    size = len(text) + 1
    if size <= limit or not budget_checked(len(reg.text)):
        # a registry below 6,000 characters has no size budget (§5.2): its terms are all kept (they were
        # all left out, and a small hand-written registry routed on its triggers alone)
        if text_out is not None:
            text_out.append(text)
        return
    del text
    rows = obj["skills"]
    order = sorted(((pos, i) for i, row in enumerate(rows) for pos in range(len(row[5]))), key=lambda x: (-x[0], x[1]))
    keep = [len(row[5]) for row in rows]
    for pos, i in order:
        if size <= limit:
            break
        size -= len(compact(rows[i][5][pos])) + (1 if pos > 0 else 0)
        keep[i] = pos
    for i, row in enumerate(rows):
        del row[5][keep[i]:]


def index_bytes(reg: Registry, bodies: dict[str, dict[str, Any]] | None = None,
                trigger_facts: Callable[[], TriggerFacts | None] | None = None,
                word_facts: Callable[[], WordFacts | None] | None = None) -> bytes:
    """Exact bytes of ``routing.min.json``: UTF-8, no ASCII escaping, no
    spaces, entries sorted by id, one trailing LF (docs/formats.md §3).
    ``bodies``, ``trigger_facts``, ``word_facts``: see :func:`index_object`."""
    return (_index_text(reg, bodies, trigger_facts, word_facts) + "\n").encode("utf-8")


@dataclass(frozen=True)
class CompactIndex:
    """A validated ``routing.min.json``.

    ``skills``: tuples ``(id, source_start, source_end, triggers,
    not_when, terms)``; ``compositions``: ``(id, source_start,
    source_end)``; ``rules``: ``(id, source_start, source_end, triggers)``;
    ``routing``: the dict of the file or ``{}``; ``vocabulary``: ``{"source",
    "zipf", "terms"}`` (docs/formats.md §3.7); lines are 1-based.
    """

    authority: str
    skills: tuple[tuple[str, int, int, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]
    compositions: tuple[tuple[str, int, int], ...]
    rules: tuple[tuple[str, int, int, tuple[str, ...]], ...]
    routing: dict[str, Any]
    source_sha256: str
    raw: bytes = field(repr=False, default=b"")
    vocabulary: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def sha256(self) -> str | None:
        """sha256 hex of the index file's bytes (a decision's
        ``index_sha256``), None when the bytes are not known."""
        return sha256_hex(self.raw) if self.raw else None

    @property
    def settings(self) -> RoutingSettings:
        """The index's ``routing`` object as :class:`RoutingSettings` (what
        the file leaves out takes the registry's defaults, docs/formats.md
        §1); ``max_index_ratio`` is not in the index (§3) and is the default."""
        default = RoutingSettings()
        r = self.routing
        return RoutingSettings(
            threshold=r.get("threshold", default.threshold),
            ambiguity_margin=r.get("ambiguity_margin", default.ambiguity_margin),
            high_risk=tuple(str(t) for t in r.get("high_risk") or ()),
            present=bool(r),
            destructive_intents=r.get("destructive_intents", True) is not False,
            audience=r.get("audience", default.audience),
        )


def _strings(x: Any, empty_ok: bool) -> bool:
    return isinstance(x, list) and (empty_ok or bool(x)) and all(isinstance(t, str) and t for t in x)


def _check_tuple(row: Any, where: str, with_triggers: bool, skill: bool = False) -> tuple:
    n = 6 if skill else 4 if with_triggers else 3
    if not isinstance(row, list) or len(row) != n:
        raise IndexInvalidError(f"{where}: expected a tuple of {n} fields, got {json.dumps(row, ensure_ascii=False)[:80]}")
    rid, start, end = row[0], row[1], row[2]
    if not isinstance(rid, str) or not ID_RE.match(rid):
        raise IndexInvalidError(f"{where}: bad id {rid!r}")
    if type(start) is not int or type(end) is not int or not (1 <= start <= end):
        raise IndexInvalidError(f"{where} ({rid}): bad line range {start!r}..{end!r}")
    if with_triggers:
        trig = row[3]
        if not _strings(trig, False):
            raise IndexInvalidError(f"{where} ({rid}): triggers must be a non-empty list of strings")
        if skill:
            if not _strings(row[4], True):
                raise IndexInvalidError(f"{where} ({rid}): not_when must be a list of strings")
            if not _strings(row[5], True):
                raise IndexInvalidError(f"{where} ({rid}): terms must be a list of strings")
            return (rid, start, end, tuple(trig), tuple(row[4]), tuple(row[5]))
        return (rid, start, end, tuple(trig))
    return (rid, start, end)


def parse_index(data: bytes) -> CompactIndex:
    """Validate index bytes. Raises :class:`IndexInvalidError` saying what is
    wrong: truncated or not JSON, unknown ``v``, missing fields, wrong field
    lists, wrong tuple length, bad ranges, unsorted or repeated ids."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise IndexInvalidError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        head = data.lstrip()[:1]
        if head and head not in b"{[":  # a newcomer's `--index skills.yaml` read "not valid JSON (truncated?)"
            first = data.lstrip().split(b"\n", 1)[0][:40].decode("utf-8", "replace")
            raise IndexInvalidError(f"not JSON at all: it begins {first!r} (YAML or text?); an index is the JSON "
                                    "file `routelens build` writes, generated/routing.min.json") from None
        raise IndexInvalidError(f"not valid JSON (truncated?): {json_problem(exc)}") from None
    if not isinstance(obj, dict):
        raise IndexInvalidError("not a JSON object")
    if "v" not in obj:
        raise IndexInvalidError("missing field 'v' (the index version)")
    if type(obj["v"]) is not int or obj["v"] != INDEX_VERSION:
        raise IndexInvalidError(f"unknown index version v={obj['v']!r} (this routelens reads v={INDEX_VERSION})")
    for key in ("authority", "skill_fields", "skills", "composition_fields", "compositions", "source_sha256"):
        if key not in obj:
            raise IndexInvalidError(f"missing field {key!r}")
    if not isinstance(obj["authority"], str) or not obj["authority"]:
        raise IndexInvalidError("authority is not a file name")
    if "rule_fields" in obj and "rules" not in obj:
        raise IndexInvalidError("rule_fields without rules")
    if obj["skill_fields"] != SKILL_FIELDS:
        raise IndexInvalidError(f"skill_fields is {obj['skill_fields']!r}, expected {SKILL_FIELDS!r}")
    if obj["composition_fields"] != COMPOSITION_FIELDS:
        raise IndexInvalidError(f"composition_fields is {obj['composition_fields']!r}, expected {COMPOSITION_FIELDS!r}")
    if "rules" in obj and obj.get("rule_fields") != RULE_FIELDS:
        raise IndexInvalidError(f"rule_fields is {obj.get('rule_fields')!r}, expected {RULE_FIELDS!r}")
    sha = obj["source_sha256"]
    if not isinstance(sha, str) or not _HEX64.match(sha):
        raise IndexInvalidError("source_sha256 is not a sha256 hex digest")
    routing = obj.get("routing", {})
    if not isinstance(routing, dict):
        raise IndexInvalidError("routing is not an object")
    for key in ("threshold", "ambiguity_margin"):
        if key in routing:
            x = routing[key]
            if type(x) not in (int, float) or not (0 <= x <= 100):
                raise IndexInvalidError(f"routing.{key} is {x!r}, not a number in [0, 100]")
    if "high_risk" in routing:
        hr = routing["high_risk"]
        if not isinstance(hr, list) or not all(isinstance(t, str) and t for t in hr):
            raise IndexInvalidError("routing.high_risk is not a list of non-empty strings")
    out = {}
    if "destructive_intents" in routing and type(routing["destructive_intents"]) is not bool:
        raise IndexInvalidError("routing.destructive_intents is not true or false")
    if "audience" in routing and routing["audience"] not in AUDIENCES:
        raise IndexInvalidError(f"routing.audience is {routing['audience']!r}, not one of {', '.join(AUDIENCES)}")
    vocab = obj.get("vocabulary", {})
    if not isinstance(vocab, dict):
        raise IndexInvalidError("vocabulary is not an object")
    zipf = vocab.get("zipf", {})
    if not isinstance(zipf, dict) or not all(isinstance(k, str) and type(v) in (int, float) for k, v in zipf.items()):
        raise IndexInvalidError("vocabulary.zipf is not an object of numbers")
    for key in ("terms", "common", "life"):
        if not _strings(vocab.get(key, []), True):
            raise IndexInvalidError(f"vocabulary.{key} is not a list of strings")
    near = vocab.get("near", {})
    if not isinstance(near, dict) or not all(isinstance(k, str) and _strings(v, False) for k, v in near.items()):
        raise IndexInvalidError("vocabulary.near is not an object of word lists")
    for key, with_trig in (("skills", True), ("compositions", False), ("rules", True)):
        rows = obj.get(key, [])
        if not isinstance(rows, list):
            raise IndexInvalidError(f"{key} is not a list")
        parsed = [_check_tuple(row, f"{key}[{i}]", with_trig, key == "skills") for i, row in enumerate(rows)]
        ids = [p[0] for p in parsed]
        if ids != sorted(set(ids)):
            raise IndexInvalidError(f"{key}: ids are not sorted and unique")
        out[key] = tuple(parsed)
    return CompactIndex(str(obj["authority"]), out["skills"], out["compositions"], out["rules"], routing, sha, data,
                        vocab)


def read_index_bytes(path: str | Path) -> bytes:
    """The index file's bytes through :func:`routelens.fileio.read_bounded`
    (a regular file of at most ``LIMITS["max_index_bytes"]`` bytes, never
    blocking on a FIFO or reading a device). Raises ``FileNotFoundError``
    when there is no file and :class:`IndexInvalidError` saying why when it
    is refused (a FIFO, ``/dev/zero``, a directory, too big, unreadable)."""
    try:
        return read_bounded(path, LIMITS["max_index_bytes"], what="the index")
    except FileReadError as exc:
        if exc.kind == "missing":
            raise FileNotFoundError(errno.ENOENT, "no index file", str(path)) from None
        reason = str(exc).removeprefix(f"the index {exc.path}: ")
        raise IndexInvalidError(f"the file cannot be used: it {reason}") from None


def load_index(path: str | Path) -> CompactIndex:
    """Read (:func:`read_index_bytes`) and validate an index file. Raises
    ``FileNotFoundError`` when it is missing and :class:`IndexInvalidError`
    when it cannot be trusted or cannot be read."""
    return parse_index(read_index_bytes(path))


# --------------------------------------------------------------------------- an index vouched for

#: the row sections of an index and the kind each holds
_SECTIONS = (("skills", "skill"), ("compositions", "composition"), ("rules", "rule"))


def index_summary(idx: CompactIndex) -> dict[str, Any]:
    """What a router needs of a checked index before it routes, in a form
    that is cheap to read back (the matcher cache keeps it, docs/formats.md
    §11.4): ``authority``, ``source_sha256``, ``routing`` (the dict of the
    file), and ``rows``: kind (``skill`` | ``composition`` | ``rule``) ->
    ``(ids joined by LF, source_start values, source_end values)``, the
    line numbers as the bytes of an unsigned ``array("I")`` (native order;
    the cache key holds the Python version, and a row count that does not
    match is refused by :func:`summary_rows`). Only for an index that passed
    :func:`parse_index` (and the range check of §3.5)."""
    rows = {}
    for section, kind in _SECTIONS:
        rs = getattr(idx, section)
        rows[kind] = ("\n".join(r[0] for r in rs), array("I", (r[1] for r in rs)).tobytes(),
                      array("I", (r[2] for r in rs)).tobytes())
    return {"authority": idx.authority, "source_sha256": idx.source_sha256, "routing": dict(idx.routing),
            "rows": rows}


class SortedRows(Mapping):
    """id -> ``(source_start, source_end)`` over the ids of one section of
    an index (sorted and unique, as :func:`parse_index` requires) and two
    arrays of line numbers: a read-only mapping looked up by bisection, so
    that reading 100,000 rows makes no tuple and no dict entry per row."""

    __slots__ = ("_ids", "_starts", "_ends")

    def __init__(self, ids: list[str], starts: array, ends: array):  # noqa: D107 - see the class
        self._ids = ids
        self._starts = starts
        self._ends = ends

    def _at(self, key: object) -> int:
        ids = self._ids
        i = bisect_left(ids, key) if isinstance(key, str) else len(ids)
        return i if i < len(ids) and ids[i] == key else -1

    def __getitem__(self, key: str) -> tuple[int, int]:
        i = self._at(key)
        if i < 0:
            raise KeyError(key)
        return (self._starts[i], self._ends[i])

    def __contains__(self, key: object) -> bool:
        return self._at(key) >= 0

    def get(self, key: str, default: Any = None) -> Any:
        """The row of ``key``, or ``default``."""
        i = self._at(key)
        return (self._starts[i], self._ends[i]) if i >= 0 else default

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def items(self):  # type: ignore[override]
        """``(id, (start, end))`` in id order."""
        return zip(self._ids, zip(self._starts, self._ends))


def summary_rows(summary: dict[str, Any]) -> dict[str, SortedRows] | None:
    """kind -> :class:`SortedRows` from an :func:`index_summary`, or None
    when it is not one (wrong types, counts that differ): the caller then
    reads and checks the index itself."""
    try:
        out = {}
        for _, kind in _SECTIONS:
            ids, starts, ends = summary["rows"][kind]
            names = ids.split("\n") if ids else []
            a, b = array("I"), array("I")
            a.frombytes(starts)
            b.frombytes(ends)
            if not (len(names) == len(a) == len(b)):
                return None
            out[kind] = SortedRows(names, a, b)
        if not (isinstance(summary["authority"], str) and isinstance(summary["source_sha256"], str)
                and isinstance(summary["routing"], dict)):
            return None
        return out
    except (KeyError, TypeError, ValueError):
        return None


class _VouchedIndex(CompactIndex):
    """A compact index whose exact bytes passed every check before (the
    matcher cache vouches for them, docs/formats.md §11.4): its authority,
    hash and routing come from the summary, and its rows and vocabulary are
    decoded — and checked again, by :func:`parse_index` — only when
    something asks for them (a router from the cache does not)."""

    def __init__(self, data: bytes, summary: dict[str, Any]):  # noqa: D107 - see the class
        object.__setattr__(self, "authority", summary["authority"])
        object.__setattr__(self, "routing", dict(summary["routing"]))
        object.__setattr__(self, "source_sha256", summary["source_sha256"])
        object.__setattr__(self, "raw", data)
        object.__setattr__(self, "_full", None)

    def _decoded(self) -> CompactIndex:
        full = self.__dict__["_full"]
        if full is None:
            full = parse_index(self.raw)
            object.__setattr__(self, "_full", full)
        return full

    @property
    def skills(self):  # type: ignore[override]
        """As :attr:`CompactIndex.skills`, decoded on first use."""
        return self._decoded().skills

    @property
    def compositions(self):  # type: ignore[override]
        """As :attr:`CompactIndex.compositions`, decoded on first use."""
        return self._decoded().compositions

    @property
    def rules(self):  # type: ignore[override]
        """As :attr:`CompactIndex.rules`, decoded on first use."""
        return self._decoded().rules

    @property
    def vocabulary(self):  # type: ignore[override]
        """As :attr:`CompactIndex.vocabulary`, decoded on first use."""
        return self._decoded().vocabulary


def vouched_index(data: bytes, summary: dict[str, Any]) -> CompactIndex:
    """The :class:`CompactIndex` of index bytes ``data`` that passed every
    check before, from their :func:`index_summary` (held by the matcher
    cache under the sha256 of ``data``): nothing is decoded until a row or
    the vocabulary is asked for."""
    return _VouchedIndex(data, summary)
