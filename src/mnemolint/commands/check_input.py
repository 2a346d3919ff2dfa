"""What `check` reads, from the command line: the exclusion flags (`--extend-exclude`,
`--force-exclude`, `--respect-gitignore`), standard input standing for a file
(`--stdin-filename`), and the two answers that lint nothing (`--show-files`, `--show-settings`),
named and behaving as ruff's."""

from __future__ import annotations

import argparse
import os
import sys

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO

    from mnemolint.config import Settings
    from mnemolint.discover.tree import Tree

STDIN = "-"
DRAIN = 16  # how many times `max-file-bytes` of standard input are counted before it is left unread


def globs(value: str) -> list[str]:
    """Comma-separated globs; a comma inside braces (`{a,b}`) belongs to its glob."""
    from mnemolint.parse.globs import split_commas

    found = [part.strip() for part in split_commas(value) if part.strip()]
    if not found:
        raise argparse.ArgumentTypeError(f"no glob in {value!r}")
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--extend-exclude",
        type=globs,
        action="append",
        metavar="GLOBS",
        help="comma-separated globs (relative to the current directory) to exclude on top of the config's",
    )
    parser.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="leave out the paths given that `exclude` matches too (the pre-commit hook passes it)",
    )
    parser.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="leave out what a git work tree's .gitignore files ignore (default: on)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="lint standard input as the file at PATH (give `-` as the path); the rest is read from disk",
    )
    parser.add_argument("--show-files", action="store_true", help="print the files to be linted, and their kind")
    parser.add_argument("--show-settings", action="store_true", help="print the settings in force, as a config file")
    parser.add_argument(
        "--watch", "-w", action="store_true", help="lint again on every change (needs mnemolint[watch])"
    )


def apply(args: argparse.Namespace, settings: Settings) -> None:
    """The command line's exclusion on top of the configuration. A glob given here is relative to
    the current directory, as ruff reads it; the configuration's are relative to its root."""
    for group in args.extend_exclude or ():
        settings.extend_exclude = [*settings.extend_exclude, *(_from_cwd(glob, settings.root) for glob in group)]
    if args.force_exclude is not None:
        settings.force_exclude = args.force_exclude
    if args.respect_gitignore is not None:
        settings.respect_gitignore = args.respect_gitignore


def _from_cwd(glob: str, root: str) -> str:
    """`glob`, written relative to the current directory, as a glob relative to `root`; a glob of
    a name alone (no `/` but a trailing one) matches that name anywhere, wherever it is said from."""
    from wcmatch.glob import escape

    where = os.path.relpath(os.getcwd(), root).replace(os.sep, "/")
    if where == "." or "/" not in glob.rstrip("/"):
        return glob
    return f"{escape(where)}/{glob.removeprefix('./')}"


def nothing_linted(path: str, tree: Tree) -> str | None:
    """Why `path`, named on the command line, was not linted, when the exclusion says why."""
    from mnemolint.parse.textutil import visible

    if os.path.abspath(path) in tree.excluded:
        return f"{visible(path)} is excluded (`exclude`, with force-exclude)"
    return None


def write_files(tree: Tree, out: TextIO) -> None:
    """`--show-files`: each file that would be linted and its kind, one a line, sorted."""
    from mnemolint.report import display_path

    for document in sorted(tree.focused(), key=lambda d: d.path):
        kind = document.kind.name if document.kind is not None else "unreadable"
        out.write(f"{display_path(document.path)}\t{kind}\n")


def _toml(value: object) -> str:
    """`value` (a setting's: bool, number, string or list of them) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    text = str(value)
    escaped = "".join(
        "\\" + char
        if char in '"\\'
        else char
        if char.isprintable() and char != "\x7f"
        else (f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        for char in text
    )
    return f'"{escaped}"'


def write_settings(settings: Settings, path: str, out: TextIO) -> None:
    """`--show-settings`: the settings `path` is linted with, as a config file that gives them."""
    from mnemolint.redact import redact
    from mnemolint.report import printable

    lines = [
        f"# Resolved settings for: {printable(os.path.abspath(path))}",
        f"# Settings path: {printable(settings.source) if settings.source else 'none (the defaults)'}",
        f"# Globs are relative to: {printable(settings.root)}",
    ]
    top = {
        "select": settings.select,
        "extend-select": settings.extend_select,
        "ignore": settings.ignore,
        "fail-level": settings.fail_level,
        "preview": settings.preview,
        "exclude": settings.exclude,
        "extend-exclude": settings.extend_exclude,
        "force-exclude": settings.force_exclude,
        "respect-gitignore": settings.respect_gitignore,
        "memory-dirs": settings.memory_dirs,
        **({"cache-dir": settings.cache_dir} if settings.cache_dir else {}),
        **settings.options,
    }
    lines += [f"{key} = {_toml(value)}" for key, value in top.items()]
    for table, entries in (("per-file-ignores", settings.per_file_ignores), ("severity", settings.severity)):
        lines += ["", f"[{table}]", *(f"{_toml(key)} = {_toml(value)}" for key, value in entries.items())]
    out.write("".join(redact(line) + "\n" for line in lines))


def stdin_path(args: argparse.Namespace) -> str | None:
    """The file standard input stands for (`--stdin-filename`, with `-` as the path or no path),
    None when input is not read; a usage error where the flags contradict each other."""
    if args.stdin_filename is None:
        if STDIN in args.paths:
            raise ConfigError("`-` reads standard input as a file: name that file with --stdin-filename PATH")
        return None
    if os.path.isdir(args.stdin_filename):
        raise ConfigError(f"--stdin-filename names a file, not the directory {args.stdin_filename}")
    for other in args.paths:
        if other != STDIN:  # ruff's behaviour: standard input wins
            print(f"mnemolint: warning: ignoring {other}: standard input is linted instead", file=sys.stderr)
    for flag in ("fix", "diff", "watch"):
        if getattr(args, flag):
            raise ConfigError(f"--{flag} cannot be used with --stdin-filename: standard input is linted only")
    return args.stdin_filename


def refuse_unusable(args: argparse.Namespace) -> None:
    """Flags that cannot go together with the ones of this module: a usage error, as ruff's."""
    if args.show_files and args.show_settings:
        raise ConfigError("--show-files and --show-settings: ask for one at a time")
    if args.watch and (args.show_files or args.show_settings or args.diff):
        raise ConfigError("--watch lints again on every change: leave out --show-files, --show-settings and --diff")


def read_stdin(options: dict) -> tuple[bytes, int]:
    """Standard input's bytes, at most `max-file-bytes` + 1 of them, and its size: past the limit
    it stands for a file too large to read, as one on disk would be. The rest is counted, not kept
    (so the size said is the real one), up to `DRAIN` times the limit: never waited on past it
    (`yes |` never ends)."""
    limit = options["max-file-bytes"]
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return b"", 0
    data = stream.read(limit + 1) or b""
    if len(data) <= limit:
        return data, len(data)
    counted = len(data)
    while counted < DRAIN * limit and (chunk := stream.read(min(1 << 20, DRAIN * limit - counted))):
        counted += len(chunk)
    return data, counted
