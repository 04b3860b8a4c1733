"""Colours of the code panes (registry YAML, index and catalog JSON) that
stay readable in every theme.

Textual's TextArea colours tokens with one fixed palette made for dark
backgrounds, whatever the app's theme: on ``textual-light`` its list
markers, brackets and numbers were grey 251 on 252. Here each token takes
a hue from the app's theme (its readable text variants: ``text-primary``
for keys, ``text-success`` for strings, ...) and is then moved toward
black or white until its WCAG 2 contrast against the pane's background
reaches a bar: :data:`TEXT_CONTRAST` (4.5:1, WCAG AA for text) for
anything people read — keys, strings, numbers, comments, line numbers —
and :data:`MARK_CONTRAST` (3:1, WCAG's bar for graphical marks) for
punctuation and list markers. In an ANSI theme (the terminal's own
colours, unknown here) every token keeps the terminal's default
foreground and differs by weight or slant only.

Both code views use :func:`token_styles`: the TextArea one through
:func:`text_area_theme`, the line-API one directly.
"""

from __future__ import annotations

from typing import Mapping

from rich.style import Style
from textual.widgets.text_area import TextAreaTheme
from textual.color import Color

__all__ = [
    "TEXT_CONTRAST",
    "MARK_CONTRAST",
    "TOKENS",
    "contrast",
    "readable",
    "token_colors",
    "token_styles",
    "text_area_theme",
]

#: WCAG 2 AA contrast for text (keys, strings, numbers, comments, line numbers)
TEXT_CONTRAST = 4.5
#: WCAG 2 contrast for graphical marks (punctuation, brackets, list markers)
MARK_CONTRAST = 3.0

#: tree-sitter highlight name -> (theme variable giving its hue, how much of it over the
#: foreground, bar, bold, italic); names from Textual's yaml.scm and json.scm
TOKENS: dict[str, tuple[str, float, float, bool, bool]] = {
    "yaml.field": ("text-primary", 1.0, TEXT_CONTRAST, True, False),
    "json.label": ("text-primary", 1.0, TEXT_CONTRAST, True, False),
    "string": ("text-success", 1.0, TEXT_CONTRAST, False, False),
    "string.escape": ("text-warning", 1.0, TEXT_CONTRAST, False, False),
    "number": ("text-warning", 1.0, TEXT_CONTRAST, False, False),
    "boolean": ("text-accent", 1.0, TEXT_CONTRAST, False, False),
    "constant.builtin": ("text-accent", 1.0, TEXT_CONTRAST, False, False),
    "json.null": ("text-accent", 1.0, TEXT_CONTRAST, False, False),
    "type": ("text-secondary", 1.0, TEXT_CONTRAST, False, False),
    "preproc": ("text-secondary", 1.0, TEXT_CONTRAST, False, False),
    "comment": ("foreground", 0.6, TEXT_CONTRAST, False, True),
    "punctuation.bracket": ("foreground", 0.7, MARK_CONTRAST, False, False),
    "punctuation.delimiter": ("foreground", 0.7, MARK_CONTRAST, False, False),
    "punctuation.special": ("foreground", 0.7, MARK_CONTRAST, False, False),
    "gutter": ("foreground", 0.55, TEXT_CONTRAST, False, False),
    # text no token covers (the line-API view's plain values)
    "text": ("foreground", 1.0, TEXT_CONTRAST, False, False),
}


def _luminance(c: Color) -> float:
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)


def contrast(a: Color, b: Color) -> float:
    """The WCAG 2 contrast ratio of two opaque colours, 1.0 to 21.0."""
    la, lb = _luminance(a), _luminance(b)
    if la < lb:
        la, lb = lb, la
    return (la + 0.05) / (lb + 0.05)


def readable(color: Color, background: Color, bar: float) -> Color:
    """``color``, or the closest blend of it toward black or white (the one
    that contrasts more with ``background``) whose contrast against
    ``background`` is at least ``bar``."""
    if contrast(color, background) >= bar:
        return color
    target = Color(0, 0, 0) if contrast(Color(0, 0, 0), background) > contrast(Color(255, 255, 255), background) \
        else Color(255, 255, 255)
    lo, hi = 0.0, 1.0  # bisect the smallest blend that passes
    for _ in range(20):
        mid = (lo + hi) / 2
        if contrast(color.blend(target, mid), background) >= bar:
            hi = mid
        else:
            lo = mid
    return color.blend(target, hi)


def _parse(value: str | None, fallback: Color) -> Color:
    try:
        return Color.parse(value) if value else fallback
    except Exception:
        return fallback


def token_colors(variables: Mapping[str, str], background: Color) -> dict[str, Color | None]:
    """Each token of :data:`TOKENS` -> its colour on ``background`` (an
    opaque colour), from the app theme's ``variables`` (``App.theme_variables``):
    None for every token in an ANSI theme (the terminal's default foreground)."""
    fg = _parse(variables.get("foreground"), Color(224, 224, 224))
    if fg.ansi is not None or background.ansi is not None:
        return {name: None for name in TOKENS}
    out: dict[str, Color | None] = {}
    for name, (var, share, bar, _bold, _italic) in TOKENS.items():
        hue = _parse(variables.get(var), fg)
        if hue.ansi is not None:
            hue = fg
        base = background.blend(hue.with_alpha(1.0), share) if share < 1.0 else hue.with_alpha(1.0)
        out[name] = readable(base, background, bar)
    return out


def token_styles(variables: Mapping[str, str], background: Color) -> dict[str, Style]:
    """Each token of :data:`TOKENS` -> its Rich style on ``background``."""
    colors = token_colors(variables, background)
    styles = {}
    for name, (_var, _share, _bar, bold, italic) in TOKENS.items():
        c = colors[name]
        styles[name] = Style(color=c.rich_color if c is not None else None, bold=bold or None, italic=italic or None)
    return styles


def text_area_theme(name: str, variables: Mapping[str, str], background: Color) -> TextAreaTheme:
    """A TextArea theme named ``name`` with the styles of
    :func:`token_styles` (its background stays the widget's own)."""
    styles = token_styles(variables, background)
    gutter = styles.pop("gutter")
    styles.pop("text")
    return TextAreaTheme(name=name, gutter_style=Style(color=gutter.color, bgcolor=background.rich_color),
                         syntax_styles=styles)
