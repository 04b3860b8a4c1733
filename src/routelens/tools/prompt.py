"""The Layer-1 block: the skill listing an agent's system prompt carries
(docs/formats.md §9).

Layer 1 is the always-loaded listing (ids and one-line descriptions); Layer 2
is a skill's body, loaded only when the skill is chosen (Agent Skills
"progressive disclosure").

The block is deterministic and byte-stable: the same registry content gives
the same bytes on every machine, with no dates, hashes or paths in it, so a
prompt cache keyed on its prefix survives every edit that does not touch the
entries before it. Rules of the block:

- one line per skill, ``- <id>: <description>``, sorted by id (code point
  order, as the registry's dicts are);
- the description is made one line: every run of whitespace (spaces, tabs,
  LF, U+0085, U+2028, U+2029, ...) becomes one space, ends are stripped;
  a skill without a description is listed as ``- <id>``; a control
  character left in it (ESC, BEL, C1, ...) is written as an escape
  (``\x1b``, :func:`routelens.text.visible.visible`), never raw;
- ``disabled`` skills are left out (an agent must not choose them);
  ``deprecated`` ones are listed with the marker ``[deprecated] ``;
- a fixed header line, LF line ends, one trailing LF.

Units: ``chars`` are Unicode code points, ``bytes`` UTF-8 bytes, ``tokens``
tiktoken ``cl100k_base`` tokens when that encoding loads without a network
(:func:`routelens.artifacts.sizes.token_count`), otherwise reported as unavailable
with the reason, never estimated.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from routelens.artifacts import sizes
from routelens.registry.model import Registry
from routelens.text.visible import visible

__all__ = ["HEADER", "one_line", "layer1_entries", "layer1_block", "layer1_stats", "format_stats"]

#: First line of the block (fixed text: it is part of the cached prefix).
HEADER = "Available skills (id: when to use it), sorted by id:"

_WS = re.compile(r"\s+")


def one_line(text: str | None) -> str:
    """``text`` with every whitespace run (including line breaks and
    U+2028/U+2029/U+0085) collapsed to one space and the ends stripped;
    ``""`` for None."""
    if not text:
        return ""
    return _WS.sub(" ", text).strip()


def layer1_entries(reg: Registry) -> list[tuple[str, str]]:
    """``[(id, line)]`` of the listed skills in block order (sorted by id;
    disabled skills left out); ``line`` is the block line without its LF."""
    out = []
    for sid in sorted(reg.skills):
        s = reg.skills[sid]
        if s.status == "disabled":
            continue
        desc = visible(one_line(s.description))  # no control character reaches an agent's prompt raw
        marker = "[deprecated] " if s.status == "deprecated" else ""
        text = f"{marker}{desc}".strip()
        out.append((sid, f"- {sid}: {text}" if text else f"- {sid}"))
    return out


def layer1_block(reg: Registry) -> str:
    """The Layer-1 block as text: the header line, then one line per listed
    skill (see the module docstring), LF line ends, one trailing LF."""
    lines = [HEADER, *(line for _, line in layer1_entries(reg))]
    return "\n".join(lines) + "\n"


def layer1_stats(reg: Registry, block: str | None = None) -> dict[str, Any]:
    """Size of the Layer-1 block, as a JSON-able dict (the TUI stats panel
    shows the same figures)::

        {"skills": int,            # listed skills (disabled ones excluded)
         "chars": int,             # Unicode code points
         "bytes": int,             # UTF-8 bytes
         "lines": int,             # LF-terminated lines
         "tokens": int | None,     # tiktoken cl100k_base, None when unavailable
         "encoding": "cl100k_base",
         "tokens_unavailable": str | None,   # the reason when tokens is None
         "sha256": str}            # hex digest of the block's UTF-8 bytes

    Never raises for a valid registry; token counting never uses a network.
    """
    text = block if block is not None else layer1_block(reg)
    data = text.encode("utf-8")
    tok = sizes.token_count(text)  # looked up when called, so a test can pin it
    return {
        "skills": len(layer1_entries(reg)),
        "chars": len(text),
        "bytes": len(data),
        "lines": text.count("\n"),
        "tokens": tok.get("tokens"),
        "encoding": tok.get("encoding", "cl100k_base"),
        "tokens_unavailable": tok.get("unavailable") if tok.get("tokens") is None else None,
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def format_stats(st: dict[str, Any]) -> str:
    """One line for people: ``layer-1 block: N skills, C chars, B bytes,
    T tokens (cl100k_base)`` or ``..., tokens: unavailable (reason)``."""
    if st["tokens"] is not None:
        tok = f"{st['tokens']:,} tokens ({st['encoding']})"
    else:
        tok = f"tokens: unavailable ({st['tokens_unavailable']})"
    skills = f"{st['skills']:,} skill{'' if st['skills'] == 1 else 's'}"
    return f"layer-1 block: {skills}, {st['chars']:,} chars, {st['bytes']:,} bytes, {tok}"
