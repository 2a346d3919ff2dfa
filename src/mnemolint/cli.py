"""Command line: `mnemolint check|index|rules|rule`.

Exit codes: 0 clean, 1 findings at or above the fail level, 2 usage or configuration error (one
line on stderr, never a traceback). Heavy modules are imported inside the commands that need them.
"""

from __future__ import annotations

import argparse
import os
import sys

from mnemolint import __version__
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import NoReturn, TextIO

    from mnemolint.config import Settings
    from mnemolint.engine import Result
    from mnemolint.model import Diagnostic

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
    """Comma-separated selectors; none at all (`--select ,`) would silently change the selection."""
    codes = [part.strip() for part in value.split(",") if part.strip()]
    if not codes:
        raise argparse.ArgumentTypeError(f"no rule selector in {value!r} (a code such as MEM101, a prefix, or ALL)")
    return codes


def build_parser() -> argparse.ArgumentParser:
    from mnemolint.report import FORMATS

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
    check.add_argument("--fix", action="store_true", help="apply safe fixes, then report what remains")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too")
    check.add_argument("--diff", action="store_true", help="print what --fix would change as a diff; write nothing")
    check.add_argument("--exit-non-zero-on-fix", action="store_true", help="with --fix, exit 1 when anything was fixed")

    index = commands.add_parser(
        "index", help="print the index generated from a memory dir's topic files", formatter_class=_Formatter
    )
    index.add_argument("directory", metavar="DIR", help="the memory dir")
    mode = index.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write it as DIR/MEMORY.md when there is none")
    mode.add_argument("--check", action="store_true", help="exit 1 when MEMORY.md differs from what --fix makes of it")
    index.add_argument("--force", action="store_true", help="with --write, replace an existing MEMORY.md")
    index.add_argument("--config", metavar="FILE", help="use this config file instead of the nearest one")

    commands.add_parser("rules", help="list every rule", formatter_class=_Formatter)
    rule = commands.add_parser("rule", help="print a rule's page", formatter_class=_Formatter)
    rule.add_argument("code", metavar="CODE")
    return parser


class OutputError(Exception):
    """Standard output cannot be written (disk full, descriptor closed): one line, exit 2."""


class _Stdout:
    """`sys.stdout` while a command runs, so that a failed write is told apart from any other
    OSError. Python leaves `sys.stdout` None when descriptor 1 was closed at start-up."""

    __slots__ = ("stream",)

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        if self.stream is not None:  # nothing was written to a closed one, or `write` said so
            self._call("flush")

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def __getattr__(self, name: str) -> object:  # encoding, fileno, …: the stream's own
        return getattr(self.stream, name)

    def _call(self, method: str, *args: str) -> int:
        if self.stream is None:
            raise OutputError("standard output is closed")
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:  # the reader went away: quiet, see `main`
            raise
        except OSError as error:
            raise OutputError(error.strerror or str(error)) from None


def main(argv: list[str] | None = None) -> int:
    if sys.stderr is None:  # descriptor 2 closed: what would be said there is dropped
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the rest of the process
    _tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    stdout, sys.stdout = sys.stdout, _Stdout(sys.stdout)  # type: ignore[assignment]
    try:
        return _run(parser, args)
    except OutputError as error:
        print(f"mnemolint: error: cannot write the output: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): nothing left to say
        return EXIT_CLEAN
    finally:
        sys.stdout = stdout


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "index":
            return _index(args)
        if args.command == "rules":
            return _rules(sys.stdout)
        if args.command == "rule":
            return _rule(args.code, sys.stdout)
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    except ConfigError as error:
        from mnemolint.parse.textutil import visible

        print(f"mnemolint: error: {visible(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _tolerant_streams() -> None:
    """A character the output's encoding lacks (PYTHONIOENCODING=ascii) prints as its escape, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def entry() -> None:
    """The console script: exit without tearing down every object of a large run one by one."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # the reader went away, main closed it, or it was closed
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
    from mnemolint.model import severity_rank
    from mnemolint.report import ReportOptions, writer

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
    out = sys.stdout
    fixed = None
    if args.fix or args.diff:  # the fixer, writer and generator are imported only here
        from mnemolint.fix.fixer import fix, unified_diff

        outcome = fix(paths, settings, unsafe=args.unsafe_fixes, write=not args.diff)
        result, diagnostics, fixed = outcome.result, outcome.diagnostics, len(outcome.fixed)
        files = _count_linted(result, diagnostics, paths, args.quiet)
        if args.diff:
            out.write(unified_diff(outcome.changes))
            print(f"{fixed:,} would be fixed, {len(diagnostics):,} would remain.", file=sys.stderr)
            return EXIT_FINDINGS if outcome.changes and not args.exit_zero else EXIT_CLEAN
    else:
        from mnemolint.engine import lint

        result = lint(paths, settings)
        diagnostics = result.diagnostics
        files = _count_linted(result, diagnostics, paths, args.quiet)
    if args.statistics:
        from mnemolint.report.statistics import write_statistics

        write_statistics(diagnostics, out, args.output_format == "json")
    else:
        options = ReportOptions(
            color=_use_color(args, out), quiet=args.quiet, files=files, successful=not result.errors
        )
        writer(args.output_format)(diagnostics, out, options)
    if fixed is not None and not args.quiet:
        summary = out if args.output_format == "text" and not args.statistics else sys.stderr
        print(f"{fixed:,} fixed, {len(diagnostics):,} remaining.", file=summary)
    out.flush()
    if args.exit_zero:
        return EXIT_CLEAN
    if fixed and args.exit_non_zero_on_fix:
        return EXIT_FINDINGS
    threshold = severity_rank(settings.fail_level)
    failing = any(severity_rank(diagnostic.severity) >= threshold for diagnostic in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _count_linted(result: Result, diagnostics: list[Diagnostic], paths: list[str], quiet: bool) -> int:
    """The memory files linted. With none and nothing found, a warning says why, as ruff warns
    "No Python files found"; the exit code stays 0, since pre-commit passes every changed file."""
    files = sum(1 for document in result.tree.documents if result.tree.in_focus(document.path))
    if not files and not diagnostics and not quiet:
        from mnemolint.parse.textutil import plural

        given = list(dict.fromkeys(paths))
        reasons = [
            f"no memory file in {path}"
            if os.path.isdir(path) and not os.path.islink(path)
            else f"{path} is not a memory file"
            for path in given[:3]
        ]
        more = f" (and {plural(len(given) - 3, 'more path')})" if len(given) > 3 else ""
        print(
            f"mnemolint: warning: nothing was linted: {'; '.join(reasons)}{more}. A memory dir holds MEMORY.md, is "
            "a `memory/` directory under `.claude/projects/*/` or `.wave/projects/*/`, or matches `memory-dirs`; "
            "its topics are its other .md files except README.md, AGENTS.md and CLAUDE.md.",
            file=sys.stderr,
        )
    return files


def _index(args: argparse.Namespace) -> int:
    """Print, write (`--write`) or check (`--check`) the index generated for one memory dir."""
    from wcmatch import glob

    from mnemolint.config import load_settings
    from mnemolint.kinds.memory import INDEX_NAME

    if args.force and not args.write:
        raise ConfigError("--force only goes with --write")
    directory = os.path.abspath(args.directory)
    if not os.path.isdir(directory):
        raise ConfigError(f"not a directory: {args.directory}")
    if os.path.islink(directory):  # as in `check`: a link is never read or written through
        raise ConfigError(f"{args.directory} is a symlink: give the memory dir it points to")
    settings = load_settings(args.config, directory)
    # DIR is a memory dir because the user says so, even without MEMORY.md or a `memory-dirs` entry.
    rel = os.path.relpath(directory, settings.root).replace(os.sep, "/")
    settings.memory_dirs = [*settings.memory_dirs, glob.escape(rel)]
    index_path = os.path.join(directory, INDEX_NAME)
    if args.check:
        from mnemolint.fix.fixer import fix, unified_diff

        change = fix([directory], settings, write=False).changes.get(index_path)
        if change is not None:
            sys.stdout.write(unified_diff({index_path: change}))
        return EXIT_FINDINGS if change is not None else EXIT_CLEAN
    return _generate_index(directory, settings, args.write, args.force)


def _generate_index(directory: str, settings: Settings, write: bool, force: bool) -> int:
    from mnemolint.fix import generate, writer
    from mnemolint.discover.walk import discover
    from mnemolint.report import ReportOptions, display_path
    from mnemolint.report import writer as reporter
    from mnemolint.parse.textutil import dominant_eol

    memdir = next(found for found in discover([directory], settings).containers if found.path == directory)
    existing = memdir.index
    readable = existing is not None and existing.text is not None and not existing.decode_error
    eol = dominant_eol(existing.lines) if existing is not None and readable else "\n"
    index = generate.generate(memdir, settings.options, eol)
    reporter("text")(generate.report(index, memdir, settings.options), sys.stderr, ReportOptions(quiet=True))
    text = index.text(eol)
    name = display_path(memdir.index_path)
    if not write:
        sys.stdout.write(text)
        return EXIT_CLEAN
    if not text:
        print(f"mnemolint: no topic file to index: {name} not written", file=sys.stderr)
        return EXIT_CLEAN
    if os.path.isfile(memdir.index_path) and not os.path.islink(memdir.index_path) and not (force and readable):
        why = "it is not readable UTF-8 text" if force else "use --force to replace it"
        print(f"mnemolint: {name} exists, and generation never replaces an index ({why})", file=sys.stderr)
        return EXIT_FINDINGS
    expected = existing.text.encode("utf-8") if existing is not None and existing.text is not None else None
    try:
        writer.publish(memdir.index_path, text, expected, directory)
    except writer.NotWritten as error:
        from mnemolint.parse.textutil import visible

        print(f"mnemolint: {name} not written: {visible(str(error))}", file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_CLEAN


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
