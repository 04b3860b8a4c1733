"""Command palette entries (ctrl+p): jump to an entry, rebuild, toggle panes,
open the browser and stats, copy the decision. Theme switching comes from
Textual's own system commands, which stay in the palette."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from routelens.tui.app import RouteLensApp

__all__ = ["RouteLensCommands"]


class RouteLensCommands(Provider):
    """The app's commands plus one "Jump to" command per skill,
    composition and rule of the loaded registry."""

    def _commands(self) -> list[tuple[str, object, str]]:
        app: RouteLensApp = self.app  # type: ignore[assignment]
        cmds: list[tuple[str, object, str]] = [
            ("Rebuild the index…", app.action_rebuild, "write generated/ from the registry (asks first)"),
            ("Skill browser", app.action_skills, "filter skills; body, catalog entry, explain (F2)"),
            ("Stats", app.action_stats, "sizes, budget, freshness, biggest contributors (F3)"),
            ("Copy decision as JSON", app.action_copy_json, "copy to the clipboard and show it (F6)"),
            ("Zoom panes", app.action_zoom, "hide or show the decision panel (F4)"),
            ("Help", app.action_help, "keys and what the reasons mean (F1)"),
            ("Reload files", app.reload, "re-read the registry and generated/ now"),
        ]
        for name in ("registry", "index", "catalog"):
            cmds.append((f"Toggle {name} pane", partial(app.toggle_pane, name), f"hide or show the {name} pane"))
        snap = app.snapshot
        if snap is not None:
            reg = snap.registry
            for kind, table, label in (("skills", reg.skills, "skill"), ("compositions", reg.compositions, "composition"),
                                       ("rules", reg.rules, "rule")):
                for eid, e in table.items():
                    cmds.append((f"Jump to {label} {eid}", partial(self._jump, kind, eid),
                                 f"lines {e.source_start}–{e.source_end}"))
        return cmds

    def _jump(self, kind: str, eid: str) -> None:
        app: RouteLensApp = self.app  # type: ignore[assignment]
        app.reveal_entry(kind, eid)
        app.show_pane("registry")

    async def discover(self) -> Hits:
        for name, cb, help_text in self._commands():
            if name.startswith("Jump to"):
                continue
            yield DiscoveryHit(name, cb, help=help_text)  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, cb, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), cb, help=help_text)  # type: ignore[arg-type]
