"""CLI subcommands, one module each (see :mod:`routelens.cli`)."""
