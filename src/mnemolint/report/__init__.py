"""Output formats. A reporter is one module with `write(diagnostics, out, options)`.

Every reporter is reached through `writer`, which first passes the findings through `shown`:
the one step where a finding of a family that carries sensitive text is redacted (a value a rule
quotes is masked where it is quoted, `textutil.quote`, before it is cut short), and where every
message is made printable. Paths are made printable where each format spells them
(`display_path`, or percent-encoded in SARIF URIs), with the same redaction as the messages, so
no file name or quoted value can end a line, forge a workflow command, send a terminal escape or
show a token that names a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import lru_cache

from mnemolint.model import Diagnostic
from mnemolint.parse.textutil import visible
from mnemolint.paths import inside, repository

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO


FORMATS = ("text", "json", "sarif", "github")


class ReportOptions:
    """`successful` is False when a rule failed with an internal error (SARIF's executionSuccessful);
    `settings` are the options in force, which the rule descriptions state (empty: the defaults);
    `fixes` is what `--show-fixes` marks as fixable, the fixes `--fix` would apply ("safe", or
    "unsafe" with `--unsafe-fixes`), None to mark nothing;
    `fingerprints`, each finding's key (by `id`) when `--baseline` left out some (baseline.py):
    SARIF's are counted over every finding, shown or not."""

    __slots__ = ("color", "quiet", "files", "successful", "settings", "fixes", "fingerprints")

    def __init__(
        self,
        color: bool = False,
        quiet: bool = False,
        files: int = 0,
        successful: bool = True,
        settings: dict | None = None,
        fixes: str | None = None,
    ) -> None:
        self.color = color
        self.quiet = quiet
        self.files = files
        self.successful = successful
        self.settings = settings or {}
        self.fixes = fixes
        self.fingerprints: dict[int, str] | None = None


def display_path(path: str) -> str:
    """Relative to the current directory, with `/` separators, as every format but SARIF shows
    paths: `printable`, like the messages (a token in a file name is masked there too); a format's
    many paths go through `display_paths`, which asks the current directory once."""
    return printable(_relative(path, os.getcwd()))


def display_paths(paths: list[str]) -> list[str]:
    """`display_path` of each of `paths`, redacted together (`redact_all`): a format's batch."""
    cwd = os.getcwd()
    return printables([_relative(path, cwd) for path in paths])


def with_paths(diagnostics: list[Diagnostic]) -> Iterator[tuple[Diagnostic, str]]:
    """Each finding with its file as `display_path` shows it, the paths redacted a batch at a time."""
    for start in range(0, len(diagnostics), BATCH):
        batch = diagnostics[start : start + BATCH]
        yield from zip(batch, display_paths([diagnostic.path for diagnostic in batch]), strict=True)


def _relative(path: str, cwd: str) -> str:
    if inside(path, cwd) and path != cwd:
        rel = path[len(cwd.rstrip(os.sep)) + 1 :]
    else:
        rel = _relative_out(path, cwd)
    return rel if os.sep == "/" else rel.replace(os.sep, "/")


def _relative_out(path: str, cwd: str) -> str:
    """`os.path.relpath(path, cwd)` for a path outside `cwd`: its folder's once per folder (a
    report of a tree beside the current directory names thousands of files of a few folders)
    when the path is absolute and normal (POSIX), so that relpath's answer is its folder's and its name."""
    folder, _, name = path.rpartition("/")
    if (
        folder
        and os.sep == "/"
        and not os.altsep
        and path[0] == "/"
        and name not in ("", ".", "..")
        and "/./" not in path
        and "/../" not in path
        and "//" not in path
        and not inside(cwd, path)
    ):
        above = _relpath(folder, cwd)
        return name if above == "." else above + "/" + name
    return _relpath(path, cwd)


@lru_cache(maxsize=256)
def _relpath(path: str, cwd: str) -> str:
    try:
        return os.path.relpath(path, cwd)
    except ValueError:  # another drive on Windows
        return path


def unicode_out(out: TextIO) -> bool:
    """Whether `out` can take any character: JSON formats fall back to `\\u` escapes when it cannot
    (PYTHONIOENCODING=ascii, a Latin-1 terminal), instead of failing on the first `é`."""
    import codecs

    try:
        return codecs.lookup(getattr(out, "encoding", None) or "utf-8").name.startswith("utf")
    except LookupError:
        return False


def repository_root() -> str:
    """The nearest directory at or above the current one holding `.git`, else the current one.

    Code scanning and GitHub annotations resolve paths against the repository root, so the SARIF
    and github formats report paths from there, wherever in the repository mnemolint ran.
    """
    return repository(os.getcwd())


def relative_to(path: str, root: str) -> str | None:
    """`path` below `root` with `/` separators, or None when it lies outside `root`."""
    if path != root and inside(path, root) and _normal(path):  # the usual case, without relpath's cost
        return path[len(root.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    try:
        rel = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return None
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def _normal(path: str) -> bool:
    """Whether `path` has no `.` or `..` part and no doubled separator, so that a prefix is a parent."""
    sep = os.sep
    return all(f"{sep}{part}{sep}" not in path and not path.endswith(sep + part) for part in (".", "..", "")) and (
        not os.altsep or os.altsep not in path
    )


def shown(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The findings with their messages (and their fixes' messages) redacted, then escaped for
    printing, in place: reporting is the last use of a finding's text, and neither step changes a
    text twice. Every message is redacted, not only a sensitive family's: any rule may quote what
    a file holds (a glob, a link target, a description), and a token there is still a token. The
    messages are redacted a block at a time (`printables`); a text that many findings share (a
    fix's message, most often) is made printable once."""
    made: dict[str, str] = {}

    def once(text: str) -> str:
        done = made.get(text)
        if done is None:
            done = made[text] = printable(text)
        return done

    for start in range(0, len(diagnostics), BATCH):
        batch = diagnostics[start : start + BATCH]
        for diagnostic, message in zip(batch, printables([each.message for each in batch]), strict=True):
            diagnostic.message = message
            if diagnostic.fix is not None:
                diagnostic.fix.message = once(diagnostic.fix.message)
            if diagnostic.related:
                diagnostic.related = tuple(once(name) for name in diagnostic.related)
    return diagnostics


# Findings a format makes printable at once (`printables`): what is held of them meanwhile stays small.
BATCH = 1024


def printables(texts: list[str]) -> list[str]:
    """`printable` of each of `texts`, redacted together (`redact.redact_all`)."""
    from mnemolint.redact import redact_all

    return [visible(text) for text in redact_all(texts)]


@lru_cache(maxsize=4_096)  # a language server shows the same messages and names after each keystroke
def printable(text: str) -> str:
    """`text` as any output may show it: credential-shaped spans masked, control characters escaped."""
    return visible(_redaction()(text))


@lru_cache(maxsize=1)
def _redaction() -> Callable[[str], str]:
    """`redact`, imported once on first use (a run with no finding never needs it): an import
    statement run for each of thousands of texts cost a third of `printable`."""
    from mnemolint.redact import redact

    return redact


def writer(name: str) -> Callable[[list[Diagnostic], TextIO, ReportOptions], None]:
    """The format's `write`, behind `shown`."""
    write = __import__(f"mnemolint.report.{name}_format", fromlist=["write"]).write  # as commands.load

    def write_shown(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
        write(shown(diagnostics), out, options)

    return write_shown
