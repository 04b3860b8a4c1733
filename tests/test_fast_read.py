"""The fast reading of ``skills`` entries (``routelens.registry.validate.
fast_skill``) gives exactly what the general reading gives: the same
skills, ranges, metadata, compositions, rules, warnings, or the same
errors, on every registry shipped in the repository, on generated
registries and on damaged copies of them (lines cut, doubled, shifted,
tokens inserted)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import routelens.registry.load as load_module
from routelens.errors import RegistryError
from routelens.registry import parse_registry
from test_properties import registries

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = dict(deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])


def _read(raw: bytes, fast: bool):
    try:
        reg = parse_registry(raw, "/nonexistent/skills.yaml", _fast=fast)
    except RegistryError as exc:
        return ("error", [str(d) for d in exc.diagnostics], [str(w) for w in exc.warnings])
    return ("ok", reg.skills, reg.compositions, reg.rules, reg.routing, [str(w) for w in reg.warnings],
            reg.source_sha256)


def assert_same(raw: bytes) -> tuple:
    fast, slow = _read(raw, True), _read(raw, False)
    assert fast == slow
    return fast


def _shipped() -> list[Path]:
    found = [ROOT / "skills.yaml", *sorted((ROOT / "benchmarks" / "registries").glob("*/skills.yaml"))]
    found += sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
    return [p for p in found if p.is_file()]


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_yaml_reads_the_same_both_ways(path):
    assert_same(path.read_bytes())


def test_the_bundled_registry_takes_the_fast_way_and_gives_the_pinned_skills(monkeypatch):
    general: list[str] = []
    real = load_module.validate_skill

    def counted(r, v, key, kn, vn):
        general.append(key)
        return real(r, v, key, kn, vn)

    monkeypatch.setattr(load_module, "validate_skill", counted)
    raw = (ROOT / "skills.yaml").read_bytes()
    parse_registry(raw, "skills.yaml")
    assert general == []  # every bundled skill is read the fast way
    parse_registry(raw, "skills.yaml", _fast=False)
    assert len(general) == 53
    got = assert_same(raw)
    assert got[0] == "ok"
    skills = got[1]
    jenkins = skills["jenkins-pipeline"]
    assert (jenkins.source_start, jenkins.source_end) == (184, 192)  # docs/formats.md §2.1
    assert jenkins.metadata == {"replaced_by": "ci-fix"}
    assert (skills["repository-change"].source_start, skills["repository-change"].source_end) == (21, 32)


ENTRY = """schema_version: 1
skills:
  alpha:
    path: skills/alpha.md
    priority: P1
    triggers: [alpha task]
{extra}
  beta:
    path: skills/beta.md
    priority: P2
    triggers:
      - beta task
"""

#: entry texts the fast way must decline (or accept) with the general way's answer
TRICKY = [
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    owner:\n",  # empty last value
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    notes: |+\n      kept\n\n\n",  # |+ last
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    notes: >\n      folded\n\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    tags: []\n",  # empty flow list last
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\n      -\n",  # null trigger
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    path: h.md\n",  # duplicate key
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    ~: x\n",  # null key
    "  gamma:\n    'path': g.md\n    \"priority\": P0\n    triggers: [g]\n",  # quoted keys
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: !!seq [g]\n",  # a safe tag
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: !!python/tuple [g]\n",  # a refused tag
    "  gamma: &g\n    path: g.md\n    priority: P0\n    triggers: [g]\n  delta: *g\n",  # anchored entry
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: &t [g]\n  delta:\n    path: d.md\n"
    "    priority: P1\n    triggers: *t\n",  # an alias outside the range
    "  gamma:\n    <<: {path: g.md}\n    priority: P0\n    triggers: [g]\n",  # merge key
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    meta: {a: b}\n",  # nested mapping
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    meta:\n      - [a, b]\n",  # nested list
    "  gamma:\n    path: /abs.md\n    priority: P0\n    triggers: [g]\n",  # absolute path
    "  gamma:\n    path: g.md\n    priority: P3\n    triggers: [g]\n",  # bad priority
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    status: gone\n",  # bad status
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: ['   ']\n",  # blank trigger
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    description: ''\n",  # empty description
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    description: null\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    description: \"null\"\n",  # the word
    "  Gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n",  # bad id
    "  gamma:\n    path: g.md\n    priority: P0\n",  # missing triggers
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    x: \"unterminated\n",  # syntax error
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g, h\n",  # syntax error in a flow list
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n    - g\n  # comment\n",  # list at key indent
    "  gamma:\n    path: g.md   # note\n    priority: P0 # note\n    triggers: [g]  # note\n",
    "  gamma:\n    ? path\n    : g.md\n    priority: P0\n    triggers: [g]\n",  # explicit key
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    tags: [a, ~, 'b']\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [\"" + "x" * 201 + "\"]\n",  # too long
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n" + "      - t\n" * 257,  # too many
    "  gamma: {path: g.md, priority: P0, triggers: [g]}\n",  # a flow entry
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    when: 2024-01-01\n    n: 0777\n",
]


@pytest.mark.parametrize("extra", TRICKY, ids=range(len(TRICKY)))
def test_unusual_entries_read_the_same_both_ways(extra):
    assert_same(ENTRY.format(extra=extra.rstrip("\n")).encode("utf-8"))
    assert_same(ENTRY.format(extra="").encode("utf-8") + extra.encode("utf-8"))  # as the last entry


def test_a_syntax_error_inside_an_entry_read_the_fast_way_is_reported_once_at_its_place():
    text = ENTRY.format(extra="  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g, h\n  zeta: 1")
    got = assert_same(text.encode("utf-8"))
    assert got[0] == "error"
    assert len(got[1]) == 1 and "YAML syntax error" in got[1][0]


def test_a_duplicate_skill_id_across_entries_is_the_same_error_both_ways():
    text = ENTRY.format(extra="  beta:\n    path: b2.md\n    priority: P0\n    triggers: [b2]")
    got = assert_same(text.encode("utf-8"))
    assert got[0] == "error"
    assert got[1] == ["/nonexistent/skills.yaml:11:3: skills.beta: duplicate key (first defined on line 7)"]


@settings(max_examples=120, **SETTINGS)
@given(registries())
def test_generated_registries_read_the_same_both_ways(case):
    text, _ = case
    assert_same(text.encode("utf-8"))


_INSERTS = ["", " ", "  ", "- ", "&a ", "*a", "!!str ", "? ", ": ", "#", "{", "[", "'", '"', "|", ">", "<<: ", "~"]


@settings(max_examples=200, **SETTINGS)
@given(registries(), st.data())
def test_damaged_registries_read_the_same_both_ways(case, data):
    text, _ = case
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["cut", "double", "indent", "dedent", "insert"]))
        if how == "cut":
            del lines[i]
        elif how == "double":
            lines.insert(i, lines[i])
        elif how == "indent":
            lines[i] = "  " + lines[i]
        elif how == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i]
        else:
            at = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + data.draw(st.sampled_from(_INSERTS)) + lines[i][at:]
        if not lines:
            lines = [""]
    assert_same("\n".join(lines).encode("utf-8"))


def test_new_skill_takes_exactly_the_fields_of_skill_and_makes_an_equal_skill():
    import dataclasses
    import inspect

    from routelens.registry.model import Skill, new_skill

    params = inspect.signature(new_skill).parameters
    assert [(p.name, p.default) for p in params.values()] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(Skill)]
    args = ("a", "skills/a.md", "P1", ("t",), None, "deprecated", {"owner": "x"}, 3, 9)
    made, real = new_skill(*args), Skill(*args)
    assert made == real and repr(made) == repr(real) and made.__dict__ == real.__dict__
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.id = "b"  # type: ignore[misc]
