"""The shipped JSON Schema of skills.yaml agrees with routelens's own
validation on every shipped and test registry, read as text (as routelens
reads it) and read with types (as an editor reads it)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from routelens.cli import main
from routelens.errors import RegistryError
from routelens.registry import parse_registry
from routelens.tools.schema import node_positions, schema_object, schema_text, text_tree, validate

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
REGISTRIES = sorted([*FIXTURES.glob("*.yaml"), *(FIXTURES / "cases").glob("*.yaml"), ROOT / "skills.yaml"])


def routelens_ok(raw: bytes) -> bool:
    try:
        parse_registry(raw, "skills.yaml")
    except RegistryError:
        return False
    return True


def typed_tree(raw: bytes):
    """The YAML as an editor reads it: YAML 1.2 types (1.10 a number, true a
    boolean); dates (which YAML editors keep as strings) as their text."""
    from ruamel.yaml import YAML

    def conv(v):
        if isinstance(v, dict):
            return {str(k): conv(x) for k, x in v.items()}
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, (datetime.date, datetime.datetime)):
            return v.isoformat()
        return v

    return conv(YAML(typ="safe", pure=True).load(raw.decode("utf-8-sig")))


def test_registries_are_found():
    names = {p.name for p in REGISTRIES}
    assert {"skills.yaml", "example-skills.yaml", "python-tag.yaml", "anchors-merge.yaml"} <= names
    assert len(REGISTRIES) >= 18


def test_cli_prints_the_schema(capsys):
    assert main(["schema"]) == 0
    out = capsys.readouterr().out
    assert out.encode("utf-8") == (ROOT / "src/routelens/data/skills.schema.json").read_bytes()
    assert json.loads(out)["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert main(["schema", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == ROOT / "src/routelens/data/skills.schema.json"


def test_schema_is_valid_draft7():
    jsonschema.Draft7Validator.check_schema(schema_object())
    assert schema_text().endswith("}\n")


def test_bundled_registry_points_editors_at_the_schema():
    first = (ROOT / "skills.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=./src/routelens/data/skills.schema.json"
    assert (ROOT / "src/routelens/data/skills.schema.json").is_file()


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_schema_agrees_with_routelens_as_text(path):
    raw = path.read_bytes()
    ok = routelens_ok(raw)
    errors = validate(raw, path.name)
    assert (errors == []) == ok, errors


@pytest.mark.parametrize("path", [p for p in REGISTRIES if routelens_ok(p.read_bytes())],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_schema_accepts_valid_registries_as_an_editor_reads_them(path):
    tree = typed_tree(path.read_bytes())
    errors = sorted(e.message for e in jsonschema.Draft7Validator(schema_object()).iter_errors(tree))
    assert errors == []


BASE = "schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n"

# (registry text, expected schema errors as text) - routelens accepts exactly the ones with []
CASES = [
    (BASE, []),
    (BASE + "    description: 1.10\n    status: deprecated\n", []),
    (BASE.replace("[x]", "[yes, 0777, 2024-01-01, '3.10']"), []),
    (BASE + "composition: ~\nrules: ~\n", []),
    (BASE + "routing:\n  threshold: '85'\n  ambiguity_margin: 5\n  max_index_ratio: 1\n  high_risk: []\n", []),
    (BASE + "rules:\n  r:\n    forced: True\n    triggers: [prod]\n", []),
    (BASE + "extra: kept as a warning\n", []),
    (BASE.replace("schema_version: 1", "schema_version: 2"), ["schema_version: '2' is not one of [1, '1']"]),
    (BASE.replace("  a:", "  A:"), ["skills: 'A' does not match '^[a-z0-9][a-z0-9-]*$'"]),
    (BASE.replace("priority: P0", "priority: P4"), ["skills.a.priority: 'P4' is not one of ['P0', 'P1', 'P2']"]),
    (BASE.replace("path: a.md", "path: ../a.md"),
     ["skills.a.path: '../a.md' does not match '^(?![/\\\\\\\\])(?![A-Za-z]:)(?!(.*[/\\\\\\\\])?\\\\.\\\\.([/\\\\\\\\]|$))'"]),
    (BASE.replace("path: a.md", "path: ~"), ["skills.a.path: None is not of type 'string', 'number', 'boolean'"]),
    (BASE.replace("[x]", "[]"), ["skills.a.triggers: [] should be non-empty"]),
    (BASE.replace("[x]", "['  ']"), ["skills.a.triggers[0]: '  ' does not match '\\\\S'"]),
    (BASE.replace("[x]", f"[{'t' * 201}]"), [f"skills.a.triggers[0]: '{'t' * 201}' is too long"]),
    (BASE + "    description: ''\n", ["skills.a.description: '' should be non-empty"]),
    (BASE + "    status: gone\n", ["skills.a.status: 'gone' is not one of ['active', 'deprecated', 'disabled']"]),
    (BASE.replace("    path: a.md\n", ""), ["skills.a: 'path' is a required property"]),
    (BASE + "composition:\n  c: [a, a]\n", ["composition.c: ['a', 'a'] has non-unique elements"]),
    (BASE + "rules:\n  r:\n    forced: maybe\n    triggers: [x]\n",
     ["rules.r.forced: 'maybe' is not one of [True, False, 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']"]),
    (BASE + "routing:\n  threshold: 150\n", ["routing.threshold: '150' is not valid under any of the given schemas"]),
    (BASE + "routing:\n  max_index_ratio: 0\n", ["routing.max_index_ratio: '0' is not valid under any of the given schemas"]),
    (BASE + "routing: ~\n", ["routing: None is not of type 'object'"]),
    ("schema_version: 1\nskills: ~\n", ["skills: None is not of type 'object'"]),
    ("schema_version: 1\n", ["'skills' is a required property"]),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_schema_and_routelens_agree_case_by_case(text, expected):
    raw = text.encode("utf-8")
    assert validate(raw) == expected
    assert routelens_ok(raw) == (expected == [])


# What a schema cannot express: references across the file. routelens rejects
# these; the schema accepts them (documented in routelens.schema).
CROSS_REFERENCE = [
    BASE + "composition:\n  c: [missing]\n",
    BASE + "composition:\n  a: [a]\n",
]


@pytest.mark.parametrize("text", CROSS_REFERENCE, ids=["unknown-member", "id-both-skill-and-composition"])
def test_cross_reference_checks_are_routelens_only(text):
    raw = text.encode("utf-8")
    assert validate(raw) == []
    assert routelens_ok(raw) is False


def test_text_tree_keeps_scalars_as_text():
    raw = (FIXTURES / "cases" / "implicit-types-triggers.yaml").read_bytes()
    tree = text_tree(raw)
    triggers = next(iter(tree["skills"].values()))["triggers"]
    assert triggers == ["3.10", "1.10", "2024-01-01", "0123", "1e3"]


def test_yaml_level_errors_are_reported_with_positions():
    raw = (FIXTURES / "cases" / "python-tag.yaml").read_bytes()
    with pytest.raises(RegistryError) as exc:
        text_tree(raw, "python-tag.yaml")
    assert [(d.line, d.column) for d in exc.value.diagnostics] == [(6, 15)]


def test_node_positions():
    pos = node_positions(b"\xef\xbb\xbfschema_version: 1\r\nskills:\r\n  a:\r\n    triggers: [x, 'y']\r\n")
    assert pos == {"schema_version": (1, 1), "skills": (2, 1), "skills.a": (3, 3), "skills.a.triggers": (4, 5),
                   "skills.a.triggers[0]": (4, 16), "skills.a.triggers[1]": (4, 19)}
