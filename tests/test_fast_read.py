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
import routelens.registry.validate as validate_module
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
    real = validate_module.validate_skill

    def counted(r, v, key, kn, vn):
        general.append(key)
        return real(r, v, key, kn, vn)

    monkeypatch.setattr(validate_module, "validate_skill", counted)
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


# --------------------------------------------------------------------------- the scanned read

SCAN_ENTRY = """schema_version: 1
skills:
  alpha:
    path: skills/alpha.md
    priority: P1
    triggers:
      - alpha task
{extra}
  beta:
    path: skills/beta.md
    priority: P2
    triggers:
      - beta task
  delta:
    path: skills/delta.md
    priority: P0
    triggers:
      - delta task
composition:
  pair:
    - beta
    - delta
"""

_G = "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\n"

#: entries in block style that the scanned read (registry/scan.py) must read as the general
#: way does, or leave to it: each one a trap for a line-by-line reader
SCAN_TRICKY = [
    _G,  # the common entry
    _G + "    description: one\n      two\n",  # a plain value continued on the next line
    _G + "      h\n",  # an item continued
    _G + "        - h\n",  # a deeper dash: the item's text continues
    _G + "     - h\n",  # a dash between the key's and the items' indentation
    _G + "    notes: |\n      a\n\n      # not a comment\n",  # '#' inside a block scalar
    _G + "    notes: |\n      a\n      # content\n",
    _G + "    notes: |\n      a\n    # a comment\n",  # a comment that ends it
    _G + "    notes: |\n      a\n\n\n",  # trailing blank lines (clipped)
    _G + "    notes: |+\n      a\n\n",  # kept
    _G + "    notes: |2\n       a\n",  # an indentation indicator
    _G + "    notes: >\n      a\n        b\n      c\n",  # a more-indented line
    _G + "    notes: >\n      a\n\n      b\n",  # a blank line inside
    _G + "    notes: >-\n      a\n      b\n",
    _G + "    notes: |-\n      a\n      b\n",
    _G + "    notes: >\n      a\n      b\n",
    _G + "    notes: |\n      a \n",  # a trailing space in a block line
    _G + "    notes: |\n      a\n       \n      b\n",  # a line of spaces inside
    "  gamma:\n    path: g.md  \n    priority: P0\n    triggers:\n      - g\n",  # trailing spaces
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g \n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - a\tb\n",  # a tab inside
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - a\t\n",  # a trailing tab
    _G + "    homepage: https://example.com/a\n",  # ':' inside a plain scalar
    _G + "    note: a: b\n",  # ': ' inside: an error
    "  gamma:\n    path: g.md\n    priority: P0 # c\n    triggers:\n      - g # c\n",  # comments after values
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - C#\n      - a  b\n",  # '#', two spaces
    "  gamma:\n    path:   g.md\n    priority:  P0\n    triggers:\n      -   g\n",  # more spaces
    "  gamma:\n    path: \"g.md\"\n    priority: 'P0'\n    status: \"deprecated\"\n    triggers:\n"
    "      - \"a: b\"\n      - 'it''s'\n      - \"# x\"\n",  # quoted values
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - \"back\\\\slash\"\n",  # an escape
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - \"\"\n",  # an empty trigger
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - 'x' y\n",  # text after a quote
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n    - g\n",  # an indentless list
    _G + "    tags:\n      - ~\n      - a\n      - null\n      - 'null'\n",  # nulls in metadata
    _G + "    owner: null\n    team: ~\n    other: 'null'\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - \u3000\n",  # a blank trigger
    _G + "    Null: x\n",  # a null key
    _G + "    NULL:\n      - a\n",
    _G + "    true: x\n    'yes': y\n",
    "  gamma:\n  # c\n    path: g.md\n# c\n    priority: P0\n    triggers:\n      # c\n      - g\n  # c\n",
    "  gamma:  \n    path: g.md\n    priority: P0\n    triggers:\n      - g\n",  # key line: trailing spaces
    "  gamma: # c\n    path: g.md\n    priority: P0\n    triggers:\n      - g\n",  # key line: a comment
    "  gamma:\n    path: g.md\n    \n    priority: P0\n    triggers:\n      - g\n",  # a line of spaces
    "  gamma:\n      path: g.md\n      priority: P0\n      triggers:\n        - g\n",  # other indentation
    "  gamma:\n    path: g.md\n priority: P0\n    triggers:\n      - g\n",  # a line less indented
    _G + "    description: >\n      # x\n      y\n",
    "  gamma:\n    path: \"../x.md\"\n    priority: P0\n    triggers:\n      - g\n",  # escaping path
    "  gamma:\n    path: g.md\n    priority: |\n      P0\n    triggers:\n      - g\n",  # block priority
    "  gamma:\n    path: |-\n      g.md\n    priority: P0\n    triggers:\n      - g\n",  # block path
    _G + "    not_when:\n      - h\n      - 'i'\n",
    _G + "    not_when:\n      - ~\n",
    _G + "    status: disabled\n    description: >-\n      one\n      two\n",
    "  gamma:\n    triggers:\n      - g\n    description: |\n      d\n    path: g.md\n    priority: P0\n",  # order
    _G + "    triggers:\n      - h\n",  # a duplicate key
    _G + "    description: x\n    description: y\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\n  gamma:\n    path: h.md\n"
    "    priority: P0\n    triggers:\n      - h\n",  # the same id twice
    "  beta:\n    path: b2.md\n    priority: P0\n    triggers:\n      - b2\n",  # the id of a later entry
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g]\n    description: \"one\n  epsilon:\n"
    "    path: e.md\n    priority: P0\n    triggers:\n      - e\n  \"\n",  # a quote across an entry
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers: [g,\n  epsilon:\n    path: e.md\n"
    "    priority: P0\n    triggers:\n      - e\n  ]\n",  # a flow list across an entry
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\u0085h\n",  # a line separator
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\x01\n",  # a control character
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - g\ufeff\n",  # a BOM inside
    _G + "---\n",  # a second document
    _G + "...\n",
    _G + "    notes: |\n      a\n  epsilon: &e\n    path: e.md\n    priority: P0\n    triggers:\n      - e\n"
    "  zeta: *e\n",  # an alias of an entry
    _G + "    meta: &m x\n  epsilon:\n    path: e.md\n    priority: P0\n    triggers:\n      - *m\n",
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - !!str g\n",  # a tag
    "  gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - &a g\n",  # an anchor
    "  \"gamma\":\n    path: g.md\n    priority: P0\n    triggers:\n      - g\n",  # a quoted id
    "  9-gamma:\n    path: g.md\n    priority: P0\n    triggers:\n      - 0123\n      - yes\n      - 1.5\n",
]


@pytest.mark.parametrize("extra", SCAN_TRICKY, ids=range(len(SCAN_TRICKY)))
def test_unusual_block_entries_read_the_same_both_ways(extra):
    assert_same(SCAN_ENTRY.format(extra=extra.rstrip("\n")).encode("utf-8"))
    last = SCAN_ENTRY.split("composition:")[0]
    assert_same((last + extra).encode("utf-8"))  # as the last entry
    assert_same((last + extra.rstrip("\n")).encode("utf-8"))  # without a final line break
    assert_same((last + extra + "composition:\n  pair:\n    - beta\n    - delta\n").encode("utf-8"))
    assert_same(SCAN_ENTRY.format(extra=extra.rstrip("\n")).replace("\n", "\r\n").encode("utf-8"))


def test_the_scanned_read_decides_every_common_entry_but_the_first():
    """On the original design's synthetic shape every entry but the first
    (left to the parser, so that it sees a `skills` mapping) is read from
    its lines, and the registry is the general way's."""
    import importlib.util

    from routelens.registry.scan import scan_skills

    spec = importlib.util.spec_from_file_location("bench_build", ROOT / "benchmarks" / "bench_build.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)  # type: ignore[union-attr]
    raw = bench.gen_registry(600, 5)
    scan = scan_skills(raw.decode("utf-8"))
    assert scan is not None and len(scan.decided) == 599 and len(scan.undecided) == 1
    got = assert_same(raw)
    assert got[0] == "ok" and len(got[1]) == 600
    assert all(scan.decided[sid] == got[1][sid] for sid in scan.decided)
    raw = bench.make_registry(300, seed=3).encode("utf-8")  # with comments, block scalars and metadata
    scan = scan_skills(raw.decode("utf-8"))
    assert scan is not None and len(scan.decided) == 299
    assert assert_same(raw)[0] == "ok"


def test_warnings_and_ranges_after_the_scanned_entries_keep_their_lines_and_columns():
    """The parser reads the rest with each scanned line turned into '#':
    what it reports after them (unknown keys, composition ranges, an alias
    in a composition) has the file's own lines and columns."""
    text = (SCAN_ENTRY.format(extra=_G.rstrip("\n"))
            + "  trio: &t\n    - beta\n    - gamma\n    - delta\n  again: *t\n"
            + "routing:\n  colour: 80\nextra_top: 1\n")
    got = assert_same(text.encode("utf-8"))
    assert got[0] == "ok"
    assert got[5] == [
        "/nonexistent/skills.yaml:31:3: warning: composition.again: not self-contained: its range uses an alias "
        "whose anchor lies outside it",
        "/nonexistent/skills.yaml:33:3: warning: routing.colour: unknown routing key; ignored",
        "/nonexistent/skills.yaml:34:1: warning: extra_top: unknown top-level key (known: schema_version, skills, "
        "composition, rules, routing); ignored",
    ]
    comps = got[2]
    assert (comps["trio"].source_start, comps["trio"].source_end) == (27, 30)
    assert not comps["again"].self_contained


def test_a_broken_registry_read_the_scanned_way_gives_the_general_errors():
    text = SCAN_ENTRY.format(extra=_G + "    priority: P9").replace("  delta:", "  Delta:")
    got = assert_same(text.encode("utf-8"))
    assert got[0] == "error"
    assert got[1] == [
        "/nonexistent/skills.yaml:13:5: skills.gamma.priority: duplicate key (first defined on line 10)",
        "/nonexistent/skills.yaml:19:3: skills.Delta: bad id 'Delta': ids are lowercase kebab-case "
        "(^[a-z0-9][a-z0-9-]*$)",
        "/nonexistent/skills.yaml:27:7: composition.pair[1]: unknown skill 'delta'",
    ]


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


# --------------------------------------------------------------------------- the two-process read


@pytest.fixture
def split_always(monkeypatch):
    """Let the two-process read run on small registries and inside the test
    runner (whose workers have threads), and only it (no scanned read
    first)."""
    import routelens.registry.split as split

    monkeypatch.setattr(split, "MIN_CHARS", 0)
    monkeypatch.setattr(split, "can_split", lambda: True)
    monkeypatch.setattr(load_module, "parse_scanned", lambda *args, **kwargs: None)  # the split's own way
    used: list[bool] = []
    real = split.parse_split

    def counted(*args, **kwargs):
        reg = real(*args, **kwargs)
        used.append(reg is not None)
        return reg

    monkeypatch.setattr(load_module, "parse_split", counted)
    return used


def _read_jobs(raw: bytes, jobs: int):
    try:
        reg = parse_registry(raw, "/nonexistent/skills.yaml", jobs=jobs)
    except RegistryError as exc:
        return ("error", [str(d) for d in exc.diagnostics], [str(w) for w in exc.warnings])
    return ("ok", list(reg.skills.items()), reg.compositions, reg.rules, reg.routing,
            [str(w) for w in reg.warnings], reg.source_sha256, reg.text)


def assert_same_split(raw: bytes) -> tuple:
    two, one = _read_jobs(raw, 2), _read_jobs(raw, 1)
    assert two == one
    return two


def test_a_big_generated_registry_is_read_in_two_halves_with_the_same_result(split_always):
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_build", ROOT / "benchmarks" / "bench_build.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)  # type: ignore[union-attr]
    got = assert_same_split(bench.make_registry(400, seed=3).encode("utf-8"))
    assert got[0] == "ok" and len(got[1]) == 400
    assert split_always == [True]  # the split read was used and trusted


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_yaml_reads_the_same_in_two_halves(split_always, path):
    assert_same_split(path.read_bytes())


SPLIT_CASES = {
    # a double-quoted scalar runs across the line the split would take
    "quote": "  m1:\n    path: m.md\n    priority: P0\n    triggers: [m]\n    description: \"one\n  m2: x\n  \"\n",
    # a flow list runs across it
    "flow": "  m1:\n    path: m.md\n    priority: P0\n    triggers: [m,\n  m2, y]\n",
    # an anchor in the first half used in the second
    "alias": "  m1:\n    path: m.md\n    priority: P0\n    triggers: &t [m]\n  m2:\n    path: n.md\n    priority: P0\n"
             "    triggers: *t\n",
    # the same id in both halves
    "duplicate": "  alpha:\n    path: m.md\n    priority: P0\n    triggers: [m]\n",
    # an error in the second half
    "error": "  m1:\n    path: m.md\n    priority: P9\n    triggers: [m]\n",
}


@pytest.mark.parametrize("case", sorted(SPLIT_CASES))
def test_doubtful_splits_fall_back_to_one_process_with_the_same_answer(split_always, monkeypatch, case):
    import routelens.registry.split as split

    real_plan = split.split_plan

    def at_m2(text):  # split where the case puts its trap: the line of m2 (or the second alpha)
        plan = real_plan(text)
        word = {"duplicate": "\n  alpha:", "error": "\n  m1"}.get(case, "\n  m2")
        at = text.rindex(word) + 1
        return plan[0], plan[1], at, plan[3], at + 2

    monkeypatch.setattr(split, "split_plan", at_m2)
    head = "".join(f"  s{i}:\n    path: s{i}.md\n    priority: P1\n    triggers: [s{i} task]\n" for i in range(30))
    text = ("schema_version: 1\nskills:\n  alpha:\n    path: a.md\n    priority: P0\n    triggers: [a]\n" + head
            + SPLIT_CASES[case] + "".join(f"  t{i}:\n    path: t{i}.md\n    priority: P1\n    triggers: [t{i}]\n"
                                          for i in range(30))
            + "composition:\n  c1:\n    - alpha\n    - t29\nrules:\n  r1:\n    triggers: [\"x\"]\n")
    assert_same_split(text.encode("utf-8"))
    assert split_always == [False]  # tried, and not trusted


def test_a_clean_split_at_a_chosen_line_is_trusted(split_always, monkeypatch):
    import routelens.registry.split as split

    text = ("schema_version: 1\nskills:\n" + "".join(
        f"  s{i}:\n    path: s{i}.md\n    priority: P1\n    triggers: [s{i} task]\n    notes: |\n      n{i}\n\n"
        for i in range(40)) + "composition:\n  c1:\n    - s0\n    - s39\n")
    for at_line in ("\n  s1:", "\n  s20:", "\n  s39:"):
        real_plan = split.split_plan
        at = text.index(at_line) + 1
        monkeypatch.setattr(split, "split_plan", lambda t, real_plan=real_plan, at=at: (*real_plan(t)[:2], at,
                                                                                        real_plan(t)[3], at + 2))
        assert_same_split(text.encode("utf-8"))
        monkeypatch.setattr(split, "split_plan", real_plan)
    assert split_always == [True, True, True]


@settings(max_examples=60, **SETTINGS)
@given(registries())
def test_generated_registries_read_the_same_in_two_halves(case):
    import routelens.registry.split as split

    text, _ = case
    saved = split.MIN_CHARS, split.can_split, load_module.parse_scanned
    split.MIN_CHARS, split.can_split, load_module.parse_scanned = 0, (lambda: True), (lambda *a, **k: None)
    try:
        assert_same_split(text.encode("utf-8"))
    finally:
        split.MIN_CHARS, split.can_split, load_module.parse_scanned = saved


@settings(max_examples=80, **SETTINGS)
@given(registries(), st.data())
def test_a_split_forced_at_any_line_gives_the_one_process_answer(case, data):
    """Wherever the split falls (inside a block scalar, a list, a comment,
    on a deeper key), the answer is the one-process answer: a wrong split
    is never trusted."""
    import routelens.registry.split as split

    text, _ = case
    plan = split.split_plan(text)
    if plan is None:
        return
    lines_at = [i + 1 for i, c in enumerate(text) if c == "\n" and plan[1] < i + 1 < plan[3]]
    if not lines_at:
        return
    at = data.draw(st.sampled_from(lines_at))
    line = text[at:text.find("\n", at) if "\n" in text[at:] else len(text)]
    key = at + len(line) - len(line.lstrip(" "))
    saved = split.MIN_CHARS, split.can_split, split.split_plan, load_module.parse_scanned
    split.MIN_CHARS, split.can_split, load_module.parse_scanned = 0, (lambda: True), (lambda *a, **k: None)
    split.split_plan = lambda t: (plan[0], plan[1], at, plan[3], key)
    try:
        assert_same_split(text.encode("utf-8"))
    finally:
        split.MIN_CHARS, split.can_split, split.split_plan, load_module.parse_scanned = saved


# --------------------------------------------------------------------------- the line reader in two processes


@pytest.fixture
def scan_in_two(monkeypatch):
    """Let the line reader's two-process read (scan_skills with jobs=2) run
    on small registries and inside the test runner; counts its children."""
    import routelens.registry.scan as scan
    import routelens.registry.split as split

    monkeypatch.setattr(split, "MIN_CHARS", 0)
    monkeypatch.setattr(split, "can_split", lambda: True)
    started: list[bool] = []
    real = scan._start_half

    def counted(*args, **kwargs):
        child = real(*args, **kwargs)
        started.append(child is not None)
        return child

    monkeypatch.setattr(scan, "_start_half", counted)
    return started


def _scan_parts(text: str, jobs: int):
    from routelens.registry.scan import scan_skills

    got = scan_skills(text, jobs=jobs)
    return None if got is None else (got.skills_start, got.section_end, list(got.decided.items()), got.regions,
                                     got.undecided)


def _bench_registry(n: int, seed: int) -> str:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_build", ROOT / "benchmarks" / "bench_build.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)  # type: ignore[union-attr]
    return bench.gen_registry(n, seed).decode("utf-8") if seed % 2 else bench.make_registry(n, seed=seed)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_line_reader_in_two_processes_gives_the_one_process_scan(scan_in_two, seed):
    text = _bench_registry(300, seed)
    two, one = _scan_parts(text, 2), _scan_parts(text, 1)
    assert two == one and len(one[2]) == 299  # every entry but the first decided
    assert scan_in_two == [True]
    assert _read_jobs(text.encode("utf-8"), 2) == _read_jobs(text.encode("utf-8"), 1)


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_yaml_scans_the_same_in_two_processes(scan_in_two, path):
    text = path.read_bytes().decode("utf-8", "replace")
    assert _scan_parts(text, 2) == _scan_parts(text, 1)
    assert_same_split(path.read_bytes())


@settings(max_examples=60, **SETTINGS)
@given(registries())
def test_generated_registries_scan_the_same_in_two_processes(case):
    import routelens.registry.split as split

    text, _ = case
    saved = split.MIN_CHARS, split.can_split
    split.MIN_CHARS, split.can_split = 0, (lambda: True)
    try:
        assert _scan_parts(text, 2) == _scan_parts(text, 1)
        assert_same_split(text.encode("utf-8"))
    finally:
        split.MIN_CHARS, split.can_split = saved


@pytest.mark.parametrize("how", ["raises", "exits"])
def test_a_failing_line_reader_child_leaves_its_half_to_this_process(scan_in_two, monkeypatch, how):
    import os

    import routelens.registry.scan as scan

    parent = os.getpid()
    real = scan._read_entry

    def failing(*args, **kwargs):
        if os.getpid() != parent:
            if how == "exits":
                os._exit(3)
            raise RuntimeError("the child fails")
        return real(*args, **kwargs)

    text = _bench_registry(120, 3)
    one = _scan_parts(text, 1)
    monkeypatch.setattr(scan, "_read_entry", failing)
    assert _scan_parts(text, 2) == one
    assert scan_in_two == [True]


def test_a_duplicate_id_across_the_two_halves_is_the_same_error(scan_in_two):
    text = _bench_registry(60, 3)
    one = _scan_parts(text, 1)
    second = one[2][0][0]  # the first decided entry (in this process's half), written again as the last entry
    dup = text.replace("\ncomposition:", f"\n  {second}:\n    path: skills/x.md\n    priority: P1\n    triggers:\n"
                                          "      - twice\n\ncomposition:", 1)
    assert _scan_parts(dup, 1) is None and _scan_parts(dup, 2) is None  # decided twice: the usual reading decides
    got = _read_jobs(dup.encode("utf-8"), 2)
    assert got == _read_jobs(dup.encode("utf-8"), 1) and got[0] == "error"
