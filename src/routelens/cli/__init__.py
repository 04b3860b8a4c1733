"""The command-line front end (``routelens``): :func:`main` and one module
per subcommand in :mod:`routelens.cli.commands`.

This face also keeps the names the former ``routelens/cli.py`` had
(:func:`bundled_registry` lives in :mod:`routelens.paths`).
"""

from routelens.cli.commands.common import common_options, resolve_paths
from routelens.cli.entry import COMMANDS, build_parser, main, run
from routelens.paths import bundled_registry

__all__ = ["main", "run", "build_parser", "COMMANDS", "common_options", "resolve_paths", "bundled_registry"]
