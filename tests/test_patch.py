"""Registry edits as insertions: exact bytes, every other byte unchanged,
CRLF and BOM kept, quoting that reads back, refusals (docs/formats.md §14)."""

from __future__ import annotations

import os

import pytest

from routelens.registry.load import parse_registry
from routelens.tools.patch import (
    PatchError,
    add_list_item,
    apply_edits,
    paste_text,
    patched_registry,
    set_routing,
    write_copy,
    yaml_scalar,
)

REG = """\
schema_version: 1
skills:
  code-review:
    path: skills/code-review.md
    priority: P0
    triggers:
      - code review   # the classic
      - review my diff
    description: Review a diff
  ci-fix: {path: ci.md, priority: P1, triggers: [ci failure, broken build]}
  shared:
    path: s.md
    priority: P2
    triggers: &t
      - shared thing
  again:
    path: a.md
    priority: P2
    triggers: *t
routing:
  threshold: 85
"""


def _reg(raw: bytes):
    return parse_registry(raw, "skills.yaml", "skills.yaml")


def test_a_trigger_goes_after_the_last_item_of_a_block_list():
    raw = REG.encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), "review the pull request")
    assert (e.line, e.where_line, e.yaml) == (8, 9, "- review the pull request")
    assert e.how == "a new line after line 8, the last item of skills.code-review.triggers"
    new, reg = patched_registry(_reg(raw), raw, [e])
    assert new == REG.replace("      - review my diff\n", "      - review my diff\n      - review the pull request\n",
                              1).encode()
    assert reg.skills["code-review"].triggers == ("code review", "review my diff", "review the pull request")
    assert reg.skills["ci-fix"].source_start == 11  # the entries below moved one line down


def test_crlf_and_bom_are_kept_and_nothing_else_moves():
    raw = b"\xef\xbb\xbf" + REG.replace("\n", "\r\n").encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), "review the pull request")
    new = apply_edits(raw, [e])
    assert new == b"\xef\xbb\xbf" + REG.replace("      - review my diff\n",
                                                "      - review my diff\n      - review the pull request\n",
                                                1).replace("\n", "\r\n").encode()


def test_a_flow_list_gets_the_item_inside_its_brackets():
    raw = REG.encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "ci-fix", "triggers"), "red pipeline, again")
    new, reg = patched_registry(_reg(raw), raw, [e])
    assert b'triggers: [ci failure, broken build, "red pipeline, again"]}' in new
    assert reg.skills["ci-fix"].triggers[-1] == "red pipeline, again"
    assert e.where_line == 10
    assert e.yaml == 'ci-fix: {path: ci.md, priority: P1, triggers: [ci failure, broken build, "red pipeline, again"]}'
    assert e.how == 'replace line 10 with it (`, "red pipeline, again"` added inside the brackets)'


def test_a_missing_key_gets_a_line_of_its_own():
    raw = REG.encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "code-review", "not_when"), "security review")
    assert (e.line, e.where_line, e.yaml) == (9, 10, "not_when: [security review]")
    new = apply_edits(raw, [e])
    assert new == REG.replace("    description: Review a diff\n",
                              "    description: Review a diff\n    not_when: [security review]\n").encode()


def test_several_values_in_one_edit():
    raw = REG.encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), ["one more", "1.10"])
    new, reg = patched_registry(_reg(raw), raw, [e])
    assert reg.skills["code-review"].triggers[-2:] == ("one more", "1.10")
    assert b'      - one more\n      - "1.10"\n' in new


@pytest.mark.parametrize("path, words", [
    (("skills", "again", "triggers"), "is an alias"),
    (("skills", "ci-fix", "not_when"), "flow style"),
    (("skills", "nope", "triggers"), "skills.nope is not in the registry"),
    (("skills", "code-review", "description", "x"), "is not a mapping"),
])
def test_places_that_cannot_be_patched(path, words):
    with pytest.raises(PatchError) as exc:
        add_list_item(REG.encode(), "skills.yaml", path, "x y")
    assert words in str(exc.value)


def test_routing_values():
    raw = REG.encode()
    e = set_routing(raw, "skills.yaml", "threshold", "82")
    assert apply_edits(raw, [e]) == REG.replace("threshold: 85", "threshold: 82").encode()
    e = set_routing(raw, "skills.yaml", "ambiguity_margin", "3")
    new, reg = patched_registry(_reg(raw), raw, [e])
    assert new == (REG + "  ambiguity_margin: 3\n").encode() and reg.routing.ambiguity_margin == 3
    bare = REG.split("routing:")[0].encode()
    e = set_routing(bare, "skills.yaml", "threshold", "80")
    new, reg = patched_registry(_reg(bare), bare, [e])
    assert new == bare + b"routing:\n  threshold: 80\n" and reg.routing.threshold == 80
    # a trial: `threshold: 76` alone, pasted as shown, was an unknown top-level key and the task still fell back
    assert e.yaml == "routing:\n  threshold: 80" and e.how == "a new `routing:` section at the end of the file"


def test_what_is_pasted_keeps_the_indentation_of_the_file():
    """F7 copied ``- review the pull request`` with no indentation: pasted
    over a whole line it lands at column 1, and the registry no longer
    reads (or the item joins another mapping). The pasted text is the
    line(s) as they will read in the file."""
    raw = REG.encode()
    item = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), "review the pull request")
    assert paste_text(raw, item) == "      - review the pull request"
    two = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), ["one more", "1.10"])
    assert paste_text(raw, two) == '      - one more\n      - "1.10"'
    key = add_list_item(raw, "skills.yaml", ("skills", "code-review", "not_when"), "security review")
    assert paste_text(raw, key) == "    not_when: [security review]"
    flow = add_list_item(raw, "skills.yaml", ("skills", "ci-fix", "triggers"), "red pipeline")
    assert paste_text(raw, flow) == "  ci-fix: {path: ci.md, priority: P1, triggers: [ci failure, broken build, red pipeline]}"
    assert flow.yaml == "ci-fix: {path: ci.md, priority: P1, triggers: [ci failure, broken build, red pipeline]}"
    value = set_routing(raw, "skills.yaml", "threshold", "82")
    assert paste_text(raw, value) == "  threshold: 82"
    added = set_routing(raw, "skills.yaml", "ambiguity_margin", "3")
    assert paste_text(raw, added) == "  ambiguity_margin: 3"
    bare = REG.split("routing:")[0].encode()
    assert paste_text(bare, set_routing(bare, "skills.yaml", "threshold", "80")) == "routing:\n  threshold: 80"
    crlf = b"\xef\xbb\xbf" + REG.replace("\n", "\r\n").encode()
    assert paste_text(crlf, set_routing(crlf, "skills.yaml", "threshold", "82")) == "  threshold: 82"
    spread = REG.replace("triggers: [ci failure, broken build]", "triggers: [ci failure,\n      broken build]").encode()
    piece = add_list_item(spread, "skills.yaml", ("skills", "ci-fix", "triggers"), "red pipeline")
    assert paste_text(spread, piece) == piece.yaml == ", red pipeline"


@pytest.mark.parametrize("value, written", [
    ("review the pull request", "review the pull request"), ("1.10", '"1.10"'), ("null", '"null"'),
    ("a: b", '"a: b"'), ("#tag", '"#tag"'), ("- x", '"- x"'), ("レビュー", "レビュー"), ("C#", "C#"),
    ("tab\there", '"tab\\there"'), ("end ", '"end "'),
])
def test_scalars_read_back_as_written(value, written):
    assert yaml_scalar(value) == written
    raw = REG.encode()
    e = add_list_item(raw, "skills.yaml", ("skills", "code-review", "triggers"), value)
    _, reg = patched_registry(_reg(raw), raw, [e])
    assert reg.skills["code-review"].triggers[-1] == value


def test_write_copy_refuses_the_registry_by_any_name(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_bytes(REG.encode())
    (tmp_path / "link.yaml").symlink_to(reg)
    os.link(reg, tmp_path / "hard.yaml")
    for target in (reg, tmp_path / "link.yaml", tmp_path / "hard.yaml", tmp_path / "." / "skills.yaml"):
        with pytest.raises(PatchError) as exc:
            write_copy(target, b"x", [reg])
        assert "refusing to write" in str(exc.value)
    assert reg.read_bytes() == REG.encode()
    write_copy(tmp_path / "copy.yaml", b"new\n", [reg])
    assert (tmp_path / "copy.yaml").read_bytes() == b"new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.yaml", "hard.yaml", "link.yaml", "skills.yaml"]
