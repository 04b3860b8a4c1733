"""Former home of ``routelens lint``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.lint`."""

from routelens.cli.commands.lint import register, run

__all__ = ["register", "run"]
