"""CLI subcommands, one module each with ``register(subparsers, common)``
and ``run(args) -> exit code`` (see :mod:`routelens.cli.entry`)."""
