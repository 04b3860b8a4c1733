"""Former home of ``routelens explain``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.explain`."""

from routelens.cli.commands.explain import register, run

__all__ = ["register", "run"]
