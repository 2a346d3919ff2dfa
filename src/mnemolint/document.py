"""One file of a memory repository: read once, decoded once, split once, parsed lazily.

Every rule reads through a `Document`, so no rule touches the file system and no file is read or
parsed twice, however many rules look at it.
"""

from __future__ import annotations

from mnemolint.frontmatter import FrontMatter, split_and_parse

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.memdir import MemoryDir

INDEX = "index"
TOPIC = "topic"
UNREADABLE = "unreadable"  # a path the walk could not read: a file or a whole directory

BOM = "\ufeff"


class Document:
    """A memory file. `text` is None when the file could not be read or decoded usefully."""

    __slots__ = (
        "path",
        "rel",
        "kind",
        "memdir",
        "size",
        "options",
        "read_error",
        "too_large",
        "decode_error",
        "binary",
        "_data",
        "_text",
        "_lines",
        "_frontmatter",
        "_loaded",
    )

    def __init__(self, path: str, kind: str, size: int, options: dict, memdir: MemoryDir | None = None) -> None:
        self.path = path
        self.rel = ""  # path relative to the memory dir (topics) or the root, POSIX separators
        self.kind = kind
        self.memdir = memdir
        self.size = size
        self.options = options
        self.read_error: str | None = None
        self.too_large = size > options["max-file-bytes"]
        self.decode_error: tuple[int, int] | None = None
        self.binary = False
        self._data: bytes | None = None
        self._text: str | None = None
        self._lines: list[str] | None = None
        self._frontmatter: FrontMatter | None = None
        self._loaded = False

    @classmethod
    def unreadable(cls, path: str, reason: str, options: dict) -> Document:
        """A path the walk could not stat or list, so that it is reported like an unreadable file."""
        document = cls(path, UNREADABLE, 0, options)
        document.read_error = reason
        document._loaded = True
        return document

    def _load(self) -> None:
        self._loaded = True
        if self.too_large:
            return
        try:
            with open(self.path, "rb") as handle:
                data = handle.read(self.options["max-file-bytes"] + 1)
        except OSError as error:
            self.read_error = error.strerror or str(error)
            return
        if len(data) > self.options["max-file-bytes"]:  # grew since stat
            self.too_large, self.size = True, len(data)
            return
        self._data = data
        self.size = len(data)
        if b"\x00" in data:
            self.binary = True
            return
        try:
            self._text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
            self.decode_error = (line, column)
            self._text = data.decode("utf-8", "replace")

    @property
    def data(self) -> bytes | None:
        if not self._loaded:
            self._load()
        return self._data

    @property
    def text(self) -> str | None:
        """The decoded text, BOM kept as U+FEFF; None if unread, too large or binary."""
        if not self._loaded:
            self._load()
        return self._text

    @property
    def readable(self) -> bool:
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
        if self._frontmatter is None:
            self._frontmatter = split_and_parse(self.lines, self.options["yaml-max-depth"])
        return self._frontmatter

    def line_offset(self, line: int) -> int:
        """Offset in `text` where 1-based `line` starts."""
        return sum(len(text) + 1 for text in self.lines[: line - 1])

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets covering 1-based `line` and its line ending, for an edit that drops the line."""
        start = self.line_offset(line)
        end = start + len(self.lines[line - 1]) + 1
        return start, min(end, len(self.text or ""))
