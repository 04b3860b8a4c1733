"""Former home of ``routelens build``; kept one release so that old imports work.
New code imports :mod:`routelens.cli.commands.build`."""

from routelens.cli.commands.build import BIG_REGISTRY_BYTES, register, run, size_summary

__all__ = ["register", "size_summary", "run", "BIG_REGISTRY_BYTES"]
