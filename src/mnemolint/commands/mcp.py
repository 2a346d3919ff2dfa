"""`mnemolint mcp [--root DIR]`: an MCP server on stdio, for agents (mcp_server.py). The `mcp` SDK
is the optional extra `mnemolint[mcp]`; without it the command says how to install it."""

from __future__ import annotations

from mnemolint.commands import EXIT_CLEAN
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

NAME = "mcp"
HELP = "serve lint, preview, explain-rules, fix and rule to an agent over MCP (stdio)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root", metavar="DIR", default=".", help="the project the server answers for; nothing outside it is read"
    )
    parser.add_argument(
        "--timeout", type=float, default=60.0, metavar="SECONDS", help="time one call may take (default: 60)"
    )


def run(args: argparse.Namespace) -> int:
    import os

    from mnemolint.commands.common import directory_argument, require_extra

    require_extra("mcp", "mcp", NAME, "the MCP SDK")
    if not args.timeout > 0:
        raise ConfigError("--timeout must be a positive number of seconds")
    root = directory_argument(args.root)
    from mnemolint.mcp_server import serve

    os.chdir(root)  # the findings' paths are shown relative to the current directory
    serve(root, args.timeout)
    return EXIT_CLEAN
