"""`mnemolint index DIR [--write [--force] | --check]`: the index generated from a memory dir's
topic files, printed, written where there is none, or compared with what --fix makes of MEMORY.md.

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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="DIR", help="the memory dir")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write it as DIR/MEMORY.md when there is none")
    mode.add_argument("--check", action="store_true", help="exit 1 when MEMORY.md differs from what --fix makes of it")
    parser.add_argument("--force", action="store_true", help="with --write, replace an existing MEMORY.md")
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Print, write (`--write`) or check (`--check`) the index generated for one memory dir."""
    from mnemolint.commands.common import memory_dir_settings
    from mnemolint.kinds.memory import INDEX_NAME

    if args.force and not args.write:
        raise ConfigError("--force only goes with --write")
    directory, settings = memory_dir_settings(args, args.directory)
    index_path = os.path.join(directory, INDEX_NAME)
    if args.check:
        from mnemolint.fix.fixer import fix, unified_diff

        change = fix([directory], settings, write=False).changes.get(index_path)
        if change is not None:
            sys.stdout.write(unified_diff({index_path: change}))
        return EXIT_FINDINGS if change is not None else EXIT_CLEAN
    return _generate_index(directory, settings, args.write, args.force)


def _generate_index(directory: str, settings: Settings, write: bool, force: bool) -> int:
    from mnemolint.commands.common import find_memory_dir
    from mnemolint.fix import generate, writer
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


def report(index: Index, memdir: MemoryDir, options: dict) -> list[Diagnostic]:
    """What `mnemolint index` tells besides the index: each topic skipped (under MEM207, which
    says why) and, in one finding, the topics left out for want of room (under MEM105)."""
    from mnemolint.fix.generate import describe_budget
    from mnemolint.kinds.memory import SKIPPED
    from mnemolint.parse.textutil import plural

    found = [_finding("MEM207", entry.topic.path, SKIPPED.format(problem=entry.problem)) for entry in index.skipped]
    if index.left_out:
        names = ", ".join(f"`{topic.rel}`" for topic in index.left_out)
        message = (
            f"Left out of the generated index for want of room in "
            f"{describe_budget(options['index-target-lines'], options['index-target-chars'])}: "
            f"{plural(len(index.left_out), 'topic')}, {names}. Merge or drop topics, or shorten their descriptions."
        )
        found.append(_finding("MEM105", memdir.index_path, message))
    return found


def _finding(code: str, path: str, message: str) -> Diagnostic:
    from mnemolint.model import Diagnostic, Hit
    from mnemolint.rules import BY_CODE

    rule = BY_CODE[code]
    return Diagnostic(code, rule.name, rule.severity, path, Hit(message))
