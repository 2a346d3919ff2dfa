"""How a file is opened to be read: never through a dangerous link, never waiting on a FIFO.

A file is opened without following a link at its own name (`O_NOFOLLOW`: a link there is judged
first, `paths.dangerous_link`) and without blocking, and the system is asked where it really is
(Linux's /proc/self/fd), so that a linked folder above it is judged too; only a regular file is
read. Asking that of every file cost as much as reading it (10,000 topics: 65 ms of 160 ms), so
within `folders()` the folder is asked instead, once, and each file of it is opened by its name
inside the folder so opened: it then is where the folder really is, under its own name.
"""

from __future__ import annotations

import errno
import os
import stat
from _thread import _local

from mnemolint.paths import dangerous_link

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
_NOT_A_NAME = ("", ".", "..")


def read_up_to(fd: int, count: int) -> bytes:
    """Up to `count` bytes of the open file, fewer only at its end: one `read` may return less
    (a network or FUSE mount, a signal), which would silently cut the text."""
    data = os.read(fd, count)
    while len(data) < count:
        more = os.read(fd, count - len(data))
        if not more:
            break
        data += more
    return data


def open_regular(path: str) -> tuple[int, os.stat_result] | str:
    """The regular file at `path`, open without blocking (a descriptor: read with `os.read`, no
    file object for a file read once), and its `fstat`; or why it is refused: a dangerous link
    (the file itself, or a linked folder above it), or something other than a regular file
    standing at its name (a FIFO or device swapped in since the walk saw a file)."""
    held = _here.folder
    opened: tuple[int, str | None] | None = _in_folder(held, path) if held is not None else None
    if opened is None:
        by_path = _open(path)
        if isinstance(by_path, str):
            return by_path
        opened = by_path, _where(by_path)
    fd, real = opened
    try:
        # Opened where it is named, the absolute and normal path it is: no link on its way.
        refused = None if real == path else dangerous_link(path, real)
        info = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if refused or not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return refused or "not a regular file (a FIFO, device or directory stands at its name)"
    return fd, info


def _open(path: str) -> int | str:
    """A descriptor of the file at `path`, or why it is not opened: a link is judged before it is
    followed (`paths.dangerous_link`), so nothing in a system folder or a credential is opened."""
    try:
        return os.open(path, _FLAGS | _NOFOLLOW)
    except OSError as error:
        if not _NOFOLLOW or error.errno not in (errno.ELOOP, errno.EMLINK):
            raise
    refused = dangerous_link(path)  # the file itself is a link
    return refused if refused else os.open(path, _FLAGS)


def _where(fd: int) -> str | None:
    """Where the open file or folder `fd` really is, when the system says it without a lookup
    (Linux's /proc/self/fd); None elsewhere, and the path is then resolved by name."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


class _Folder:
    """The folder `folders()` last opened a file in: its path as named, its descriptor (-1 when it
    could not be opened and asked where it is: its files are then opened by path), and where it is."""

    __slots__ = ("path", "fd", "real")

    def __init__(self) -> None:
        self.path: str | None = None
        self.fd = -1
        self.real = ""

    def enter(self, path: str) -> None:
        self.close()
        self.path = path
        try:
            fd = os.open(path, _FOLDER)
        except OSError:
            return  # the file's own open says why
        real = _where(fd)
        if real is None:
            os.close(fd)
        else:
            self.fd, self.real = fd, real

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
        self.fd, self.path = -1, None


class _Here(_local):
    """What `folders()` holds, for each thread its own: another thread's folder is never used."""

    folder: _Folder | None = None


_here = _Here()


def _in_folder(held: _Folder, path: str) -> tuple[int, str] | None:
    """The file at `path` opened inside its folder (the one `held`, opened again when it is another),
    without following a link at its name, and where it really is; None when it is to be opened by
    path (the folder could not be asked, the file is a link: `_open` judges it)."""
    folder, name = os.path.split(path)
    if folder != held.path:
        held.enter(folder)
    if held.fd < 0 or not _NOFOLLOW or name in _NOT_A_NAME:
        return None
    try:
        fd = os.open(name, _FLAGS | _NOFOLLOW, dir_fd=held.fd)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK):
            return None
        raise
    return fd, os.path.join(held.real, name)


class folders:  # noqa: N801 - used as a function: `with folders():`
    """Within it, this thread opens each file inside its folder, asked where it is once (the last
    one held open, closed on the way out): for a loop over many files, most in a few folders.
    Nested, the outermost holds the folder."""

    __slots__ = ("owner",)

    def __enter__(self) -> None:
        self.owner = _here.folder is None
        if self.owner:
            _here.folder = _Folder()

    def __exit__(self, *_: object) -> None:
        held = _here.folder
        if self.owner and held is not None:
            held.close()
            _here.folder = None
