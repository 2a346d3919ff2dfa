"""The subcommands, one module each: `MODULES` is the registry, in the order `--help` lists them.

A command module exposes `NAME` (what the user types), `HELP` (its line in `mnemolint --help`),
`add_arguments(parser)` and `run(args) -> int` (the exit code). Every module is imported when the
parser is built, so each keeps its top level to argument definitions: what a command needs to run
is imported inside its `run`, and a plain `check` loads nothing of `index`.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from types import ModuleType

MODULES = ("check", "index", "rules", "rule")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def load() -> list[ModuleType]:
    """The command modules, in registry order."""
    return [importlib.import_module(f"{__name__}.{name}") for name in MODULES]
