"""A third newcomer's trial after routing round 20 (the bundled registry and
the TUI, driven in tmux): what it found wrong, each with the failing input.
The index_invalid message, the option error and the open stats panel are
tested beside their kind (``test_hostile_inputs.py``,
``test_cli_newcomer6.py``, ``tui/test_pilot.py``)."""

from pathlib import Path

import pytest

from routelens.routing.router import Router

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundled():
    return Router.from_paths(ROOT / "skills.yaml", ROOT / "generated" / "routing.min.json")


@pytest.mark.parametrize("task, reason, skills", [
    # routed to ci-fix alone, dependency-upgrade a near miss (75): its trigger was only "dependency upgrade"
    ("upgrade dependencies and fix the CI", "multi_need", ("dependency-upgrade", "ci-fix")),
    # both fell back no_match
    ("upgrading dependencies for the api", "clear_candidate", ("dependency-upgrade",)),
    ("please upgrade the dependencies", "clear_candidate", ("dependency-upgrade",)),
])
def test_the_bundled_registry_routes_upgrade_dependencies(bundled, task, reason, skills):
    d = bundled.route(task)
    assert (d.mode, d.reason, d.skills) == ("index", reason, skills)


def test_the_evidence_names_another_skills_trigger_word_as_the_registrys(bundled):
    # "the trigger word "upgrade"" on ci-fix read as one of ci-fix's triggers (it is dependency-upgrade's)
    d = bundled.route("bump the CI image and fix ci")
    pieces = [(p.kind, p.detail) for c in d.evidence if c.id == "ci-fix" for p in c.pieces]
    assert ("context", 'the registry\'s trigger word "bump"') in pieces, pieces
