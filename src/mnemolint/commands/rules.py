"""`mnemolint rules`: every rule on one line, with its severity, fix, tier and summary; or as JSON."""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.rules.base import Rule

NAME = "rules"
HELP = "list every rule (preview rules marked)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The list is the whole catalogue; JSON for tools (ruff's `rule --all --output-format json`)."""
    parser.add_argument("--output-format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from mnemolint.rules import RULES

    out = sys.stdout
    if args.output_format == "json":
        import json

        json.dump([described(rule) for rule in RULES], out, indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_CLEAN
    from mnemolint.model import SEVERITY_LETTER

    width = max(len(rule.name) for rule in RULES)
    for rule in RULES:
        fix = {"safe": "fix", "unsafe": "fix*"}.get(rule.fix or "", "")
        tier = "preview" if rule.preview else ""
        letter = SEVERITY_LETTER[rule.severity]
        out.write(f"{rule.code}  {rule.name:<{width}}  {letter}  {fix:<4}  {tier:<7}  {rule.summary}\n")
    out.write(
        "\nE error, W warning, I info; fix = safe fix, fix* = unsafe fix; preview = runs only with --preview "
        "(or `preview = true`). `mnemolint rule CODE` prints a page.\n"
    )
    return EXIT_CLEAN


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
