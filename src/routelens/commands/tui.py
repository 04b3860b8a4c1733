"""Former home of ``routelens tui``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.tui`."""

from routelens.cli.commands.tui import register, run

__all__ = ["register", "run"]
