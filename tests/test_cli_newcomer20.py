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


def test_check_says_which_entries_changed_only_in_their_domain_terms(tmp_path):
    """`check` said "changed: dependency-upgrade, postmortem" after one
    trigger of dependency-upgrade was added: postmortem's domain terms were
    re-chosen to fit the size budget (docs/formats.md §3.7), its entry was
    never edited. Such entries are listed apart, named so."""
    from routelens.artifacts.check import check
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry

    import shutil

    shutil.copytree(ROOT / "skills", tmp_path / "skills")
    reg_path = tmp_path / "skills.yaml"
    text = (ROOT / "skills.yaml").read_text(encoding="utf-8")
    reg_path.write_text(text, encoding="utf-8")
    write_generated(load_registry(reg_path), tmp_path / "generated")
    # the registry grows by comments only: no entry changes, but the budget moves
    reg_path.write_text(text + "".join(f"# padding comment line number {n} to grow the registry a little more\n"
                                       for n in range(1, 3)), encoding="utf-8")
    res = check(load_registry(reg_path), tmp_path / "generated")
    assert res.ok is False
    assert res.problems[-1] == (
        "Since the build: domain terms re-chosen to fit the size budget as the registry's size changed "
        "(docs/formats.md §3.7; the entries themselves did not change): legacy-deploy, lint-format, log-analysis, "
        "meeting-notes, monitoring-alerts and 2 more. Run `routelens build`.")
    # an edited entry is still "changed", the others apart
    reg_path.write_text(text.replace("outdated packages,", "outdated packages, stale deps,", 1), encoding="utf-8")
    assert check(load_registry(reg_path), tmp_path / "generated").problems[-1] == (
        "Since the build: changed: dependency-upgrade. Run `routelens build`.")


CAFE = """\
schema_version: 1
skills:
  recipe-costing:
    path: skills/recipe-costing.md
    priority: P1
    triggers: [gross margin, cost per portion, recipe cost]
    description: Cost a recipe per portion and work out its gross margin
  rota-planning:
    path: skills/rota-planning.md
    priority: P1
    triggers: [rota, shift plan]
    description: Plan the staff rota for the week
  equipment-maintenance:
    path: skills/equipment-maintenance.md
    priority: P1
    triggers: [dishwasher, fridge repair, oven service]
    description: Book repairs and servicing for kitchen equipment
"""


def test_our_flat_whites_are_a_cafes_not_private_life():
    # a newcomer's cafe: "our flat" read as one's home, so the phrase "gross margin" weighed 1 and fell back
    from routelens.registry.load import parse_registry
    from routelens.text.life import private_life

    assert private_life("What's the gross margin on our flat whites?") is None
    assert private_life("my flat is freezing") == "my flat"
    router = Router.from_registry(parse_registry(CAFE.encode(), "skills.yaml"))
    d = router.route("What's the gross margin on our flat whites?")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("recipe-costing",))


def test_explain_says_why_a_generic_request_asks_for_nothing():
    # a newcomer: "fix the dishwasher" fell back weak_evidence while "can you do the rota" routed, and explain
    # never said why "fix" did not count as a request
    from routelens.registry.load import parse_registry
    from routelens.routing.explain import explain

    router = Router.from_registry(parse_registry(CAFE.encode(), "skills.yaml"))
    e = explain(router, "fix the dishwasher", "equipment-maintenance")
    assert e.decision.reason == "weak_evidence"
    assert ('"fix the dishwasher" is a generic request verb and the word alone, which does not say what work is '
            'wanted (docs/formats.md §6.10 `ask`: underspecified, as "check the booking" is): say more of the work, '
            'or add the phrase as a trigger.') in e.reasons
    # a request that says more routes, and explain says nothing of the kind
    e = explain(router, "check the dishwasher drain pump", "equipment-maintenance")
    assert e.selected and not any("generic request verb" in r for r in e.reasons)
