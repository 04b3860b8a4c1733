"""YAML syntax errors in a person's words (issue 13 item 7): each usual
mistake with its exact input and the exact line routelens prints. The
position is the place to fix; the parser's own words (and its position,
when it differs) follow in brackets."""

from __future__ import annotations

import pytest

from routelens.errors import RegistryError
from routelens.registry import parse_registry
from routelens.text.yaml_words import explain

H = "schema_version: 1\nskills:\n"

#: (mistake, registry text, the first diagnostic)
CASES = [
    ("tab-indentation", H + "  a:\n\tpath: a.md\n",
     "x.yaml:4:1: YAML syntax error: line 4 is indented with a tab: YAML indents with spaces only, so replace the "
     "tab with spaces (YAML parser: found character that cannot start any token while scanning for the next token)"),
    ("tab-after-spaces", H + "  a:\n    path: a.md\n  \tpriority: P1\n",
     "x.yaml:5:3: YAML syntax error: line 5 is indented with a tab: YAML indents with spaces only, so replace the "
     "tab with spaces (YAML parser: found a tab character that violates indentation while scanning a plain scalar)"),
    ("indented-more", H + "  a:\n    path: a.md\n     priority: P1\n",
     "x.yaml:5:6: YAML syntax error: line 5 is indented more than line 4 above it (5 spaces, not 4): a key lines up "
     "with the keys beside it (YAML parser: mapping values are not allowed in this context, at line 5, column 14)"),
    ("indented-less", H + "  a:\n    path: a.md\n   priority: P1\n",
     "x.yaml:5:4: YAML syntax error: line 5 is indented by 3 spaces, less than line 4 above it (4), and lines up with "
     "no line above: indent it by 4 like line 4, or by 2 like line 3, or by 0 like line 2 (YAML parser: did not "
     "find expected key while parsing a block mapping)"),
    ("list-item-indented-less", H + "  a:\n    triggers:\n      - x\n     - y\n",
     "x.yaml:6:6: YAML syntax error: line 6 is indented by 5 spaces, less than line 5 above it (6), and lines up with "
     "no line above: indent it by 6 like line 5, or by 4 like line 4, or by 2 like line 3 (YAML parser: did not "
     "find expected key while parsing a block mapping)"),
    ("top-level-indented", " schema_version: 1\nskills:\n",
     "x.yaml:1:2: YAML syntax error: line 1 is indented: the top-level keys all start in the first column (YAML "
     "parser: did not find expected <document start>, at line 2, column 1)"),
    # the trial's input: an id without its colon read as "line 4 is indented more than line 3"
    ("id-without-colon", H + "  code-review\n    path: skills/code-review.md\n    priority: P1\n",
     "x.yaml:3:14: YAML syntax error: line 3 (`code-review`) has no colon: a key that opens the indented lines "
     "below ends with `:` (`code-review:`) (YAML parser: mapping values are not allowed in this context, at line 4, "
     "column 9)"),
    ("missing-colon", H + "  a:\n    path a.md\n    priority: P1\n",
     "x.yaml:4:5: YAML syntax error: line 4 (`path a.md`) is not `key: value`: a colon is missing after its key "
     "(YAML parser: mapping values are not allowed in this context, at line 5, column 13)"),
    ("no-space-after-colon", H + "  a:\n    path:a.md\n    priority: P1\n",
     "x.yaml:4:9: YAML syntax error: line 4 has no space after its colon: write `path: a.md` (YAML parser: mapping "
     "values are not allowed in this context, at line 5, column 13)"),
    # the parser says "could not find expected ':'" when the next line is another key: it read
    # "a colon is missing after its key" for a line that has its colon
    ("no-space-after-colon-before-a-key", H + "  a:\n    path: a.md\n    priority:P0\n    triggers:\n      - x\n",
     "x.yaml:5:13: YAML syntax error: line 5 has no space after its colon: write `priority: P0` (YAML parser: could "
     "not find expected ':' while scanning a simple key, at line 6, column 5)"),
    ("key-too-long-before-a-key", H + "  a:\n    path: a.md\n    " + "k" * 1025 + ": P0\n    triggers:\n      - x\n",
     "x.yaml:5:1030: YAML syntax error: the key on line 5 is 1,025 characters long: YAML allows at most 1,024 "
     "characters in a key written without `? ` (YAML parser: could not find expected ':' while scanning a simple "
     "key)"),
    # a URL is no key without its space: the colon-missing words stand
    ("url-line-among-keys", H + "  a:\n    path: a.md\n    https://example.com/x\n    triggers:\n      - x\n",
     "x.yaml:5:5: YAML syntax error: line 5 (`https://example.com/x`) is not `key: value`: a colon is missing after "
     "its key (YAML parser: could not find expected ':' while scanning a simple key, at line 6, column 5)"),
    ("missing-dash", H + "  a:\n    path: a.md\n    triggers:\n      - x\n      y\n",
     "x.yaml:7:7: YAML syntax error: line 7 (`y`) is neither `key: value` nor a list item: the lines above it are "
     "list items, so a dash is missing (`- y`) (YAML parser: could not find expected ':' while scanning a simple key, "
     "at line 8, column 1)"),
    ("missing-dash-in-a-list-of-keys", H + "  - a\n  b: c\n",
     "x.yaml:4:3: YAML syntax error: line 4 is not a list item, but the lines above it at this indentation are (the "
     "list starts on line 3): start it with `- `, or indent it as part of the item above (YAML parser: did not find "
     "expected '-' indicator while parsing a block collection)"),
    ("list-item-among-keys", H + "  a:\n    path: x\n  - b\n",
     "x.yaml:5:3: YAML syntax error: line 5 starts a list item (`- `) among the keys of a mapping (line 3): write "
     "`key: value`, or indent the list under a key (YAML parser: did not find expected key while parsing a block "
     "mapping)"),
    ("list-on-the-key-line", H + "  a: - x\n",
     "x.yaml:3:6: YAML syntax error: a list item (`- `) cannot start on line 3 after a key on the same line: move it "
     "to the next line, indented more than the key (YAML parser: block sequence entries are not allowed in this "
     "context)"),
    ("colon-in-a-value", H + "  a:\n    description: Use when: the build fails\n",
     "x.yaml:4:18: YAML syntax error: the value on line 4 holds ': ', which YAML reads as the start of another key: "
     "put the value in quotes (description: \"Use when: the build fails\") (YAML parser: mapping values are not "
     "allowed in this context, at line 4, column 26)"),
    ("unclosed-double-quote", H + '  a:\n    path: "a.md\n    priority: P1\n',
     "x.yaml:4:11: skills.a.path: YAML syntax error: the double quote opened on line 4, column 11 is never closed: add the closing \" "
     "at the end of the value (YAML parser: found unexpected end of stream while scanning a quoted scalar, at line 6, "
     "column 1)"),
    ("unclosed-single-quote", H + "  a:\n    path: 'a.md\n    priority: P1\n",
     "x.yaml:4:11: skills.a.path: YAML syntax error: the single quote opened on line 4, column 11 is never closed: add the closing ' "
     "at the end of the value (YAML parser: found unexpected end of stream while scanning a quoted scalar, at line 6, "
     "column 1)"),
    ("quote-closed-lines-later", H + '  a:\n    path: "a.md\n    priority: P1\n  b:\n    path: "b.md"\n',
     "x.yaml:4:11: skills.a.path: YAML syntax error: the double quote opened on line 4, column 11 is not closed on its line, so the "
     "value runs on to line 7: close it on line 4 (YAML parser: did not find expected key while parsing a block "
     "mapping, at line 7, column 12)"),
    # a newcomer's trial: a list item's quote closed by the next quoted value, two skills down, named that line
    ("list-item-quote-closed-lines-later",
     H + '  a:\n    triggers:\n      - x\n      - "y\n    path: a.md\n  b:\n    triggers: ["z"]\n',
     "x.yaml:6:9: skills.a.triggers[1]: YAML syntax error: the double quote opened on line 6, column 9 is not closed "
     "on its line, so the value runs on to line 9: close it on line 6 (YAML parser: did not find expected '-' "
     "indicator while parsing a block collection, at line 9, column 17)"),
    ("unclosed-quote-in-a-flow-list", H + '  a:\n    triggers: [x, "y, z]\n    path: a.md\n',
     "x.yaml:4:19: skills.a.triggers[1]: YAML syntax error: the double quote opened on line 4, column 19 is never "
     "closed: add the closing \" at the end of the value (YAML parser: found unexpected end of stream while scanning "
     "a quoted scalar, at line 6, column 1)"),
    ("unclosed-quote-opening-a-key", H + '  "a:\n    path: a.md\n  b:\n    path: "b.md"\n',
     "x.yaml:3:3: skills: YAML syntax error: the double quote opened on line 3, column 3 is not closed on its line, "
     "so the value runs on to line 6: close it on line 3 (YAML parser: did not find expected key while parsing a "
     "block mapping, at line 6, column 12)"),
    ("text-after-a-closing-quote", H + '  a:\n    path: "a" .md\n',
     "x.yaml:4:15: YAML syntax error: text follows the closing quote on line 4: put the whole value inside the "
     "quotes, or leave the quotes out (YAML parser: did not find expected key while parsing a block mapping)"),
    ("unclosed-bracket", H + "  a:\n    triggers: [a, b\n    priority: P1\n",
     "x.yaml:4:15: YAML syntax error: the [ opened on line 4, column 15 is not closed where its value ends, or two of "
     "its items lack a comma between them: close it with ] (YAML parser: did not find expected ',' or ']' while "
     "parsing a flow sequence, at line 5, column 13)"),
    ("unclosed-brace", H + "  a: {path: a.md\n",
     "x.yaml:3:6: YAML syntax error: the { opened on line 3, column 6 is not closed where its value ends, or two of "
     "its entries lack a comma between them: close it with } (YAML parser: did not find expected ',' or '}' while "
     "parsing a flow mapping, at line 4, column 1)"),
    ("extra-bracket", H + "  a:\n    triggers: [a, b]]\n",
     "x.yaml:4:21: YAML syntax error: an extra ] on line 4, column 21: remove it (YAML parser: did not find expected "
     "key while parsing a block mapping)"),
    ("reserved-character", H + "  a:\n    description: @home\n",
     "x.yaml:4:18: YAML syntax error: a value cannot start with @ on line 4: YAML reserves it; put the value in quotes "
     "(YAML parser: found character that cannot start any token while scanning for the next token)"),
    ("anchor-without-a-name", H + "  a:\n    path: &\n",
     "x.yaml:4:11: YAML syntax error: & on line 4 starts an anchor, but no name follows it: write &name, or put the "
     "value in quotes (YAML parser: did not find expected alphabetic or numeric character while scanning an anchor, "
     "at line 4, column 12)"),
    ("block-scalar-not-indented", H + "  a:\n    description: |\n    text\n",
     "x.yaml:5:5: YAML syntax error: the text of the block scalar on line 4 must be indented more than its key: "
     "indent line 5 by more than 4 spaces (YAML parser: could not find expected ':' while scanning a simple key, at "
     "line 6, column 1)"),
    ("key-too-long", H + "  " + "k" * 1500 + ":\n    path: a.md\n",
     "x.yaml:3:1503: YAML syntax error: the key on line 3 is 1,500 characters long: YAML allows at most 1,024 "
     "characters in a key written without `? ` (YAML parser: mapping values are not allowed in this context)"),
]


@pytest.mark.parametrize("name, text, first", CASES, ids=[c[0] for c in CASES])
def test_syntax_error_in_plain_words(name, text, first):
    with pytest.raises(RegistryError) as info:
        parse_registry(text.encode(), "x.yaml", "x.yaml")
    assert str(info.value.diagnostics[0]) == first


def _syntax(text: str) -> str:
    with pytest.raises(RegistryError) as info:
        parse_registry(text.encode(), "x.yaml", "x.yaml")
    return next(str(d) for d in info.value.diagnostics if "YAML syntax error" in str(d))


def test_a_key_that_lost_its_indentation_is_the_line_to_fix():
    """A trial's input: `triggers:` pasted at column 1 inside a skill. The
    parser stops two blocks later (line 7, `priority:`), and the words used
    to blame line 7 and offer "indent it by 0 like line 5", which makes it
    worse. Line 5 sits between two lines at 4 and ended their block."""
    text = H + "  a:\n    path: a.md\ntriggers:\n      - x\n    priority: P1\n"
    assert _syntax(text) == (
        "x.yaml:5:1: YAML syntax error: line 5 (`triggers:`) is indented by 0, less than line 4 above it and line 7 "
        "below (4), and ends the block they are in, so line 7 lines up with no line above: indent line 5 by 4 like "
        "line 4 if it belongs there, or else indent line 7 by 6 like line 6, or by 0 like line 5 (YAML parser: did "
        "not find expected key while parsing a block mapping, at line 7, column 5)")
    # a top-level key whose children are deeper, then a line lining up with nothing: that line is the one to fix
    text = H + "  a:\n    path: x\nrouting:\n    threshold: 80\n  high_risk: []\n"
    assert _syntax(text) == (
        "x.yaml:7:3: YAML syntax error: line 7 is indented by 2 spaces, less than line 6 above it (4), and lines up "
        "with no line above: indent it by 4 like line 6, or by 0 like line 5 (YAML parser: did not find expected key "
        "while parsing a block mapping)")


def test_a_first_key_indented_apart_from_its_siblings_is_the_line_to_fix():
    """A newcomer's trial: `path:` indented by 3 under a skill whose other keys have 4. The words blamed
    line 36 ("indented more than line 35") where line 35 was the odd one out."""
    text = H + "  a:\n   path: a.md\n    priority: P1\n    triggers: [x]\n"
    assert _syntax(text) == (
        "x.yaml:4:4: YAML syntax error: line 4 (`path: a.md`) is indented by 3, the keys below it by 4: indent line 4 "
        "by 4 like them (or line 5 and the keys after it by 3) (YAML parser: mapping values are not allowed in this "
        "context, at line 5, column 13)")
    # one key alone below it: no siblings to line up with, the older words stand
    text = H + "  a:\n   path: a.md\n    priority: P1\n"
    assert _syntax(text).startswith("x.yaml:5:5: YAML syntax error: line 5 is indented more than line 4 above it")


def test_unknown_mistakes_keep_the_parsers_words():
    assert explain("a: b\n", "something new", "while doing it", 2, None) is None
    with pytest.raises(RegistryError) as info:
        parse_registry(b"%YAML 1.3\n---\nskills: {}\n", "x.yaml", "x.yaml")
    assert str(info.value.diagnostics[0]) == "x.yaml:1:1: YAML syntax error: found incompatible YAML document"


def test_a_first_key_indented_past_its_siblings_is_the_line_to_fix():
    """A newcomer's trial: `path:` indented by 5 under a skill whose other keys have 4. The words blamed
    the skill's key line above ("line 7 (`gpu-quota:`) is indented by 2, less than ...") and offered to
    indent it, or the keys below, never the one line indented past its siblings."""
    text = (H + "  a:\n    path: a.md\n    priority: P1\n    triggers: [x]\n"
            "  gpu-quota:\n     path: g.md\n    priority: P2\n    triggers: [gpu quota]\n")
    assert _syntax(text) == (
        "x.yaml:8:6: skills.gpu-quota.path: YAML syntax error: line 8 (`path: g.md`) is indented by 5, the keys "
        "below it by 4: indent line 8 by 4 like them (or line 9 and the keys after it by 5) (YAML parser: did not "
        "find expected key while parsing a block mapping, at line 9, column 5)")
    # one key alone below it, lining up with the keys of the skill above
    text = H + "  a:\n    path: a.md\n  b:\n     path: b.md\n    priority: P1\n"
    assert _syntax(text) == (
        "x.yaml:6:6: skills.b.path: YAML syntax error: line 6 (`path: b.md`) is indented by 5, line 7 below it by "
        "4: indent line 6 by 4 like line 7 (or line 7 by 5) (YAML parser: did not find expected key while parsing a "
        "block mapping, at line 7, column 5)")
    # one key alone below it and nothing else to line up with: either may be the odd one, the older words stand
    text = H + "  a:\n     path: a.md\n    priority: P1\n"
    assert _syntax(text).startswith("x.yaml:5:5: YAML syntax error: line 5 is indented by 4 spaces, less than line 4")


@pytest.mark.parametrize("lead, words", [
    ("\u3000\u3000", "2 full-width spaces (U+3000): YAML indents with ASCII spaces only, so replace them"),
    ("  \u00a0 ", "a no-break space (U+00A0): YAML indents with ASCII spaces only, so replace it"),
    ("\u2003\u3000", "an em space (U+2003) and a full-width space (U+3000): YAML indents with ASCII spaces only, "
                     "so replace them"),
    # among the keys of the skill: read by the general reader, not the fast one, to be seen
    ("    \u3000", "a full-width space (U+3000): YAML indents with ASCII spaces only, so replace it"),
])
def test_a_line_indented_with_non_ascii_spaces_is_named_alone(lead, words):
    """A Japanese newcomer's trial: `　　priority: P2` (two U+3000) gave "missing required key `priority`",
    "missing required key `triggers`" and "line 5 (`priority: P1`) is indented by 0"."""
    text = H + f"  a:\n    path: a.md\n{lead}priority: P1\n    triggers: [x]\n"
    with pytest.raises(RegistryError) as info:
        parse_registry(text.encode(), "x.yaml", "x.yaml")
    col = len(lead) - len(lead.lstrip(" ")) + 1
    assert [str(d) for d in info.value.diagnostics] == [
        f"x.yaml:5:{col}: YAML syntax error: line 5 is indented with {words} with spaces"]


def test_full_width_spaces_in_values_are_text():
    """U+3000 opening a line of a block scalar, a plain scalar's next line or a value is the value's text."""
    text = (H + "  a:\n    path: a.md\n    priority: P1\n    triggers: [x]\n    description: |\n"
            "      \u3000日本語の説明\n      \u3000二行目\n    owner: \u3000山田\n"
            "    note: 一行目\n      \u3000二行目\n")
    reg = parse_registry(text.encode(), "x.yaml", "x.yaml")
    skill = reg.skills["a"]
    assert skill.description == "\u3000日本語の説明\n\u3000二行目\n"
    assert skill.metadata == {"owner": "\u3000山田", "note": "一行目 \u3000二行目"}


def test_a_line_indented_with_a_full_width_space_where_the_parser_stops():
    # the parser stops on the line itself (no key read): the words come before the parser's
    text = H + "  a:\n    triggers:\n      - x\n\u3000- y\n"
    assert _syntax(text) == (
        "x.yaml:6:1: YAML syntax error: line 6 is indented with a full-width space (U+3000): YAML indents with ASCII "
        "spaces only, so replace it with spaces (YAML parser: could not find expected ':' while scanning a simple "
        "key, at line 7, column 1)")


def test_a_list_item_without_a_space_after_its_dash():
    """A newcomer's trial: `-request gpus` among list items got "a dash is missing (`- -request gpus`)"."""
    text = H + "  a:\n    triggers:\n      - x\n      -request gpus\n      - y\n"
    assert _syntax(text) == (
        "x.yaml:6:7: skills.a.triggers[1]: YAML syntax error: line 6 (`-request gpus`) is neither `key: value` nor "
        "a list item: a space is missing after the dash: write `- request gpus` (YAML parser: could not find "
        "expected ':' while scanning a simple key, at line 7, column 7)")
    # the last item, a key below it
    text = H + "  a:\n    triggers:\n      - x\n      -request gpus\n    path: a.md\n"
    assert _syntax(text) == (
        "x.yaml:6:7: skills.a.triggers[1]: YAML syntax error: line 6 (`-request gpus`) is neither `key: value` nor "
        "a list item: a space is missing after the dash: write `- request gpus` (YAML parser: could not find "
        "expected ':' while scanning a simple key, at line 7, column 5)")
    # a list written at its key's own indentation: its key path cannot be read from the indentation
    text = H + "  a:\n    triggers:\n    - x\n    -request gpus\n    path: a.md\n"
    assert _syntax(text) == (
        "x.yaml:6:5: YAML syntax error: line 6 (`-request gpus`) is neither `key: value` nor a list item: a space is "
        "missing after the dash: write `- request gpus` (YAML parser: could not find expected ':' while scanning a "
        "simple key, at line 7, column 5)")
