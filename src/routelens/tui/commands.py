"""Command palette entries (ctrl+p): jump to an entry, rebuild, toggle panes,
open the browser and stats, copy the decision. Theme switching comes from
Textual's own system commands, which stay in the palette.

Every entry runs an app action by name (``self.app.run_action``), so this
module does not import the app; the loaded registry is read through
:class:`PaletteHost`, the one thing the palette needs to know of it."""

from __future__ import annotations

from functools import partial
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from routelens.tui.model import Snapshot

__all__ = ["RouteLensCommands", "PaletteHost", "COMMANDS"]

#: ``(name, action, help)`` of the palette's fixed entries, in order.
COMMANDS: list[tuple[str, str, str]] = [
    ("Rebuild the index…", "rebuild", "write generated/ from the registry (asks first)"),
    ("Skill browser", "skills", "filter skills; body, catalog entry, explain (F2)"),
    ("Stats", "stats", "sizes, budget, freshness, biggest contributors (F3)"),
    ("Copy decision as JSON", "copy_json", "copy to the clipboard and show it (F6)"),
    ("Copy a fix", "copy_fix", "copy the next fix of a fallback and show where it goes (F7)"),
    ("Labelled cases…", "cases", "every case with its outcome; live as the registry changes (F8)"),
    ("Decision log…", "log", "replay a decision log against the registry (F9)"),
    ("Tune on the labelled cases", "tune", "the risk-coverage plot of threshold and margin"),
    ("Zoom panes", "zoom", "hide or show the decision panel (F4)"),
    ("Help", "help", "keys and what the reasons mean (F1)"),
    ("Reload files", "reload", "re-read the registry and generated/ now"),
    *((f"Toggle {name} pane", f"toggle_pane({name!r})", f"hide or show the {name} pane")
      for name in ("registry", "index", "catalog")),
]


class PaletteHost(Protocol):
    """What the palette reads from the app: the last good load."""

    @property
    def snapshot(self) -> Snapshot | None: ...


class RouteLensCommands(Provider):
    """The app's commands plus one "Jump to" command per skill,
    composition and rule of the loaded registry."""

    def _commands(self) -> list[tuple[str, str, str]]:
        """``(name, action, help)`` of every entry."""
        cmds = list(COMMANDS)
        snap = cast(PaletteHost, self.app).snapshot
        if snap is not None:
            reg = snap.registry
            for kind, table, label in (("skills", reg.skills, "skill"), ("compositions", reg.compositions, "composition"),
                                       ("rules", reg.rules, "rule")):
                for eid, e in table.items():
                    cmds.append((f"Jump to {label} {eid}", f"jump({kind!r}, {eid!r})",
                                 f"lines {e.source_start}–{e.source_end}"))
        return cmds

    async def discover(self) -> Hits:
        for name, action, help_text in self._commands():
            if name.startswith("Jump to"):
                continue
            yield DiscoveryHit(name, partial(self.app.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, action, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self.app.run_action, action), help=help_text)
