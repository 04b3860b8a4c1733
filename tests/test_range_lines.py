"""A canonical range read back from its lines (routing.range_lines, issue 14
batch round 4): the value the YAML reader gives, or None (undecided, the
router parses the range as before)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from routelens.errors import RegistryError
from routelens.routing.range_lines import read_range
from routelens.routing.router import Router
from routelens.text.yaml_events import parse_fragment

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_build  # noqa: E402


def _same_as_parser(text: str, eid: str) -> bool:
    """True when ``read_range`` decides ``text`` (else False), asserting it gives the parser's value."""
    got = read_range(text, eid)
    if got is None:
        return False
    want = parse_fragment(text, 1, "x")
    assert list(want) == [eid], text
    assert repr(got) == repr(want[eid]), text
    return True


@pytest.mark.parametrize("registry", ["skills.yaml", "benchmarks/registries/data-platform/skills.yaml",
                                      "benchmarks/registries/hospitality/skills.yaml"])
def test_every_shipped_range_reads_as_the_parser_reads_it(registry):
    entries = Router.from_paths(ROOT / registry).entries
    decided = total = 0
    for kind in ("skill", "composition", "rule"):
        for eid, (a, b) in entries._rows[kind].items():
            total += 1
            decided += _same_as_parser(entries.range_text(a, b), eid)
    assert total and decided >= total * 0.8, (decided, total)  # most ranges are written the common way


def test_generated_ranges_read_as_the_parser_reads_them(tmp_path):
    (tmp_path / "skills.yaml").write_bytes(bench_build.gen_registry(300, 3))
    reg = tmp_path / "skills.yaml"
    from routelens.registry import parse_registry
    from routelens.routing.router import Router as R

    entries = R.from_registry(parse_registry(reg.read_bytes(), "skills.yaml")).entries
    ranges = [(eid, entries.range_text(a, b)) for kind in ("skill", "composition")
              for eid, (a, b) in entries._rows[kind].items()]
    assert all(_same_as_parser(text, eid) for eid, text in ranges)


SKILL = "  a-b:\n    path: skills/x.md\n    priority: P1\n    status: disabled\n    triggers:\n      - foo bar\n"


@pytest.mark.parametrize("text, value", [
    (SKILL, {"path": "skills/x.md", "priority": "P1", "status": "disabled", "triggers": ["foo bar"]}),
    ("  a-b:\n    status: 'dis''abled'\n    triggers:\n      - \"q\"\n      - null\n      - 'null'\n",
     {"status": "dis'abled", "triggers": ["q", None, "null"]}),
    ("  a-b:\n    description: >-\n      one\n      two\n    # note\n\n    triggers:\n      - x\n",
     {"description": "one two", "triggers": ["x"]}),
    ("  a-b:\n    description: |\n      one\n      two\n    status: ~\n",
     {"description": "one\ntwo\n", "status": None}),
    ("  a-b:\n    - c-d\n    # c\n    - e\n", ["c-d", "e"]),
    ("  a-b:\n    tags: [ops, on call, null]\n    owner: []\n    triggers:\n      - x\n",
     {"tags": ["ops", "on call", None], "owner": [], "triggers": ["x"]}),
])
def test_common_ranges_are_decided(text, value):
    assert read_range(text, "a-b") == value
    assert _same_as_parser(text, "a-b")


@pytest.mark.parametrize("text", [
    SKILL.replace("P1", "&p P1"),  # an anchor
    SKILL.replace("P1", "*p"),  # an alias: not self-contained, resolved from the registry
    SKILL.replace("P1", "!!str P1"),  # a tag
    SKILL.replace("foo bar", "[foo, bar]"),  # a flow collection in a list
    SKILL.replace("P1", "[P1,P2]"),  # a flow sequence written another way
    SKILL.replace("P1", "[P1, 'x']"),
    SKILL.replace("P1", "P1 # the usual"),  # a comment after a value
    SKILL.replace("P1", "P1\t"),  # a tab
    SKILL.replace("skills/x.md", '"a\\tb"'),  # an escape
    SKILL + "    priority: P2\n",  # a key twice: the parser's error
    SKILL + "    null: x\n",  # a null key
    SKILL.replace("  a-b:\n", "  a-b:  # c\n"),  # a comment on the key line
    SKILL.replace("    status", "     status"),  # fields at two indentations
    "  a-b:\n    description: |\n      one\n\n      two\n",  # a blank line inside a block scalar
    "  a-b:\n  - c\n",  # a sequence at the key's indentation
    "  a-b:\n",  # nothing
    "  x-y:\n    path: p\n",  # another entry's key
])
def test_anything_else_is_left_to_the_parser(text):
    assert read_range(text, "a-b") is None


def test_random_variants_never_differ_from_the_parser():
    """Mutations of common ranges (values, extra lines, indentation): every
    decided one gives the parser's value (a longer run of this compared
    400,000 variants, about 50,000 decided)."""
    atoms = ["null", "~", "Null", "''", "'a''b'", '"x"', '"a\\"b"', "a: b", "a #c", "#c", "&x a", "*x", "!t a",
             "[a]", "[a, b c]", "[null, x]", "[]", "[a,b]", "[ a ]", "[a, -b]", "[a #c]", "{a: b}", "- x", "? x", "|", "|-", ">", "a\t", "a ", "é", "\u2028", "\x85", "yes", "1.0", "@x",
             "`x", "%x", "a:b", "a,b", "x  y", "-x", ":x"]
    extra = ["\n", "    # c\n", "  # c\n", "        # deep\n", "\t\n", "    dup: 1\n", "    path: again\n",
             "   odd: 1\n", "      - stray\n", "    k:\n", "    k: |\n      a\n\n      b\n", "    null: x\n",
             "    k: |\n      a\n        b\n", "    <<: *x\n"]
    base = [SKILL + "      - 'it''s'\n", "  a-b:\n    - c\n    - d\n",
            "  a-b:\n    forced: true\n    triggers:\n      - x\n    description: |\n      one\n      two\n"]
    rng = random.Random(5)
    decided = 0
    for _ in range(20_000):
        lines = rng.choice(base).splitlines(keepends=True)
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            if r < 0.4:
                i = rng.randrange(1, len(lines))
                for sep in (": ", "- "):
                    if sep in lines[i]:
                        lines[i] = lines[i].split(sep, 1)[0] + sep + rng.choice(atoms) + "\n"
                        break
            elif r < 0.8:
                lines.insert(rng.randrange(1, len(lines) + 1), rng.choice(extra))
            else:
                i = rng.randrange(len(lines))
                lines[i] = lines[i].replace("  ", "   ", 1)
        text = "".join(lines)
        got = read_range(text, "a-b")
        if got is None:
            continue
        decided += 1
        try:
            want = parse_fragment(text, 1, "x")
        except RegistryError:  # pragma: no cover - a failure: decided what the parser refuses
            pytest.fail(f"decided a range the parser refuses: {text!r}")
        assert list(want) == ["a-b"] and repr(want["a-b"]) == repr(got), text
    assert decided > 1000
