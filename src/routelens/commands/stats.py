"""Former home of ``routelens stats``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.stats`."""

from routelens.cli.commands.stats import register, run

__all__ = ["register", "run"]
