"""Former home of ``routelens mcp``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.mcp`."""

from routelens.cli.commands.mcp import register, run

__all__ = ["register", "run"]
