"""Command line: `mnemolint COMMAND`, one module per command (`mnemolint.commands`).

This module builds the parser from the command registry and holds the exit-code policy: 0 clean,
1 findings at or above the fail level, 2 usage or configuration error (one line on stderr, never
a traceback), 2 when standard output cannot be written, 0 quietly when its reader went away.
"""

from __future__ import annotations

import argparse
import os
import sys

from mnemolint import __version__
from mnemolint.commands import EXIT_CLEAN, EXIT_USAGE
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import NoReturn, TextIO


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit 2, instead of argparse's usage block."""
        self.exit(EXIT_USAGE, f"mnemolint: error: {message} (see `{self.prog} --help`)\n")


class _Formatter(argparse.HelpFormatter):
    """argparse measures the terminal through `shutil` for every formatter it makes, one per
    `add_argument`; `os` is enough, once."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_width())

    def add_argument(self, action: argparse.Action) -> None:
        """argparse measures the command names two columns short of where it prints them, so the
        longest (`explain-rules`) would have its help pushed to the next line."""
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            self._action_max_length += 2


_WIDTH: list[int] = []


def _width() -> int:
    """The help's width: the terminal's (or `COLUMNS`), less argparse's margin; 80 without one."""
    if not _WIDTH:
        try:
            width = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size(sys.stderr.fileno()).columns
        except (OSError, ValueError):
            width = 80
        _WIDTH.append(max(width - 2, 40))
    return _WIDTH[0]


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """One subparser per registered command, which adds its own arguments and is run by `main`;
    given the command line, only the command it names (the first word that is not an option)."""
    from mnemolint import commands

    named = next((word for word in argv or () if not word.startswith("-")), None)

    parser = _Parser(
        prog="mnemolint", description="Lint and fix AI-agent memory repositories.", formatter_class=_Formatter
    )
    parser.add_argument("--version", action="version", version=f"mnemolint {__version__}")
    subparsers = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND", prog="mnemolint")
    for command in commands.load(named):
        subparser = subparsers.add_parser(command.NAME, help=command.HELP, formatter_class=_Formatter)
        command.add_arguments(subparser)
        subparser.set_defaults(run=command.run)
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
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words)
    args = parser.parse_args(words)
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
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return args.run(args)
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


def _untranslated(message: str) -> str:
    """argparse's own words (`usage: `, `options`, its error phrases), as argparse writes them.

    argparse asks gettext for each of them as it builds a parser, and gettext, finding no catalogue
    cached, looks for one on disk every time and imports `locale` to expand the language names:
    1.3 ms of a pre-commit run, for catalogues Python does not ship. mnemolint's messages are
    English, and so are argparse's among them. Set by the console script only (`entry`): a program
    that calls `main` keeps its own argparse as it was. (argparse's `ngettext`, for a few usage
    errors, still looks: only a run that fails on its arguments pays for it.)"""
    return message


def entry() -> None:
    """The console script: exit without tearing down every object of a large run one by one."""
    import gc

    # Nearly every object a run builds lives to its end, so the collector's passes over them free
    # nothing: a pass every 100,000 new objects instead of 700 made a 50,000-file run 11 % faster,
    # its peak memory unchanged. What start-up imported is never scanned at all (`freeze`).
    gc.freeze()
    gc.set_threshold(100_000, 20, 20)
    argparse._ = _untranslated  # type: ignore[attr-defined]  # see `_untranslated`
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # the reader went away, main closed it, or it was closed
            pass
        except KeyboardInterrupt:  # Ctrl-C after the work was done: exit as interrupted, no traceback
            code = 130
    os._exit(code)
