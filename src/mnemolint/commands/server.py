"""`mnemolint server`: the language server for editors, on stdio (lsp/). pygls and lsprotocol are
the optional extra `mnemolint[server]`; without them the command says how to install them."""

from __future__ import annotations

from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_config_argument, add_selection_arguments

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

NAME = "server"
HELP = "serve diagnostics, fixes, hovers and links to an editor over the Language Server Protocol (stdio)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="talk over stdin and stdout (the default and only channel; editors pass it)",
    )
    add_selection_arguments(parser)
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint.commands.common import require_extra, settings_from_args

    require_extra("pygls", "server", NAME, "pygls and lsprotocol")
    _check_arguments(args)
    from mnemolint.lsp.server import serve

    serve(lambda root: settings_from_args(args, root))
    return EXIT_CLEAN


def _check_arguments(args: argparse.Namespace) -> None:
    """The command line's own mistakes are usage errors before any editor connects: a `--config`
    that cannot be read, a selector naming no rule. A workspace folder's configuration is judged
    when the folder is, and a bad one is told to the editor."""
    from mnemolint.commands.common import working_directory
    from mnemolint.config import load_settings
    from mnemolint.rules import RULES
    from mnemolint.selection import check_selectors

    if args.config:
        load_settings(args.config, working_directory())
    codes = [rule.code for rule in RULES]
    for option in ("select", "extend_select", "ignore"):
        check_selectors(getattr(args, option) or [], codes, "--" + option.replace("_", "-"))
