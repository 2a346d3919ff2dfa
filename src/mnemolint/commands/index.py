"""`mnemolint index DIR [--write [--force] | --check]`: the index generated from a memory dir's
topic files, printed, written where there is none (or, with `--force`, over one, kept beside it
as `MEMORY.md.bak`), or compared with MEMORY.md as `ruff format --check` compares.

What generation could not do is told on stderr as findings (`report`): the rules' own codes,
so this module, not the generator, looks them up.
"""

from __future__ import annotations

import os
import sys

from mnemolint.commands import EXIT_CLEAN, EXIT_FINDINGS
from mnemolint.commands.common import add_config_argument
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.config import Settings
    from mnemolint.fix.generate import Index
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.model import Diagnostic

NAME = "index"
HELP = "print the index generated from a memory dir's topic files"
BACKUPS = 100  # MEMORY.md.bak, MEMORY.md.bak.1, …: never one overwritten, and not without end


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "directory",
        metavar="DIR",
        help="the memory dir: one holding MEMORY.md, an agent's memory location, or a `memory-dirs` entry",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--write", action="store_true", help="write it as DIR/MEMORY.md when there is none (or it is empty)"
    )
    mode.add_argument(
        "--check",
        action="store_true",
        help="exit 1, printing the diff, when `--write --force` would change MEMORY.md (as `ruff format --check` "
        "does); write nothing",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="with --write, replace an existing MEMORY.md: the diff of what it drops is printed, and the replaced "
        "file is kept beside it as MEMORY.md.bak (.bak.1, … when that exists)",
    )
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Print, write (`--write`) or check (`--check`) the index generated for one memory dir."""
    from mnemolint.commands.common import memory_dir_settings

    if args.force and not args.write:
        raise ConfigError("--force only goes with --write")
    directory, settings = memory_dir_settings(args, args.directory)
    return _generate_index(directory, settings, args.write, args.force, args.check)


def _generate_index(directory: str, settings: Settings, write: bool, force: bool, check: bool) -> int:
    from mnemolint.fix import generate
    from mnemolint.memory_dirs import find_memory_dir
    from mnemolint.parse.textutil import dominant_eol
    from mnemolint.report import ReportOptions, display_path
    from mnemolint.report import writer as reporter

    memdir = find_memory_dir(directory, settings)
    existing = memdir.index
    readable = existing is not None and existing.text is not None and not existing.decode_error
    eol = dominant_eol(existing.lines) if existing is not None and readable else "\n"
    index = generate.generate(memdir, settings.options, eol)
    reporter("text")(report(index, memdir, settings.options), sys.stderr, ReportOptions(quiet=True))
    text = index.text(eol)
    name = display_path(memdir.index_path)
    if not write and not check:
        sys.stdout.write(text)
        return EXIT_CLEAN
    if not text:
        if write:
            print(f"mnemolint: no topic file to index: {name} not written", file=sys.stderr)
        return EXIT_CLEAN
    link = os.path.islink(memdir.index_path)
    if (link or existing is not None) and not readable and (check or not link):  # the writer refuses a link
        why = "a symlink" if link else "not readable UTF-8 text"
        print(f"mnemolint: {name} is {why}, so generation never replaces it", file=sys.stderr)
        return EXIT_FINDINGS
    before = existing.text if readable and existing is not None else None
    if check:
        return _check(memdir.index_path, before, text)
    if before is not None and before.strip() and not force:  # an empty one holds nothing to lose
        message = f"{name} exists, and generation never replaces an index (use --force to replace it)"
        return _not_written(message)
    return _write(memdir.index_path, before, text, directory)


def _check(path: str, before: str | None, text: str) -> int:
    """`--check`: the diff of what `--write --force` would do, exit 1 when there is one."""
    if before == text:
        return EXIT_CLEAN
    from mnemolint.fix.fixer import unified_diff

    sys.stdout.write(unified_diff({path: (before, text)}))
    return EXIT_FINDINGS


def _write(path: str, before: str | None, text: str, directory: str) -> int:
    """Write the index; one it replaces (`--force`) is first kept beside it, and what it drops is
    printed as a diff, so no line a person wrote is lost."""
    from mnemolint.fix import writer
    from mnemolint.report import display_path

    if before == text:
        return EXIT_CLEAN  # nothing to replace: no copy, no diff
    name = display_path(path)
    kept = None
    if before is not None and before.strip():
        from mnemolint.fix.fixer import unified_diff

        sys.stdout.write(unified_diff({path: (before, text)}))
        try:
            kept = _backup(path, before, directory)
        except writer.NotWritten as error:
            return _not_written(f"{name} not replaced, as its copy could not be kept: {error}")
    try:
        writer.publish(path, text, None if before is None else before.encode("utf-8"), directory)
    except writer.NotWritten as error:
        return _not_written(f"{name} not written: {error}")
    if kept is not None:
        print(f"mnemolint: {name} replaced; the index it replaced is kept as {display_path(kept)}", file=sys.stderr)
    return EXIT_CLEAN


def _backup(path: str, text: str, directory: str) -> str:
    """A new file beside `path` holding `text`: `<name>.bak`, else the first free `<name>.bak.N`."""
    from mnemolint.fix import writer

    for number in range(BACKUPS):
        kept = f"{path}.bak" + (f".{number}" if number else "")
        if os.path.lexists(kept):
            continue
        try:
            writer.publish(kept, text, None, directory)
        except writer.Changed:  # made meanwhile: never overwritten
            continue
        return kept
    raise writer.NotWritten(f"{BACKUPS} copies of it are kept already; remove some")


def _not_written(message: str) -> int:
    from mnemolint.parse.textutil import visible

    print(f"mnemolint: {visible(message)}", file=sys.stderr)
    return EXIT_FINDINGS


def report(index: Index, memdir: MemoryDir, options: dict) -> list[Diagnostic]:
    """What `mnemolint index` tells besides the index: each topic skipped (under MEM207, which
    says why) and, in one finding, the topics left out for want of room (under MEM105)."""
    from mnemolint.fix.generate import describe_budget
    from mnemolint.kinds.memory import SKIPPED
    from mnemolint.parse.textutil import plural
    from mnemolint.rules.index import _first_few  # the first three and a count, as MEM101 names them

    found = [_finding("MEM207", entry.topic.path, SKIPPED.format(problem=entry.problem)) for entry in index.skipped]
    if index.left_out:
        names = [topic.rel for topic in index.left_out]
        message = (
            f"Left out of the generated index for want of room in "
            f"{describe_budget(options['index-target-lines'], options['index-target-chars'])}: "
            f"{plural(len(names), 'topic')}, {_first_few(names)}. Merge or drop topics, or shorten their descriptions."
        )
        found.append(_finding("MEM105", memdir.index_path, message, tuple(names)))
    return found


def _finding(code: str, path: str, message: str, related: tuple[str, ...] = ()) -> Diagnostic:
    from mnemolint.model import Diagnostic, Hit
    from mnemolint.rules import BY_CODE

    rule = BY_CODE[code]
    return Diagnostic(code, rule.name, rule.severity, path, Hit(message, related=related))
