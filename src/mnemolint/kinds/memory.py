"""The auto-memory dir, its two kinds of file (the `MEMORY.md` index and its topics), and how
index links resolve.

Index rules get one `MemoryDir` and share what it computes once: the classified index lines and
the resolution of every link target.
"""

from __future__ import annotations

import os
import posixpath
import re
from functools import lru_cache

from mnemolint.agents import AGENT_HOMES, CLAUDE_AGENT_MEMORY, CLAUDE_CODE, WAVE, memory_reader
from mnemolint.agents.base import Agent
from mnemolint.kinds.base import Container, ContainerType, Kind
from mnemolint.parse.document import RELATIONS, Document
from mnemolint.parse.index_lines import BLANK, CONTENT, HEADING, IndexLine, LoadCut, classify, load_cut
from mnemolint.parse.textutil import undecodable
from mnemolint.patterns import Lazy

INDEX_NAME = "MEMORY.md"
NOT_TOPICS = ("README.md", "AGENTS.md", "CLAUDE.md")  # instruction files beside the topics
ENTRY_SEPARATOR = "§"  # Hermes Agent's line between the entries of its whole-file memory
HEAD_LINES = 1_000  # of a `MEMORY.md`'s first 64 KiB, what judges it: five times what an agent loads
PROSE_MIN_LINES = 8  # a `MEMORY.md` outside an agent's layout with this much prose may be no index
SECONDARY_MIN_ENTRIES = 3  # fewer entries than this make a list of links in a memory, not an index
_INDEX_NAMED = Lazy(r"(?i)(?:memory[-_.].*|.*index.*)\.md\Z")  # `MEMORY-archive.md`, `INDEX-old.md`
TYPES = ("user", "feedback", "project", "reference")  # the four memory types, in index generation order

URL = "a URL"
ABSOLUTE = "an absolute path"
ESCAPES = "outside the memory dir"
MISSING = "missing"
UNKNOWN = "impossible to examine"  # never "missing": a line whose target may be there is never dropped

_SCHEME = Lazy(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")  # CommonMark: 2 to 32 characters
_DRIVE = Lazy(r"[A-Za-z]:[\\/]")
_WRITTEN_SUFFIX = Lazy(r"(?<!&)#|\?")  # where a name as written ends: `x&#38;y.md` is one name
# CommonMark, in one left-to-right pass: a backslash escape of ASCII punctuation (so `\&amp;` is
# `&amp;`), or an entity (an HTML5 name and its `;`) or numeric (1-7 digits, 1-6 hex) reference.
_REFERENCE = (  # left to `re`'s cache: most targets hold neither `\\` nor `&`
    r"\\([!-/:-@\[-`{-~])|&(?:#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));"
)


_UNRESOLVED = object()  # `MemoryDir.resolve`: a target not resolved yet (None is an anchor's resolution)


class Resolved:
    """Where an index link points: a path relative to the memory dir, or why it cannot be followed."""

    __slots__ = ("rel", "problem")

    def __init__(self, rel: str | None, problem: str | None) -> None:
        self.rel = rel
        self.problem = problem


class MemoryDir(Container):
    """A memory dir: its index (None when there is none, or when `MEMORY.md` is a symlink that was
    not followed, see `index_link`) and its topics. Its reader is Wave's under `.wave/`, else
    Claude Code's."""

    __slots__ = (
        "index",
        "topics",
        "reader",
        "_lines",
        "_topic_by_rel",
        "_resolved",
        "_exists_cache",
        "_cuts",
        "_by_name",
        "_asked",
        "_names",
    )

    def __init__(self, path: str) -> None:
        super().__init__(path, MEMORY_DIR)
        self.index: Document | None = None
        self.topics: list[Document] = []
        self.reader: Agent = memory_reader(path)
        self._lines: list[IndexLine] | None = None
        self._topic_by_rel: dict[str, Document] | None = None
        # every index rule asks for the same targets: keyed by the target, or by (folder, target) in a subfolder
        self._resolved: dict[str | tuple[str, str], Resolved | None] = {}
        self._exists_cache: dict[str, bool | None] = {}
        self._cuts: dict[tuple[int, int], LoadCut] = {}
        self._by_name: set[str | tuple[str, str]] = set()  # resolutions no file system answer went into
        self._asked = False  # whether the resolution under way asked the file system
        self._names: dict[str, tuple[str, ...]] = {}  # what each link target may name (`_candidates`)

    @property
    def readers(self) -> tuple[Agent, ...]:
        """The agents whose loader counts this index (load.py): the one whose layout it is
        (`.claude/projects/*/memory` Claude Code's, `.claude/agent-memory/*` Claude Code's agent
        memory, counted raw, any dir under `.wave/` Wave's), else both, for a dir whose reader is not
        known (a plain `memory/`)."""
        if self.reader is WAVE:
            return (WAVE,)
        parts = self.path.rstrip(os.sep).split(os.sep)
        if len(parts) >= 3 and parts[-2] == "agent-memory" and parts[-3] == CLAUDE_CODE.home:
            return (CLAUDE_AGENT_MEMORY,)
        return (CLAUDE_CODE,) if _located(self.path) else (WAVE, CLAUDE_CODE)

    @property
    def index_path(self) -> str:
        """`MEMORY.md` of this dir, whether or not it exists."""
        return self.anchor_path

    @property
    def index_link(self) -> str | None:
        """Why a `MEMORY.md` that is a symlink was not followed (dangling, or out of the linted tree)."""
        return self.marker_link

    def add(self, document: Document) -> None:
        self.add_all([document])

    def add_all(self, documents: list[Document]) -> None:
        """Filed by kind, the index apart from the topics; a directory's at once, without a call for
        each: discovery files a dir's 10,000 topics each run."""
        self.documents += documents
        for document in documents:
            if document.kind is INDEX:
                self.index = document
            else:
                self.topics.append(document)

    @property
    def topic_by_rel(self) -> dict[str, Document]:
        if self._topic_by_rel is None:
            self._topic_by_rel = {topic.rel: topic for topic in self.topics}
        return self._topic_by_rel

    @property
    def lines(self) -> list[IndexLine]:
        """The index's classified lines; empty when there is no readable index."""
        if self._lines is None:
            index = self.index
            if index is None or not index.readable:
                self._lines = []
            else:
                # An unclosed `---` is no frontmatter here: the agent loads the index as is.
                self._lines = index.derived("index lines", _classified)
        return self._lines

    def index_facts(self) -> tuple[list[IndexLine], dict[str, tuple[str, ...]]]:
        """What this run worked out of the index's text alone: its classified lines, and the
        names each of its link targets may stand for (kept by the agent hook, cache.IndexFacts;
        only the index's own targets, whose text the hook checked for secrets, not those met in
        secondary indexes or topic bodies)."""
        own = {link.target for line in self.lines for link in line.links}
        return self.lines, {target: names for target, names in self._names.items() if target in own}

    def recall_index(self, lines: list[IndexLine], names: dict[str, tuple[str, ...]]) -> None:
        """Take `index_facts()` of an earlier run on the same text of the index instead of
        classifying it again."""
        self._lines = lines
        self._names.update(names)

    def secondary(self, document: Document) -> list[IndexLine] | None:
        """A topic file's classified lines when it is a secondary index, else None.

        A secondary index (an archive of entries moved out of `MEMORY.md`, an overflow index) is
        no memory: it has no frontmatter, and its body is entries that point into the memory dir
        (a list of web links or outside files is a memory of links) — more of them than lines of
        anything but headings and blank lines, and at least `SECONDARY_MIN_ENTRIES`, or one for a
        file named as an index (`MEMORY-archive.md`, `INDEX-old.md`: so that a fix that drops an
        entry does not turn it back into a memory). The index rules check its links, duplicates
        and line lengths; the topic rules, which judge a memory, leave it alone. It is decided on
        the file alone (the cache keeps what the topic rules found on it). An entry needs a link,
        and a link needs `](` in the text (`index_lines.find_links`), which an unchanged file
        answers from the cache (`Document.holds`): a topic without one is no index, known without
        reading or parsing it.
        """
        if not document.holds("]("):  # most topics: answered without a lookup, and nothing kept
            return None
        return document.derived("secondary index", self._secondary)  # goes with the document: its file alone

    def _secondary(self, document: Document) -> list[IndexLine] | None:
        if not document.readable or document.has_frontmatter:  # a memory: no index (`frontmatter` left unparsed)
            return None
        classified = classify(document.lines, 0)
        base = posixpath.dirname(document.rel)
        entries = sum(1 for line in classified if line.entry and self._inside(line.links[0].target, base))
        others = sum(1 for line in classified if line.kind not in (BLANK, HEADING)) - entries
        least = 1 if _INDEX_NAMED.match(posixpath.basename(document.rel)) else SECONDARY_MIN_ENTRIES
        return classified if entries >= least and entries > others else None

    def _inside(self, target: str, base: str) -> bool:
        """Whether a link target names a path in the memory dir, there or not (no URL, no
        absolute path, no way out of the dir)."""
        resolved = self.resolve(target, base)
        return resolved is not None and resolved.problem not in (URL, ABSOLUTE, ESCAPES)

    def listings(self) -> list[tuple[Document, list[IndexLine], str]]:
        """Every index of the dir — `MEMORY.md` first, then its secondary indexes — with its
        classified lines and the folder its links are relative to (relative to the dir); found
        once per run, as several index rules walk them."""
        return self.derived("listings", MemoryDir._listings)

    def _listings(self) -> list[tuple[Document, list[IndexLine], str]]:
        found = [(self.index, self.lines, "")] if self.index is not None and self.lines else []
        for topic in self.topics:
            lines = self.secondary(topic)
            if lines is not None:
                found.append((topic, lines, posixpath.dirname(topic.rel)))
        return found

    def cut(self, max_lines: int, max_chars: int) -> LoadCut | None:
        """What the agent's loader keeps of the index (None when there is no readable index)."""
        if self.index is None or self.index.text is None:
            return None
        key = (max_lines, max_chars)
        if key not in self._cuts:
            self._cuts[key] = load_cut(self.index.text, max_lines, max_chars)
        return self._cuts[key]

    def linked(self, through_line: int | None = None) -> set[str]:
        """Memory-dir-relative paths that an index line (up to `through_line`, if given) links to."""
        lines = self.lines if through_line is None else [line for line in self.lines if line.number <= through_line]
        return self.targets(lines)

    def targets(self, lines: list[IndexLine], base: str = "") -> set[str]:
        """Memory-dir-relative paths of the files that the links on `lines`, written in folder
        `base`, lead to."""
        return {
            resolved.rel
            for line in lines
            for link in line.links
            if (resolved := self.resolve(link.target, base)) and resolved.rel and not resolved.problem
        }

    def resolve(self, target: str, base: str = "") -> Resolved | None:
        """Resolve a link target against the memory dir, or against its folder `base` (a topic's
        links are relative to the topic); None for in-page anchors and empty links."""
        key = (base, target) if base else target
        resolved = self._resolved.get(key, _UNRESOLVED)
        if resolved is _UNRESOLVED:
            self._asked = False
            resolved = self._resolved[key] = self._resolve(target, base)
            if not self._asked:
                self._by_name.add(key)
        return resolved  # type: ignore[return-value]

    def carry(self, earlier: Container) -> None:
        """Take the resolutions of `earlier` — this dir, with the same files, in an earlier run —
        that only the links' text and the topics' names went into (no file system asked): the
        language server's renewed tree (lsp/kept.py) resolves a 2,000-line index once."""
        if isinstance(earlier, MemoryDir):
            for key in earlier._by_name:
                self._resolved[key] = earlier._resolved[key]
            self._by_name |= earlier._by_name

    def _resolve(self, target: str, base: str) -> Resolved | None:
        # Most links of an index name a file by its path, which the loop below finds first: known
        # as a topic, or in the dir's listing (`_exists_cache`, whose keys are normalized paths).
        if not base and _plain(target):
            if target in self.topic_by_rel:
                return Resolved(target, None)
            if self._exists_cache.get(target):
                self._asked = True
                return Resolved(target, None)
        if not target or target[0] == "#":
            return None
        if ":" in target or target[0] in "/\\~":  # else no scheme, drive or root: the common case
            if target.startswith("//") or (_SCHEME.match(target) and not _DRIVE.match(target)):
                return Resolved(None, URL)
            if target.startswith(("/", "\\", "~")) or _DRIVE.match(target):
                return Resolved(None, ABSOLUTE)
        candidates = self._names.get(target)
        if candidates is None:
            candidates = self._names[target] = _candidates(target)
        if base:
            candidates = tuple(posixpath.normpath(posixpath.join(base, rel)) for rel in candidates)
        unknown: str | None = None
        topics = self.topic_by_rel
        for rel in candidates:
            if _escapes(rel):
                continue  # never looked for outside the memory dir
            found = rel in topics or self._exists(rel)
            if found:
                return Resolved(rel, None)
            if found is None and unknown is None:
                unknown = rel
        if unknown is not None:
            return Resolved(unknown, UNKNOWN)
        last = candidates[-1]
        return Resolved(last, ESCAPES if _escapes(last) else MISSING)

    def probes(self) -> tuple:
        """The paths in the dir its links named that are no topic, and whether each is there."""
        return tuple(sorted(self._exists_cache.items()))

    def probed_alike(self, probes: tuple) -> bool:
        return all(_exists(self.path, rel) == found for rel, found in probes)

    def list_entries(self) -> None:
        """List the dir once, so that a link to one of its own entries (not a symlink: `stat`
        would follow one) resolves without a `stat` of its own; for a run that holds only some of
        its topics (the hook's), where every other link would cost one."""
        try:
            with os.scandir(self.path) as entries:
                listed = dict.fromkeys((entry.name for entry in entries if not entry.is_symlink()), True)
        except OSError:
            return  # each link is then looked up on its own
        self._exists_cache = {**listed, **self._exists_cache}  # what was looked up already stands

    def _exists(self, rel: str) -> bool | None:
        """Whether `rel` is in the memory dir; None when that cannot be known (a directory on the way
        that may not be searched, a loop of links, a name too long for the system)."""
        self._asked = True
        if rel not in self._exists_cache:
            self._exists_cache[rel] = _exists(self.path, rel)
        return self._exists_cache[rel]


def _exists(directory: str, rel: str) -> bool | None:
    """Whether `rel` is in `directory` (`MemoryDir._exists`)."""
    try:
        os.stat(os.path.join(directory, *rel.split("/")))
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in the name
        return False
    except OSError:
        return None
    return True


def _classified(index: Document) -> list[IndexLine]:
    return classify(index.lines, index.frontmatter.close_line)


@lru_cache(maxsize=16_384)  # a pure function of the text: a server's keystroke re-resolves every link
def _candidates(target: str) -> tuple[str, ...]:
    """The memory-dir-relative names a link destination may stand for, most literal first.

    A file may well be called `ideas&amp;notes.md` or `a%20b.md`, so the name as written comes
    first (up to its `#fragment` or `?query`);
    then the destination as CommonMark reads it (escapes and references decoded, then split as
    the rendered URL is; backslashes that escape nothing taken for separators); then that
    percent-decoded, as a browser or agent opens it. The last one is what a missing target is
    reported as.
    """
    read = re.sub(_REFERENCE, _decode_reference, target) if "&" in target or "\\" in target else target
    decoded = [read.split("#", 1)[0].split("?", 1)[0]]
    if "%" in decoded[0]:
        from urllib.parse import unquote

        decoded.append(unquote(decoded[0], errors="surrogateescape"))  # bytes as in `os.fsdecode`d names
    names = [posixpath.normpath(_WRITTEN_SUFFIX.split(target, 1)[0])]
    names += [posixpath.normpath(name.replace("\\", "/")) for name in decoded]
    return tuple(dict.fromkeys(names))


def _decode_reference(match: re.Match) -> str:
    """What CommonMark reads for one escape or reference (`_REFERENCE`); an unknown name stays as is."""
    escaped, decimal, hexadecimal, name = match.groups()
    if escaped is not None:
        return escaped
    if name is not None:
        from html.entities import html5

        return html5.get(name + ";", match.group())
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    # Code point 0, surrogates and anything past Unicode read as U+FFFD.
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _plain(target: str) -> bool:
    """Whether a link's target is read as the path it spells first: not empty, no scheme, root,
    fragment or query (`_resolve`'s first tests), so that its first candidate is itself."""
    return bool(target) and "#" not in target and "?" not in target and ":" not in target and target[0] not in "/\\~"


def _escapes(rel: str) -> bool:
    """Whether a normalized relative path leads out of the memory dir."""
    return rel == ".." or rel.startswith("../")


_UNINDEXABLE = "\n()[]"  # in code point order, as they are named
SKIPPED = "Index generation skips this topic: {problem}. Rename the file."


def unindexable(rel: str) -> str | None:
    """Why a topic at `rel` (relative to its memory dir) cannot be written as an index link, or None.

    Shared with the index generator, which skips such topics (Wave's capacity rules).
    """
    if undecodable(rel):
        return "its name is not valid UTF-8, so no UTF-8 index can link to it"
    bad = [char for char in _UNINDEXABLE if char in rel]  # asked of every topic: five searches, not a loop
    if bad:
        shown = ", ".join("newline" if char == "\n" else f"`{char}`" for char in bad)
        return f"its name contains {shown}, which would break the `[Title](file.md)` link"
    if "\\" in rel:
        return "its path contains a backslash, which is a separator on Windows"
    if not rel.isascii() and not _is_nfc(rel):
        return "its name is not in Unicode normal form (NFC), so a typed link would not match it"
    return None


def _is_nfc(text: str) -> bool:
    import unicodedata

    return unicodedata.is_normalized("NFC", text)


def _located(directory: str) -> bool:
    """`…/.claude/projects/<slug>/memory` or `…/.wave/projects/<id>/memory`, index or not."""
    parts = directory.rstrip(os.sep).split(os.sep)
    return len(parts) >= 4 and parts[-1] == "memory" and parts[-3] == "projects" and parts[-4] in AGENT_HOMES


def _holds_an_index(directory: str, text: str) -> bool:
    """Whether a directory holding a regular `MEMORY.md` is a memory dir. Another agent's memory
    kept whole in a `MEMORY.md` with no entry line is none wherever it stands (Hermes Agent's,
    whose entries are separated by lines of `§`). Otherwise where it stands says so for an agent's
    layout (a `memory/` folder, a folder right under `.claude/` or `.wave/`, an agent's
    `agent-memory/<name>/`); elsewhere the file must read as an index: in its first
    `HEAD_LINES` lines at least one entry line for every four lines of prose, or fewer than
    `PROSE_MIN_LINES` lines of prose (a new index, a note to fill in). A workspace's long-term
    memory written as prose (a session log called `MEMORY.md` at a project's root) is no index,
    and the files beside it are no topics. `text` is the head of its `MEMORY.md`. Where the
    layout says so and no line can be a separator (no `§` at all), the lines are not read."""
    parts = directory.rstrip(os.sep).split(os.sep)
    laid_out = parts[-1] == "memory" or (len(parts) > 1 and (parts[-2] in AGENT_HOMES or parts[-2] == "agent-memory"))
    if laid_out and ENTRY_SEPARATOR not in text:
        return True
    lines = classify(text.splitlines()[:HEAD_LINES], 0)
    entries = sum(1 for line in lines if line.entry)
    if not entries and any(line.text.strip() == ENTRY_SEPARATOR for line in lines):
        return False
    if laid_out:
        return True
    prose = sum(1 for line in lines if line.kind == CONTENT)
    return prose < PROSE_MIN_LINES or entries * 4 >= prose


def _is_topic(rel: str) -> bool:
    return rel.endswith(".md") and rel != INDEX_NAME and rel.rpartition("/")[2] not in NOT_TOPICS


def _reader(document: Document) -> Agent:
    container = document.container
    return container.reader if isinstance(container, MemoryDir) else CLAUDE_CODE


MEMORY_DIR = ContainerType(
    "memory dir",
    names=("memory",),  # where it stands: `…/projects/<id>/memory` (`_located`)
    marker=INDEX_NAME,
    setting="memory-dirs",
    located=_located,
    make=MemoryDir,
    confirms=_holds_an_index,
    about=f"A memory dir holds {INDEX_NAME} written as an index, is a `memory/` directory under "
    + " or ".join(f"`{home}/projects/*/`" for home in sorted(AGENT_HOMES))
    + ", or matches `memory-dirs`; its topics are its other .md files except "
    + ", ".join(NOT_TOPICS[:-1])
    + f" and {NOT_TOPICS[-1]}.",
    unasked_writes=True,  # Wave's auto memory: the agent writes its memory without approval
)
INDEX = Kind(
    "memory index",
    container=MEMORY_DIR,
    matches=lambda rel: rel == INDEX_NAME,
    frontmatter=True,
    frontmatter_fields=False,
    suppressions=True,
    unread_frontmatter="and the index takes no frontmatter anyway: remove it",
    reader=_reader,
)
TOPIC = Kind(
    "memory topic",
    container=MEMORY_DIR,
    matches=_is_topic,
    frontmatter=True,
    frontmatter_fields=True,
    suppressions=True,
    unread_frontmatter="YAML readers (Claude Code's among them) get no name, description or type from this file",
    fields="name, description and type",
    # Wave's three fields, and the memory convention's scope, `when` and links between memories (MEM208, MEM212)
    keys=("name", "description", "type", "scope", "when", *RELATIONS),
    reader=_reader,
)
