"""A newcomer's two rough edges (round 11), from the command line as they
met them (docs/formats.md §1.3):

- a registry that merges shared defaults into every skill (``<<: *d``)
  printed one "not self-contained" warning per skill on every command: more
  than three are one line now, while the catalog and ``routelens lint``
  keep one item per entry;
- ``routelens lint`` called a disabled skill in a composition an error,
  and ``build`` said nothing: every command that reads the registry warns
  of it now, in lint's words, at the member's line and column."""

from __future__ import annotations

import json

from routelens.registry import load_registry
from routelens.tui import words

NOT_CONTAINED = "not self-contained: its range uses an alias whose anchor lies outside it"


def _registry(tmp_path, n: int, composition: str = "", extra: str = ""):
    """``n`` skills that each merge ``x-defaults`` (``&d``, line 2), a
    disabled ``gone-tool`` and ``composition``; every body exists."""
    lines = ["schema_version: 1", "x-defaults: &d {owner: platform, priority: P1}", "skills:"]
    (tmp_path / "skills").mkdir()
    for i in range(n):
        sid = f"skill-{i:02d}"
        lines += [f"  {sid}:", "    <<: *d", f"    path: skills/{sid}.md", f"    triggers: [topic{i} work]"]
    for sid in [f"skill-{i:02d}" for i in range(n)] + ["gone-tool"]:
        (tmp_path / "skills" / f"{sid}.md").write_text(f"# {sid}\n", encoding="utf-8")
    lines += ["  gone-tool:", "    path: skills/gone-tool.md", "    priority: P2", "    status: disabled",
              "    triggers: [gone tool]"]
    reg = tmp_path / "skills.yaml"
    reg.write_text("\n".join(lines) + "\n" + composition + extra, encoding="utf-8")
    return reg


def test_ten_skills_that_merge_shared_defaults_get_one_warning_line(tmp_path, cli):
    reg = _registry(tmp_path, 10)
    summary = (f"{reg}: warning: 10 skills are not self-contained (skill-00, skill-01, skill-02 and 7 more): they "
               "use the alias *d, whose anchor &d is on line 2, outside their line ranges, so those ranges do not "
               "hold the aliased values and the router resolves these skills from the whole registry; "
               "`routelens lint` lists every one")
    for command in (("build",), ("check",), ("stats",), ("prompt",)):
        code, _out, err = cli(*command, "--registry", reg)
        assert (command, code, err.splitlines()[:2]) == (command, 0, [summary] + err.splitlines()[1:2])
        assert "not self-contained" not in "".join(err.splitlines()[1:])  # prompt: its size comes next
    # what a program reads keeps one item per skill: the catalog's warnings, lint's findings
    catalog = json.loads((tmp_path / "generated" / "catalog.json").read_text(encoding="utf-8"))
    per_skill = [f"{reg}:{4 + 4 * i}:3: warning: skills.skill-{i:02d}: {NOT_CONTAINED}" for i in range(10)]
    assert catalog["warnings"] == per_skill
    assert {sid: s["self_contained"] for sid, s in catalog["skills"].items()} == {
        **{f"skill-{i:02d}": False for i in range(10)}, "gone-tool": True}
    code, out, _err = cli("lint", "--json", "--registry", reg)
    found = json.loads(out)["findings"]
    assert [f"{reg}:{f['line']}:{f['column']}: warning: {f['key_path']}: {f['message']}"
            for f in found if f["code"] == "registry-warning"] == per_skill
    # the UI's registry pane counts the printed lines
    from routelens.registry.notices import warning_lines  # here: the tests above run on the code before it

    assert words.warnings_notice(warning_lines(load_registry(reg))) == f"1 warning: {summary}"


def test_three_skills_not_self_contained_are_still_named_one_by_one(tmp_path, cli):
    reg = _registry(tmp_path, 3)
    code, _out, err = cli("build", "--registry", reg)
    assert code == 0
    assert err.splitlines() == [f"{reg}:{4 + 4 * i}:3: warning: skills.skill-{i:02d}: {NOT_CONTAINED}"
                                for i in range(3)]


def test_the_summary_counts_compositions_and_keeps_its_place_among_the_other_warnings(tmp_path, cli):
    # two anchors, a composition whose list is an alias, an unknown key before and after the entries
    comp = "composition:\n  pair: &p\n    - skill-00\n    - skill-01\n  again: *p\n"
    reg = _registry(tmp_path, 4, comp, "routing:\n  colour: 80\n")
    text = reg.read_text(encoding="utf-8").replace("    <<: *d\n", "    <<: *e\n", 1)
    reg.write_text(text.replace("x-defaults:", "x-first: &e {priority: P0}\nx-defaults:"), encoding="utf-8")
    code, _out, err = cli("check", "--registry", reg)
    assert code == 1  # nothing built yet
    assert err.splitlines()[:2] == [
        f"{reg}: warning: 4 skills and 1 composition are not self-contained (skill-00, skill-01, skill-02 and 2 "
        "more): they use the aliases *e, *d and *p, whose anchors are on lines 2, 3 and 27, outside their line "
        "ranges, so those ranges do not hold the aliased values and the router resolves these entries from the "
        "whole registry; "
        "`routelens lint` lists every one",
        f"{reg}:32:3: warning: routing.colour: unknown routing key; ignored",
    ]


def test_build_warns_of_a_disabled_skill_in_a_composition_as_lint_does(tmp_path, cli):
    comp = "composition:\n  release-train:\n    - skill-00\n    - skill-01\n    - gone-tool\n"
    reg = _registry(tmp_path, 2, comp)
    line = (f"{reg}:21:7: warning: composition.release-train[2]: gone-tool is disabled: the router drops it, so "
            "release-train is never served whole")
    contained = [f"{reg}:{4 + 4 * i}:3: warning: skills.skill-{i:02d}: {NOT_CONTAINED}" for i in range(2)]
    code, _out, err = cli("build", "--registry", reg)
    assert code == 0 and err.splitlines() == contained + [line]
    catalog = (tmp_path / "generated" / "catalog.json").read_bytes()
    assert json.loads(catalog)["warnings"] == contained  # not kept in the catalog
    code, _out, err = cli("check", "--registry", reg)
    assert code == 0 and err.splitlines() == contained + [line]
    # lint: the same words, at the same place, as an error
    code, out, _err = cli("lint", "--registry", reg)
    assert code == 1
    assert line.replace(": warning: ", ": error: ") + " [disabled-in-composition]" in out.splitlines()


def test_a_disabled_member_in_a_flow_list_or_an_aliased_list_is_placed_as_lint_places_it(tmp_path, cli):
    comp = "composition:\n  trio: &t [skill-00, gone-tool]\n  again: *t\n"
    reg = _registry(tmp_path, 1, comp)
    code, _out, err = cli("build", "--registry", reg)
    assert code == 0
    assert err.splitlines() == [
        f"{reg}:4:3: warning: skills.skill-00: {NOT_CONTAINED}",
        f"{reg}:14:23: warning: composition.trio[1]: gone-tool is disabled: the router drops it, so trio is never "
        "served whole",
        f"{reg}:15:3: warning: composition.again: {NOT_CONTAINED}",
        f"{reg}:15:3: warning: composition.again[1]: gone-tool is disabled: the router drops it, so again is never "
        "served whole",
    ]
    code, out, _err = cli("lint", "--registry", reg)
    lint = [x for x in out.splitlines() if x.endswith("[disabled-in-composition]")]
    assert lint == [x.replace(": warning: ", ": error: ") + " [disabled-in-composition]"
                    for x in err.splitlines() if "is disabled" in x]


def test_more_than_three_disabled_members_are_one_line_at_the_first_and_lint_still_lists_each(tmp_path, cli):
    # a 10,000-skill registry printed 237 of these lines on every build; lint keeps one error per member
    comp = ("composition:\n  one:\n    - skill-00\n    - gone-tool\n  two: [gone-tool, skill-00]\n"
            "  three: [gone-tool]\n  four:\n    - gone-tool\n")
    reg = _registry(tmp_path, 1, comp)
    code, _out, err = cli("build", "--registry", reg)
    assert code == 0
    assert err.splitlines() == [
        f"{reg}:4:3: warning: skills.skill-00: {NOT_CONTAINED}",
        f"{reg}:16:7: warning: 4 members of 4 compositions are disabled skills (one[1]: gone-tool, two[0]: "
        "gone-tool, three[0]: gone-tool and 1 more): the router drops them, so those compositions are never "
        "served whole; `routelens lint` lists every one",
    ]
    code, out, _err = cli("lint", "--registry", reg)
    assert [x.split(": error: ")[0] for x in out.splitlines() if x.endswith("[disabled-in-composition]")] == [
        f"{reg}:16:7", f"{reg}:17:9", f"{reg}:18:11", f"{reg}:20:7"]
