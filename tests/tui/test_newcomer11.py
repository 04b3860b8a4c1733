"""The registry pane's notice on a registry that merges shared defaults into
every skill and lists a disabled skill in a composition (round 11,
docs/formats.md §1.3): the lines the commands print, counted as printed."""

from __future__ import annotations

from .conftest import make_app, make_registry, settle


async def test_the_registry_notice_counts_the_printed_lines_not_one_per_skill(tmp_path):
    src = tmp_path / "src.yaml"
    lines = ["schema_version: 1", "x-defaults: &d {owner: platform, priority: P1}", "skills:"]
    for i in range(5):
        lines += [f"  skill-{i}:", "    <<: *d", f"    path: skills/skill-{i}.md", f"    triggers: [topic{i} work]"]
    lines += ["  gone-tool:", "    path: skills/gone-tool.md", "    priority: P2", "    status: disabled",
              "    triggers: [gone tool]", "composition:", "  pair:", "    - skill-0", "    - gone-tool"]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    registry = make_registry(tmp_path, src)
    app = make_app(registry)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        notice = app.main.pane("registry").notice
        assert notice.startswith(f"2 warnings: {registry.name}: warning: 5 skills are not self-contained (skill-0, "
                                 "skill-1, skill-2 and 2 more): they use the alias *d")


async def test_a_short_registry_pane_keeps_one_line_of_its_notice(tmp_path):
    """A newcomer at 80x24: the four-line warning filled the registry pane and hid the highlighted range."""
    src = tmp_path / "src.yaml"
    lines = ["schema_version: 1", "x-defaults: &d {owner: platform, priority: P1}", "skills:"]
    for i in range(5):
        lines += [f"  skill-{i}:", "    <<: *d", f"    path: skills/skill-{i}.md", f"    triggers: [topic{i} work]"]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    registry = make_registry(tmp_path, src)
    app = make_app(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        pane = app.main.pane("registry")
        assert pane.notice.startswith("1 warning: ")
        assert (pane.size.height, pane.notice_line.size.height) == (13, 3)  # a third of the rows
        await pilot.press(*"topic1 work for the team")
        await settle(app, pilot)
        assert pane.size.height < 10 and pane.notice_line.size.height == 1
    big = make_app(registry)
    async with big.run_test(size=(160, 60)) as pilot:
        await settle(big, pilot)
        assert big.main.pane("registry").notice_line.size.height > 1
