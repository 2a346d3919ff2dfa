"""`mnemolint clean`: remove the cache (`.mnemolint_cache/`, or where `cache-dir` puts it): only
what mnemolint made there (cache_dir.clear), so a folder named by a repository's config loses
nothing else."""

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
    from mnemolint.cache_dir import Refused, clear
    from mnemolint.commands.common import settings_from_args, working_directory
    from mnemolint.parse.textutil import visible

    working_directory()
    try:
        settings = settings_from_args(args, args.path)
        removed = clear(settings.source, settings.cache_dir, settings.root)
    except Refused as refusal:
        print(f"mnemolint clean: {visible(str(refusal))}", file=sys.stderr)
        return EXIT_CLEAN
    if removed is not None:
        top, whole = removed
        done = "Removed" if whole else "Removed the cache files of"
        kept = "" if whole else " (the folder holds files mnemolint did not make: they stay)"
        print(f"{done} {visible(top)}{kept}", file=sys.stderr)
    return EXIT_CLEAN
