"""The cache: what the per-file rules found on each unchanged file, and what was parsed of it;
and what the container rules found on each unchanged container.

Like ruff's, one file per configuration under `.mnemolint_cache/<version>/` (where that folder is,
and what a repository may say about it: cache_dir.py), with its own `.gitignore` (`*`) and
`CACHEDIR.TAG`; a save keeps the newest few files of its version folder. An entry is trusted
while its file keeps its size, `mtime_ns` and inode, and its kind, place (path relative to its
container, the container) and reader; the run's key (`_key`) covers the mnemolint version and
its source files, the settings and the rule selection, so a change to any of them is a different
cache file. Only the findings of rules declared `cacheable` are kept; every other rule runs on
every run, from the cached facts (frontmatter, sizes, suppression comments) or, for anything
else, from the file read lazily. The walk's listing of each unchanged directory is kept too
(discover/listing.py). A container's entry (`held`, `hold`) is trusted while the
container holds the same files, each with the stat key it had before the run that made the
entry read it (its change time too: new bytes with an old mtime put back still show), the same
other files and marker link, and its rules' questions to the file system get the same answers
(the members' paths are kept as one string, their stat keys beside, the digests of the racy ones
by position: 10,000 members load in a third of the time a tuple for each took).

A file modified within `RACY_NS` of the run that read it may have changed again within the
timestamp's resolution (git's "racy clean"): its entry also holds a BLAKE2 digest of its bytes,
and is trusted only once the file is read again and the digest matches.

The format is `marshal` of plain data (it never runs code, unlike pickle), behind a magic, the
run's key and a CRC-32; anything else (corrupt, foreign, another version) is ignored and
rebuilt. Each entry is its stat key, digest, place, whether it holds findings or suppression
comments, a body, marshalled on its own and decoded only when a rule of the run reads the
file (so a run that changed one file writes the others' bodies back as they were), and the
marks its text holds (`Document.holds`: a tree rule reading only marked files needs no body).
Writes go to a temporary file in the cache dir, then replace the old one (atomic; two
concurrent runs: the last writer wins). A cache dir that is a symlink, that cannot be written, or
that holds files but no mark of mnemolint's, turns the cache off without a word.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
import time

from mnemolint import __version__
from mnemolint.cache_dir import GITIGNORE, HOOK_FACTS, TAG, directory, marked, prune
from mnemolint.discover.listing import Listings
from mnemolint.model import Diagnostic, Edit, Fix
from mnemolint.parse.document import FACT_MARKS, FACT_OBJECTS, overlaid, overlaid_paths
from mnemolint.parse.frontmatter import Ambiguous, FrontMatter
from mnemolint.parse.suppress import Suppressions
from mnemolint.redact import find_secrets, may_hold_secret, may_hold_secrets

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mnemolint.config import Settings
    from mnemolint.kinds.base import Container
    from mnemolint.parse.document import Document
    from mnemolint.parse.index_lines import IndexLine
    from mnemolint.rules import Listed
    from mnemolint.rules.base import Rule

RACY_NS = 2_000_000_000  # mtime this close to the reading run: the stat key alone is not trusted
# A run that would write nothing but entries vouched for again (`Cache.vouched`) writes them only
# when they are at least this share of the cache: each one left costs later runs a read of one
# file to compare, the write costs the whole cache (every entry of a 10,000-file tree, again).
REKEEP_SHARE = 8
_MAGIC = b"mnemolint-cache\x01"
_MAX_BYTES = 1 << 30
_OBJECT = "\0mnemolint-object"  # first item of a tuple standing for one of `_CLASSES`
_DATED = "\0mnemolint-dated"  # data with dates in it (`_undated`), or one date
_CLASSES: dict[str, Any] = {cls.__name__: cls for cls in (FrontMatter, Ambiguous, Suppressions)}
_SCALARS = (str, int, float, bool, type(None), bytes)


class Cache:
    """One run's view of its cache file: `look` and `recall` before the per-file rules, `keep`
    after them; `held` and `hold` around each container's rules."""

    __slots__ = (
        "path",
        "key",
        "started",
        "entries",
        "containers",
        "cacheable",
        "fresh",
        "fresh_containers",
        "vouched",
        "seen",
        "keys",
        "valid",
        "digests",
        "skipped",
        "listings",
    )

    def __init__(self, path: str, key: str, stored: tuple[dict, dict, dict], cacheable: frozenset[str]) -> None:
        self.path = path
        self.key = key
        self.started = time.time_ns()  # before any file is read: what racy entries are judged by
        self.entries, self.containers, listings = stored
        self.listings = Listings(listings, self.started - RACY_NS)  # the walk's, by directory
        self.cacheable = cacheable
        self.fresh: dict[str, tuple] = {}  # entries made (or vouched for again) this run
        self.fresh_containers: dict[tuple[str, str], tuple] = {}
        self.vouched: set[object] = set()  # the fresh entries only vouched for again: paths, container keys
        self.seen: set[str] = set()  # the paths discovery found this run
        self.keys: dict[str, tuple[int, int, int, int]] = {}  # each document's stat, before any read
        self.valid: dict[str, tuple] = {}  # the entries that still stand for their file
        self.digests: dict[str, bytes] = {}  # of the racy files whose bytes were compared
        self.skipped: set[str] = set()  # valid entries not decoded: no finding, no suppression comment

    @classmethod
    def open(cls, settings: Settings, rules: list[Rule] | list[Listed]) -> Cache:
        """The cache of this configuration and selection, empty when there is none to trust."""
        cacheable = frozenset(rule.code for rule in rules if rule.cacheable)
        key = _key(settings, rules)
        name = f"{_crc(key.encode('utf-8', 'surrogatepass')):08x}.cache"
        path = os.path.join(directory(settings.source, settings.cache_dir, settings.root), __version__, name)
        return cls(path, key, _read(path, key), cacheable)

    def look(self, documents: list[Document]) -> None:
        """Stat each document once, before any rule reads it, and find the entries that still
        stand for their file (its stat key and place unchanged; a racy one, its bytes too); none
        is decoded yet."""
        _without_gc(self._look, documents)

    def _look(self, documents: list[Document]) -> None:
        entries, keys, valid, stat = self.entries, self.keys, self.valid, os.stat
        overlay = overlaid_paths()  # an editor's text, not the file
        self.seen.update([document.path for document in documents])
        for document in documents:
            path, kind = document.path, document.kind
            if kind is None or path in overlay:
                continue
            try:
                info = stat(path)
            except OSError:
                continue
            size, mtime, inode = info.st_size, info.st_mtime_ns, info.st_ino
            keys[path] = (size, mtime, inode, info.st_ctime_ns)
            entry = entries.get(path)
            try:
                if entry is None or entry[0] != size or entry[1] != mtime or entry[2] != inode or len(entry) != 9:
                    continue
                place, container = entry[5], document.container
                if place[1] != document.rel or place[0] != kind.name or len(place) != 4:
                    continue  # `_place`, compared piece by piece: the hot loop of a warm run
                if place[2] != (container.path if container is not None else None):
                    continue
                if place[3] != kind.reader(document).name:
                    continue
                if mtime >= entry[3] - RACY_NS:
                    now = _digest_of_file(path, size)
                    if now is None or entry[4] != now:
                        continue
                    self.digests[path] = now
                valid[path] = entry
            except (TypeError, IndexError):
                continue  # an entry of the wrong shape: never trusted, the file is read

    def recall(
        self, documents: list[Document], wanted: Callable[[str], bool], needed: Callable[[Document], bool]
    ) -> dict[str, list[Diagnostic]]:
        """Give each unchanged document its cached findings, by path (made only for the `wanted`
        ones, the focus of the run: the others' findings are never reported), and its facts where
        a rule of this run may read them (`needed`), or where it has a finding or a suppression
        comment; the others are left unread (`skipped`), and read only if something asks."""
        return _without_gc(self._recall, documents, wanted, needed)

    def _recall(
        self, documents: list[Document], wanted: Callable[[str], bool], needed: Callable[[Document], bool]
    ) -> dict[str, list[Diagnostic]]:
        found: dict[str, list[Diagnostic]] = {}
        valid, started, racy_after = self.valid, self.started, self.started - RACY_NS
        for document in documents:
            path = document.path
            entry = valid.get(path)
            if entry is None:
                continue
            if not entry[6] and not needed(document):
                found[path] = []
                self.skipped.add(path)
                document.recall_marks(entry[8])  # `holds` answers without the body
            else:
                try:
                    facts, findings = marshal.loads(entry[7])
                    diagnostics = [_diagnostic(item, path) for item in findings] if wanted(path) else []
                    document.recall(_thaw_facts(facts))  # last: a bad entry raised before it
                except (TypeError, ValueError, IndexError, KeyError, AttributeError, EOFError):
                    continue  # an entry of the wrong shape: never trusted, the file is read
                found[path] = diagnostics
            if path in self.digests and entry[1] < racy_after:  # its bytes matched, no longer racy: say so
                self.fresh[path] = entry[:3] + (started,) + entry[4:]
                self.vouched.add(path)
        return found

    def entry(self, document: Document, found: list[Diagnostic]) -> tuple | None:
        """The entry of a document checked this run, its per-file findings `found`, or None when it
        cannot have one: made as soon as its rules have run, by the process that ran them."""
        cacheable = self.cacheable
        frozen = [_frozen_diagnostic(diagnostic) for diagnostic in found if diagnostic.code in cacheable]
        return _entry(document, frozen, self.started - RACY_NS, self.started, self.keys.get(document.path))

    def keep(self, made: list[tuple[str, tuple]], fits: bool) -> None:
        """Keep the entries `made` this run (`entry`), unless a finding turned out not to fit
        (`fits` false, some `document.keep` cleared: then nothing is kept)."""
        if fits:
            _without_gc(self._keep, made)

    def _keep(self, made: list[tuple[str, tuple]]) -> None:
        suspect = may_hold_secrets([entry[7] for _, entry in made])
        for (path, entry), maybe in zip(made, suspect, strict=True):
            if maybe and _holds_secret(marshal.loads(entry[7])):
                continue  # what it keeps of the file would copy credential-shaped text into the cache
            self.fresh[path] = entry
            self.vouched.discard(path)
            if entry[4] is not None:
                self.digests[path] = entry[4]

    def held(self, container: Container) -> list[tuple] | None:
        """The cached findings of the container's cacheable rules, frozen, if they still stand:
        the same files in it (every one, by path), each with the stat key it had when they were
        made (a racy one, its bytes too), the same other files and marker link, and the same
        answers to what its rules asked the file system (`Container.probes`). A member racy when
        they were made whose bytes still match and which is racy no longer is vouched for again
        (kept without its digest): else every later run would read it again to compare."""
        stored = self.containers.get((container.path, container.type.name))
        if stored is None:
            return None
        racy_after = self.started - RACY_NS
        try:
            (paths, member_keys, digests), others, link, probes, findings = stored
            documents, keys = container.documents, self.keys
            if len(member_keys) != len(documents) or paths != _joined(documents) or others != tuple(container.others):
                return None
            if link != container.marker_link:
                return None
            for key, document in zip(member_keys, documents, strict=True):
                if key != keys.get(document.path):
                    return None
            settled = False
            for at, digest in digests.items():
                path, key = documents[at].path, member_keys[at]
                if digest != (self.digests.get(path) or _digest_of_file(path, key[0])):
                    return None
                settled = settled or key[1] < racy_after
            if not container.probed_alike(probes):
                return None
        except (TypeError, ValueError, IndexError, AttributeError):
            return None
        if settled:
            digests = {at: digest for at, digest in digests.items() if member_keys[at][1] >= racy_after}
            members = (paths, member_keys, digests)
            self.fresh_containers[(container.path, container.type.name)] = (members, others, link, probes, findings)
            self.vouched.add((container.path, container.type.name))
        return findings

    def hold(self, container: Container, findings: list[Diagnostic], rebuilt: frozenset[int]) -> None:
        """Keep the findings of the container's cacheable rules (all of them ran), keyed as
        `held` checks them; not when a file of it was not stat'ed before any read (an editor's
        buffer), or is racy and its bytes are not at hand to vouch for it. `rebuilt`: the indexes
        of the findings whose fix is computed when applied (kept without it: `thawed` is given
        a way to compute it again)."""
        racy_after = self.started - RACY_NS
        keys: list[tuple] = []
        digests: dict[int, bytes] = {}
        for at, document in enumerate(container.documents):
            key = self.keys.get(document.path)
            if key is None:
                return
            if key[1] >= racy_after:
                digest = self.digests.get(document.path) or _digest_of_text(document, key[0])
                if digest is None:
                    return
                digests[at] = digest
            keys.append(key)
        frozen = tuple(
            (diagnostic.path, _frozen_diagnostic(diagnostic, at in rebuilt)) for at, diagnostic in enumerate(findings)
        )
        probes = container.probes()
        members = (_joined(container.documents), tuple(keys), digests)
        entry = (members, tuple(container.others), container.marker_link, probes, frozen)
        # What its rules asked and say (an index's link targets), without the paths of its files:
        # a path is kept as an entry's key already, and 10,000 of them cost the screen 40 ms.
        said = (probes, tuple(finding for _, finding in frozen))
        try:
            marshal.dumps(entry)
            dumped = marshal.dumps(said)
        except ValueError:  # a value marshal cannot give back exactly
            return
        if may_hold_secret(dumped) and _holds_secret(said):
            return  # it would copy credential-shaped text (a link target) into the cache
        self.fresh_containers[(container.path, container.type.name)] = entry
        self.vouched.discard((container.path, container.type.name))

    def _only_vouched(self) -> bool:
        """Whether all this run would write is entries vouched for again, too few to be worth the
        write (`REKEEP_SHARE`): a run after one file was edited then writes nothing, and the run
        that next writes anyway keeps them."""
        vouched = self.vouched
        return (
            not self.listings.changed
            and len(vouched) * REKEEP_SHARE < len(self.entries)
            and vouched.issuperset(self.fresh)
            and vouched.issuperset(self.fresh_containers)
        )

    def save(self) -> None:
        """Write the entries (the old ones of files not checked this run carried over, while the
        file is still there), atomically; any failure leaves the cache as it was."""
        if not self.fresh and not self.fresh_containers and not self.listings.changed:
            return
        if self._only_vouched():
            return
        seen = self.seen
        entries = {path: entry for path, entry in self.entries.items() if path in seen or os.path.lexists(path)}
        entries.update(self.fresh)
        containers = {key: entry for key, entry in self.containers.items() if os.path.lexists(key[0])}
        containers.update(self.fresh_containers)
        try:
            payload = marshal.dumps((self.key, entries, containers, self.listings.kept(os.path.lexists)))
            _write(self.path, _MAGIC + _crc(payload).to_bytes(4, "big") + payload)
        except (OSError, ValueError):  # read-only, full, a link in the way; an unmarshallable value
            return
        prune(os.path.dirname(self.path))


def _without_gc(function: Any, *args: object) -> Any:
    """`function(*args)` with the cyclic collector paused: it makes hundreds of thousands of
    objects, none in a cycle, and the collector's passes over them took half the time."""
    if not gc.isenabled():
        return function(*args)
    gc.disable()
    try:
        return function(*args)
    finally:
        gc.enable()


def _key(settings: Settings, rules: list[Rule] | list[Listed]) -> str:
    """Everything that can change a finding, as text: the version and its code, the settings, the
    active rules. Compared whole when the cache is read, so a hash collision costs nothing."""
    fields = (
        __version__,
        sys.version_info[:2],
        marshal.version,
        _source_stamp(),
        settings.root,
        sorted(settings.options.items()),
        [(rule.code, rule.severity, rule.cacheable) for rule in rules],
        sorted(settings.per_file_ignores.items()),
        sorted(settings.severity.items()),
        settings.exclude,
        settings.extend_exclude,
        settings.memory_dirs,
    )
    return repr(fields)


_STAMP: list[list[tuple[str, int, int]]] = []  # `_source_stamp`, once per process: the code that runs


def _source_stamp() -> list[tuple[str, int, int]]:
    """Each source file of mnemolint by name, size and mtime: an edited checkout is another
    version, though it says the same `__version__`. Worked out once per process (the check cache
    and the hook's index facts both ask)."""
    if not _STAMP:
        top = os.path.dirname(os.path.abspath(__file__))
        stamp = []
        pending = [(top, "")]  # a folder, and its path relative to `top`, "/"-ended
        while pending:
            folder, rel = pending.pop()
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if name != "__pycache__":  # compiled files: no source of its own
                            pending.append((entry.path, f"{rel}{name}/"))
                    elif name.endswith(".py"):
                        info = entry.stat()
                        stamp.append((rel + name, info.st_size, info.st_mtime_ns))
        _STAMP.append(sorted(stamp))
    return _STAMP[0]


def _crc(data: bytes) -> int:
    import zlib

    return zlib.crc32(data)


def _read(path: str, key: str) -> tuple[dict, dict, dict]:
    """The entries (by file), the container results and the directory listings of the cache file
    at `path` if it is one this run can trust, else none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > _MAX_BYTES:
                return {}, {}, {}
            data = handle.read()
        if not data.startswith(_MAGIC):
            return {}, {}, {}
        head = len(_MAGIC)
        payload = data[head + 4 :]
        if int.from_bytes(data[head : head + 4], "big") != _crc(payload):
            return {}, {}, {}
        stored_key, entries, containers, listings = _without_gc(marshal.loads, payload)
    except (OSError, ValueError, EOFError, TypeError):
        return {}, {}, {}
    if stored_key != key or type(entries) is not dict or type(containers) is not dict or type(listings) is not dict:
        return {}, {}, {}
    return entries, containers, listings


def _joined(documents: list[Document]) -> str:
    """The paths of a container's documents as one string, as `hold` keeps them: one object to
    load and compare, not 10,000 (no path holds a NUL)."""
    return "\0".join([document.path for document in documents])


def _place(document: Document) -> tuple:
    """What, beside its bytes, a cacheable rule may read of a document."""
    container = document.container
    assert document.kind is not None
    return (document.kind.name, document.rel, container.path if container is not None else None, document.reader.name)


def _entry(document: Document, findings: list[tuple], racy_after: int, started: int, key: tuple | None) -> tuple | None:
    """The cache entry of a document checked this run, or None when it cannot have one. `key`:
    its stat taken before it was read (`look`), else it is taken now. Either way the entry holds
    what was read under it: a file changed since that stat has another one by the next run (or,
    changed within the same clock tick, other bytes than the digest a racy entry keeps)."""
    if document.kind is None or not document.known or overlaid(document.path):
        return None
    known = document.facts()
    try:
        size, mtime, inode = key[:3] if key is not None else _stat_key(document.path)
        facts = _freeze_facts(known)
    except (OSError, _Unplain):
        return None
    if size != document.size and not document.too_large:
        return None  # changed since that stat
    digest = None
    if mtime >= racy_after:
        digest = _digest_of_text(document, size)
        if digest is None:
            return None  # its bytes are not at hand to vouch for it
    try:  # marshal takes only the exact types it can give back: a str subclass, a date are refused
        body = marshal.dumps((facts, tuple(findings)))
    except ValueError:
        try:  # frontmatter with a date in it, most likely (`created: 2025-01-31`)
            body = marshal.dumps((_freeze_facts(known, dated=True), tuple(findings)))
        except (ValueError, _Unplain):
            return None
    # What `recall` decodes the body for even when no rule of the run reads the file: its
    # findings, and its suppression comments (False: not parsed, so not known to be none).
    flagged = bool(findings) or known[FACT_OBJECTS[1]] is not None
    marks = known[FACT_MARKS]
    return (size, mtime, inode, started, digest, _place(document), flagged, body, marks)


def _stat_key(path: str) -> tuple[int, int, int]:
    info = os.stat(path)
    return info.st_size, info.st_mtime_ns, info.st_ino


def _holds_secret(kept: object) -> bool:
    """Whether the text in `kept` (a file's frozen facts and findings: frontmatter values and lines,
    finding messages; a container's findings) holds credential-shaped text (`redact.find_secrets`;
    its strings joined by newlines, across which no secret shape but a private key's block
    reaches, and that one's begin line is a single string): a secret is never copied out of the
    file it is in, into the cache neither.
    Asked only of an entry whose dump `redact.may_hold_secret` does not clear: walking the kept
    values costs more than all the rules of a small file."""
    texts: list[str] = []
    stack = [kept]
    while stack:
        value = stack.pop()
        if type(value) is str:
            texts.append(value)
        elif type(value) in (tuple, list, frozenset):
            stack.extend(value)  # type: ignore[arg-type]
        elif type(value) is dict:
            stack.extend(value.keys())  # type: ignore[union-attr]
            stack.extend(value.values())  # type: ignore[union-attr]
    if not texts:
        return False
    return bool(find_secrets("\n".join(texts)))


def _digest(data: bytes) -> bytes:
    try:  # hashlib's own BLAKE2, without the ~3 ms of importing hashlib's OpenSSL bindings
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b

    return blake2b(data, digest_size=16).digest()


def _digest_of_text(document: Document, size: int) -> bytes | None:
    """The digest of the bytes of `document` as read this run (read now if no rule read it), or
    None when its text does not give them back exactly."""
    text = document.text
    if text is None or document.decode_error is not None:
        return None
    data = text.encode("utf-8", "surrogatepass")
    return _digest(data) if len(data) == size else None


def _digest_of_file(path: str, size: int) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb", buffering=0) as handle:
            data = handle.read(size + 1) or b""
    except OSError:
        return None
    return _digest(data) if len(data) == size else None


class _Unplain(Exception):
    """A value the cache cannot keep exactly (a date from YAML, say): that file gets no entry."""


def _freeze(value: object, dated: bool = False) -> object:
    """`value` as plain data marshal keeps exactly: one of `_CLASSES` as a tagged tuple (with the
    positions of its slots that hold objects), a list of them, or data; anything else raises
    `_Unplain`. Objects stand alone or fill a whole list, never inside a dict or beside data in a
    list, so that `_thaw` looks no further than that. `dated`: data (YAML values) may hold dates,
    which marshal refuses; each container of data is then tagged too, its dates made tuples."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if _CLASSES.get(kind.__name__) is kind:
        values: list[object] = []
        nested: list[int] = []
        for slot in kind.__slots__:  # a loop, not generators: ten slots of every topic, most of them scalars
            item = getattr(value, slot)
            if type(item) not in _SCALARS:
                item = _freeze(item, dated)
                if _holds_objects(item):
                    nested.append(len(values))
            values.append(item)
        return (_OBJECT, kind.__name__, tuple(values), tuple(nested))
    if type(value) is list and value and _CLASSES.get(type(value[0]).__name__) is type(value[0]):
        items = [_freeze(item, dated) for item in value]
        if not all(_holds_objects([item]) for item in items):
            raise _Unplain("objects beside data in a list")
        return items
    if dated and kind in (dict, list, tuple):
        return (_OBJECT, _DATED, _undated(value), ())
    return value  # data: marshal refuses anything it cannot give back exactly


def _undated(value: object) -> object:
    """Plain data with each date and time as a tagged tuple (a time zone other than a fixed
    offset cannot be given back exactly: `_Unplain`)."""
    import datetime as dt

    kind = type(value)
    if isinstance(value, dict) and kind is dict:
        return {_undated(key): _undated(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) and kind in (list, tuple):
        return kind(_undated(item) for item in value)
    if isinstance(value, dt.datetime) and kind is dt.datetime:
        zone = value.tzinfo
        offset = None if zone is None else zone.utcoffset(None)
        name = None  # unnamed, unless it has one (`dt.timezone(offset)` would name it `UTC+05:30`)
        if zone is not None and offset is not None and repr(zone) != repr(dt.timezone(offset)):
            name = zone.tzname(None)
        if zone is not None and (
            type(zone) is not dt.timezone or offset is None or repr(zone) != repr(_zone(offset, name))
        ):
            raise _Unplain("a time zone that is not a fixed offset")
        fields = (value.year, value.month, value.day, value.hour, value.minute, value.second, value.microsecond)
        micro = None if offset is None else offset // dt.timedelta(microseconds=1)
        return (_DATED, fields, micro, name, value.fold)
    if isinstance(value, dt.date) and kind is dt.date:
        return (_DATED, value.toordinal())
    return value


def _zone(offset: Any, name: str | None) -> Any:
    """A fixed-offset time zone as YAML's loader makes one (named `+05:30`, say)."""
    import datetime as dt

    return dt.timezone(offset, name) if name is not None else dt.timezone(offset)


def _redated(value: object) -> object:
    """The inverse of `_undated`."""
    import datetime as dt

    if isinstance(value, dict):
        return {_redated(key): _redated(item) for key, item in value.items()}
    if isinstance(value, tuple) and value and value[0] == _DATED:
        if len(value) == 2:
            return dt.date.fromordinal(value[1])
        fields, micro, name, fold = value[1:]
        zone = None if micro is None else _zone(dt.timedelta(microseconds=micro), name)
        return dt.datetime(*fields).replace(tzinfo=zone, fold=fold)
    if isinstance(value, (list, tuple)):
        return type(value)(_redated(item) for item in value)
    return value


def _holds_objects(frozen: object) -> bool:
    """Whether a frozen value is an object, or a list of them."""
    if type(frozen) is list and frozen:
        frozen = frozen[0]
    return type(frozen) is tuple and len(frozen) == 4 and frozen[0] == _OBJECT


def _thaw(value: object) -> object:
    """The inverse of `_freeze`: one object, a list of them, or data as it is."""
    if type(value) is tuple and value and value[0] == _OBJECT:
        if value[1] == _DATED:
            return _redated(value[2])
        values = value[2]
        if value[3]:  # slots holding objects
            values = list(values)
            for at in value[3]:
                values[at] = _thaw(values[at])
        build = _BUILDERS.get(value[1])
        if build is None:
            build = _BUILDERS[value[1]] = _builder(_CLASSES[value[1]])
        return build(values)
    if type(value) is list and value and type(value[0]) is tuple and value[0][0] == _OBJECT:
        return [_thaw(item) for item in value]
    return value


def _builder(cls: Any) -> Any:
    """A function making a `cls` from its slot values in one assignment (generated, as
    dataclasses make their `__init__`): ten `setattr` calls per topic are most of a warm run."""
    targets = "".join(f"made.{slot}, " for slot in cls.__slots__)
    namespace = {"new": cls.__new__, "cls": cls}
    exec(f"def build(values):\n    made = new(cls)\n    {targets}= values\n    return made\n", namespace)  # noqa: S102
    return namespace["build"]


_BUILDERS: dict[str, Any] = {}  # by class name, made on first use: a cold run thaws nothing


def _freeze_facts(facts: tuple, dated: bool = False) -> tuple:
    """`Document.facts()` to keep: only its parsed frontmatter and suppressions are objects."""
    frozen = list(facts)
    for index in FACT_OBJECTS:
        frozen[index] = _freeze(frozen[index], dated)
    return tuple(frozen)


def _thaw_facts(facts: tuple) -> list:
    """`Document.facts()` as kept: only its parsed frontmatter and suppressions are objects."""
    thawed = list(facts)
    for index in FACT_OBJECTS:
        thawed[index] = _thaw(thawed[index])
    return thawed


def _frozen_diagnostic(diagnostic: Diagnostic, rebuilt: bool = False) -> tuple:
    """A finding as plain data; `rebuilt`: its fix is computed when applied (`Fix.build`), which
    is kept as a mark only."""
    fix = diagnostic.fix
    frozen_fix = None
    if fix is not None:
        edits = tuple((edit.start, edit.end, edit.content) for edit in fix.edits)
        frozen_fix = (fix.applicability, fix.message, edits, fix.path, rebuilt)
    return (
        diagnostic.code,
        diagnostic.name,
        diagnostic.severity,
        diagnostic.message,
        diagnostic.line,
        diagnostic.column,
        diagnostic.end_line,
        diagnostic.end_column,
        frozen_fix,
        diagnostic.related,
    )


def thawed(item: tuple, rebuild: Callable[[Diagnostic], Callable[[], Any]]) -> Diagnostic:
    """A container's finding as `held` gives it; `rebuild(finding)` gives the function computing
    the fix of one whose fix was computed when applied."""
    path, frozen = item
    return _diagnostic(frozen, path, rebuild)


def _diagnostic(item: tuple, path: str, rebuild: Callable[[Diagnostic], Callable[[], Any]] | None = None) -> Diagnostic:
    made = Diagnostic.__new__(Diagnostic)
    (
        made.code,
        made.name,
        made.severity,
        made.message,
        made.line,
        made.column,
        made.end_line,
        made.end_column,
        fix,
        made.related,
    ) = item
    made.path = path
    made.fix = None
    made.agents = ()  # set for the run once the findings are filtered (affected.py)
    if fix is not None:
        applicability, message, edits, fix_path, rebuilt = fix
        made.fix = Fix(applicability, message, tuple(Edit(*edit) for edit in edits), path=fix_path)
        if rebuilt and rebuild is not None:
            made.fix.build = rebuild(made)
    return made


def _write(path: str, data: bytes) -> None:
    """`data` at `path`, through a temporary file in its folder and a rename; the cache dir is
    made (with its `.gitignore` and `CACHEDIR.TAG`) if need be, or taken when it is empty, and
    never entered through a link nor into a folder of other files."""
    folder = os.path.dirname(path)
    top = os.path.dirname(folder)
    for each in (top, folder):
        if not os.path.isdir(each):
            os.makedirs(each, exist_ok=True)
        if os.path.islink(each):
            raise OSError(f"{each} is a symlink")
        if each == top and not marked(top):
            if os.listdir(top):
                raise OSError(f"{top} holds files mnemolint did not make")
            _create(os.path.join(top, ".gitignore"), GITIGNORE.encode())
            _create(os.path.join(top, "CACHEDIR.TAG"), TAG.encode())
    temporary = os.path.join(folder, f".tmp-{os.getpid()}-{time.time_ns()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with open(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _create(path: str, data: bytes) -> None:
    """A small file that is not there yet (never written through a link)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except FileExistsError:
        return
    with open(fd, "wb") as handle:
        handle.write(data)


# --- The agent hook's index facts (commands/hook.py) ------------------------------------------
# `mnemolint hook` lints a write with the written file and its `MEMORY.md` alone; classifying a
# 2,000-line index and working out what each of its links may name is most of that run. Both are
# functions of the index's text alone (and of the options that say how it is read), so they are
# kept under the BLAKE2 digest of that text and those options, and given back only for the same
# digest (the text itself is not kept: an index that looks as if it holds a secret keeps nothing):
# a write to a topic, which leaves the index as it was, reads the index and classifies nothing.
# One file per version folder (`HOOK_FACTS`), the check cache's format under a key of its own,
# holding the last few indexes.

INDEXES_KEPT = 8  # memory dirs whose index facts are kept: the ones an agent wrote to last


class IndexFacts:
    """The index facts of one run of the hook: `recall` what is known of an index's text, `keep`
    what this run worked out of a new one."""

    __slots__ = ("path", "key", "stored", "_read")

    def __init__(self, path: str, key: str, stored: dict) -> None:
        self.path = path
        self.key = key
        self.stored = stored
        self._read: tuple[Document, bytes | None] | None = None  # the last index asked, and its `_as_read`

    def _read_of(self, index: Document) -> bytes | None:
        """`_as_read(index)`, worked out once for the index both `recall` and `keep` are asked
        about (a digest of a large text), again for another document."""
        if self._read is None or self._read[0] is not index:
            self._read = (index, _as_read(index))
        return self._read[1]

    @classmethod
    def open(cls, settings: Settings) -> IndexFacts:
        key = repr(("index facts", __version__, sys.version_info[:2], marshal.version, _source_stamp()))
        path = os.path.join(directory(settings.source, settings.cache_dir, settings.root), __version__, HOOK_FACTS)
        return cls(path, key, _read(path, key)[0])

    def recall(self, index: Document) -> tuple[list[IndexLine], dict[str, tuple[str, ...]]] | None:
        """The classified lines of `index` and the names each link target may stand for, when this
        text was seen before with these options; None otherwise (or for an entry of the wrong shape).
        Its text is not scanned for secrets again: `keep` kept nothing of a text that holds one, and
        nothing is written here."""
        read = self._read_of(index)
        entry = self.stored.get(index.path)
        if read is None or entry is None or type(entry) is not tuple or len(entry) != 3 or entry[0] != read:
            return None
        try:
            return _thaw_lines(entry[1], index.lines), dict(entry[2])
        except (TypeError, ValueError, LookupError):  # LookupError: a crafted line's links a mapping
            return None

    def keep(self, index: Document, lines: list[IndexLine], candidates: dict[str, tuple[str, ...]]) -> None:
        """Keep the facts of `index`'s text (the last `INDEXES_KEPT` indexes), atomically, unless
        it looks as if it holds a secret: its link titles and targets are then never written (a
        secret is never copied out of the file it is in), and what was kept of the path goes. A
        failure leaves the file as it was."""
        read = self._read_of(index)
        entry = self.stored.get(index.path)
        if read is not None and type(entry) is tuple and entry[:1] == (read,):
            return  # known already
        if read is not None and find_secrets(index.text or ""):
            read = None
        if read is None and entry is None:
            return  # nothing to keep nor to forget
        stored = {path: entry for path, entry in self.stored.items() if path != index.path and os.path.lexists(path)}
        kept = dict(list(stored.items())[-(INDEXES_KEPT - 1) :])
        if read is not None:
            kept[index.path] = (read, _frozen_lines(lines), tuple(candidates.items()))
        try:
            payload = marshal.dumps((self.key, kept, {}, {}))
            _write(self.path, _MAGIC + _crc(payload).to_bytes(4, "big") + payload)
        except (OSError, ValueError):
            return


def _as_read(index: Document) -> bytes | None:
    """What an index's facts are a function of: the digest of the options that say how it is read
    and of its text; None for an index with no text."""
    text = index.text
    if text is None:
        return None
    return _digest(f"{sorted(index.options.items())!r}\0{text}".encode("utf-8", "surrogatepass"))


def _frozen_lines(lines: list[IndexLine]) -> tuple:
    """Each line's kind, links and whether it is an entry; its number and text are the index's own
    (`_thaw_lines`)."""

    def links(line: IndexLine) -> tuple:
        return tuple((link.title, link.target, link.column, link.end_column) for link in line.links)

    return tuple((line.kind, links(line), line.entry) for line in lines)


def _thaw_lines(frozen: tuple, lines: list[str]) -> list[IndexLine]:
    """The classified lines of an index whose lines are `lines` (the text they were made of); a line
    without links is no entry, whatever a damaged or crafted file says (the rules read its first link)."""
    from mnemolint.parse.index_lines import IndexLine, Link

    return [  # ValueError (zip's, or unpacking's) when they are not as many; most entries hold one link
        IndexLine(
            number,
            raw.rstrip("\r"),
            kind,
            [Link(*links[0])] if len(links) == 1 else [Link(*link) for link in links],
            entry is True and bool(links),
        )
        for number, (raw, (kind, links, entry)) in enumerate(zip(lines, frozen, strict=True), 1)
    ]
