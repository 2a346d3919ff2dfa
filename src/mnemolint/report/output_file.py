"""`check --output-file FILE`: the report in a file instead of standard output (ruff's `-o`).

The name comes from the command line, but what it meets on disk may come from the repository
(a CI job writes `-o report.sarif` in a checkout): a symlink there named like the report could
send it anywhere, over any file. So the file is opened without following a link (`O_NOFOLLOW`),
must be a regular file, and no folder on its way below the current directory may be a link; the
folders missing are made, as ruff makes them. A failed write is a one-line error (exit 2).
"""

from __future__ import annotations

import os
import stat

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO


class OutputFile:
    """A text stream over the opened file whose write errors say which file and why."""

    __slots__ = ("path", "stream")

    def __init__(self, path: str, stream: TextIO) -> None:
        self.path = path
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as error:
            raise ConfigError(f"cannot write --output-file {self.path}: {error.strerror or error}") from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            raise ConfigError(f"cannot write --output-file {self.path}: {error.strerror or error}") from None

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        self.flush()
        self.stream.close()

    def __getattr__(self, name: str) -> object:  # encoding, …: the stream's own
        return getattr(self.stream, name)


def open_output(path: str) -> OutputFile:
    """`path` opened for the report, truncated (created, with its missing folders, if need be)."""
    from mnemolint.parse.textutil import visible

    shown = visible(path)
    absolute = os.path.abspath(path)
    _no_link_on_the_way(os.path.dirname(absolute), shown)
    try:
        os.makedirs(os.path.dirname(absolute), exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        handle = os.open(absolute, flags, 0o666)
    except OSError as error:
        reason = "it is a symlink" if os.path.islink(absolute) else error.strerror or str(error)
        raise ConfigError(f"cannot write --output-file {shown}: {reason}") from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise ConfigError(f"cannot write --output-file {shown}: not a regular file")
    return OutputFile(shown, open(handle, "w", encoding="utf-8", newline=""))  # noqa: SIM115 - closed by the caller


def _no_link_on_the_way(folder: str, shown: str) -> None:
    """Refuse a symlink among the folders between the current directory and `folder`."""
    from mnemolint.parse.textutil import visible
    from mnemolint.paths import inside

    cwd = os.getcwd()
    if not inside(folder, cwd) or folder == cwd:
        return
    here = cwd
    for part in os.path.relpath(folder, cwd).split(os.sep):
        here = os.path.join(here, part)
        if os.path.islink(here):
            raise ConfigError(f"cannot write --output-file {shown}: {visible(os.path.relpath(here, cwd))} is a symlink")
        if not os.path.exists(here):
            return
