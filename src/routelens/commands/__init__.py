"""Former home of the CLI subcommands; kept one release so that old imports
work. New code imports :mod:`routelens.cli.commands`."""
