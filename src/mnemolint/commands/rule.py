"""`mnemolint rule CODE|NAME`: the rule's page from the catalogue, as shipped with this release.

A rule is named by its code (`MEM101`, any case) or its name (`index-over-load-limit`), as ruff's
`rule` takes either. Piped, the page is its Markdown as written; on a colour terminal
(`report.color`) rich renders it (headings, emphasis, the examples' code blocks) without the
frontmatter; `--output-format json` is the rule as `rules --output-format json` has it, with the
page as `explanation` (ruff's field).
"""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.rules.base import Rule

NAME = "rule"
HELP = "print a rule's page (by code or by name)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from mnemolint.report.color import add_color_argument

    parser.add_argument("code", metavar="CODE", help="a rule's code (MEM101) or name (index-over-load-limit)")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    add_color_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint.catalog import page
    from mnemolint.report.color import use_color

    rule = named(args.code)
    text = page(rule.code)
    if text is None:
        raise ConfigError(f"no page found for {rule.code}: the rules catalogue is missing from this installation")
    out = sys.stdout
    if args.output_format == "json":
        import json

        from mnemolint.commands.rules import described

        json.dump({**described(rule), "explanation": text}, out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif use_color(args.color, out):
        from rich.markdown import Markdown

        from mnemolint.catalog import body
        from mnemolint.report.color import console

        console(out).print(Markdown(body(text), code_theme="ansi_dark"))
    else:
        out.write(text if text.endswith("\n") else text + "\n")
    return EXIT_CLEAN


def named(given: str) -> Rule:
    """The rule `given` names, by code or by name; a usage error naming it otherwise."""
    from mnemolint.parse.textutil import visible
    from mnemolint.rules import BY_CODE, RULES

    rule = BY_CODE.get(given.upper()) or next((rule for rule in RULES if rule.name == given.lower()), None)
    if rule is None:
        raise ConfigError(f"unknown rule `{visible(given)}`: neither a code nor a name (see `mnemolint rules`)")
    return rule
