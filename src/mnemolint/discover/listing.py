"""What the walk kept of each directory it listed, for the next run with the same cache (cache.py).

A directory's names change only with its own stat key: creating, deleting or renaming an entry
in it, or replacing one by another of a different type (a folder by a symlink), sets its mtime
and ctime, and a change of its permissions its ctime. So a folder whose device, inode, mtime and
ctime are what they were holds the same entries, and the walk files them from here instead of
listing it and judging each entry again (one `stat` per directory, not a `scandir` and a test per
entry). A folder changed within `RACY_NS` of the run that listed it may have changed again within
the timestamps' resolution: it is not kept.

What a listing says is the walk's verdict on each entry by name: a regular file it files, a
folder it walks (each one `lstat`ed again on the way, for its own key), a symlink it judges again
every time (where a link leads changes without its folder: the walk's trust checks run on it as on
a listed one). Left out by name (the default folders, the `exclude` globs: the settings are in the
cache's key) is left out again. What the `.gitignore` files say is not a matter of names, so a
folder's listing is kept and trusted only while no `.gitignore` stands at or above it up to its
work tree (or the walk is in none, or does not respect them): the same entries then mean the same
verdicts. A listing also records the walk's root and work tree, which its verdicts depend on.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

FILE, FOLDER, LINK = "f", "d", "l"  # what each entry of a listing is
_KINDS = frozenset((FILE, FOLDER, LINK))
_NOT_NAMES = frozenset(("", os.curdir, os.pardir))


class Listings:
    """The listings of one cache file by directory path, each `(key, context, entries)`: the
    directory's (device, inode, mtime_ns, ctime_ns), the walk's (root, work tree), and its
    entries as (name, FILE | FOLDER | LINK) in the order it listed them."""

    __slots__ = ("stored", "fresh", "asked", "racy_after")

    def __init__(self, stored: dict, racy_after: int) -> None:
        self.stored = stored
        self.fresh: dict[str, tuple] = {}  # listed this run
        self.asked: set[str] = set()  # every directory looked up this run
        self.racy_after = racy_after  # a directory changed since this is not kept

    def get(self, directory: str, key: tuple, context: tuple) -> tuple | None:
        """The entries of `directory` if its listing stands: same key, same context, well formed."""
        self.asked.add(directory)
        stored = self.stored.get(directory)
        try:
            if stored is None or stored[0] != key or stored[1] != context:
                return None
            entries = stored[2]
            if type(entries) is not tuple or not _well_formed(entries):
                return None
        except (TypeError, IndexError, ValueError):
            return None
        self.fresh[directory] = stored
        return entries

    def put(self, directory: str, key: tuple, context: tuple, entries: list[tuple[str, str]]) -> None:
        """Keep what the walk found in `directory`, unless it changed too recently to be trusted."""
        if key[2] < self.racy_after and key[3] < self.racy_after:
            self.fresh[directory] = (key, context, tuple(entries))

    @property
    def changed(self) -> bool:
        """Whether a save has anything new to write."""
        return any(self.stored.get(directory) is not entry for directory, entry in self.fresh.items())

    def kept(self, exists: Callable[[str], bool]) -> dict[str, tuple]:
        """What a save writes: this run's listings, and the stored ones of directories this run did
        not look up while they still exist (`exists(path)`)."""
        kept = {path: entry for path, entry in self.stored.items() if path not in self.asked and exists(path)}
        kept.update(self.fresh)
        return kept


def _well_formed(entries: tuple) -> bool:
    """Each entry a (name, kind) the walk could have listed: a name of one path part, never `.`
    or `..`. Tested over all the names at once, not entry by entry: a warm run replays every entry."""
    if not entries:
        return True
    if set(map(type, entries)) != {tuple} or set(map(len, entries)) != {2}:
        return False
    names, kinds = zip(*entries, strict=True)
    if set(map(type, names)) != {str} or not _KINDS.issuperset(kinds) or not _NOT_NAMES.isdisjoint(names):
        return False
    joined = "\0".join(names)  # one NUL between each two names, none inside one
    if joined.count("\0") != len(names) - 1:
        return False
    return os.sep not in joined and (not os.altsep or os.altsep not in joined)
