"""``routing.audience`` (docs/formats.md §1.1, §6.10; matcher 36): a registry
whose tasks its customers write (``public``: a library's patrons) has no
private-life, everyday-life, general-question or world-statement rule
weaken its evidence; ``team``, the default, decides as before. From a sixth
newcomer's library registry, whose patrons' tasks fell back
``weak_evidence`` ("... for me and my friends", "... novel for me")."""

import json
from pathlib import Path

import pytest

from conftest import decided
from routelens.artifacts.index_file import index_bytes, parse_index
from routelens.errors import IndexInvalidError, RegistryError
from routelens.registry.load import parse_registry
from routelens.routing.router import Router

LIBRARY = """\
schema_version: 1
skills:
  hold-request:
    path: skills/hold-request.md
    priority: P0
    triggers: [place a hold, put a hold on, hold request]
    description: Place, check or cancel a hold on an item in the catalogue
  library-card:
    path: skills/library-card.md
    priority: P0
    triggers: [library card, get a card, PIN reset]
    description: Issue, replace or renew a library card and reset its PIN
  room-booking:
    path: skills/room-booking.md
    priority: P1
    triggers: [book a study room, study room, meeting room]
    description: Book, change or cancel a study or meeting room
  purchase-suggestion:
    path: skills/purchase-suggestion.md
    priority: P2
    triggers: [buy a book for the library, purchase suggestion]
    description: A patron suggests an item for the library to buy
"""


def registry(audience: str | None):
    text = LIBRARY + (f"routing:\n  audience: {audience}\n" if audience else "")
    return parse_registry(text.encode(), Path("skills.yaml"))


@pytest.fixture(scope="module")
def routers():
    return {a: Router.from_registry(registry(a)) for a in (None, "team", "public")}


@pytest.mark.parametrize("task, public", [
    ("Book a study room for me and my friends", ("index", "clear_candidate", ("room-booking",), None)),
    ("Please put a hold on the new Louise Penny novel for me", ("index", "clear_candidate", ("hold-request",), None)),
    ("My daughter is 8, can she get a card of her own?", ("index", "clear_candidate", ("library-card",), None)),
    ("Could the library buy a book for the library collection?",
     ("index", "clear_candidate", ("purchase-suggestion",), None)),
])
def test_a_patrons_own_life_and_questions_are_the_work_of_a_public_registry(routers, task, public):
    assert decided(routers["public"], task) == public
    # the default reads the same tasks as a team member's private life or a question about the world
    assert decided(routers[None], task) == ("full", "weak_evidence", (), None)
    assert decided(routers["team"], task) == decided(routers[None], task)


@pytest.mark.parametrize("task, want", [
    ("I love reading a good novel on the beach", ("full", "no_match", (), None)),  # no trigger: still nothing
    ("a hold", ("full", "no_match", (), None)),
])
def test_a_public_registry_still_needs_evidence(routers, task, want):
    assert decided(routers["public"], task) == want


def test_the_index_writes_the_audience_only_when_it_is_public():
    public = json.loads(index_bytes(registry("public")))
    assert public["routing"] == {"threshold": 85, "ambiguity_margin": 5, "high_risk": [], "destructive_intents": True,
                                 "audience": "public"}
    team = json.loads(index_bytes(registry("team")))
    assert "audience" not in team["routing"]
    assert parse_index(index_bytes(registry("public"))).settings.audience == "public"
    assert parse_index(index_bytes(registry("team"))).settings.audience == "team"
    bad = index_bytes(registry("public")).replace(b'"audience":"public"', b'"audience":"everyone"')
    with pytest.raises(IndexInvalidError, match="routing.audience is 'everyone', not one of team, public"):
        parse_index(bad)


@pytest.mark.parametrize("value, error", [
    ("publik", "skills.yaml:24:13: routing.audience: must be one of team, public, got 'publik' (team: the "
               "organisation's own people write the tasks, the default; public: its customers do)"),
    ("[public]", "skills.yaml:24:13: routing.audience: must be one of team, public, got a list (team: the "
                 "organisation's own people write the tasks, the default; public: its customers do)"),
])
def test_a_bad_audience_is_an_error_at_its_value(value, error):
    with pytest.raises(RegistryError) as exc:
        registry(value)
    assert [str(d) for d in exc.value.diagnostics] == [error]


def test_a_misspelt_audience_key_is_an_error():
    with pytest.raises(RegistryError) as exc:
        parse_registry((LIBRARY + "routing:\n  audiance: public\n").encode(), Path("skills.yaml"))
    assert [str(d) for d in exc.value.diagnostics] == [
        "skills.yaml:24:3: routing.audiance: unknown routing key: did you mean `audience`? (as written it would be "
        "ignored and `audience` left at its default)"]
