"""The one place mnemolint writes files: atomically, never through a link, never over a change.

A memory dir is where agents write without asking, so a fix must neither follow a link out of it
nor clobber what an agent wrote a moment ago, and a crash must leave either the old file or the
new one, never half of each. `publish`:

1. refuses a target outside the linted root, or with a symlink anywhere from the root down to it;
2. creates `<target>.lock` exclusively, and gives up at once if it exists (another writer is at
   work; a lock is never waited for, and taken over only when the process that wrote it, on
   this host, no longer exists);
3. compares the file with the bytes the fix was computed from (`Changed` if they differ), before
   and again after writing the new content;
4. writes a temporary file beside the target with the target's permission bits, fsyncs it, moves
   it into place (`os.replace`; `os.link` for a new file, which fails rather than replace a file
   that appeared meanwhile) and fsyncs the directory;
5. removes the temporary file and the lock whatever happened.
"""

from __future__ import annotations

import errno
import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS}


class NotWritten(Exception):
    """Why a file was left as it was; the fixer reports it as a finding."""


class Changed(NotWritten):
    """The file is not what the fix was computed from: lint it again rather than clobber it."""


def preflight(path: str, root: str) -> None:
    """What `publish` would refuse before writing anything (a link, outside the root, a lock), so a
    dry run (`--diff`, `index --check`) shows only changes that `--fix` can make."""
    _refuse_links(path, root)
    if os.path.lexists(path + ".lock"):
        raise NotWritten(f"`{os.path.basename(path)}.lock` exists: another mnemolint is writing this file")


def publish(path: str, text: str, expected: bytes | None, root: str) -> None:
    """Replace `path` with `text` (UTF-8), or create it when `expected` is None.

    `expected` is the content the new text was computed from. Raises `NotWritten` (or `Changed`)
    with the reason; the file is then untouched and nothing is left behind.
    """
    _refuse_links(path, root)
    lock = path + ".lock"
    descriptor = _lock(lock)
    try:
        try:
            os.write(descriptor, _owner().encode())
        finally:
            os.close(descriptor)
        _replace(path, text.encode("utf-8"), expected)
    except OSError as error:
        raise NotWritten(f"cannot write {os.path.basename(path)}: {error.strerror or error}") from None
    finally:
        _remove(lock)


def _lock(lock: str) -> int:
    """Create the lock exclusively. A lock left by a crashed mnemolint (its process, on this
    host, is gone) is removed with the crashed run's temporary file, once; any other is respected."""
    for attempt in (1, 2):
        try:
            return os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        except FileExistsError:
            if attempt == 1 and _clear_stale(lock):
                continue
            raise NotWritten(
                f"`{os.path.basename(lock)}` exists: another mnemolint is writing this file, so its fixes "
                "were skipped (if none is running, a crashed run left the lock behind: delete it)"
            ) from None
        except OSError as error:
            raise NotWritten(f"cannot write in {os.path.dirname(lock)}: {error.strerror}") from None
    raise AssertionError("unreachable")


def _owner() -> str:
    return f"{os.getpid()}@{_host()}\n"


def _host() -> str:
    import socket

    return socket.gethostname()


def _clear_stale(lock: str) -> bool:
    """Whether `lock` was left by a process of this host that no longer exists, and is now gone."""
    try:
        with open(lock, encoding="utf-8") as handle:
            pid, _, host = handle.read().strip().partition("@")
    except (OSError, UnicodeDecodeError):
        return False
    if not pid.isdigit() or host != _host():
        return False  # another host's lock, or none of ours: never taken over
    try:
        os.kill(int(pid), 0)
        return False  # that process exists (maybe a reused pid: respected all the same)
    except ProcessLookupError:
        pass
    except OSError:
        return False
    directory, name = os.path.split(lock[: -len(".lock")])
    for entry in os.listdir(directory or "."):
        if entry.startswith(f".{name}.{pid}.") and entry.endswith(".tmp"):
            _remove(os.path.join(directory, entry))
    _remove(lock)
    return True


def _refuse_links(path: str, root: str) -> None:
    """Refuse a target outside `root`, or one reached through a symlink (the root included)."""
    root, path = os.path.abspath(root), os.path.abspath(path)
    rel = os.path.relpath(path, root)
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        raise NotWritten(f"{path} is outside the linted root {root}")
    current = root
    for part in [None, *rel.split(os.sep)]:
        current = os.path.join(current, part) if part else current
        if os.path.islink(current):
            raise NotWritten(f"{current} is a symlink, and mnemolint never writes through one")


def _replace(path: str, data: bytes, expected: bytes | None) -> None:
    _unchanged(path, expected)
    if expected is not None and not os.access(path, os.W_OK):  # renaming over it would ignore its mode
        raise NotWritten(f"{os.path.basename(path)} is read-only")
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    # Created like any new file (mode 0o666 less the umask), then given the target's mode.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if expected is None:
            _create(temporary, path)
        else:
            os.chmod(temporary, stat.S_IMODE(os.lstat(path).st_mode))
            _unchanged(path, expected)  # again, as late as can be: an agent may have written meanwhile
            os.replace(temporary, path)
        _sync_directory(directory)
    finally:
        _remove(temporary)


def _unchanged(path: str, expected: bytes | None) -> None:
    if _read(path) != expected:
        raise Changed(f"{os.path.basename(path)} changed since it was read")


def _create(temporary: str, path: str) -> None:
    """Publish a new file without ever replacing one that appeared since it was found missing."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise Changed(f"{os.path.basename(path)} was created by someone else meanwhile") from None
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        # A file system without hard links: the lock keeps other mnemolints out, which is the best
        # a rename can do.
        if os.path.lexists(path):
            raise Changed(f"{os.path.basename(path)} was created by someone else meanwhile") from None
        os.replace(temporary, path)


def _read(path: str) -> bytes | None:
    """The file's bytes, None when it does not exist; a link is refused by O_NOFOLLOW."""
    try:
        descriptor = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except FileNotFoundError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        return handle.read()


def _sync_directory(directory: str) -> None:
    """Make the rename durable; some systems cannot open a directory (Windows), which is no error."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:  # not supported by this file system: the rename itself is done
        pass
    finally:
        os.close(descriptor)


def _remove(path: str) -> None:
    """Remove a lock or temporary file if it is there; failing to is not worth a traceback."""
    try:
        os.unlink(path)
    except OSError:
        pass
