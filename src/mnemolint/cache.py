"""The cache: what the per-file rules found on each unchanged file, and what was parsed of it.

Like ruff's, one file per configuration under `.mnemolint_cache/<version>/` (where that folder is,
and what a repository may say about it: cache_dir.py), with its own `.gitignore` (`*`) and
`CACHEDIR.TAG`; a save keeps the newest few files of its version folder. An entry is trusted
while its file keeps its size, `mtime_ns` and inode, and its kind, place (path relative to its
container, the container) and reader; the run's key (`_key`) covers the mnemolint version and
its source files, the settings and the rule selection, so a change to any of them is a different
cache file. Only the findings of rules declared `cacheable` are kept; every other rule runs on
every run, from the cached facts (frontmatter, sizes, suppression comments) or, for anything
else, from the file read lazily.

A file modified within `RACY_NS` of the run that read it may have changed again within the
timestamp's resolution (git's "racy clean"): its entry also holds a BLAKE2 digest of its bytes,
and is trusted only once the file is read again and the digest matches.

The format is `marshal` of plain data (it never runs code, unlike pickle), behind a magic, the
run's key and a CRC-32; anything else (corrupt, foreign, another version) is ignored and
rebuilt. Each entry is its stat key and a body, marshalled on its own and decoded only when the
key matches, so a run that changed one file writes the others' bodies back as they were.
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
from mnemolint.cache_dir import GITIGNORE, TAG, directory, marked, prune
from mnemolint.model import Diagnostic, Edit, Fix
from mnemolint.parse.document import FACT_OBJECTS, overlaid
from mnemolint.parse.frontmatter import Ambiguous, FrontMatter
from mnemolint.parse.suppress import Suppressions

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mnemolint.config import Settings
    from mnemolint.parse.document import Document
    from mnemolint.rules.base import Rule

RACY_NS = 2_000_000_000  # mtime this close to the reading run: the stat key alone is not trusted
_MAGIC = b"mnemolint-cache\x01"
_MAX_BYTES = 1 << 30
_OBJECT = "\0mnemolint-object"  # first item of a tuple standing for one of `_CLASSES`
_DATED = "\0mnemolint-dated"  # data with dates in it (`_undated`), or one date
_CLASSES: dict[str, Any] = {cls.__name__: cls for cls in (FrontMatter, Ambiguous, Suppressions)}
_SCALARS = (str, int, float, bool, type(None), bytes)


class Cache:
    """One run's view of its cache file: `recall` before the per-file rules, `keep` after them."""

    __slots__ = ("path", "key", "started", "entries", "cacheable", "fresh", "seen")

    def __init__(self, path: str, key: str, entries: dict, cacheable: frozenset[str]) -> None:
        self.path = path
        self.key = key
        self.started = time.time_ns()  # before any file is read: what racy entries are judged by
        self.entries = entries
        self.cacheable = cacheable
        self.fresh: dict[str, tuple] = {}  # entries made (or vouched for again) this run
        self.seen: set[str] = set()  # the paths discovery found this run

    @classmethod
    def open(cls, settings: Settings, rules: list[Rule]) -> Cache:
        """The cache of this configuration and selection, empty when there is none to trust."""
        cacheable = frozenset(rule.code for rule in rules if rule.cacheable)
        key = _key(settings, rules)
        name = f"{_crc(key.encode('utf-8', 'surrogatepass')):08x}.cache"
        path = os.path.join(directory(settings.source, settings.cache_dir, settings.root), __version__, name)
        return cls(path, key, _read(path, key), cacheable)

    def recall(self, documents: list[Document], wanted: Callable[[str], bool]) -> dict[str, list[Diagnostic]]:
        """Give each unchanged document its cached facts; its cached findings, by path (made only
        for the `wanted` ones, the focus of the run: the others' findings are never reported)."""
        return _without_gc(self._recall, documents, wanted)

    def _recall(self, documents: list[Document], wanted: Callable[[str], bool]) -> dict[str, list[Diagnostic]]:
        found: dict[str, list[Diagnostic]] = {}
        entries = self.entries
        self.seen.update(document.path for document in documents)
        for document in documents:
            entry = entries.get(document.path)
            if entry is None or document.kind is None or overlaid(document.path):  # an editor's text, not the file
                continue
            try:
                held = _valid(entry, document, self.started)
                if held is not None:
                    facts, findings, vouched = held
                    diagnostics = (
                        [_diagnostic(item, document.path) for item in findings] if wanted(document.path) else []
                    )
                    document.recall(_thaw_facts(facts))  # last: a bad entry raised before it
                    found[document.path] = diagnostics
                    if vouched:  # its bytes matched, and it is no longer racy: say so
                        self.fresh[document.path] = entry[:3] + (self.started,) + entry[4:]
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, EOFError):
                continue  # an entry of the wrong shape: never trusted, the file is read
        return found

    def keep(self, documents: list[Document], found: list[Diagnostic]) -> None:
        """Keep the facts and the cacheable findings of the documents checked this run, unless
        one of them turned out not to fit (`document.keep` cleared: then nothing is kept)."""
        _without_gc(self._keep, documents, found)

    def _keep(self, documents: list[Document], found: list[Diagnostic]) -> None:
        if any(not document.keep for document in documents):
            return
        by_path: dict[str, list[tuple]] = {}
        cacheable = self.cacheable
        for diagnostic in found:
            if diagnostic.code in cacheable:
                by_path.setdefault(diagnostic.path, []).append(_frozen_diagnostic(diagnostic))
        racy_after = self.started - RACY_NS
        for document in documents:
            entry = _entry(document, by_path.get(document.path, []), racy_after, self.started)
            if entry is not None:
                self.fresh[document.path] = entry

    def save(self) -> None:
        """Write the entries (the old ones of files not checked this run carried over, while the
        file is still there), atomically; any failure leaves the cache as it was."""
        if not self.fresh:
            return
        seen = self.seen
        entries = {path: entry for path, entry in self.entries.items() if path in seen or os.path.lexists(path)}
        entries.update(self.fresh)
        try:
            payload = marshal.dumps((self.key, entries))
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


def _key(settings: Settings, rules: list[Rule]) -> str:
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


def _source_stamp() -> list[tuple[str, int, int]]:
    """Each source file of mnemolint by name, size and mtime: an edited checkout is another
    version, though it says the same `__version__`."""
    top = os.path.dirname(os.path.abspath(__file__))
    stamp = []
    pending = [(top, "")]  # a folder, and its path relative to `top` as `relpath` writes it
    while pending:
        folder, rel = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":  # compiled files: no source of its own
                        pending.append((entry.path, os.path.join(rel, entry.name)))
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    stamp.append((os.path.join(rel, entry.name), info.st_size, info.st_mtime_ns))
    return sorted(stamp)


def _crc(data: bytes) -> int:
    import zlib

    return zlib.crc32(data)


def _read(path: str, key: str) -> dict:
    """The entries of the cache file at `path` if it is one this run can trust, else none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > _MAX_BYTES:
                return {}
            data = handle.read()
        if not data.startswith(_MAGIC):
            return {}
        head = len(_MAGIC)
        payload = data[head + 4 :]
        if int.from_bytes(data[head : head + 4], "big") != _crc(payload):
            return {}
        stored_key, entries = _without_gc(marshal.loads, payload)
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return entries if stored_key == key and type(entries) is dict else {}


def _valid(entry: tuple, document: Document, started: int) -> tuple[tuple, tuple, bool] | None:
    """The facts and findings of `entry` if it still stands for the file (else None): its stat
    key and place match, and for a racy entry its bytes too; and whether it is then no longer
    racy for this run, so that its entry can say so. Its body is decoded only then."""
    try:
        info = os.stat(document.path)
    except OSError:
        return None
    size, mtime, inode, stamp, body = entry
    if (info.st_size, info.st_mtime_ns, info.st_ino) != (size, mtime, inode):
        return None
    place, digest, facts, findings = marshal.loads(body)
    if place != _place(document):
        return None
    if mtime < stamp - RACY_NS:
        return facts, findings, False
    if digest is None or digest != _digest_of_file(document.path, size):
        return None
    return facts, findings, mtime < started - RACY_NS


def _place(document: Document) -> tuple:
    """What, beside its bytes, a cacheable rule may read of a document."""
    container = document.container
    assert document.kind is not None
    return (document.kind.name, document.rel, container.path if container is not None else None, document.reader.name)


def _entry(document: Document, findings: list[tuple], racy_after: int, started: int) -> tuple | None:
    """The cache entry of a document checked this run, or None when it cannot have one."""
    if document.kind is None or not document.known or overlaid(document.path):
        return None
    known = document.facts()
    try:
        info = os.stat(document.path)
        facts = _freeze_facts(known)
    except (OSError, _Unplain):
        return None
    if info.st_size != document.size and not document.too_large:
        return None  # changed since it was read
    digest = None
    if info.st_mtime_ns >= racy_after:
        text = document.text
        if text is None or document.decode_error is not None:
            return None  # its bytes are not at hand to vouch for it
        data = text.encode("utf-8", "surrogatepass")
        if len(data) != info.st_size:
            return None
        digest = _digest(data)
    place = _place(document)
    try:  # marshal takes only the exact types it can give back: a str subclass, a date are refused
        body = marshal.dumps((place, digest, facts, tuple(findings)))
    except ValueError:
        try:  # frontmatter with a date in it, most likely (`created: 2025-01-31`)
            body = marshal.dumps((place, digest, _freeze_facts(known, dated=True), tuple(findings)))
        except (ValueError, _Unplain):
            return None
    return (info.st_size, info.st_mtime_ns, info.st_ino, started, body)


def _digest(data: bytes) -> bytes:
    from hashlib import blake2b

    return blake2b(data, digest_size=16).digest()


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
        values = tuple(_freeze(getattr(value, slot), dated) for slot in kind.__slots__)
        nested = tuple(at for at, item in enumerate(values) if _holds_objects(item))
        return (_OBJECT, kind.__name__, values, nested)
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
        return _BUILDERS[value[1]](values)
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


_BUILDERS = {name: _builder(cls) for name, cls in _CLASSES.items()}


def _freeze_facts(facts: tuple, dated: bool = False) -> tuple:
    """`Document.facts()` to keep: only its parsed frontmatter and suppressions are objects."""
    return tuple(_freeze(fact, dated) if index in FACT_OBJECTS else fact for index, fact in enumerate(facts))


def _thaw_facts(facts: tuple) -> tuple:
    """`Document.facts()` as kept: only its parsed frontmatter and suppressions are objects."""
    return tuple(_thaw(fact) if index in FACT_OBJECTS else fact for index, fact in enumerate(facts))


def _frozen_diagnostic(diagnostic: Diagnostic) -> tuple:
    fix = diagnostic.fix
    frozen_fix = None
    if fix is not None:
        edits = tuple((edit.start, edit.end, edit.content) for edit in fix.edits)
        frozen_fix = (fix.applicability, fix.message, edits, fix.path)
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


def _diagnostic(item: tuple, path: str) -> Diagnostic:
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
        applicability, message, edits, fix_path = fix
        made.fix = Fix(applicability, message, tuple(Edit(*edit) for edit in edits), path=fix_path)
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
