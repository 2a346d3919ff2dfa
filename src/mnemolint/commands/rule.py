"""`mnemolint rule CODE`: the rule's page from the catalogue, as shipped with this release."""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

NAME = "rule"
HELP = "print a rule's page"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", metavar="CODE")


def run(args: argparse.Namespace) -> int:
    from mnemolint.catalog import page
    from mnemolint.rules import BY_CODE

    code = args.code.upper()
    if code not in BY_CODE:
        raise ConfigError(f"unknown rule `{code}` (see `mnemolint rules`)")
    text = page(code)
    if text is None:
        raise ConfigError(f"no page found for {code}: the rules catalogue is missing from this installation")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_CLEAN
