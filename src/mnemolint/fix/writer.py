"""The one place mnemolint writes the files it lints: atomically, never through a link, never over a change.

(Its own cache, `.mnemolint_cache/`, is written by cache.py: a throwaway file of its own, replaced
atomically, with none of a memory file's locks and checks.)

A memory dir is where agents write without asking, and anyone who can write there can swap its
files and directories while a fix runs (docs/security.md). So `publish`:

1. opens the target's directory from the linted root one component at a time, refusing a symlink
   at each, and does every later step relative to that directory descriptor: a directory swapped
   for a link meanwhile changes nothing, and nothing is ever created outside the root;
2. creates `<target>.lock` exclusively, and gives up at once if it exists (another writer is at
   work; a lock is never waited for, and taken over only when the process that wrote it, on
   this host, no longer exists); a lock or target that is not a regular file is refused, never
   read or waited on;
3. refuses a target the rename would betray: one with other hard links, one its owner may not
   write, one whose owner and group it cannot keep;
4. compares the file with the bytes the fix was computed from (`Changed` if they differ), before
   and again after writing the new content, the second time also checking it is the same file;
5. creates a temporary file beside the target (`O_EXCL|O_NOFOLLOW`), writes it, gives it the
   target's owner and mode through its descriptor, fsyncs it, checks that its name still holds
   it, moves it into place (`os.replace`; `os.link` for a new file, which fails rather than
   replace a file that appeared meanwhile), checks the target's name holds it, and fsyncs the
   directory;
6. removes the temporary file and the lock whatever happened, with SIGINT, SIGTERM and SIGHUP held
   until then (a write takes milliseconds), so an interrupt lands before or after it, never within.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS}
_LOCK_LIMIT = 256  # a lock holds `pid@host\n`; what is longer was not written by mnemolint
_HELD_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
_KINDS = {"d": "a directory", "p": "a FIFO", "c": "a device", "b": "a device", "s": "a socket", "l": "a symlink"}

# For tests only: when set, called with the name of each step `publish` has just completed
# ("opened", "locked", "read", "created", "written", "verified", "published"), so a test can swap
# files or directories between two steps, deterministically, as a racing attacker would.
_between_steps: Callable[[str], None] | None = None


class NotWritten(Exception):
    """Why a file was left as it was; the fixer reports it as a finding."""


class Changed(NotWritten):
    """The file is not what the fix was computed from: lint it again rather than clobber it."""


class _Place:
    """The target: its directory, open (reached without following a link), its name in it, and its
    path for messages."""

    __slots__ = ("directory", "name", "path")

    def __init__(self, directory: int, name: str, path: str) -> None:
        self.directory = directory
        self.name = name
        self.path = path


def preflight(path: str, root: str) -> None:
    """What `publish` would refuse before writing anything (a link, outside the root, a lock it would
    respect, a file it never replaces), so a dry run (`--diff`, `index --check`) shows only the
    changes `--fix` makes. A lock `publish` would clear as stale does not count."""
    with _reached(path, root) as place:
        _stale_pid(place)
        status = _status(place)
        if status is not None:
            _replaceable(place, status)


def publish(path: str, text: str, expected: bytes | None, root: str) -> None:
    """Replace `path` with `text` (UTF-8), or create it when `expected` is None.

    `expected` is the content the new text was computed from. Raises `NotWritten` (or `Changed`)
    with the reason; the file is then untouched and nothing is left behind.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        name = os.path.basename(path)
        raise NotWritten(f"the new {name} holds text UTF-8 cannot encode (a file name that is not UTF-8?)") from None
    held = _hold_signals()
    try:
        with _reached(path, root) as place:
            _publish(place, data, expected)
    finally:
        _release_signals(held)


@contextlib.contextmanager
def _reached(path: str, root: str) -> Iterator[_Place]:
    """The target, reached from `root`; an OSError meanwhile becomes NotWritten."""
    place = _reach(path, root)
    try:
        yield place
    except OSError as error:
        raise NotWritten(f"cannot write {place.name}: {error.strerror or error}") from None
    finally:
        os.close(place.directory)


def _publish(place: _Place, data: bytes, expected: bytes | None) -> None:
    _step("opened")
    lock = place.name + ".lock"
    descriptor = _lock(place, lock)
    try:
        try:
            os.write(descriptor, _owner().encode())
        finally:
            os.close(descriptor)
        _step("locked")
        _replace(place, data, expected)
    finally:
        _remove(place, lock)


def _step(name: str) -> None:
    if _between_steps is not None:
        _between_steps(name)


def _hold_signals() -> set[int] | None:
    """Block the interrupting signals (where the platform can); returns the mask to restore."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {getattr(signal, name) for name in _HELD_SIGNALS})


def _release_signals(previous: set[int] | None) -> None:
    """Restore the mask: a signal that came meanwhile is delivered now (Ctrl-C raises here)."""
    import signal

    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# --- reaching the target ---------------------------------------------------------------------------


def _reach(path: str, root: str) -> _Place:
    """Open the target's directory from `root`, one component at a time, none of them a link (the
    root included); refuse a target outside `root`."""
    given, root, path = root, os.path.abspath(root), os.path.abspath(path)
    rel = os.path.relpath(path, root)
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        raise NotWritten(f"{path} is outside the linted root {root}")
    if os.open not in os.supports_dir_fd:
        raise NotWritten("this platform cannot open files relative to a directory, which safe writing needs")
    *parts, name = rel.split(os.sep)
    directory, current = _open_directory(given, None, root), root  # as given: relative, it needs no access above
    for part in parts:
        current = os.path.join(current, part)
        try:
            child = _open_directory(part, directory, current)
        finally:
            os.close(directory)
        directory = child
    return _Place(directory, name, path)


def _open_directory(name: str, parent: int | None, path: str) -> int:
    try:
        return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=parent)
    except OSError as error:
        if os.path.islink(path):  # O_NOFOLLOW fails on a link with ELOOP or ENOTDIR, by platform
            raise NotWritten(_link(path)) from None
        raise NotWritten(f"cannot write in {path}: {error.strerror}") from None


def _link(path: str) -> str:
    return f"{path} is a symlink, and mnemolint never writes through one"


def _status(place: _Place, name: str | None = None) -> os.stat_result | None:
    """`name`'s (the target's) status, without following a link; None when it does not exist.
    Refuses anything but a regular file before it is ever opened: a FIFO would block, a device
    never end."""
    name = name or place.name
    try:
        status = os.stat(name, dir_fd=place.directory, follow_symlinks=False)
    except FileNotFoundError:
        return None
    _regular(place, name, status)
    return status


def _regular(place: _Place, name: str, status: os.stat_result) -> None:
    """Refuse `name` (the target or its lock) unless it is a regular file."""
    if stat.S_ISREG(status.st_mode):
        return
    kind = _KINDS.get(stat.filemode(status.st_mode)[0], "a special file")
    if name != place.name:
        what = f"`{name}` is {kind}, not a lock any mnemolint makes"
        raise NotWritten(f"{what}: delete it to let --fix write {place.name}")
    if stat.S_ISLNK(status.st_mode):
        raise NotWritten(_link(place.path))
    raise NotWritten(f"{name} is {kind}, not a regular file, and mnemolint writes only those")


def _read(place: _Place, name: str, limit: int) -> tuple[bytes, os.stat_result] | None:
    """Up to `limit` bytes of the regular file `name`, and its status; None when it does not exist.
    Opened without following a link or waiting on a FIFO, and checked again once open."""
    if _status(place, name) is None:
        return None
    try:
        descriptor = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=place.directory)
    except FileNotFoundError:
        return None
    try:
        status = os.fstat(descriptor)
        _regular(place, name, status)
        chunks: list[bytes] = []
        while limit > 0 and (chunk := os.read(descriptor, min(limit, 1 << 20))):
            chunks.append(chunk)
            limit -= len(chunk)
        return b"".join(chunks), status
    finally:
        os.close(descriptor)


# --- the lock --------------------------------------------------------------------------------------


def _lock(place: _Place, lock: str) -> int:
    """Create the lock exclusively. A lock left by a crashed mnemolint (its process, on this
    host, is gone) is removed with the crashed run's temporary file, once; any other is respected."""
    for attempt in (1, 2):
        try:
            return os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644, dir_fd=place.directory)
        except FileExistsError:
            if attempt == 2:
                raise NotWritten(_held(lock)) from None
            pid = _stale_pid(place)
            if pid is not None:
                _clear(place, pid)
        except OSError as error:
            raise NotWritten(f"cannot write in {os.path.dirname(place.path)}: {error.strerror}") from None
    raise AssertionError("unreachable")


def _held(lock: str) -> str:
    return (
        f"`{lock}` exists: another mnemolint is writing this file, so its fixes were skipped (if none "
        "is running, a crashed run left the lock behind: delete it)"
    )


def _owner() -> str:
    return f"{os.getpid()}@{_host()}\n"


def _host() -> str:
    import socket

    return socket.gethostname()


def _stale_pid(place: _Place) -> str | None:
    """The process id in the target's lock when a process of this host wrote it and is gone (the
    lock is stale and `publish` clears it); None when there is no lock. Raises NotWritten for a
    lock to respect, and for a lock that is not a regular file (no mnemolint made it)."""
    lock = place.name + ".lock"
    try:
        found = _read(place, lock, _LOCK_LIMIT)
    except OSError:
        raise NotWritten(_held(lock)) from None  # unreadable: respected
    if found is None:
        return None
    pid, _, host = found[0].decode("utf-8", "replace").strip().partition("@")
    if not (pid.isascii() and pid.isdigit()) or host != _host() or _alive(int(pid)):
        raise NotWritten(_held(lock))  # another host's lock, a live process's, or none of ours
    return pid


def _alive(pid: int) -> bool:
    """Whether `pid` may be a live process (a reused pid is respected all the same)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


def _clear(place: _Place, pid: str) -> None:
    """Remove a crashed run's lock and its temporary files."""
    prefix = f".{place.name}.{pid}."
    for entry in os.listdir(place.directory):
        if entry.startswith(prefix) and entry.endswith(".tmp"):
            _remove(place, entry)
    _remove(place, place.name + ".lock")


# --- the write -------------------------------------------------------------------------------------


def _replaceable(place: _Place, status: os.stat_result) -> None:
    """Refuse a file whose replacement would change more than its content."""
    if status.st_nlink > 1:
        raise NotWritten(f"{place.name} has {status.st_nlink} hard links, and replacing it would split them")
    if not status.st_mode & stat.S_IWUSR:
        mode = stat.S_IMODE(status.st_mode)
        raise NotWritten(f"{place.name} is read-only (mode {mode:o}: its owner may not write it)")
    if not _may_own(status):
        raise NotWritten(
            f"{place.name} belongs to another user or group (uid {status.st_uid}, gid {status.st_gid}), which "
            "a replaced file keeps: run --fix as its owner"
        )


def _may_own(status: os.stat_result) -> bool:
    """Whether this process can give a new file the owner and group of `status`."""
    uid = os.geteuid()
    return uid == 0 or (status.st_uid == uid and status.st_gid in {os.getegid(), *os.getgroups()})


def _replace(place: _Place, data: bytes, expected: bytes | None) -> None:
    first = _unchanged(place, expected)
    _step("read")
    if first is not None:
        _replaceable(place, first)
    owner = _new_owner(place, first)
    temporary = f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        # Private until done: a replacement gets the target's mode only once written.
        mode = 0o666 if first is None else 0o600
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode, dir_fd=place.directory)
        try:
            _step("created")
            _write_all(descriptor, data)
            ours = os.fstat(descriptor)
            if owner is not None and owner != (ours.st_uid, ours.st_gid):  # before the mode: it clears set-id bits
                os.fchown(descriptor, *owner)
            if first is not None:
                os.fchmod(descriptor, stat.S_IMODE(first.st_mode))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        _step("written")
        if expected is None:
            _mine(place, temporary, ours)
            _create(place, temporary)
        else:
            _unchanged(place, expected, first)  # again, as late as can be: an agent may have written
            _mine(place, temporary, ours)
            _step("verified")
            os.replace(temporary, place.name, src_dir_fd=place.directory, dst_dir_fd=place.directory)
        _step("published")
        _mine(place, place.name, ours)
        _sync_directory(place)
    finally:
        _remove(place, temporary)


def _unchanged(place: _Place, expected: bytes | None, first: os.stat_result | None = None) -> os.stat_result | None:
    """The target's status, provided it holds `expected` (None: it does not exist) and is still the
    file `first` describes; `Changed` otherwise."""
    found = _read(place, place.name, 0 if expected is None else len(expected) + 1)
    content, status = found or (None, None)
    same_file = first is None or (status is not None and (status.st_dev, status.st_ino) == (first.st_dev, first.st_ino))
    if content != expected or not same_file:
        raise Changed(f"{place.name} changed since it was read")
    return status


def _new_owner(place: _Place, status: os.stat_result | None) -> tuple[int, int] | None:
    """The owner and group to give the new file: the replaced file's; for a new file made by root,
    the directory's (the agent owning the memory dir must be able to write its index)."""
    if status is not None:
        return status.st_uid, status.st_gid
    if os.geteuid() == 0:
        directory = os.fstat(place.directory)
        return directory.st_uid, directory.st_gid
    return None


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _mine(place: _Place, name: str, ours: os.stat_result) -> None:
    """Refuse to go on when `name` no longer holds the temporary file written (someone swapped it)."""
    try:
        status = os.stat(name, dir_fd=place.directory, follow_symlinks=False)
    except FileNotFoundError:
        status = None
    if status is None or (status.st_dev, status.st_ino) != (ours.st_dev, ours.st_ino):
        raise NotWritten(f"`{name}` was replaced by someone else while mnemolint wrote {place.name}")


def _create(place: _Place, temporary: str) -> None:
    """Publish a new file without ever replacing one that appeared since it was found missing."""
    directory = place.directory
    try:
        os.link(temporary, place.name, src_dir_fd=directory, dst_dir_fd=directory, follow_symlinks=False)
    except FileExistsError:
        raise Changed(f"{place.name} was created by someone else meanwhile") from None
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        # A file system without hard links: the lock keeps other mnemolints out, which is the best
        # a rename can do.
        if _status(place) is not None:
            raise Changed(f"{place.name} was created by someone else meanwhile") from None
        os.replace(temporary, place.name, src_dir_fd=directory, dst_dir_fd=directory)


def _sync_directory(place: _Place) -> None:
    """Make the rename durable."""
    try:
        os.fsync(place.directory)
    except OSError:  # not supported by this file system: the rename itself is done
        pass


def _remove(place: _Place, name: str) -> None:
    """Remove a lock or temporary file if it is there; failing to is not worth a traceback."""
    try:
        os.unlink(name, dir_fd=place.directory)
    except OSError:
        pass
