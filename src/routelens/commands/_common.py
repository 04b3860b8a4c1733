"""Former home of the helpers shared by the subcommands; kept one release so
that old imports work. New code imports :mod:`routelens.cli.commands.common`."""

from routelens.cli.commands.common import pct, print_json

__all__ = ["pct", "print_json"]
