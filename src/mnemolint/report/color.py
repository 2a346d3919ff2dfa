"""Whether a command colours its output, decided in one place for every command that colours
(`check`, `rules`, `rule`, `preview`), and the rich console that does it.

The order, first answer wins: `--color always|never`; `NO_COLOR` (no-color.org: any non-empty
value); `FORCE_COLOR` (force-color.org: any non-empty value) or `CLICOLOR_FORCE` (bixense.com/clicolors:
any value but `0`); `CLICOLOR=0` or `TERM=dumb`; else colour exactly when the stream is a terminal.
NO_COLOR before the forcing variables is what anstream (ruff's colour crate) does with
CLICOLOR_FORCE. rich is imported only once colour is chosen: a piped or redirected run, and the
pre-commit hook, never pay its import.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping
    from typing import TextIO

    from rich.console import Console

CHOICES = ("auto", "always", "never")


def add_color_argument(parser: argparse.ArgumentParser) -> None:
    """`--color auto|always|never` (uv's and ruff's flag), and `--no-color`, the older spelling of `--color never`."""
    parser.add_argument(
        "--color",
        choices=CHOICES,
        default="auto",
        help="colour the output: auto (default: on a terminal, unless NO_COLOR is set; FORCE_COLOR or "
        "CLICOLOR_FORCE turn it on anywhere), always, never",
    )
    parser.add_argument("--no-color", dest="color", action="store_const", const="never", help="same as --color never")


def use_color(choice: str, out: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what goes to `out`, by `choice` (`--color`) and the environment."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR") or env.get("CLICOLOR_FORCE", "0") not in ("", "0"):
        return True
    if env.get("CLICOLOR") == "0" or env.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def console(out: TextIO, soft_wrap: bool = False) -> Console:
    """A rich console that colours `out` (the choice is already made: nothing in the environment
    overrides it here), as wide as the terminal, or `COLUMNS`, or 80."""
    from rich.console import Console

    return Console(file=out, force_terminal=True, no_color=False, highlight=False, soft_wrap=soft_wrap)
