"""Former home of ``routelens schema``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.schema`."""

from routelens.cli.commands.schema import register, run

__all__ = ["register", "run"]
