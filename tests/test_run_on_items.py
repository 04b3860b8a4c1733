"""A list item indented one space too far runs on into the item above it:
YAML reads "- gpu quota" and "       - request gpus" as the one trigger
"gpu quota - request gpus", and the skill stopped routing "request gpus for
the recsys project" while build, check and lint all exited 0 (a third
newcomer's trial). It is an error now (docs/formats.md §1.3)."""

from pathlib import Path

import pytest

from routelens.errors import RegistryError
from routelens.registry.load import parse_registry

HEAD = "schema_version: 1\nskills:\n  gpu-quota:\n    path: skills/gpu-quota.md\n    priority: P2\n"


@pytest.mark.parametrize("fast", [True, False])
def test_a_run_on_trigger_is_an_error_at_the_second_line(fast):
    text = HEAD + "    triggers:\n      - gpu quota\n       - request gpus\n      - GPU申請\n"
    with pytest.raises(RegistryError) as exc:
        parse_registry(text.encode(), Path("skills.yaml"), _fast=fast)
    assert [str(d) for d in exc.value.diagnostics] == [
        "skills.yaml:8:8: skills.gpu-quota.triggers[0]: line 8 is indented 1 more than the item on line 7, so "
        "YAML reads both lines as one value, 'gpu quota - request gpus'; indent line 8 by 6 like line 7 to make "
        "it an item of its own"]


def test_a_run_on_not_when_and_rule_trigger_are_named_too():
    text = (HEAD + "    triggers: [gpu quota]\n    not_when:\n      - cpu quota\n        - ram quota\n"
            "rules:\n  prod:\n    forced: true\n    triggers:\n      - delete the prod\n         - drop the prod\n")
    with pytest.raises(RegistryError) as exc:
        parse_registry(text.encode(), Path("skills.yaml"))
    assert [(d.line, d.column, d.key_path) for d in exc.value.diagnostics] == [
        (9, 9, "skills.gpu-quota.not_when[0]"), (15, 10, "rules.prod.triggers[0]")]


@pytest.mark.parametrize("triggers", [
    "    triggers:\n      - A - B test\n      - gpu quota\n",  # a dash inside one line's value
    "    triggers: [gpu quota - request gpus]\n",  # written so on purpose, in one line
    "    triggers:\n      - gpu quota -\n        request gpus\n",  # a continuation that is no list item
])
def test_a_value_holding_a_dash_on_purpose_is_no_error(triggers):
    reg = parse_registry((HEAD + triggers).encode(), Path("skills.yaml"))
    assert reg.skills["gpu-quota"].triggers
