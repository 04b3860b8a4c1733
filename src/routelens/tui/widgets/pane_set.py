"""The three panes of the main screen side by side: the canonical
registry, the compact index (one tuple per line) and the debug catalog.

The screen hands it what to show — a preview, a snapshot, a failure, the
hits of a decision — and it fills the panes: text, notices, subtitles and
the bands of every hit, the current one strongest, scrolled into view.
Below the narrow width the screen shows one pane at a time (:meth:`show_only`).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal

from routelens.registry.notices import warning_lines as registry_notices
from routelens.tui import words
from routelens.tui.highlight import Band
from routelens.tui.model import Glance, Hit, LoadFailure, Paths, Preview, Snapshot, display_text
from routelens.tui.widgets.code_pane import CodePane
from routelens.tui.widgets.source_view import MAX_TEXTAREA_LINES

__all__ = ["PaneSet", "PANES"]

#: Pane names in display order, with their tab labels.
PANES = {"registry": "Registry", "index": "Index", "catalog": "Catalog"}


class PaneSet(Horizontal):
    """The ``registry``, ``index`` and ``catalog`` :class:`CodePane`\\ s
    (``#<name>-pane``). Rows of bands are 0-based; hits' lines 1-based."""

    def __init__(self, paths: Paths, *, max_textarea_lines: int = MAX_TEXTAREA_LINES, id: str | None = None) -> None:
        super().__init__(id=id)
        self.paths = paths
        titles = {"registry": paths.registry_name, "index": paths.show(paths.index), "catalog": paths.show(paths.catalog)}
        #: the panes by name (made here, so they exist before the screen is composed)
        self.panes = {name: CodePane(titles[name], id=f"{name}-pane", max_textarea_lines=max_textarea_lines)
                      for name in PANES}
        self._shown: dict[str, tuple] = {}
        self._heads: set[str] = set()  # panes that show only a glance's first lines

    def compose(self) -> ComposeResult:
        yield from self.panes.values()

    def __getitem__(self, name: str) -> CodePane:
        return self.panes[name]

    def set_panes_loading(self, loading: bool) -> None:
        """The loading indicator on all three panes, or off."""
        for pane in self.panes.values():
            pane.loading = loading

    def show_only(self, names: set[str]) -> None:
        """Display the panes in ``names``, hide the others."""
        for name, pane in self.panes.items():
            pane.display = name in names

    def _show(self, name: str, text: str, language: str | None, big: bool | None = None,
              starts: tuple | None = None) -> None:
        """Load ``text`` into a pane unless it already shows exactly that.
        A pane showing only its first lines (:meth:`show_glance`) keeps its
        scroll position when the whole text replaces them. ``starts``: the
        text's line starts, computed by the loading worker."""
        key = (language, len(text), hash(text))  # not the text itself: no extra copy of big files
        if self._shown.get(name) == key:
            if starts is not None:  # the same text: its exact line starts may have come (model.pane_lines)
                self.panes[name].update_starts(starts)
            return
        keep = name in self._heads
        self._heads.discard(name)
        self._shown[name] = key
        self.panes[name].show(text, language, big=big, keep_scroll=keep, starts=starts)

    def show_glance(self, seen: Glance) -> None:
        """The first lines of each file (:func:`~routelens.tui.model.glance`)
        in the line view the whole file will use, until :meth:`show_preview`."""
        heads = (("registry", seen.registry_head, "yaml"), ("index", seen.index_head, "json"),
                 ("catalog", seen.catalog_head, "json"))
        for name, text, language in heads:
            if text is not None:
                self._show(name, text, language, big=True)
                self._heads.add(name)
        self.panes["registry"].border_subtitle = words.registry_subtitle(seen.registry_lines)

    # ------------------------------------------------------------------ what a load gives
    def show_preview(self, pre: Preview) -> None:
        """The registry's text and both generated files, before the registry is parsed."""
        self._show("registry", pre.display_text, "yaml", starts=pre.starts.get("registry"))
        self.panes["registry"].border_subtitle = words.registry_subtitle(
            len(pre.starts["registry"][0]) if "registry" in pre.starts else pre.display_text.count("\n") + 1)
        if pre.index is not None:
            self._show("index", pre.index.text, "json" if pre.index.formatted else None, starts=pre.starts.get("index"))
        if pre.catalog is not None:
            self._show("catalog", pre.catalog.text, "json", starts=pre.starts.get("catalog"))

    def show_failure(self, failure: LoadFailure) -> None:
        """A registry that never loaded: its text with every error line
        banded (the first one in view); the generated files wait."""
        reg = self.panes["registry"]
        text = display_text(failure.text.removesuffix("\n")) if failure.text is not None else ""
        self._show("registry", text, "yaml")
        reg.set_notice(words.REGISTRY_UNUSABLE, "error")
        bands = [Band(d.line - 1, d.line - 1, "error", f"line {d.line}") for d in failure.diagnostics]
        reg.set_bands(bands)
        if bands:
            reg.reveal(bands[0].start, bands[0].end)
        for name in ("index", "catalog"):
            self._show(name, "", None)
            self.panes[name].set_notice(words.WAITING_FOR_REGISTRY, "info")

    def show_snapshot(self, snap: Snapshot) -> None:
        """A valid registry, the index and the catalog, each with its notice
        (warnings, freshness, a stale or unusable catalog)."""
        reg = snap.registry
        rp, ip, cp = self.panes["registry"], self.panes["index"], self.panes["catalog"]
        self._show("registry", snap.display_text, "yaml", starts=snap.starts.get("registry"))
        rp.border_title = self.paths.registry_name
        rp.border_subtitle = words.registry_subtitle(reg.line_count)
        rp.set_notice(words.warnings_notice(registry_notices(reg)), "warning")
        if snap.index is not None:
            self._show("index", snap.index.text, "json" if snap.index.formatted else None,
                       starts=snap.starts.get("index"))
        else:
            self._show("index", "", None)
        ip.border_subtitle = (
            words.index_subtitle(len(snap.index.rows)) if snap.index is not None and snap.index.formatted else ""
        )
        ip.set_notice(*words.index_notice(snap))
        if snap.catalog is not None:
            self._show("catalog", snap.catalog.text, "json", starts=snap.starts.get("catalog"))
        else:
            self._show("catalog", "", None)
        cp.set_notice(*words.catalog_notice(snap))

    # ------------------------------------------------------------------ hits
    def paint_hits(self, snap: Snapshot | Preview, hits: list[Hit], current: Hit | None) -> None:
        """Bands for every hit (and ``current`` when it is not one of them:
        a near miss, an entry picked in the browser), ``current`` strongest,
        and scroll it into view. ``snap``: the load on screen, or the
        preview a router routes from before the registry is parsed. The
        catalog entry is banded once its rows are known (found in the
        loading worker, never on the UI thread)."""
        shown = list(hits)
        if current is not None and current.key not in {h.key for h in shown}:
            shown.append(current)
        rb, ib = [], []
        for h in shown:
            kind = "current" if current is not None and h.key == current.key else "hit"
            if h.start:
                rb.append(Band(h.start - 1, h.end - 1, kind, h.id))
            if snap.index is not None and h.key in snap.index.rows:
                row = snap.index.rows[h.key]
                ib.append(Band(row, row, kind, h.id))
        rp, ip, cp = self.panes["registry"], self.panes["index"], self.panes["catalog"]
        rp.set_bands(rb)
        ip.set_bands(ib)
        cb: list[Band] = []
        if (current is not None and snap.catalog is not None and snap.catalog.entries_known
                and current.key in snap.catalog.entries):
            s, e = snap.catalog.entries[current.key]
            cb.append(Band(s, e, "current", current.id))
        cp.set_bands(cb)
        if current is not None:
            rp.border_subtitle = words.entry_subtitle(current.id, current.start, current.end)
            cp.border_subtitle = f"{current.kind}.{current.id}" if cb else ""
        else:
            rp.border_subtitle = words.registry_subtitle(snap.line_count)
            cp.border_subtitle = ""
        self.reveal(snap, current)

    def reveal(self, snap: Snapshot | Preview, current: Hit | None) -> None:
        """Scroll ``current`` into view in the three panes."""
        if current is None:
            return
        if current.start:
            self.panes["registry"].reveal(current.start - 1, current.end - 1)
        if snap.index is not None and current.key in snap.index.rows:
            row = snap.index.rows[current.key]
            self.panes["index"].reveal(row, row)
        if snap.catalog is not None and snap.catalog.entries_known and current.key in snap.catalog.entries:
            s, e = snap.catalog.entries[current.key]
            self.panes["catalog"].reveal(s, e)
