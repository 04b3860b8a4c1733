"""DataTable cells from Textual ``Content``.

DataTable measures column widths with Rich's measuring protocol, which
``Content`` does not answer (columns stay as narrow as their labels), and it
parses plain strings as markup (a trigger ``[x]`` would vanish). So cells
are Rich ``Text`` built by rendering the Content against the table's own
style, which also resolves theme variables such as ``$success``; the
table's own background is left out so the row cursor shows through.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.widget import Widget

from routelens.text.visible import pictured

__all__ = ["cell"]


def cell(widget: Widget, value: Content | str) -> Text:
    """A Rich Text cell for ``widget`` (a DataTable) showing ``value``;
    a plain string is shown literally (never as markup), and control
    characters from data are pictured (never sent to the terminal). A cell
    wider than its column ends in an ellipsis (never silently cut: see
    :mod:`routelens.tui.fit` for the columns that must never shrink)."""
    if isinstance(value, str):
        return Text(pictured(value), end="", no_wrap=True, overflow="ellipsis")
    base = widget.visual_style
    base_bg = base.background.rich_color if base.background is not None else None
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    for seg in value.render_segments(base):
        style = seg.style
        if style is not None and style.bgcolor is not None and style.bgcolor == base_bg:
            style = style + Style(bgcolor=None)
            style = Style(color=style.color, bold=style.bold, italic=style.italic, underline=style.underline,
                          strike=style.strike, dim=style.dim, reverse=style.reverse)
        text.append(pictured(seg.text), style)
    return text
