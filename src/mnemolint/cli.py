"""Command line: `mnemolint check|rules|rule`.

Exit codes: 0 clean, 1 findings at or above the fail level, 2 usage or configuration error (one
line on stderr, never a traceback). Heavy modules are imported inside the commands that need them.
"""

from __future__ import annotations

import argparse
import os
import sys

from mnemolint import __version__
from mnemolint.config import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import NoReturn, TextIO

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit 2, instead of argparse's usage block."""
        self.exit(EXIT_USAGE, f"mnemolint: error: {message} (see `{self.prog} --help`)\n")


class _Formatter(argparse.HelpFormatter):
    """argparse measures the terminal through `shutil` on every `add_argument`; `os` is enough."""

    def __init__(self, prog: str) -> None:
        try:
            width = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size(sys.stderr.fileno()).columns
        except (OSError, ValueError):
            width = 80
        super().__init__(prog, width=max(width - 2, 40))


def _codes(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    from mnemolint.reporters import FORMATS

    parser = _Parser(
        prog="mnemolint", description="Lint and fix AI-agent memory repositories.", formatter_class=_Formatter
    )
    parser.add_argument("--version", action="version", version=f"mnemolint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND", prog="mnemolint")

    check = commands.add_parser("check", help="lint memory files (default path: .)", formatter_class=_Formatter)
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to lint")
    check.add_argument("--select", type=_codes, help="comma-separated codes or prefixes to enable (replaces config)")
    check.add_argument("--extend-select", type=_codes, help="codes or prefixes to enable on top of the selection")
    check.add_argument("--ignore", type=_codes, help="codes or prefixes to disable")
    check.add_argument(
        "--output-format",
        choices=FORMATS,
        help="default: text, or github when GITHUB_ACTIONS=true",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead of findings")
    check.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    check.add_argument("--no-color", action="store_true", help="never colour the output")
    check.add_argument("--fail-level", choices=("info", "warning", "error"), help="lowest severity that exits 1")
    check.add_argument("--config", metavar="FILE", help="use this config file instead of the nearest one")

    commands.add_parser("rules", help="list every rule", formatter_class=_Formatter)
    rule = commands.add_parser("rule", help="print a rule's page", formatter_class=_Formatter)
    rule.add_argument("code", metavar="CODE")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "rules":
            return _rules(sys.stdout)
        if args.command == "rule":
            return _rule(args.code, sys.stdout)
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    except ConfigError as error:
        print(f"mnemolint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): nothing left to say
        return EXIT_CLEAN


def entry() -> None:
    """The console script: exit without tearing down every object of a large run one by one."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away, or main closed the stream
            pass
    os._exit(code)


def _output_format(args: argparse.Namespace) -> str:
    """The asked-for format; in a GitHub Actions job, annotations unless another was asked for."""
    if args.output_format:
        return args.output_format
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _use_color(args: argparse.Namespace, out: TextIO) -> bool:
    if args.no_color or os.environ.get("NO_COLOR") or args.output_format != "text":
        return False
    return bool(getattr(out, "isatty", None) and out.isatty())


def _check(args: argparse.Namespace) -> int:
    from mnemolint.config import load_settings
    from mnemolint.engine import lint
    from mnemolint.model import severity_rank
    from mnemolint.reporters import ReportOptions, writer

    try:
        os.getcwd()
    except FileNotFoundError:
        raise ConfigError("the current directory no longer exists") from None
    args.output_format = _output_format(args)
    paths = args.paths or ["."]
    settings = load_settings(args.config, paths[0])
    if args.select is not None:
        settings.select = args.select
    if args.extend_select:
        settings.extend_select = settings.extend_select + args.extend_select
    if args.ignore:
        settings.ignore = settings.ignore + args.ignore
    if args.fail_level:
        settings.fail_level = args.fail_level
    result = lint(paths, settings)
    diagnostics = result.diagnostics
    out = sys.stdout
    files = sum(1 for document in result.tree.documents if result.tree.in_focus(document.path))
    if args.statistics:
        from mnemolint.reporters.statistics import write_statistics

        write_statistics(diagnostics, out, args.output_format == "json")
    else:
        options = ReportOptions(color=_use_color(args, out), quiet=args.quiet, files=files)
        writer(args.output_format)(diagnostics, out, options)
    out.flush()
    if args.exit_zero:
        return EXIT_CLEAN
    threshold = severity_rank(settings.fail_level)
    failing = any(severity_rank(diagnostic.severity) >= threshold for diagnostic in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _rules(out: TextIO) -> int:
    from mnemolint.model import SEVERITY_LETTER
    from mnemolint.rules import RULES

    width = max(len(rule.name) for rule in RULES)
    for rule in RULES:
        fix = {"safe": "fix", "unsafe": "fix*"}.get(rule.fix or "", "")
        out.write(f"{rule.code}  {rule.name:<{width}}  {SEVERITY_LETTER[rule.severity]}  {fix:<4}  {rule.summary}\n")
    out.write("\nE error, W warning, I info; fix = safe fix, fix* = unsafe fix. `mnemolint rule CODE` prints a page.\n")
    return EXIT_CLEAN


def _rule(code: str, out: TextIO) -> int:
    from mnemolint.catalog import page
    from mnemolint.rules import BY_CODE

    code = code.upper()
    if code not in BY_CODE:
        raise ConfigError(f"unknown rule `{code}` (see `mnemolint rules`)")
    text = page(code)
    if text is None:
        raise ConfigError(f"no page found for {code}: the rules catalogue is missing from this installation")
    out.write(text if text.endswith("\n") else text + "\n")
    return EXIT_CLEAN
