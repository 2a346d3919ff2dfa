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
    if args.config:
        settings_from_args(args, ".")  # a bad --config is a usage error before the editor connects
    from mnemolint.lsp.server import serve

    serve(lambda root: settings_from_args(args, root))
    return EXIT_CLEAN
