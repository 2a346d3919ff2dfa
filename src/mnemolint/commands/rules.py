"""`mnemolint rules`: every rule on one line, with its severity, fix and summary."""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

NAME = "rules"
HELP = "list every rule"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No arguments: the list is the whole catalogue."""


def run(args: argparse.Namespace) -> int:
    from mnemolint.model import SEVERITY_LETTER
    from mnemolint.rules import RULES

    out = sys.stdout
    width = max(len(rule.name) for rule in RULES)
    for rule in RULES:
        fix = {"safe": "fix", "unsafe": "fix*"}.get(rule.fix or "", "")
        out.write(f"{rule.code}  {rule.name:<{width}}  {SEVERITY_LETTER[rule.severity]}  {fix:<4}  {rule.summary}\n")
    out.write("\nE error, W warning, I info; fix = safe fix, fix* = unsafe fix. `mnemolint rule CODE` prints a page.\n")
    return EXIT_CLEAN
