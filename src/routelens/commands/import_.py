"""Former home of ``routelens import``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.import_`."""

from routelens.cli.commands.import_ import register, run

__all__ = ["register", "run"]
