"""`mnemolint rules`: every rule on one line, with its severity, fix, tier and summary; or as JSON.

Piped, the list is plain columns a script can cut; on a colour terminal (`report.color`) it is a
rich table whose summaries wrap to the terminal's width.
"""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    from typing import TextIO

    from mnemolint.rules.base import Rule

NAME = "rules"
HELP = "list every rule (preview rules marked)"
LEGEND = (
    "E error, W warning, I info; fix = safe fix, fix* = unsafe fix; preview = runs only with --preview "
    "(or `preview = true`). `mnemolint rule CODE` prints a page."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The list is the whole catalogue; JSON for tools (ruff's `rule --all --output-format json`)."""
    from mnemolint.report.color import add_color_argument

    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    add_color_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint.report.color import use_color
    from mnemolint.rules import RULES

    out = sys.stdout
    if args.output_format == "json":
        import json

        json.dump([described(rule) for rule in RULES], out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif use_color(args.color, out):
        _table(RULES, out)
    else:
        width = max(len(rule.name) for rule in RULES)
        for rule in RULES:
            fix, tier, letter = _columns(rule)
            out.write(f"{rule.code}  {rule.name:<{width}}  {letter}  {fix:<4}  {tier:<7}  {rule.summary}\n")
        out.write(f"\n{LEGEND}\n")
    return EXIT_CLEAN


def _columns(rule: Rule) -> tuple[str, str, str]:
    """A rule's fix, tier and severity letter, as the list shows them."""
    from mnemolint.model import SEVERITY_LETTER

    fix = {"safe": "fix", "unsafe": "fix*"}.get(rule.fix or "", "")
    return fix, "preview" if rule.preview else "", SEVERITY_LETTER[rule.severity]


def _table(rules: tuple[Rule, ...], out: TextIO) -> None:
    from rich.markup import escape
    from rich.table import Table

    from mnemolint.report.color import console

    style = {"E": "bold red", "W": "yellow", "I": "cyan"}
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("code", "name", "", "fix", "tier", "summary"):
        table.add_column(column, no_wrap=column != "summary")
    for rule in rules:
        fix, tier, letter = _columns(rule)
        table.add_row(
            f"[bold]{rule.code}[/]",
            escape(rule.name),
            f"[{style[letter]}]{letter}[/]",
            f"[green]{fix}[/]",
            f"[magenta]{tier}[/]",
            escape(rule.summary),
        )
    terminal = console(out)
    terminal.print(table)
    terminal.print(f"\n{escape(LEGEND)}")


def described(rule: Rule) -> dict:
    """A rule as JSON: its code, name, severity, fix, summary, page, and whether (and why) it is in preview."""
    from mnemolint.catalog import rule_url

    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity,
        "fix": rule.fix,
        "summary": rule.summary,
        "preview": rule.preview is not None,
        "preview_reason": rule.preview,
        "url": rule_url(rule.code),
    }
