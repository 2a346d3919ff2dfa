"""`mnemolint check [PATH…]`: lint, or with --fix / --diff fix, and report in the asked-for format."""

from __future__ import annotations

import os
import sys

from mnemolint.commands import EXIT_CLEAN, EXIT_FINDINGS, check_input
from mnemolint.commands.common import (
    add_clock_argument,
    add_codex_argument,
    add_config_argument,
    add_selection_arguments,
    add_user_memory_argument,
    add_user_rules_argument,
)
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    from typing import TextIO

    from mnemolint.config import Settings
    from mnemolint.engine import Result
    from mnemolint.model import Diagnostic

NAME = "check"
HELP = "lint memory files (default path: .)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from mnemolint.report import FORMATS

    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to lint")
    add_selection_arguments(parser)
    parser.add_argument("--output-format", choices=FORMATS, help="default: text, or github when GITHUB_ACTIONS=true")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("--statistics", action="store_true", help="print a count per rule instead of findings")
    parser.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    add_output_arguments(parser)
    parser.add_argument("--no-cache", action="store_true", help="read every file; neither use nor write the cache")
    add_config_argument(parser)
    add_clock_argument(parser)
    add_user_rules_argument(parser)
    add_codex_argument(parser)
    add_user_memory_argument(parser)
    parser.add_argument(
        "--auto-memory",
        action="store_true",
        default=None,
        help="also lint Claude Code's auto memory of each project given (~/.claude/projects/<project>/memory)",
    )
    parser.add_argument("--fix", action="store_true", help="apply safe fixes, then report what remains")
    parser.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too")
    parser.add_argument("--diff", action="store_true", help="print what --fix would change as a diff; write nothing")
    parser.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="with --fix, exit 1 when anything was fixed"
    )
    baseline = parser.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", metavar="FILE", help="report only the findings not recorded in this baseline")
    baseline.add_argument(
        "--write-baseline", metavar="FILE", help="record the findings there are in a baseline file, and exit 0"
    )
    parser.add_argument(
        "--add-noqa",
        action="store_true",
        help="add a `mnemolint-disable-line` comment for each finding (`disable-file` where a line cannot take one)",
    )
    check_input.add_arguments(parser)


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """--color, --output-file, --show-fixes and --verbose: how the report is shown and where it goes."""
    from mnemolint.report.color import add_color_argument

    add_color_argument(parser)
    parser.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE instead of stdout")
    parser.add_argument(
        "--show-fixes",
        action="store_true",
        help="mark the findings --fix would fix with [*] and count them; with --fix, list what was fixed",
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="say on stderr which configuration, rules and cache the run used"
    )


def run(args: argparse.Namespace) -> int:
    from mnemolint.commands.common import working_directory

    working_directory()
    _only_its_format(args)
    check_input.refuse_unusable(args)
    args.output_format = _output_format(args)
    if args.watch:
        from mnemolint.commands.check_watch import watch

        return watch(args, _check)
    return _check(args)


def _check(args: argparse.Namespace) -> int:
    """One run of `check`: lint (or fix) what the command line names, report, and say the exit code."""
    from mnemolint.commands.common import settings_from_args

    stdin = check_input.stdin_path(args)
    paths = [stdin] if stdin else args.paths or ["."]
    settings = settings_from_args(args, paths[0])
    check_input.apply(args, settings)
    if args.show_settings:
        check_input.write_settings(settings, paths[0], sys.stdout)
        return EXIT_CLEAN
    _warn_unpreviewed(settings)
    if settings.options["user-memory"]:  # the flag, or the `user-memory` setting
        paths = [*paths, *_user_memory()]
    if args.auto_memory or settings.options["auto-memory"]:  # the flag, or the `auto-memory` setting
        paths = [*paths, *_auto_memory(paths, settings.options)]
    given = {os.path.abspath(stdin): check_input.read_stdin(settings.options)} if stdin else None
    if args.show_files:
        from mnemolint.discover.walk import discover

        check_input.write_files(discover(paths, settings, given), sys.stdout)
        return EXIT_CLEAN
    out = _output(args)
    try:
        return _report(args, paths, settings, given, out)
    finally:
        if out is not sys.stdout:
            out.close()


def _report(
    args: argparse.Namespace,
    paths: list[str],
    settings: Settings,
    given: dict[str, tuple[bytes, int]] | None,
    out: TextIO,
) -> int:
    import time

    from mnemolint.model import severity_rank
    from mnemolint.report import ReportOptions, writer

    started = time.perf_counter()
    fixed = None
    if args.add_noqa:
        return _add_noqa(args, paths, settings)
    if args.fix or args.diff:  # the fixer, writer and generator are imported only here
        from mnemolint.fix.fixer import fix, unified_diff

        outcome = fix(paths, settings, unsafe=args.unsafe_fixes, write=not args.diff)
        result, diagnostics, fixed = outcome.result, outcome.diagnostics, len(outcome.fixed)
    else:
        from mnemolint.engine import lint

        result = lint(paths, settings, cache=not args.no_cache and given is None, given=given, release=True)
        diagnostics = result.diagnostics
    files = _count_linted(result, diagnostics, paths, args.quiet)
    if args.verbose:
        _say_how_it_ran(settings, files, time.perf_counter() - started, cached=not (args.no_cache or fixed is not None))
    keys = None
    if args.write_baseline:
        return _write_baseline(args.write_baseline, diagnostics)
    if args.baseline:
        diagnostics, keys = _compare_baseline(args, result, diagnostics)
    if args.diff:
        out.write(unified_diff(outcome.changes))
        print(f"{fixed:,} would be fixed, {len(diagnostics):,} would remain.", file=sys.stderr)
        return EXIT_FINDINGS if outcome.changes and not args.exit_zero else EXIT_CLEAN
    if args.statistics:
        from mnemolint.report.statistics import write_statistics

        write_statistics(diagnostics, out, args.output_format == "json", files, args.quiet)
    else:
        from mnemolint.report.color import use_color

        options = ReportOptions(
            color=args.output_format == "text" and use_color(args.color, out),
            quiet=args.quiet,
            files=files,
            successful=not result.errors,
            settings=settings.options,
            fixes=_marked_fixes(args),
        )
        options.fingerprints = keys
        writer(args.output_format)(diagnostics, out, options)
    if fixed is not None and not args.quiet:
        summary = out if args.output_format == "text" and not args.statistics else sys.stderr
        if args.show_fixes:
            from mnemolint.report.text_format import fixed_summary

            summary.write(fixed_summary(outcome.fixed))
        print(f"{fixed:,} fixed, {len(diagnostics):,} remaining.", file=summary)
    out.flush()
    if args.exit_zero:
        return EXIT_CLEAN
    if fixed and args.exit_non_zero_on_fix:
        return EXIT_FINDINGS
    threshold = severity_rank(settings.fail_level)
    failing = any(severity_rank(diagnostic.severity) >= threshold for diagnostic in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _write_baseline(path: str, diagnostics: list[Diagnostic]) -> int:
    from mnemolint import baseline
    from mnemolint.parse.textutil import plural

    print(f"Recorded {plural(baseline.write(path, diagnostics), 'finding')} in the baseline {path}.", file=sys.stderr)
    return EXIT_CLEAN


def _compare_baseline(
    args: argparse.Namespace, result: Result, diagnostics: list[Diagnostic]
) -> tuple[list[Diagnostic], dict[int, str]]:
    """The findings not in `--baseline`, and every finding's key; what it hid is said on stderr."""
    from mnemolint import baseline
    from mnemolint.parse.textutil import plural

    linted = {document.path for document in result.tree.focused()}
    compared = baseline.compare(args.baseline, diagnostics, linted)
    if not args.quiet and (compared.hidden or compared.gone):
        gone = f"; {plural(compared.gone, 'recorded finding')} no longer found (--write-baseline records what is left)"
        print(
            f"mnemolint: {plural(compared.hidden, 'finding')} in the baseline {args.baseline} not shown"
            + (gone if compared.gone else ""),
            file=sys.stderr,
        )
    return compared.new, compared.keys


def _add_noqa(args: argparse.Namespace, paths: list[str], settings: Settings) -> int:
    """`--add-noqa` (with `--diff`: what it would add): a comment for each finding, as ruff's; exit 0."""
    from mnemolint.fix import add_suppressions
    from mnemolint.fix.fixer import fix, unified_diff
    from mnemolint.parse.textutil import plural

    if args.fix or args.baseline or args.write_baseline:
        raise ConfigError("--add-noqa silences the findings there are: it takes neither --fix nor a baseline")
    write = not args.diff
    outcome = fix(paths, settings, write=write, plan=add_suppressions.plan)
    if not write:
        sys.stdout.write(unified_diff(outcome.changes))
    files = plural(len(outcome.changes), "file")
    said = "Would silence" if not write else "Silenced"
    print(f"{said} {plural(len(outcome.fixed), 'finding')} with suppression comments in {files}.", file=sys.stderr)
    if outcome.diagnostics:
        print(
            f"{plural(len(outcome.diagnostics), 'finding')} left: in a file that takes no comment or is not "
            "readable text, or SUP001's, which `--fix` removes. `mnemolint check` lists them; `per-file-ignores` "
            "or `--baseline` can hold them.",
            file=sys.stderr,
        )
    return EXIT_CLEAN


def _warn_unpreviewed(settings: Settings) -> None:
    """A preview rule selected by its code without --preview runs not at all: say so, as ruff does."""
    from mnemolint.engine import preview_warnings

    for warning in preview_warnings(settings):
        print(f"mnemolint: warning: {warning}", file=sys.stderr)


def _user_memory() -> list[str]:
    """The user-level `~/.ai-memory/user_profile.md` (the `.ai-memory` skill's user level: it follows the user, not the
    project), when it exists; its folder is walked like any `.ai-memory/`."""
    from mnemolint.kinds.ai_memory import user_profile_path

    path = user_profile_path()
    return [path] if os.path.isfile(path) else []


def _auto_memory(paths: list[str], options: dict) -> list[str]:
    """Claude Code's auto-memory dir of each project among `paths` that uses Claude Code, when it
    exists and auto memory is on; a project whose auto memory is off is said so, once, on stderr."""
    from mnemolint.agents.claude_code import auto_memory_dir, auto_memory_off
    from mnemolint.project import uses_claude_code

    found = []
    for path in dict.fromkeys(os.path.abspath(path) for path in paths if os.path.isdir(path)):
        if not uses_claude_code(path, list(options.get("agents") or [])):
            continue
        off = auto_memory_off(path)
        memory = auto_memory_dir(path)
        if off:
            print(f"mnemolint: Claude Code's auto memory is off for {path} ({off}): not linted", file=sys.stderr)
        elif os.path.isdir(memory) and not os.path.islink(memory) and memory not in found:
            found.append(memory)
    return found


def _only_its_format(args: argparse.Namespace) -> None:
    """A machine format's stdout holds nothing but that format: --diff prints a diff, which none of
    them has, and --statistics has a JSON form only (ruff refuses the same). A github format chosen
    by GITHUB_ACTIONS, not asked for, leaves both as they are."""
    asked = args.output_format
    if args.diff and asked not in (None, "text"):
        raise ConfigError(f"--diff prints a unified diff, not {asked}: leave out --output-format, or use --fix")
    if args.statistics and asked not in (None, "text", "json"):
        raise ConfigError(f"--statistics has no {asked} form: use --output-format text or json")


def _output_format(args: argparse.Namespace) -> str:
    """The asked-for format; in a GitHub Actions job, annotations unless another was asked for."""
    if args.output_format:
        return args.output_format
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _output(args: argparse.Namespace) -> TextIO:
    """Standard output, or the `--output-file` (opened before the run: a file that cannot be written
    is a usage error before any work, not after it)."""
    if args.output_file is None:
        return sys.stdout
    from mnemolint.report.output_file import open_output

    return open_output(args.output_file)  # type: ignore[return-value]


def _marked_fixes(args: argparse.Namespace) -> str | None:
    """Which fixes `--show-fixes` marks: those a `--fix` run would apply. After `--fix` none are
    marked (what it could fix is fixed: ruff's rule), nor without `--show-fixes`."""
    if not args.show_fixes or args.fix:
        return None
    from mnemolint.model import SAFE, UNSAFE

    return UNSAFE if args.unsafe_fixes else SAFE


def _say_how_it_ran(settings: Settings, files: int, seconds: float, cached: bool) -> None:
    """`--verbose`: the configuration, the rules and the cache of the run, and its time, on stderr."""
    from mnemolint.engine import active
    from mnemolint.parse.textutil import plural
    from mnemolint.report import printable  # paths redacted and escaped, as every report spells them
    from mnemolint.rules import CODES

    source = (
        printable(settings.source) if settings.source else f"none found (the defaults; root {printable(settings.root)})"
    )
    rules = active(settings)
    preview = "with" if settings.preview else "without"
    if cached:
        from mnemolint.cache_dir import directory

        cache = printable(directory(settings.source, settings.cache_dir, settings.root))
    else:
        cache = "not used"
    for line in (
        f"configuration: {source}",
        f"rules: {len(rules):,} of {len(CODES):,} active ({preview} preview rules), fail level {settings.fail_level}",
        f"cache: {cache}",
        f"checked {plural(files, 'memory file')} in {seconds * 1000:,.0f} ms",
    ):
        print(f"mnemolint: {line}", file=sys.stderr)


def _count_linted(result: Result, diagnostics: list[Diagnostic], paths: list[str], quiet: bool) -> int:
    """The memory files linted. With none and nothing found, a warning says why, as ruff warns
    "No Python files found"; the exit code stays 0, since pre-commit passes every changed file."""
    files = len(result.tree.focused())
    if not files and not diagnostics and not quiet:
        from mnemolint.kinds.registry import CONTAINERS
        from mnemolint.parse.textutil import plural, visible

        given = list(dict.fromkeys(paths))
        excluded = [check_input.nothing_linted(path, result.tree) for path in given]
        reasons = [
            why
            or (
                f"no memory file in {visible(path)}"
                if os.path.isdir(path) and not os.path.islink(path)
                else f"{visible(path)} is not a memory file"
            )
            for path, why in zip(given[:3], excluded[:3], strict=True)
        ]
        more = f" (and {plural(len(given) - 3, 'more path')})" if len(given) > 3 else ""
        # what memory is, unless every path was excluded: then that is all there is to say
        what = "" if all(excluded) else " " + " ".join(container.about for container in CONTAINERS)
        print(f"mnemolint: warning: nothing was linted: {'; '.join(reasons)}{more}.{what}", file=sys.stderr)
    return files
