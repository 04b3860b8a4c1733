"""Control characters in a task never reach the terminal raw (README
"Security and limits"): the task input and the decision panel picture them
one for one (``␛`` for ESC), while routing reads the task as given."""

from routelens.tui.widgets.decision_panel import task_content

from .conftest import make_app, settle

TASK = "review my diff \x1b[31mRED\x07 done \u202e end"


async def test_the_task_input_pictures_control_characters(registry):
    app = make_app(registry)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        inp = app.query_one("#task")
        inp.value = TASK
        await settle(app, pilot)
        # what the terminal is sent: pictures, not ESC, BEL or the bidi override
        drawn = "".join(seg.text for seg in inp.render_line(0))
        assert "\x1b" not in drawn and "\x07" not in drawn and "\u202e" not in drawn
        assert "review my diff ␛[31mRED␇ done \ufffd end" in drawn
        # the value, and so the task routed, is the task as given
        assert inp.value == TASK and app.decision.task == TASK
        # the cursor at the end stands after the last picture: one cell per character
        assert inp._position_to_cell(len(TASK)) == len(TASK)
        assert inp._cell_offset_to_index(15) == 15 and inp.value[15] == "\x1b"


def test_the_decision_panel_pictures_control_characters():
    shown = task_content("deploy\n\x1b[2Jnow\u200b!", [], None).plain
    assert shown == "deploy↵␛[2Jnow·!"


def test_the_task_hint_is_an_example_of_the_registry_loaded():
    """A newcomer's trial: the hint was the bundled registry's "write a blog post about the new release" on
    every registry. It is the first phrase trigger of the first active skill, in file order."""
    from types import SimpleNamespace as S

    from routelens.tui.words import task_placeholder
    skills = {"old": S(status="disabled", priority="P0", triggers=("legacy deploy job",)),
              "album": S(status="active", priority="P2", triggers=("album layout",)),
              "cull": S(status="active", priority="P1", triggers=("cull", "cull the shoot")),
              "grade": S(status="active", priority="P1", triggers=("colour grade",))}
    assert task_placeholder(skills) == "Type a task to route, e.g. “cull the shoot”"
    assert task_placeholder({"a": S(status="active", priority="P0", triggers=("deploy",))}) == "Type a task to route"
    assert task_placeholder({}) == "Type a task to route"
