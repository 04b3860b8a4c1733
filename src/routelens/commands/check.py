"""Former home of ``routelens check``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.check`."""

from routelens.cli.commands.check import register, run

__all__ = ["register", "run"]
