"""A sixth newcomer's trial (a community library's registry, routing round
23's session):

- "I'd like to borrow books about gardening" routed to the e-books skill as
  a typo of its trigger `ebook` (87): "book", one edit away, is listed in
  the index as another word (docs/formats.md §3.7 ``near``), but its plural
  was not, so a regular form of a listed word was taken for a typo;
- a composition id that is also a skill id was said only once that skill's
  own errors were fixed, and a second YAML document hid every error of the
  first: all errors are said together (§1.3)."""

from pathlib import Path

import pytest

from conftest import decided
from routelens.errors import RegistryError
from routelens.registry.load import parse_registry
from routelens.routing.router import Router

LIBRARY = """\
schema_version: 1
skills:
  ebooks-digital:
    path: skills/ebooks-digital.md
    priority: P1
    triggers: [ebook, e-book, audiobook, Libby]
    description: Borrow and read e-books and audiobooks through Libby
  loan-renewal:
    path: skills/loan-renewal.md
    priority: P1
    triggers: [renew a loan, renewal]
    description: Renew a patron's loans
"""


@pytest.fixture(scope="module")
def library():
    return Router.from_registry(parse_registry(LIBRARY.encode(), Path("skills.yaml")))


def test_a_regular_form_of_a_listed_real_word_is_no_typo(library):
    d = library.route("I'd like to borrow books about gardening")
    assert (d.mode, d.reason, d.skills) == ("full", "weak_evidence", ())
    pieces = [(p.kind, p.weight, p.detail) for c in d.evidence if c.id == "ebooks-digital" for p in c.pieces]
    assert pieces[0] == ("lookalike", 0, '"books" is another word, not a typo of "ebook"')


@pytest.mark.parametrize("task, want", [
    ("Can I borrow a book about gardening?", ("full", "weak_evidence", (), None)),  # the word itself, as before
    ("borrow an ebok on Libby", ("index", "clear_candidate", ("ebooks-digital",), None)),  # a typo still is one
    ("Borrow the ebooks for the reading group", ("index", "clear_candidate", ("ebooks-digital",), None)),
])
def test_the_trigger_and_its_typos_still_route(library, task, want):
    assert decided(library, task) == want


def _errors(text: str) -> list[str]:
    with pytest.raises(RegistryError) as exc:
        parse_registry(text.encode(), Path("skills.yaml"))
    return [str(d) for d in exc.value.diagnostics]


def test_a_composition_id_that_is_a_broken_skills_id_is_said_with_its_errors():
    errors = _errors("schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P0\n    triggers: [alpha]\n"
                     "  b:\n    path: b.md\n    priority: p1\n    triggers: [beta]\ncomposition:\n  b: [a]\n")
    assert errors == ["skills.yaml:9:15: skills.b.priority: unknown priority 'p1' (one of P0, P1, P2)",
                      "skills.yaml:12:3: composition.b: composition id 'b' is also a skill id: explicit ids must be "
                      "unique"]


def test_a_second_document_hides_no_error_of_the_first():
    errors = _errors("schema_version: 1.0\nskills:\n  a: [not, a, mapping]\n  b:\n    path: b.md\n    priority: P1\n"
                     "    triggers: [beta]\n---\nsecond: doc\n")
    assert errors == ["skills.yaml:1:17: schema_version: must be the integer 1, got '1.0'",
                      "skills.yaml:3:6: skills.a: a skill must be a mapping, not a list",
                      "skills.yaml:8:1: a second YAML document: the registry must be a single document"]


def test_schema_takes_no_registry_and_says_so(cli):
    # `routelens schema --registry /nonexistent` printed the schema and exited 0: the option did nothing
    with pytest.raises(SystemExit) as exc:
        cli("schema", "--registry", "/nonexistent")
    assert exc.value.code == 2
    code, out, err = cli("schema", "--path")
    assert code == 0 and out.strip().endswith("skills.schema.json")
