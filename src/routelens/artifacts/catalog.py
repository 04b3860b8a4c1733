"""The debug catalog, ``generated/catalog.json`` (docs/formats.md §4):
everything about every entry, pretty-printed, with the size statistics of
§5, the catalog's own size included.
"""

from __future__ import annotations

import json
from itertools import islice
from typing import Any, Iterator

from routelens.artifacts.bodies import body_info
from routelens.artifacts.index_file import INDEX_VERSION, index_bytes
from routelens.artifacts.jsonfmt import LITERALS, encode_str, pretty, pretty_into
from routelens.artifacts.sizes import measure, measure_registry, size_stats
from routelens.registry.model import Registry

__all__ = ["catalog_bytes", "catalog_and_stats", "catalog_object", "catalog_frame", "CatalogFrame", "skills_chunks",
           "SkillsChunks"]


def catalog_object(reg: Registry, index_data: bytes | None = None) -> dict[str, Any]:
    """The debug catalog (docs/formats.md §4) as a dict: exactly what
    ``json.loads(catalog_bytes(reg, index_data))`` gives, including the size
    statistics of §5 with the catalog's own size."""
    return json.loads(catalog_bytes(reg, index_data))


def _rest_object(reg: Registry) -> dict[str, Any]:
    """The catalog without its skills (a placeholder stands for them) and without stats."""
    return {
        "v": INDEX_VERSION,
        "authority": reg.path.name,
        "source_sha256": reg.source_sha256,
        "skills": _SKILLS_SENTINEL,
        "compositions": {
            c.id: {"id": c.id, "source_start": c.source_start, "source_end": c.source_end,
                   "members": list(c.members), "self_contained": c.self_contained}
            for c in reg.compositions.values()
        },
        "rules": {
            r.id: {"id": r.id, "source_start": r.source_start, "source_end": r.source_end, "forced": r.forced,
                   "description": r.description, "triggers": list(r.triggers), "metadata": r.metadata,
                   "self_contained": r.self_contained}
            for r in reg.rules.values()
        },
        "routing": {
            "threshold": reg.routing.threshold,
            "ambiguity_margin": reg.routing.ambiguity_margin,
            "high_risk": list(reg.routing.high_risk),
            "destructive_intents": reg.routing.destructive_intents,
            "max_index_ratio": reg.routing.max_index_ratio,
            **({"audience": reg.routing.audience} if reg.routing.audience != "team" else {}),
        },
        "warnings": [str(w) for w in reg.warnings],
    }


#: ``(pre, post, registry measure)`` of :func:`catalog_frame`
CatalogFrame = tuple[str, str, dict[str, int]]


def catalog_frame(reg: Registry) -> CatalogFrame:
    """What the catalog holds around its skills that does not depend on the
    index: ``(pre, post, measure)``, the catalog's text before its skills
    and after them up to its statistics (``,\\n  "stats": ``), and the
    registry's ``{"chars", "bytes", "lines"}`` (docs/formats.md §5).
    ``routelens build --jobs 2`` makes it in its second process."""
    rest = pretty(_rest_object(reg))
    marker = encode_str(_SKILLS_SENTINEL)
    at = rest.index(marker)  # the first: the keys before "skills" cannot hold it
    pre, post = rest[:at], rest[at + len(marker):]
    if not post.endswith("\n}\n"):  # pragma: no cover - pretty() always ends so
        raise AssertionError("unexpected catalog layout")
    # json.dumps(obj with stats last) == ... + ',\n  "stats": ' + stats + "\n}"
    return pre, post[:-3] + ',\n  "stats": ', measure_registry(reg)


def _catalog_bytes(reg: Registry, index_data: bytes | None,
                   bodies: dict[str, dict[str, Any]] | None = None,
                   skills: SkillsChunks | None = None,
                   frame: CatalogFrame | None = None,
                   base_stats: dict[str, Any] | None = None) -> tuple[bytes, dict[str, Any]]:
    """The catalog, exactly as ``json.dumps(catalog, ensure_ascii=False,
    indent=2) + "\\n"`` would write it, rendered in parts: the skills (the
    bulk) straight from the registry, one UTF-8 chunk per skill, so no copy
    of the whole catalog as a Python string is ever made; only the small
    statistics part is re-rendered until the catalog's stated size of itself
    is stable (the stats come last). Returns the bytes and the size
    statistics (docs/formats.md §5) of the registry, this catalog and the
    index, as :func:`routelens.artifacts.sizes.size_stats` gives them.
    ``bodies`` (skill path -> :func:`routelens.artifacts.bodies.body_info`'s
    dict, as the index's build found them) saves reading each body again;
    a path it lacks is read here. ``skills``, when given, is
    :func:`skills_chunks` of this registry made elsewhere (another process
    of ``routelens build --jobs 2``), and ``frame`` :func:`catalog_frame`:
    they are used as they are; ``base_stats``, the statistics of the index
    and the registry (:func:`routelens.artifacts.sizes.size_stats` with the
    catalog measured as zeros), when made already."""
    if index_data is None:
        bodies = {} if bodies is None else bodies
        index_data = index_bytes(reg, bodies)
    idx = index_data
    pre, post, reg_measure = catalog_frame(reg) if frame is None else frame
    chunks: list[bytes] = [pre.encode("utf-8")]
    if skills is None:
        skills = skills_chunks(reg, bodies)
    skill_chunks, skill_chars, skill_lines = skills
    chunks += skill_chunks
    chunks.append(post.encode("utf-8"))
    chars = len(pre) + skill_chars + len(post)
    lines = pre.count("\n") + skill_lines + post.count("\n")
    nbytes = sum(map(len, chunks))
    if base_stats is None:
        base_stats = size_stats(reg, idx, (0, 0, 0), reg_measure)

    def render(m: tuple[int, int, int], digits: int) -> tuple[bytes, tuple[int, int, int]]:
        st = dict(base_stats)
        st["catalog"] = _catalog_measure(reg, m, digits)
        tail_parts: list[str] = []
        pretty_into(st, "\n  ", tail_parts)
        tail = "".join(tail_parts) + "\n}\n"
        tail_b = tail.encode("utf-8")
        return tail_b, (chars + len(tail), nbytes + len(tail_b), lines + tail.count("\n"))

    # The catalog states its own size: find a fixed point. Near a rounding
    # boundary the stated reduction can lose a digit when the size grows by
    # one, and the figures flip-flop forever; the reduction is then stated
    # with fewer decimals, which gives a fixed point (the size stated is
    # always the size of the file).
    for digits in (4, 3, 2, 1, 0):
        catalog_len = (0, 0, 0)
        seen = set()
        while catalog_len not in seen:
            seen.add(catalog_len)
            tail_b, now = render(catalog_len, digits)
            if now == catalog_len:
                break
            catalog_len = now
        else:
            continue
        break
    else:  # pragma: no cover - no registry has been found that needs this
        tail_b, catalog_len = render(catalog_len, 4)
    chunks.append(tail_b)
    stats = dict(base_stats)
    stats["catalog"] = _catalog_measure(reg, catalog_len, 4)  # as size_stats states it, whatever the catalog's digits
    return b"".join(chunks), stats


#: ``(chunks, chars, lines)``: the catalog's ``skills`` object as UTF-8
#: chunks, and its length in characters and its line breaks (:func:`skills_chunks`)
SkillsChunks = tuple[list[bytes], int, int]


def skills_chunks(reg: Registry, bodies: dict[str, dict[str, Any]] | None = None, start: int = 0,
                  stop: int | None = None) -> SkillsChunks:
    """The catalog's ``skills`` object (docs/formats.md §4), as the catalog
    holds it (at its indentation, without the key), as ``(chunks, chars,
    lines)``: UTF-8 ``bytes`` chunks (one per skill) that join to its bytes,
    its length in characters and its count of ``\\n``. ``bodies``: as for
    :func:`catalog_and_stats` (a path it lacks is read here). With
    ``start``/``stop`` (indices into the skills, in id order), only the part
    of the skills ``start:stop``, the brace that opens the object with the
    first skill and the one that closes it with the last: the parts of
    consecutive ranges join to the whole. What ``routelens build --jobs 2``
    renders in its two processes, a part in each."""
    chunks: list[bytes] = []
    chars = lines = 0
    for piece in _skills_pieces(reg, "\n  ", bodies, start, stop):
        chars += len(piece)
        lines += piece.count("\n")
        chunks.append(piece.encode("utf-8"))
    return chunks, chars, lines


#: stands for the skills while the rest of the catalog is rendered (the
#: registry refuses NUL characters, so no registry string encodes like it)
_SKILLS_SENTINEL = "\x00skills\x00"


def _skills_pieces(reg: Registry, pad: str, bodies: dict[str, dict[str, Any]] | None = None, start: int = 0,
                   stop: int | None = None) -> Iterator[str]:
    """The catalog's ``skills`` object (docs/formats.md §4) at indentation
    ``pad``, exactly as the stdlib's pretty printer would write it, in
    pieces (one per skill), written straight from the registry; only the
    skills ``start:stop`` (see :func:`skills_chunks`)."""
    n = len(reg.skills)
    stop = n if stop is None else min(stop, n)
    if not n:
        if start == 0:
            yield "{}"
        return
    enc = encode_str
    p1 = pad + "  "
    p2 = p1 + "  "
    p3 = p2 + "  "
    lit = LITERALS
    dirs: dict[str, Any] = {}
    sep = ("{" if start == 0 else ",") + p1
    join3 = "," + p3
    reg.compositions_of("")  # builds the skill -> compositions map once
    comps_of = reg._comps_of or {}
    missing_text: dict[str, str] = {}  # a body error -> its text (most skills share one)
    metadata_sep = "," + p3
    skills = reg.skills.values()
    for s in islice(skills, start, stop) if start or stop < n else skills:
        trig_text = ("[" + p3 + join3.join(map(enc, s.triggers)) + p2 + "]") if s.triggers else "[]"
        nw_text = ("[" + p3 + join3.join(map(enc, s.not_when)) + p2 + "]") if s.not_when else "[]"
        meta = s.metadata
        if not meta:
            meta_text = "{}"
        elif all(type(v) is str for v in meta.values()):  # the common case, as pretty_into writes it
            meta_text = "{" + p3 + metadata_sep.join([f"{enc(k)}: {enc(v)}" for k, v in meta.items()]) + p2 + "}"
        else:
            parts: list[str] = []
            pretty_into(meta, p2, parts)
            meta_text = "".join(parts)
        comps = comps_of.get(s.id)
        comps_text = ("[" + p3 + join3.join(map(enc, comps)) + p2 + "]") if comps else "[]"
        body = bodies.get(s.path) if bodies is not None else None
        if body is None:
            body = body_info(reg, s.path, dirs)
        if "chars" in body:
            body_text = f'{{{p3}"exists": {lit[body["exists"]]},{p3}"chars": {body["chars"]}{p2}}}'
        else:
            error = body["error"]
            body_text = missing_text.get(error)
            if body_text is None:
                body_text = missing_text[error] = (
                    f'{{{p3}"exists": {lit[body["exists"]]},{p3}"error": {enc(error)}{p2}}}')
        desc = s.description
        sid = enc(s.id)
        yield (
            f'{sep}{sid}: {{{p2}"id": {sid},{p2}"source_start": {s.source_start},'
            f'{p2}"source_end": {s.source_end},{p2}"path": {enc(s.path)},'
            f'{p2}"priority": {enc(s.priority)},{p2}"status": {enc(s.status)},'
            f'{p2}"description": {"null" if desc is None else enc(desc)},{p2}"triggers": {trig_text},'
            f'{p2}"not_when": {nw_text},{p2}"metadata": {meta_text},{p2}"compositions": {comps_text},'
            f'{p2}"self_contained": {lit[s.self_contained]},{p2}"body": {body_text}{p1}}}'
        )
        sep = "," + p1
    if stop == n and start < n:
        yield pad + "}"


def _catalog_measure(reg: Registry, m: tuple[int, int, int], digits: int = 4) -> dict[str, Any]:
    """The catalog's ``{chars, bytes, lines, reduction}`` (docs/formats.md §5)."""
    rc = max(len(reg.text), 1)
    return {"chars": m[0], "bytes": m[1], "lines": m[2], "reduction": round(1 - m[0] / rc, digits)}


def catalog_bytes(reg: Registry, index_data: bytes | None = None,
                  bodies: dict[str, dict[str, Any]] | None = None) -> bytes:
    """Exact bytes of ``catalog.json`` (docs/formats.md §4): UTF-8, indent 2,
    ids sorted, one trailing LF. ``index_data`` is the index built from the
    same registry (built here when not given); ``bodies``: what that build
    found about each body (see :func:`catalog_and_stats`)."""
    return _catalog_bytes(reg, index_data, bodies)[0]


def catalog_and_stats(reg: Registry, index_data: bytes | None = None,
                      bodies: dict[str, dict[str, Any]] | None = None,
                      skills: SkillsChunks | None = None,
                      frame: CatalogFrame | None = None,
                      base_stats: dict[str, Any] | None = None) -> tuple[bytes, dict[str, Any]]:
    """``(catalog_bytes(reg, index_data), stats)``: the catalog and the size
    statistics of docs/formats.md §5 (``{"registry", "catalog", "index",
    "budget", "top_contributors"}``, exactly what
    :func:`routelens.artifacts.build.compute_stats` gives for these bytes),
    found while rendering the catalog, so nothing is measured twice.
    ``bodies`` is the dict :func:`routelens.artifacts.index_file.index_bytes`
    filled while building ``index_data`` (skill path -> what the catalog
    says about that body): each body is then read once per build.
    ``skills``: :func:`skills_chunks` of this registry when it was made
    elsewhere (then ``bodies`` is not used); ``frame``: :func:`catalog_frame`
    of it, likewise; ``base_stats``: the statistics of the index and the
    registry when made already (:func:`routelens.artifacts.sizes.size_stats`
    with the catalog measured as zeros)."""
    return _catalog_bytes(reg, index_data, bodies, skills, frame, base_stats)
