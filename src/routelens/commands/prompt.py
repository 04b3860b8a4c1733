"""Former home of ``routelens prompt``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.prompt`."""

from routelens.cli.commands.prompt import register, run

__all__ = ["register", "run"]
