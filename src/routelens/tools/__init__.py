"""Stage 5 of the data's path: tools over the registry, the generated files
and the router, each behind one ``routelens`` subcommand.

- :mod:`~routelens.tools.lint`: registry hygiene and listing budgets (``lint``);
- :mod:`~routelens.tools.evaluate`: routing quality on labelled cases (``eval``);
- :mod:`~routelens.tools.prompt`: the Layer-1 block (``prompt``);
- :mod:`~routelens.tools.history`: prompt-cache stability over git history (``stats --since``);
- :mod:`~routelens.tools.agentskills`: the Agent Skills format, reading a SKILL.md;
- :mod:`~routelens.tools.skill_import`: proposing and appending registry entries (``import``);
- :mod:`~routelens.tools.schema`: the JSON Schema of ``skills.yaml`` (``schema``).

They use the stages below through their public names only, and nothing in
this package imports a front end (CLI, MCP server, TUI).
"""
