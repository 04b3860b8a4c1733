"""Registry reading (docs/formats.md §1, §2): exact line ranges, text
as written, every error with file, line, column and key path."""

from __future__ import annotations

import pytest

from conftest import EXAMPLE
from routelens.errors import Diagnostic, RegistryError
from routelens.limits import LIMITS
from routelens.registry import load_registry, parse_registry
from routelens.text.canonical import canonical_bytes, source_sha256
from routelens.text.yaml_events import parse_fragment

EXAMPLE_RAW = EXAMPLE.read_bytes()

#: counted by hand in tests/fixtures/example-skills.yaml (line: content):
#:  4 repository-change: .. 10 "- 設定変更"; 11 blank
#: 12 grounded-research: .. 19 "- 根拠"; 20 blank
#: 21 document-production: .. 27 "- 文書作成"; 28 blank; 29 composition:
#: 30 software-change: .. 31 "- repository-change"; 32 blank
#: 33 article-writing: .. 35 "- document-production" (the last line of the file)
EXAMPLE_RANGES = {
    "repository-change": (4, 10),
    "grounded-research": (12, 19),
    "document-production": (21, 27),
    "software-change": (30, 31),
    "article-writing": (33, 35),
}


def ranges(reg) -> dict[str, tuple[int, int]]:
    out = {s.id: (s.source_start, s.source_end) for s in reg.skills.values()}
    out.update({c.id: (c.source_start, c.source_end) for c in reg.compositions.values()})
    out.update({r.id: (r.source_start, r.source_end) for r in reg.rules.values()})
    return out


def errors_of(text: str | bytes, name: str = "skills.yaml") -> list[str]:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(RegistryError) as info:
        parse_registry(raw, name)
    return [str(d) for d in info.value.diagnostics]


HEAD = "schema_version: 1\nskills:\n"
SKILL_A = "  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n"


# --------------------------------------------------------------------------- the example


def test_example_ranges_counted_by_hand():
    reg = load_registry(EXAMPLE)
    assert ranges(reg) == EXAMPLE_RANGES
    assert reg.line_count == 35
    # the last entry ends at its own last line, which is the last line of the file
    assert reg.lines[34] == "    - document-production"


def test_example_values():
    reg = load_registry(EXAMPLE)
    assert list(reg.skills) == ["document-production", "grounded-research", "repository-change"]
    rc = reg.skills["repository-change"]
    assert (rc.path, rc.priority, rc.status, rc.description) == ("skills/repository-change.md", "P0", "active", None)
    assert rc.triggers == ("repository change", "実装修正", "設定変更")
    assert reg.skills["grounded-research"].triggers == ("調査", "最新情報", "出典", "根拠")
    assert reg.skills["document-production"].triggers == ("記事", "仕様書", "文書作成")
    assert reg.skills["document-production"].priority == "P1"
    assert reg.compositions["article-writing"].members == ("grounded-research", "document-production")
    assert reg.compositions["software-change"].members == ("repository-change",)
    assert reg.compositions_of("document-production") == ["article-writing"]
    assert reg.compositions_of("repository-change") == ["software-change"]
    assert reg.rules == {}
    assert reg.routing.present is False
    assert (reg.routing.threshold, reg.routing.ambiguity_margin, reg.routing.max_index_ratio) == (85, 5, 0.70)
    assert reg.warnings == []
    assert reg.source_sha256 == "6f7783228c009cce753335f1c8002c520d255cfc098176b1b1c442de7d0d28c3"


def test_example_range_text_and_fragments():
    reg = load_registry(EXAMPLE)
    assert reg.range_text(30, 31) == "  software-change:\n    - repository-change\n"
    assert parse_fragment(reg.range_text(4, 10), 4) == {
        "repository-change": {"path": "skills/repository-change.md", "priority": "P0",
                              "triggers": ["repository change", "実装修正", "設定変更"]}}
    assert parse_fragment(reg.range_text(33, 35), 33) == {
        "article-writing": ["grounded-research", "document-production"]}
    with pytest.raises(ValueError, match=r"line range \[34, 36\] is outside 1..35"):
        reg.range_text(34, 36)


@pytest.mark.parametrize("variant", ["bom", "crlf", "cr", "bom-crlf", "no-final-newline"])
def test_bom_and_line_endings_give_the_same_ranges_and_hash(variant):
    raw = EXAMPLE_RAW
    if "bom" in variant:
        raw = b"\xef\xbb\xbf" + raw
    if "crlf" in variant:
        raw = raw.replace(b"\n", b"\r\n")
    if variant == "cr":
        raw = raw.replace(b"\n", b"\r")
    if variant == "no-final-newline":
        raw = raw.rstrip(b"\n")
    reg = parse_registry(raw, "skills.yaml")
    assert ranges(reg) == EXAMPLE_RANGES
    expected_sha = "6f7783228c009cce753335f1c8002c520d255cfc098176b1b1c442de7d0d28c3"
    assert (reg.source_sha256 == expected_sha) == (variant != "no-final-newline")
    assert reg.source_sha256 == source_sha256(raw)


def test_canonical_bytes():
    assert canonical_bytes(b"\xef\xbb\xbfa\r\nb\rc\n") == b"a\nb\nc\n"
    assert canonical_bytes(b"a\n\xef\xbb\xbf") == b"a\n\xef\xbb\xbf"  # only a leading BOM


# --------------------------------------------------------------------------- reading rules


def test_scalars_are_the_text_as_written():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    owner: 0777\n    since: 2026-01-01\n"
                   "    flag: yes\n    none: ~\n    quoted: \"null\"\n"
                   "    triggers: [yes, off, 1.10, 2026-01-01, 0777, \"null\", 'y', .inf, 0x1F]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    a = reg.skills["a"]
    assert a.triggers == ("yes", "off", "1.10", "2026-01-01", "0777", "null", "y", ".inf", "0x1F")
    assert a.metadata == {"owner": "0777", "since": "2026-01-01", "flag": "yes", "none": None, "quoted": "null"}


def test_line_separators_inside_values_do_not_count_as_lines():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    description: \"one\u2028two\u2029three\x85four\"\n"
                   "    triggers:\n      - \"x\u2028y\"\n  b:\n    path: b.md\n    priority: P1\n    triggers: [z]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 8), "b": (9, 12)}
    assert reg.skills["a"].description == "one\u2028two\u2029three\x85four"
    assert reg.skills["a"].triggers == ("x\u2028y",)
    assert reg.line_count == 12


def test_line_separators_inside_comments_do_not_count_as_lines():
    text = (HEAD + "  a:\n    path: a.md\n    # note \u2028 not a line break\x85 either\n    priority: P0\n"
            "    triggers: [x]\n  # about b \u2029\n  b:\n    path: b.md\n    priority: P1\n    triggers: [z]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 7), "b": (9, 12)}
    assert parse_fragment(reg.range_text(3, 7), 3) == {"a": {"path": "a.md", "priority": "P0", "triggers": ["x"]}}


def test_unknown_top_level_key_is_a_warning():
    reg = parse_registry((HEAD + SKILL_A + "extras:\n  x: 1\n").encode(), "s.yaml")
    assert [str(w) for w in reg.warnings] == [
        "s.yaml:7:1: warning: extras: unknown top-level key (known: schema_version, skills, composition, "
        "rules, routing); ignored"]


def test_metadata_block_scalar_description_and_rules():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P2\n    status: deprecated\n    description: |\n"
                   "      Line one.\n      Line two.\n    tags: [t1, t2]\n    triggers: [x]\n"
                   "rules:\n  prod:\n    forced: true\n    triggers: [本番, production deploy]\n"
                   "    description: Needs the checklist\n  soft:\n    triggers: [maybe]\n"
                   "routing:\n  threshold: 90\n  ambiguity_margin: 2.5\n  high_risk: [rm -rf]\n  max_index_ratio: 0.5\n")
    reg = parse_registry(text.encode(), "s.yaml")
    a = reg.skills["a"]
    assert (a.status, a.description, a.metadata) == ("deprecated", "Line one.\nLine two.\n", {"tags": ["t1", "t2"]})
    assert ranges(reg) == {"a": (3, 11), "prod": (13, 16), "soft": (17, 18)}
    assert reg.rules["prod"].forced is True and reg.rules["soft"].forced is False
    assert reg.rules["prod"].triggers == ("本番", "production deploy")
    assert reg.routing.present and reg.routing.threshold == 90 and reg.routing.ambiguity_margin == 2.5
    assert reg.routing.high_risk == ("rm -rf",) and reg.routing.max_index_ratio == 0.5


# --------------------------------------------------------------------------- range ends that could leak


def test_empty_last_value_does_not_reach_the_next_entry():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    owner:\n\n  # about b\n"
                   "  b:\n    path: b.md\n    priority: P0\n    triggers: [y]\n    tags:\n      - one\n      -\n"
                   "\n# trailing comment\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 7), "b": (10, 16)}
    assert reg.skills["a"].metadata == {"owner": None}
    assert reg.skills["b"].metadata == {"tags": ["one", None]}
    assert parse_fragment(reg.range_text(10, 16), 10)["b"]["tags"] == ["one", None]


def test_explicit_key_without_value_does_not_reach_the_comment_below():
    # a `? key` with no value: the parser marks the empty value at the next token
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    ? flag\n"
                   "  # comment about b\n\n  b:\n    path: b.md\n    priority: P0\n    triggers: [y]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 7), "b": (10, 13)}
    assert reg.skills["a"].metadata == {"flag": None}
    assert parse_fragment(reg.range_text(3, 7), 3)["a"]["flag"] is None


@pytest.mark.parametrize("prefix", ["", "&q ", "!!map ", "&q !!map ", "!!map &q "])
def test_multiline_flow_mapping_with_tag_or_anchor_ends_at_its_bracket(prefix):
    text = HEAD + (f"  a: {prefix}{{path: a.md, priority: P0,\n     triggers: [x, y]\n     }}\n"
                   "  # b next\n  b:\n    path: b.md\n    priority: P1\n    triggers: [z]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 5), "b": (7, 10)}
    assert parse_fragment(reg.range_text(3, 5), 3) == {
        "a": {"path": "a.md", "priority": "P0", "triggers": ["x", "y"]}}


@pytest.mark.parametrize("prefix", ["", "&t ", "!!seq ", "&t !!seq "])
def test_multiline_flow_sequence_with_tag_or_anchor(prefix):
    text = HEAD + (f"  a:\n    path: a.md\n    priority: P0\n    triggers: {prefix}[x,\n      y\n    ]\n\n"
                   "  b:\n    path: b.md\n    priority: P1\n    triggers: [z]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 8), "b": (10, 13)}


def test_keep_chomped_block_scalar_keeps_its_blank_lines_in_the_range():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    notes: |+\n      kept\n\n\n"
                   "  # b\n  b:\n    path: b.md\n    priority: P0\n    triggers: [y]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert reg.skills["a"].metadata == {"notes": "kept\n\n\n"}
    assert ranges(reg) == {"a": (3, 10), "b": (12, 15)}
    assert parse_fragment(reg.range_text(3, 10), 3)["a"]["notes"] == "kept\n\n\n"


@pytest.mark.parametrize("indicator, value", [("|", "kept\n"), ("|-", "kept"), (">", "kept\n")])
def test_clipped_block_scalar_excludes_the_blank_lines_after_it(indicator, value):
    text = HEAD + (f"  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    notes: {indicator}\n      kept\n\n\n"
                   "  b:\n    path: b.md\n    priority: P0\n    triggers: [y]\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert reg.skills["a"].metadata == {"notes": value}
    assert ranges(reg) == {"a": (3, 8), "b": (11, 14)}


def test_comment_at_column_zero_inside_an_entry_slices_cleanly():
    text = HEAD + "  a:\n    path: a.md\n# a comment at column 0\n    priority: P0\n    triggers: [x]\n"
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 7)}
    assert parse_fragment(reg.range_text(3, 7), 3) == {"a": {"path": "a.md", "priority": "P0", "triggers": ["x"]}}


def test_alias_ranges_and_self_containment():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    triggers: &t [x, y]\n"
                   "  b:\n    path: b.md\n    priority: P1\n    triggers: *t\n"
                   "composition:\n  c: &members\n    - a\n  d: *members\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert ranges(reg) == {"a": (3, 6), "b": (7, 10), "c": (12, 13), "d": (14, 14)}
    assert reg.skills["b"].triggers == ("x", "y")
    assert [reg.skills["a"].self_contained, reg.skills["b"].self_contained] == [True, False]
    assert [reg.compositions["c"].self_contained, reg.compositions["d"].self_contained] == [True, False]
    assert [str(w) for w in reg.warnings] == [
        "s.yaml:7:3: warning: skills.b: not self-contained: its range uses an alias whose anchor lies outside it",
        "s.yaml:14:3: warning: composition.d: not self-contained: its range uses an alias whose anchor lies outside it",
    ]
    with pytest.raises(RegistryError, match="alias \\*t has no anchor defined before it"):
        parse_fragment(reg.range_text(7, 10), 7)


# --------------------------------------------------------------------------- known weak spots


@pytest.mark.parametrize("text, expected", [
    (HEAD + "  a: |\n    hello\n", "s.yaml:3:6: skills.a: a skill must be a mapping, not the scalar 'hello\\n'"),
    (HEAD + "  a: >-\n    folded\n    text\n", "s.yaml:3:6: skills.a: a skill must be a mapping, not the scalar 'folded text'"),
    ("schema_version: 1\nx: &s hello\nskills:\n  a: *s\n",
     "s.yaml:4:6: skills.a: a skill must be a mapping, not the scalar 'hello'"),
    ("schema_version: 1\nx: &s [1]\nskills:\n  a: *s\n", "s.yaml:4:6: skills.a: a skill must be a mapping, not a list"),
    (HEAD + "  a:\n", "s.yaml:3:5: skills.a: a skill must be a mapping, not null"),
])
def test_a_skill_must_be_a_mapping(text, expected):
    assert errors_of(text, "s.yaml") == [expected]


def test_duplicate_key_in_a_mapping_merged_twice_is_reported_once_where_it_is_written():
    text = ("schema_version: 1\nx-defaults: &m\n  priority: P0\n  priority: P1\nskills:\n"
            "  a:\n    <<: *m\n    path: a.md\n    triggers: [x]\n  b:\n    <<: *m\n    path: b.md\n    triggers: [x]\n")
    assert errors_of(text, "s.yaml") == ["s.yaml:4:3: x-defaults.priority: duplicate key (first defined on line 3)"]


def test_duplicate_keys_at_every_level_even_unused_sections():
    text = ("schema_version: 1\nextras:\n  k: 1\n  k: 2\nskills:\n  a:\n    path: a.md\n    priority: P0\n"
            "    triggers: [x]\n    meta:\n      - {q: 1, q: 2}\n")
    assert errors_of(text, "s.yaml") == [
        "s.yaml:4:3: extras.k: duplicate key (first defined on line 3)",
        "s.yaml:11:16: skills.a.meta[0].q: duplicate key (first defined on line 11)",
    ]


def test_merge_keys():
    text = ("schema_version: 1\nx: &defaults\n  priority: P1\n  triggers: [d]\nskills:\n"
            "  a:\n    <<: *defaults\n    path: a.md\n    priority: P0\n"
            "  b:\n    <<: [*defaults, {owner: me}]\n    path: b.md\n")
    reg = parse_registry(text.encode(), "s.yaml")
    assert (reg.skills["a"].priority, reg.skills["a"].triggers) == ("P0", ("d",))  # own key wins
    assert reg.skills["b"].metadata == {"owner": "me"}
    assert [reg.skills["a"].self_contained, reg.skills["b"].self_contained] == [False, False]


@pytest.mark.parametrize("value, error", [
    (".nan", "must be a number, got '.nan'"),
    (".inf", "must be a number, got '.inf'"),
    ("1e400", "must be a number in [0, 100], got 1e400"),
    ("0x10", "must be a number, got '0x10'"),
    ("1_0", "must be a number, got '1_0'"),
    ("nan", "must be a number, got 'nan'"),
    ("101", "must be a number in [0, 100], got 101"),
    ("-1", "must be a number in [0, 100], got -1"),
    # a newcomer read "must be a string" for a number setting: what is wanted is a number
    ("[85]", "must be a number, not a list"),
    ("{a: 1}", "must be a number, not a mapping"),
    ("", "threshold is null or empty (quote it if you mean the word)"),
])
def test_routing_numbers_refused(value, error):
    text = HEAD + SKILL_A + f"routing:\n  threshold: {value}\n"
    col = 14 if value else 13  # an empty value is marked just after the ':'
    assert errors_of(text, "s.yaml") == [f"s.yaml:8:{col}: routing.threshold: {error}"]


@pytest.mark.parametrize("value, expected", [("-0", 0), ("85.0", 85), ("+7.5", 7.5), ("1e1", 10), ("'85'", 85), ("0", 0)])
def test_routing_numbers_accepted(value, expected):
    reg = parse_registry((HEAD + SKILL_A + f"routing:\n  threshold: {value}\n").encode(), "s.yaml")
    assert reg.routing.threshold == expected and type(reg.routing.threshold) is type(expected)


@pytest.mark.parametrize("value, error", [
    ("0", "must be a number in (0, 1], got 0"),
    ("-0.0", "must be a number in (0, 1], got -0.0"),
    ("1.5", "must be a number in (0, 1], got 1.5"),
])
def test_max_index_ratio_range(value, error):
    assert errors_of(HEAD + SKILL_A + f"routing:\n  max_index_ratio: {value}\n", "s.yaml") == [
        f"s.yaml:8:20: routing.max_index_ratio: {error}"]


def test_errors_are_sorted_and_deduplicated():
    text = ("skills:\n  b:\n    path: /abs.md\n    priority: P7\n    triggers: [x, ~]\n"
            "  Bad:\n    path: b.md\n    priority: P0\n    triggers: [y]\n"
            "schema_version: 2\n")
    errs = errors_of(text, "s.yaml")
    assert errs == [
        "s.yaml:3:11: skills.b.path: path '/abs.md' must be relative to the registry's folder and stay inside it "
        "(no absolute path, no '..')",
        "s.yaml:4:15: skills.b.priority: unknown priority 'P7' (one of P0, P1, P2)",
        "s.yaml:5:19: skills.b.triggers[1]: a trigger is null or empty (quote it if you mean the word)",
        "s.yaml:6:3: skills.Bad: bad id 'Bad': ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)",
        "s.yaml:10:17: schema_version: must be the integer 1, got '2'",
    ]
    assert len(errs) == len(set(errs))


def test_error_limit_stops_with_a_note():
    many = "".join(f"      - ~\n" for _ in range(LIMITS["max_triggers_per_entry"]))
    text = HEAD + "  a:\n    path: a.md\n    priority: P0\n    triggers:\n" + many
    errs = errors_of(text, "s.yaml")
    assert len(errs) == LIMITS["max_errors"] + 1
    assert errs[0] == "s.yaml:7:9: skills.a.triggers[0]: a trigger is null or empty (quote it if you mean the word)"
    assert errs[-1].endswith(f"too many errors: stopped after {LIMITS['max_errors']}")


def test_flow_style_sections_are_refused():
    text = "schema_version: 1\nskills: {a: {path: a.md, priority: P0, triggers: [x]}, b: {path: b.md, priority: P0, triggers: [y]}}\n"
    assert errors_of(text, "s.yaml") == [
        "s.yaml:2:9: skills: `skills` is written in flow style ({...}): write it as a block mapping, each entry "
        "on its own lines, so every entry has its own line range"]
    reg = parse_registry((HEAD + SKILL_A + "composition: {}\nrules: {}\n").encode(), "s.yaml")
    assert reg.compositions == {} and reg.rules == {}


def test_bad_keys():
    text = HEAD + ("  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    [k]: v\n    ~: v\n"
                   "    <<: {owner: x}\n    <<: {owner: y}\n")
    assert errors_of(text, "s.yaml") == [
        "s.yaml:7:5: skills.a: a mapping key must be a plain string, not a list or a mapping",
        "s.yaml:8:5: skills.a: a null key '~' (write the key as text, quoted if you mean the word)",
        "s.yaml:10:5: skills.a.<<: a second merge key '<<' in the same mapping (the first is on line 9; only one is allowed)",
    ]


def test_merge_value_must_be_mappings():
    assert errors_of(HEAD + SKILL_A + "    <<: [x]\n", "s.yaml") == [
        "s.yaml:7:9: skills.a.<<: a merge key '<<' needs a mapping or a list of mappings"]


def test_merge_key_directly_under_a_section_is_refused():
    text = "schema_version: 1\nx: &s\n  b:\n    path: b.md\n    priority: P0\n    triggers: [y]\nskills:\n  <<: *s\n" + SKILL_A
    assert errors_of(text, "s.yaml")[0] == (
        "s.yaml:8:3: skills.<<: merge keys are not allowed directly under `skills`: each entry needs its own line range")


def test_deep_nesting_is_refused_quickly():
    depth = 100_000
    text = HEAD + SKILL_A + "    meta: " + "[" * depth + "]" * depth + "\n"
    # root, skills and a are 3 levels: the 62nd '[' is the 65th level (at column 11 + 61)
    path = "skills.a.meta" + "[0]" * 61
    assert errors_of(text, "s.yaml") == [f"s.yaml:7:72: {path}: nesting deeper than 64 levels"]


def test_five_megabyte_single_line_values_are_read():
    big = "w" * (5 * 1024 * 1024)
    text = HEAD + "  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n    description: " + big + "\n"
    reg = parse_registry(text.encode(), "s.yaml")
    assert len(reg.skills["a"].description) == 5 * 1024 * 1024
    assert ranges(reg) == {"a": (3, 7)}


def test_five_megabyte_single_line_registry_is_refused_cleanly():
    entries = ", ".join(f"s{i}: {{path: s{i}.md, priority: P0, triggers: [t{i}]}}" for i in range(90_000))
    text = "{schema_version: 1, skills: {" + entries + "}}\n"
    assert len(text) > 5_000_000
    assert errors_of(text, "s.yaml") == [
        "s.yaml:1:29: skills: `skills` is written in flow style ({...}): write it as a block mapping, each entry "
        "on its own lines, so every entry has its own line range"]


def test_registry_size_limit(monkeypatch):
    monkeypatch.setitem(LIMITS, "max_registry_bytes", 100)
    raw = (HEAD + SKILL_A + "#" * 100 + "\n").encode()
    with pytest.raises(RegistryError) as info:
        parse_registry(raw, "s.yaml")
    assert [str(d) for d in info.value.diagnostics] == [
        f"s.yaml:1:1: the registry is {len(raw)} bytes, more than the limit 100"]


def test_trigger_limits():
    long = "x" * (LIMITS["max_trigger_chars"] + 1)
    many = ", ".join(f"t{i}" for i in range(LIMITS["max_triggers_per_entry"] + 1))
    text = HEAD + f"  a:\n    path: a.md\n    priority: P0\n    triggers: [ok, {long}, '   ']\n" \
                  f"  b:\n    path: b.md\n    priority: P0\n    triggers: [{many}]\n"
    assert errors_of(text, "s.yaml") == [
        "s.yaml:6:20: skills.a.triggers[1]: a trigger of 201 characters, more than the limit 200",
        "s.yaml:6:223: skills.a.triggers[2]: a trigger is blank",
        "s.yaml:10:15: skills.b.triggers: 257 triggers, more than the limit 256",
    ]


def test_limits_values():
    assert LIMITS == {
        "max_registry_bytes": 64 * 1024 * 1024,
        "max_alias_expansion": 10_000,
        "max_total_alias_expansion": 100_000,
        "max_depth": 64,
        "max_triggers_per_entry": 256,
        "max_trigger_chars": 200,
        "max_errors": 200,
        "max_body_bytes": 16 * 1024 * 1024,
        "max_mcp_body_bytes": 1024 * 1024,
        "max_index_bytes": 64 * 1024 * 1024,
        "max_catalog_bytes": 256 * 1024 * 1024,
        "max_cases_bytes": 64 * 1024 * 1024,
        "max_skill_md_bytes": 4 * 1024 * 1024,
        "max_log_bytes": 256 * 1024 * 1024,
        "max_matcher_cache_bytes": 1024 * 1024 * 1024,
    }


def test_composition_errors():
    text = HEAD + SKILL_A + ("  broken:\n    path: b.md\n" + "composition:\n  c1: []\n  c2: a\n  c3:\n    - a\n    - a\n"
                             "  a:\n    - a\n  c4:\n    - broken\n")
    assert errors_of(text, "s.yaml") == [
        "s.yaml:7:3: skills.broken.priority: missing required key `priority`",
        "s.yaml:7:3: skills.broken.triggers: missing required key `triggers`",
        "s.yaml:10:7: composition.c1: a composition must be a non-empty list of skill ids",
        "s.yaml:11:7: composition.c2: a composition must be a non-empty list of skill ids",
        "s.yaml:14:7: composition.c3[1]: skill 'a' listed twice",
        "s.yaml:15:3: composition.a: composition id 'a' is also a skill id: explicit ids must be unique",
    ]


def test_a_composition_id_clash_is_said_with_its_members_errors():
    """A newcomer's trial: `a: [a, a]` beside a skill `a` said only "listed twice"; the id clash came once
    that was fixed."""
    text = HEAD + SKILL_A + "composition:\n  a: [a, a]\n"
    assert errors_of(text, "s.yaml") == [
        "s.yaml:8:3: composition.a: composition id 'a' is also a skill id: explicit ids must be unique",
        "s.yaml:8:10: composition.a[1]: skill 'a' listed twice",
    ]


def test_rule_errors():
    text = HEAD + SKILL_A + "rules:\n  r1:\n    forced: yes\n    triggers: [x]\n  r2:\n    forced: false\n"
    assert errors_of(text, "s.yaml") == [
        "s.yaml:9:13: rules.r1.forced: forced must be true or false",
        "s.yaml:11:3: rules.r2.triggers: missing required key `triggers`",
    ]


def test_diagnostic_format():
    assert str(Diagnostic("f.yaml", 3, 7, "skills.a", "boom")) == "f.yaml:3:7: skills.a: boom"
    assert str(Diagnostic("f.yaml", 1, 1, "", "boom")) == "f.yaml:1:1: boom"
    assert str(Diagnostic("f.yaml", 2, 1, "x", "hm", "warning")) == "f.yaml:2:1: warning: x: hm"


def test_load_registry_unreadable(tmp_path):
    with pytest.raises(RegistryError) as info:
        load_registry(tmp_path / "nope.yaml")
    assert [str(d) for d in info.value.diagnostics] == [
        f"{tmp_path / 'nope.yaml'}:1:1: cannot read the registry: No such file or directory"]
    with pytest.raises(RegistryError, match="cannot read the registry: it is a folder with no skills.yaml in it"):
        load_registry(tmp_path)


def test_parse_fragment_positions_are_those_of_the_file():
    with pytest.raises(RegistryError) as info:
        parse_fragment("  a:\n    k: 1\n    k: 2\n", first_line=40)
    assert [str(d) for d in info.value.diagnostics] == [
        "<fragment>:42:5: a.k: duplicate key (first defined on line 41)"]


def test_progress_callback_reaches_the_end():
    text = HEAD + "".join(f"  s{i}:\n    path: s{i}.md\n    priority: P0\n    triggers: [t{i}]\n" for i in range(500))
    seen: list[float] = []
    parse_registry(text.encode(), "s.yaml", progress=seen.append)
    assert 50 <= len(seen) <= 101
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_a_range_is_dedented_as_cutting_each_line_would():
    """parse_fragment's dedent (one regular-expression pass): the cut is the
    fewest leading spaces of a line with content that is no comment (tabs,
    CR, U+2028 and NEL are whitespace as ``str.strip`` reads them); a line
    indented less loses only its own spaces."""
    import random

    from routelens.text.canonical import dedent_range, range_cut

    def by_lines(text):
        lines = text.split("\n")
        indents = [len(l) - len(l.lstrip(" ")) for l in lines if l.strip() and not l.lstrip().startswith("#")]
        cut = min(indents) if indents else 0
        return "\n".join(l[min(cut, len(l) - len(l.lstrip(" "))):] for l in lines), cut

    assert dedent_range("  a:\n    b: 1\n # c\n\n   \t\n") == "a:\n  b: 1\n# c\n\n \t\n"
    assert range_cut("  a:\n    b: 1\n # c\n") == 2
    assert range_cut("   # only a comment\n \t \n") == 0 and dedent_range("  # x\n") == "  # x\n"
    assert range_cut("  \u2028x\n   y\n") == 2  # U+2028 is whitespace before the content
    rng = random.Random(7)
    alphabet = [" ", " ", " ", "\n", "\t", "\r", "#", "a", ":", "\u2028", "\x85", "\x0b", "\u3000", "\xa0"]
    for _ in range(20_000):
        t = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert (dedent_range(t), range_cut(t)) == by_lines(t), repr(t)
