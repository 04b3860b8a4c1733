"""LineInput: typing repaints the input and never lays out the screen
(Textual's Input lays out the whole screen at each key, most of a filter
keystroke on the skill browser at 10,000 skills); the text still scrolls."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from routelens.tui.widgets.line_input import LineInput


class _Two(App):
    def __init__(self, cls: type[Input]) -> None:
        super().__init__()
        self.cls = cls

    def compose(self) -> ComposeResult:
        yield self.cls(id="field")
        yield Static("below")


async def _layouts_while_typing(cls: type[Input], text: str) -> tuple[int, Input]:
    app = _Two(cls)
    async with app.run_test(size=(24, 6)) as pilot:
        field = app.query_one("#field", Input)
        field.cursor_blink = False
        field.focus()
        await pilot.pause()
        screen = app.screen
        calls = []
        original = screen._refresh_layout

        def counting(*args, **kwargs):
            calls.append(1)
            return original(*args, **kwargs)

        screen._refresh_layout = counting
        for ch in text:
            await pilot.press(ch)
        await pilot.pause()
        return len(calls), field


async def test_plain_input_lays_out_the_screen_at_each_key():
    """The fault LineInput removes, so that the test below can fail."""
    layouts, _ = await _layouts_while_typing(Input, "abcdef")
    assert layouts >= 6


async def test_line_input_typing_does_not_lay_out_the_screen():
    layouts, field = await _layouts_while_typing(LineInput, "abcdef")
    assert layouts == 0
    assert field.value == "abcdef"


async def test_line_input_scrolls_to_the_cursor_past_its_width():
    text = "abcdefghijklmnopqrstuvwxyz0123456789"  # 36 characters in an input 24 cells wide
    _, field = await _layouts_while_typing(LineInput, text)
    _, plain = await _layouts_while_typing(Input, text)
    assert field.virtual_size.width == plain.virtual_size.width == 37  # the text and the cursor cell
    assert field.scroll_x == plain.scroll_x == 19  # the cursor at the right edge, as Textual's own Input


async def _burst(cls: type[Input], keys: list[str]) -> str:
    """The input's value after ``keys`` arrive in one burst (posted without
    waiting for each to be handled, as a fast typist or a paste of keys)."""
    from textual import events

    app = _Two(cls)
    async with app.run_test(size=(40, 6)) as pilot:
        field = app.query_one("#field", Input)
        field.cursor_blink = False
        field.focus()
        await pilot.pause()
        for key in keys:
            char = key if len(key) == 1 else None
            app.post_message(events.Key(key, char))
        await pilot.pause()
        await pilot.pause()
        return field.value


BURST = [*"deploy", *["backspace"] * 6, *"review"]
BURST2 = [*"derev", "backspace", *"rev", "left", "left", "left", "x", "home", "y", "end", "z"]


async def test_plain_input_applies_a_burst_of_keys_out_of_order():
    """The fault LineInput removes, so that the test below can fail."""
    assert await _burst(Input, BURST) != "review"


async def test_line_input_applies_a_burst_of_keys_in_order():
    assert await _burst(LineInput, BURST) == "review"
    assert await _burst(LineInput, BURST2) == "yderexrevz"  # dere+rev, x at 4, y first, z last
