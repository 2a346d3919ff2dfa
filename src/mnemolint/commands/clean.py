"""`mnemolint clean`: remove the cache (`.mnemolint_cache/`, or where `cache-dir` puts it)."""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_config_argument

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

NAME = "clean"
HELP = "remove the cache"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=".", metavar="PATH", help="where the config is looked for")
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint.cache import clear
    from mnemolint.commands.common import settings_from_args, working_directory
    from mnemolint.parse.textutil import visible

    working_directory()
    removed = clear(settings_from_args(args, args.path))
    if removed is not None:
        print(f"Removed {visible(removed)}", file=sys.stderr)
    return EXIT_CLEAN
