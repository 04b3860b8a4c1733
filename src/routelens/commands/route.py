"""Former home of ``routelens route``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.route`."""

from routelens.cli.commands.route import format_decision, register, run

__all__ = ["register", "format_decision", "run"]
