"""One file of a memory repository: read once, decoded once, split once, parsed lazily.

Every rule reads through a `Document`, so no rule touches the file system and no file is read or
parsed twice, however many rules look at it. What is parsed depends on the document's kind: a
kind without frontmatter or suppression comments never has either parsed.
"""

from __future__ import annotations

import os
from collections import deque

from mnemolint.parse import suppress
from mnemolint.parse.citations import may_cite
from mnemolint.parse.frontmatter import INVALID, TOO_COMPLEX, FrontMatter, fences, split_and_parse
from mnemolint.parse.reading import open_regular, read_up_to
from mnemolint.parse.textutil import js_trim
from mnemolint.paths import dangerous_link

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from typing import TypeVar

    T = TypeVar("T")

    from mnemolint.agents.base import Agent
    from mnemolint.kinds.base import Container, Kind

BOM = "\ufeff"


# The frontmatter keys by which a memory names others (the memory convention; MEM212 follows them).
RELATIONS = ("relates_to", "supersedes", "superseded_by")
CITES = "a citation"  # the mark of a text that may cite `path/file.ext:123` (parse/citations.py)


# What container and tree rules look for before they read a file (MEM212: a link, a relation to
# another memory; the CIT rules: a citation): each a substring of the text, but the citation's
# (`citations.may_cite`); a cached file answers `Document.holds` from these without being read.
MARKS = ("](", "]:", *RELATIONS, CITES)


def _marks_of(text: str) -> tuple[str, ...]:
    """Which of `MARKS` `text` holds, in their order: each substring searched at C speed, a link's
    only where a `]` is and the two `supersede…` relations only where that word is (one memchr, one
    search), every file of a run asked (tests/test_text_prefilters.py checks it against `MARKS`)."""
    found: list[str] = []
    if "]" in text:
        if "](" in text:
            found.append("](")
        if "]:" in text:
            found.append("]:")
    if "relates_to" in text:
        found.append("relates_to")
    if "supersede" in text:
        if "supersedes" in text:
            found.append("supersedes")
        if "superseded_by" in text:
            found.append("superseded_by")
    if may_cite(text):
        found.append(CITES)
    return tuple(found)


# The slots `facts()` gives the cache, in its order.
_FACTS = (
    "_size",
    "_too_large",
    "read_error",
    "decode_error",
    "binary",
    "wide_encoding",
    "_size_of_trimmed",
    "_frontmatter",
    "_head",
    "_suppressions",
    "_marks",
)
# Where in `facts()` the objects are (the parsed frontmatter, the suppressions), which the cache
# freezes into plain data and thaws back.
FACT_OBJECTS = (_FACTS.index("_frontmatter"), _FACTS.index("_suppressions"))
FACT_MARKS = _FACTS.index("_marks")  # which of `MARKS` the text holds (`holds`), kept beside the facts too


# Texts that stand for files, by absolute path: an editor's unsaved buffers (`mnemolint server`).
# Every read of such a path, by any rule or command, gets this text instead of the disk's.
_OVERLAY: dict[str, str] = {}


def overlay(texts: dict[str, str]) -> None:
    """Read `texts` in place of the files at their paths from now on (an empty mapping: read the
    disk again). The cache neither recalls nor keeps a file read from here (`overlaid`)."""
    _OVERLAY.clear()
    _OVERLAY.update(texts)


def overlaid(path: str) -> bool:
    """Whether a read of `path` gets the overlay's text rather than the file's."""
    return path in _OVERLAY


def overlaid_paths() -> Collection[str]:
    """The paths `overlaid` is true of, for a loop over every file to test without a call each."""
    return _OVERLAY.keys()


class Document:
    """A file of a known kind. `text` is None when it could not be read or decoded usefully.

    `kind` is None only for a path the walk could not stat or list (`unlisted`: a file or a whole
    directory), which is reported like an unreadable file and read by no other rule.
    """

    __slots__ = (
        "path",
        "rel",
        "kind",
        "container",
        "unlisted",
        "_size",
        "options",
        "read_error",
        "_too_large",
        "decode_error",
        "binary",
        "wide_encoding",
        "_offsets",
        "_text",
        "_lines",
        "_frontmatter",
        "_head",
        "_suppressions",
        "_size_of_trimmed",
        "_loaded",
        "_recalled",
        "_marks",
        "_derived",
        "_released",
        "_given",
        "keep",
    )

    def __init__(self, path: str, kind: Kind | None, options: dict, container: Container | None = None) -> None:
        self.path = path
        self.rel = ""  # path relative to its container (or the root), POSIX separators
        self.kind = kind
        self.container = container
        self.unlisted = False
        self.options = options
        self.read_error: str | None = None
        self._size = 0
        self._too_large = False
        self.decode_error: tuple[int, int] | None = None
        self.binary = False
        # (name, evidence) when binary because it is UTF-16 or UTF-32: text in the wrong encoding
        self.wide_encoding: tuple[str, str] | None = None
        self._offsets: list[int] | None = None
        self._text: str | None = None
        self._lines: list[str] | None = None
        self._frontmatter: FrontMatter | None = None
        self._head: str | None = None  # a released text's lines up to its closing fence, parsed if asked (`release`)
        self._suppressions: suppress.Suppressions | None | bool = False  # False: not parsed yet
        self._size_of_trimmed: tuple[int, int | None] | None = None
        self._loaded = False
        # Its facts are known without its text (from the cache, or kept when it was released): the
        # text is read only if asked for.
        self._recalled = False
        self._released = False  # its text was dropped once its rules had run (`release`)
        self._given = False  # its text was given (`take`, `preset`), not read: never read again
        self._marks: tuple[str, ...] | None = None  # which of MARKS the text holds, when known without it
        self.keep = False  # the cache is to keep what this run learns of it (set by the engine)
        self._derived: dict[str, object] | None = None  # what `derived` computed of the text

    @classmethod
    def unreadable(cls, path: str, reason: str, options: dict) -> Document:
        """A path the walk could not stat or list, so that it is reported like an unreadable file."""
        document = cls(path, None, options)
        document.unlisted = True
        document.read_error = reason
        document._loaded = True
        return document

    def _load(self) -> None:
        """Read the file: once, or again after `release` (that text is then held within `REREAD_BYTES`)."""
        self._loaded = True
        self._read()
        if self._released and self._text is not None:
            _REREADS.hold(self)

    def _read(self) -> None:
        """Read the file; one over `max-file-bytes` is measured (fstat), never read. Opened without
        blocking and read only when it is still a regular file: a FIFO or device swapped in since the
        walk saw a file is refused, never waited on. A path in the overlay is read from there."""
        limit = self.options["max-file-bytes"]
        held = _OVERLAY.get(self.path) if _OVERLAY else None
        if held is not None:
            self._take_held(held, limit)
            return
        try:
            opened = open_regular(self.path)
            if isinstance(opened, str):
                self.read_error = opened
                return
            fd, info = opened
            try:
                size = info.st_size
                if size > limit:
                    self._too_large, self._size = True, size
                    return
                # Sized to the file: a fixed `limit`-sized read allocates 2 MiB for every file.
                data = read_up_to(fd, size + 1)
                if len(data) > size:  # it grew since: read on, up to the limit
                    data += read_up_to(fd, limit + 1 - len(data))
                    if len(data) > limit:
                        self._too_large, self._size = True, len(data)
                        return
            finally:
                os.close(fd)
        except OSError as error:
            self.read_error = error.strerror or str(error)
            return
        self._decode(data)

    def _take_held(self, text: str, limit: int) -> None:
        """The overlay's text for this path, judged as a read of the file would be: nothing held for a
        path behind a dangerous link is taken, and one over `max-file-bytes` is only measured."""
        refused = dangerous_link(self.path)
        if refused:
            self.read_error = refused
            return
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > limit:
            self._too_large, self._size = True, len(data)
            return
        self._decode(data)

    def take(self, data: bytes, size: int) -> None:
        """Take `data` as the file's bytes instead of reading it (standard input standing for the
        file), judged as a read is: of `size` bytes over `max-file-bytes` it is too large (`data`
        is then its first bytes only), and never decoded."""
        self._loaded = self._given = True
        if size > self.options["max-file-bytes"]:
            self._too_large, self._size = True, size
            return
        self._decode(data)

    def _decode(self, data: bytes) -> None:
        """What the file's bytes are: binary (a NUL), or text, decoded once (a bad byte is marked)."""
        self._size, self._marks = len(data), None  # of this text, found when asked
        if b"\x00" in data:
            self.binary = True
            self.wide_encoding = _wide_encoding(data)
            return
        try:
            self._text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
            self.decode_error = (line, column)
            self._text = data.decode("utf-8", "replace")

    def preset(self, text: str) -> None:
        """Take `text` as the file's content instead of reading it: a fix computed, not yet written."""
        self._loaded = self._given = True
        self._text, self._marks = text, None
        self._size = len(text.encode("utf-8"))

    @property
    def size(self) -> int:
        """Bytes on disk (read, or measured when the file is too large to read)."""
        if not self._loaded and not self._recalled:
            self._load()
        return self._size

    @property
    def too_large(self) -> bool:
        """Over `max-file-bytes`: not read; rules that can judge by size alone still do."""
        if not self._loaded and not self._recalled:
            self._load()
        return self._too_large

    @property
    def text(self) -> str | None:
        """The decoded text, BOM kept as U+FEFF; None if unread, too large or binary."""
        if not self._loaded:
            self._load()
        return self._text

    @property
    def readable(self) -> bool:
        if self._recalled and not self._loaded:  # what `_load` leaves without text, known from the cache
            return self.read_error is None and not self._too_large and not self.binary
        return self.text is not None

    @property
    def lines(self) -> list[str]:
        """Lines split on \\n with any \\r kept, so offsets and line endings stay exact."""
        if self._lines is None:
            text = self.text
            self._lines = text.split("\n") if text is not None else []
        return self._lines

    @property
    def frontmatter(self) -> FrontMatter:
        """The frontmatter block; for a kind that has none, an absent one (a `---` there is text)."""
        if self._frontmatter is None:
            if self.kind is not None and self.kind.frontmatter:
                lines = self._head.split("\n") if self._head is not None else self.lines
                front = split_and_parse(lines, self.options["yaml-max-depth"])
                if front.status in (INVALID, TOO_COMPLEX):  # what Claude Code's second try reads
                    from mnemolint.agents.claude_code import recover

                    # an instruction file is read with its CRs, a topic (the memory scan) without
                    crs = self.kind.instructions and any(line.endswith("\r") for line in lines[: front.close_line])
                    recover(front, self.options["yaml-max-depth"], crs)
                self._frontmatter, self._head = front, None
            else:
                self._frontmatter = FrontMatter()
        return self._frontmatter

    @property
    def has_frontmatter(self) -> bool:
        """Whether a frontmatter block opens the file (`frontmatter.present`): known from a released
        block's kept lines without parsing them, so a rule asking only this parses nothing."""
        if self._frontmatter is None and self._head is not None:
            return True  # `_head` is only kept of a closed block
        return self.frontmatter.present

    @property
    def reader(self) -> Agent:
        """The profile of the agent that loads this file (only documents of a kind have one)."""
        assert self.kind is not None, "an unlisted path has no reader"
        return self.kind.reader(self)

    @property
    def trimmed_size(self) -> tuple[int, int | None]:
        """UTF-8 bytes and lines of the trimmed text, as the agents' write-side checks measure a file.

        A file too large to read is measured by its size on disk, its lines unknown.
        """
        if self._size_of_trimmed is None:
            if self.too_large or self.text is None:
                self._size_of_trimmed = (self.size, None)
            else:
                trimmed = js_trim(self.text)
                self._size_of_trimmed = (len(trimmed.encode("utf-8", "surrogatepass")), trimmed.count("\n") + 1)
        return self._size_of_trimmed

    @property
    def suppressions(self) -> suppress.Suppressions | None:
        """The file's `<!-- mnemolint-disable … -->` comments, None when it has none (or its kind
        takes no suppression comments)."""
        if self._suppressions is False:
            takes = self.kind is not None and self.kind.suppressions
            self._suppressions = suppress.parse(self.text or "", self.lines) if takes else None
        return self._suppressions  # type: ignore[return-value]

    def release(self, kept: Collection[str] | None = None) -> None:
        """Drop the text and its lines once the per-file rules have run (`lint(..., release=True)`),
        keeping what container and tree rules read of most files: the frontmatter of a file in a
        container, whose rules may read it (its lines up to the closing fence, `_head`, parsed only
        if a rule asks: with the default rules none does for most topics, and the parse would be
        a third of a large run), the suppression comments, the marks (`holds`), the sizes. A rule
        that asks for the text later reads the file again (then held only within `REREAD_BYTES`),
        as it would a file the cache knows; a text given (`take`, `preset`), not read, is kept.
        `kept`: the keys of `derived` that container rules read (`member_facts`); given, the rest of
        what was derived goes too, and a parsed frontmatter goes back to its lines, parsed again
        only for a rule that asks (a parsed block and its values cost about four times its lines:
        at 50,000 topics, 35 MiB)."""
        if self._text is None or not self._loaded or self._given:
            return
        try:
            if self.container is not None:
                self._keep_frontmatter(kept is not None)
            self.suppressions  # noqa: B018 - parsed while the lines are at hand
        except Exception:  # noqa: BLE001 - a parser's bug: kept whole, the rules that read it report it
            return
        if self._marks is None:
            self._marks = _marks_of(self._text)
        if kept is not None:
            self._derived = self._derived_under(kept)
        self._text = self._lines = self._offsets = None
        self._loaded, self._recalled, self._released = False, True, True

    def _keep_frontmatter(self, unparse: bool) -> None:
        """Before the text goes: the lines of a closed frontmatter block, unparsed (`unparse`: even
        when it was parsed); any other block (none, unclosed) parsed now, which costs nothing. A
        kind without frontmatter keeps nothing: a `---` there is text, and `_head` would say a block."""
        if self.kind is None or not self.kind.frontmatter:
            return
        if self._head is not None or (self._frontmatter is not None and not unparse):
            return
        lines = self.lines
        opened, close = fences(lines)
        if opened and close:
            self._frontmatter, self._head = None, "\n".join(lines[:close])
        else:
            self.frontmatter  # noqa: B018 - no YAML to read

    def export(self, shipped: tuple[str, ...] = ()) -> tuple:
        """What a worker learnt of this file that the parent needs: for every finding on it, the
        suppression comments; and its facts when it read the file (or released it, `release`), so
        that the parent has what container rules read (a frontmatter block's lines, parsed again
        only if a rule asks; marks, sizes) without reading it again, and the cache what it is to
        keep (`keep`); and what was derived of it
        under the keys `shipped` (`derived`: what container rules read of each member). A file the
        worker never read the parent reads lazily where a rule needs it."""
        if self._frontmatter is not None and self._text is not None:
            # A parsed block costs more to unpickle than to parse again where a container rule
            # asks, which most never do (what they read of every member is `shipped`): 10,000
            # topics with every rule, the parent's unpickling 52-60 -> 9-13 ms, the answers 1.8 -> 0.9 MB.
            self._keep_frontmatter(True)
        facts = self.facts() if self.keep or self._released or self._loaded else None
        return self._suppressions, facts, self.keep, self._released, self._derived_under(shipped)

    def _derived_under(self, keys: Collection[str]) -> dict[str, object] | None:
        """What was derived of this file under `keys` (`derived`), None for nothing."""
        found = self._derived
        return ({key: found[key] for key in keys if key in found} or None) if found else None

    def adopt(self, state: tuple) -> None:
        suppressions, facts, keep, released, derived = state
        if facts is not None:
            self.recall(facts)
        self.keep = keep  # False: the worker found it not worth keeping (cache.py)
        self._released = released
        if suppressions is not False:
            self._suppressions = suppressions
        if derived:
            self._derived = {**(self._derived or {}), **derived}

    def holds(self, mark: str) -> bool:
        """Whether the text holds `mark`, one of `MARKS`: the prefilter of a container rule that
        reads only some files (a link, a relation), answered from the cache for an unchanged file
        without reading it; found once for all of them, so a document taken over by a later run
        (`take_over`) answers without a search."""
        if self._marks is None:
            text = self.text
            if text is None:
                return False
            self._marks = _marks_of(text)
        return mark in self._marks

    def facts(self) -> tuple:
        """What this run learnt of the file without its text, for the cache (cache.py) to keep:
        what reading it found, and what was parsed of it (None, False: not parsed this run)."""
        if self._loaded and self._marks is None:  # `holds` found them of this text, most likely
            self._marks = _marks_of(self._text or "")
        return tuple(getattr(self, name) for name in _FACTS)

    def recall(self, facts: tuple | list) -> None:
        """Take `facts` (from `facts()` of an unchanged file) instead of reading the file; its text
        is still read, once, if a rule asks for it."""
        for name, value in zip(_FACTS, facts, strict=True):
            setattr(self, name, value)
        self._recalled = True

    def recall_marks(self, marks: tuple[str, ...] | None) -> None:
        """Take what `holds` answers (from `facts()` of an unchanged file) without its other facts."""
        self._marks = marks

    def derived(self, key: str, make: Callable[[Document], T]) -> T:
        """What `make(self)` computes of this file's text alone (an index's classified lines, what
        each agent loads of it), once: it goes with the document, so a run that takes the
        document over (`take_over`) does not compute it again."""
        found = self._derived
        if found is None:
            found = self._derived = {}
        elif key in found:  # asked by several rules of every file: the answer first
            return found[key]  # type: ignore[return-value]
        value = found[key] = make(self)
        return value

    def take_over(self, earlier: Document) -> None:
        """What `earlier`, this same unchanged file in an earlier run, read and parsed: a process
        that lints again and again (`mnemolint server`) reads an unchanged file once."""
        for name in _STATE:
            setattr(self, name, getattr(earlier, name))

    @property
    def known(self) -> bool:
        """Whether `facts()` holds what reading the file found: it was read (or given its text, or
        its facts) this run. The cache keeps no entry for a file no rule needed to read."""
        return self._loaded or self._recalled

    def line_offset(self, line: int) -> int:
        """Offset in `text` where 1-based `line` starts."""
        if self._offsets is None:
            offsets, position = [], 0
            for text in self.lines:
                offsets.append(position)
                position += len(text) + 1
            self._offsets = offsets
        return self._offsets[line - 1]

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets covering 1-based `line` and its line ending, for an edit that drops the line."""
        start = self.line_offset(line)
        end = start + len(self.lines[line - 1]) + 1
        return start, min(end, len(self.text or ""))


class _Rereads:
    """The released documents whose text a rule asked for again, oldest first: each keeps it until
    what the texts read again since cost (text and lines) passes `REREAD_BYTES`, then is released
    again (the newest always keeps its own), so that a rule reading many holds no more than that."""

    def __init__(self) -> None:
        self.held: deque[tuple[Document, int]] = deque()
        self.bytes = 0

    def hold(self, document: Document) -> None:
        cost = 2 * document._size + 512  # its text, its lines about as much again, and their objects
        self.held.append((document, cost))
        self.bytes += cost
        while self.bytes > REREAD_BYTES and len(self.held) > 1:
            oldest, size = self.held.popleft()
            self.bytes -= size
            oldest.release()


REREAD_BYTES = 4 << 20
_REREADS = _Rereads()


# What reading and parsing left in a document (`take_over`): all but which file it is and where.
_STATE = tuple(
    name
    for name in Document.__slots__
    if name not in ("path", "rel", "kind", "container", "unlisted", "options", "keep")
)


# UTF-32 first: its little-endian mark starts with UTF-16's.
_WIDE_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def head(path: str, limit: int = 65_536) -> str | None:
    """The first `limit` bytes of the regular file at `path`, decoded (undecodable bytes replaced),
    or None where `Document` would not read it (a dangerous link, not a regular file, an error):
    what discovery reads to tell a file by its content, before any document exists. An editor's
    buffer for the path (the overlay) is read instead of the disk, as `Document` reads it."""
    held = _OVERLAY.get(path) if _OVERLAY else None
    if held is not None:
        return None if dangerous_link(path) else held[:limit]
    try:
        opened = open_regular(path)
        if isinstance(opened, str):
            return None
        try:
            data = read_up_to(opened[0], limit)
        finally:
            os.close(opened[0])
    except OSError:
        return None
    return data.decode("utf-8", "replace")


def _wide_encoding(data: bytes) -> tuple[str, str] | None:
    """UTF-32 or UTF-16, by the byte-order mark, or without one by where the NULs of the first
    256 bytes fall (ASCII text in UTF-16 is a NUL every other byte, in UTF-32 three in four)."""
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            return name, f"it starts with a {name} byte-order mark"
    for width, name in ((4, "UTF-32"), (2, "UTF-16")):
        head = data[: min(len(data), 256) // width * width]
        filled = [bool(head[lane::width].strip(b"\0")) for lane in range(width)]
        if filled in ([True] + [False] * (width - 1), [False] * (width - 1) + [True]):  # little or big endian
            return name, f"it has no byte-order mark, but its NUL bytes fall where {name} puts them"
    return None
