"""Every shipped theme keeps the code panes readable (issue 13 item 14:
on ``textual-light`` list markers, brackets and numbers were grey 251 on
252). The colours are read from what the panes paint, for the TextArea
view and the line-API view: each non-blank cell's colour against its own
background must reach WCAG 2 contrast 4.5:1 for text (keys, strings,
numbers, comments, line numbers) and 3:1 for punctuation and list markers.
In the ANSI themes the terminal picks the colours: tokens keep its default
foreground."""

from __future__ import annotations

import pytest
from textual.color import Color

from routelens.tui.code_colors import MARK_CONTRAST, TEXT_CONTRAST, contrast

from .conftest import make_app, settle

#: 0-based rows of the bundled registry painted: a comment, a top-level key with a number,
#: a section key, an entry key, key: value pairs, list items with a marker
REGISTRY_ROWS = (0, 16, 18, 20, 21, 22, 23, 24, 25)
MARKS = set("-:[]{},\"'")


def cells(strip):
    """``(text, style)`` of each segment that is not blank."""
    return [(seg.text, seg.style) for seg in strip if seg.text.strip() and seg.style is not None]


def check_pane(view, rows, theme: str) -> list[str]:
    """Every painted cell of ``rows`` against the bars; the failures, as text."""
    bad = []
    for row in rows:
        view.scroll_to(y=max(row - 2, 0), animate=False, immediate=True)
        strip = view.render_line(row - view.scroll_offset.y)
        for text, style in cells(strip):
            fg, bg = style.color, style.bgcolor
            if theme.startswith("ansi"):  # the terminal's colours: its default foreground, nothing else
                if not (fg is None or fg.is_default):
                    bad.append(f"{theme} row {row + 1} {text!r}: {fg.name} instead of the default foreground")
                continue
            assert fg is not None and bg is not None, (theme, row, text)
            c = contrast(Color.from_rich_color(fg), Color.from_rich_color(bg))
            bar = MARK_CONTRAST if set(text.strip()) <= MARKS else TEXT_CONTRAST
            if c < bar - 1e-9:
                bad.append(f"{theme} row {row + 1} {text!r}: {c:.2f} < {bar}")
    return bad


@pytest.mark.parametrize("view_kind", ["textarea", "lineview"])
async def test_every_theme_keeps_code_readable(bundled, view_kind):
    kw = {"max_textarea_lines": 10} if view_kind == "lineview" else {}
    app = make_app(bundled, **kw)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        themes = sorted(app.available_themes)
        assert {"textual-dark", "textual-light", "solarized-light", "nord"} <= set(themes)
        bad = []
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            await pilot.pause()
            reg = app.main.pane("registry").view
            idx = app.main.pane("index").view
            assert type(reg).__name__ == ("LineView" if view_kind == "lineview" else "SourceView")
            bad += check_pane(reg, REGISTRY_ROWS, theme)
            bad += check_pane(idx, range(0, 8), theme)
        assert bad == [], "\n".join(bad)
