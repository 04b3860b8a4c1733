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
