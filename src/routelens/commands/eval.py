"""Former home of ``routelens eval``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.eval`."""

from routelens.cli.commands.eval import register, run

__all__ = ["register", "run"]
