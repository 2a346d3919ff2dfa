"""The subcommands, one module each: `MODULES` is the registry, in the order `--help` lists them.

A command module exposes `NAME` (what the user types), `HELP` (its line in `mnemolint --help`),
`add_arguments(parser)` and `run(args) -> int` (the exit code). The parser imports only the
command the command line names (every one for `--help` or a mistyped name), and each keeps its
top level to argument definitions: what a command needs to run is imported inside its `run`, so a
plain `check` loads nothing of `index`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from types import ModuleType

MODULES = (
    "check",
    "index",
    "rules",
    "rule",
    "explain_rules",
    "hook",
    "preview",
    "manifest",
    "clean",
    "mcp",
    "completion",
    "server",
)
EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def load(named: str | None = None) -> list[ModuleType]:
    """The module of the command `named`, if it is one; else every command module, in registry order."""
    module = named.replace("-", "_") if named else None  # `explain-rules` is commands/explain_rules.py
    chosen = [module] if module in MODULES else MODULES
    # `__import__` with a `fromlist` gives the module itself, as `importlib.import_module` does,
    # without importing `importlib` on every start
    return [__import__(f"{__name__}.{name}", fromlist=["run"]) for name in chosen]
