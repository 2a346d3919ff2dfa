"""MEM1xx: the `MEMORY.md` index (Wave's and Claude Code's capacity rules).

The index is the only way the agent discovers a topic, and it is cut at load time: these rules
say what the agent will really see, and what it will never find.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from functools import lru_cache, partial

from mnemolint.kinds.memory import ABSOLUTE, ESCAPES, MEMORY_DIR, MISSING, TOPIC, UNKNOWN, URL, MemoryDir, unindexable
from mnemolint.model import ERROR, INFO, SAFE, UNSAFE, WARNING, Edit, Fix, Hit
from mnemolint.options import INT, RATIO, Option
from mnemolint.parse import index_lines as il
from mnemolint.parse.document import Document
from mnemolint.parse.textutil import js_lstrip_count, js_trim, quote, utf16_len, utf16_prefix_index
from mnemolint.rules.base import (
    ON_CONTAINER,
    ON_EACH,
    ON_MEMBERS,
    OTHERS_LINKED,
    OTHERS_NEVER,
    OTHERS_UNLINKED,
    OTHERS_WHEN_FOUND,
    Family,
    rule,
)

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.load import Load

MAX_LINES = Option("index-max-lines", INT, 200, "lines of `MEMORY.md` the agent loads (Wave's auto memory)")
MAX_CHARS = Option(
    "index-max-chars", INT, 25_000, "UTF-16 characters of `MEMORY.md` the agent loads (Wave's capacity rules)"
)
WARN_RATIO = Option(
    "index-warn-ratio",
    RATIO,
    0.8,
    "occupancy (the larger of the lines and characters ratios) that starts the warning (Wave's capacity rules)",
)
TARGET_LINES = Option("index-target-lines", INT, 140, "lines to compress an index below (Wave's capacity rules)")
TARGET_CHARS = Option(
    "index-target-chars", INT, 17_500, "characters to compress an index below (Wave's capacity rules)"
)
LINE_MAX_CHARS = Option(
    "index-line-max-chars", INT, 150, "the advised longest index line, UTF-16 units (Wave's capacity rules)"
)


def _advice(options: dict) -> str:
    return (
        f"Keep index entries to one line under ~{options['index-line-max-chars']} chars; move detail into topic files."
    )


@rule(
    "MEM101",
    "index-over-load-limit",
    ERROR,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_WHEN_FOUND,
    cacheable=True,
    summary="MEMORY.md is over {index-max-lines} lines or {index-max-chars} characters, so the agent loads only "
    "part of it.",
    options=(MAX_LINES, MAX_CHARS, LINE_MAX_CHARS),
)
def index_over_load_limit(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    index = memdir.index
    if index is None:
        return
    max_lines, max_chars = options["index-max-lines"], options["index-max-chars"]
    if index.too_large:
        yield Hit(
            f"MEMORY.md is {index.size:,} bytes, far over {max_chars:,} characters: the agent loads at most "
            f"the first {max_lines} lines / {max_chars:,} characters and silently drops the rest. {_advice(options)}"
        )
        return
    strictest = _strictest(memdir, max_lines, max_chars)
    if strictest is None or not strictest.cut:
        return
    if strictest.reader.strips_index_markup:
        yield _stripped_over(memdir, strictest, max_lines, max_chars)
        return
    cut = memdir.cut(max_lines, max_chars)
    if cut is None or not (cut.over_lines or cut.over_chars):
        return
    reasons = []
    if cut.over_chars:
        reasons.append(f"{cut.chars:,} characters (limit: {max_chars:,})")
    if cut.over_lines:
        reasons.append(f"{cut.total_lines:,} lines (limit: {max_lines})")
    reason = " and ".join(reasons)
    if cut.line1_cut is not None:
        first = next(line for line in memdir.lines if js_trim(line.text))
        lead = js_lstrip_count(first.text)  # trimmed away before the loader counts
        where = (
            f" (line {first.number} of the file: the loader trims the blank lines above it)" if first.number > 1 else ""
        )
        yield Hit(
            f"MEMORY.md is {reason}: everything after the first {cut.line1_cut:,} characters of line 1 is cut "
            f"off{where}. {_advice(options)}",
            line=first.number,
            column=lead + utf16_prefix_index(first.text[lead:], cut.line1_cut) + 1,
        )
        return
    dropped = [line for line in memdir.lines[cut.first_dropped - 1 :] if line.text.strip()]
    quoted = f' ("{quote(dropped[0].text)}")' if dropped else ""
    lost = cut.total_lines - cut.loaded_lines
    unreached = _unreached(memdir, cut.first_dropped - 1)
    yield Hit(
        f"MEMORY.md is {reason}: the agent loads only {cut.loaded_lines:,} of {cut.total_lines:,} lines; "
        f"{lost:,} {'line is' if lost == 1 else 'lines are'} cut off, starting at line {cut.first_dropped}"
        f"{quoted}.{_unreached_note(unreached)}{_lenient(memdir, max_lines, max_chars)} {_advice(options)}",
        line=cut.first_dropped,
        related=tuple(unreached),
    )


def _unreached(memdir: MemoryDir, through_line: int) -> list[str]:
    """The topics linked only on lines past the cut: the agent never discovers them. They belong
    to the one finding that says where the cut is, not to a finding each (MEM105 is for topics
    no line links to)."""
    loaded = _discovered(memdir, through_line)
    linked = _discovered(memdir)
    return [topic.rel for topic in memdir.topics if topic.rel in linked and topic.rel not in loaded]


def _unreached_note(unreached: list[str]) -> str:
    if not unreached:
        return ""
    count = len(unreached)
    return (
        f" {count:,} {'topic is' if count == 1 else 'topics are'} linked only past the cut, so the agent never "
        f"discovers {'it' if count == 1 else 'them'}: {_first_few(unreached)}."
    )


def _first_few(names: list[str]) -> str:
    """The first three names, and how many more (a finding that stands for many; `related` has them all)."""
    shown = ", ".join(f"`{quote(name)}`" for name in names[:3])
    return f"{shown} and {len(names) - 3:,} more" if len(names) > 3 else shown


def _loads(memdir: MemoryDir, max_lines: int, max_chars: int) -> list[Load]:
    """What each agent that may read the dir keeps of its index (load.py, one place for all),
    worked out once per memory dir and caps: MEM101 and MEM102 both ask."""

    readers = memdir.readers

    def loads(index: Document) -> list[Load]:
        from mnemolint.load import load

        text = index.text
        return [] if text is None else [load(text, reader, max_lines, max_chars) for reader in readers]

    if memdir.index is None:
        return []
    return memdir.index.derived(f"loads {[reader.name for reader in readers]} {max_lines} {max_chars}", loads)


def _strictest(memdir: MemoryDir, max_lines: int, max_chars: int) -> Load | None:
    """The reading that loses the most of the index: where the reader is not known, the stricter
    count is the one reported (Wave's raw count is never below Claude Code's stripped one)."""
    loads = _loads(memdir, max_lines, max_chars)
    return max(loads, key=lambda each: (len(each.remainder), each.lines), default=None)


def _lenient(memdir: MemoryDir, max_lines: int, max_chars: int) -> str:
    """For a dir either agent may read: what the other one, which counts less, keeps."""
    loads = _loads(memdir, max_lines, max_chars)
    if len(loads) < 2 or loads[0].lines == loads[1].lines and loads[0].chars == loads[1].chars:
        return ""
    strict, other = sorted(loads, key=lambda each: (len(each.remainder), each.lines), reverse=True)[:2]
    kept = "loads all of it" if not other.cut else f"loads {other.loaded_lines:,} of {other.lines:,} lines"
    return (
        f" That is {strict.reader.title}'s count; {other.reader.title}, which strips the frontmatter and "
        f"block-level HTML comments before it counts, {kept}."
    )


def _stripped_over(memdir: MemoryDir, cut: Load, max_lines: int, max_chars: int) -> Hit:
    """MEM101 for a reader that counts the index without its frontmatter and block comments
    (Claude Code): its numbers, its warning, where the cut falls in the file."""
    reasons = []
    if cut.over_chars:
        reasons.append(f"{cut.chars:,} characters (limit: {max_chars:,})")
    if cut.over_lines:
        reasons.append(f"{cut.lines:,} lines (limit: {max_lines})")
    counted = "counted once it has stripped the frontmatter and block-level HTML comments"
    if cut.in_line:  # no newline before the character cap: line 1 itself is cut
        head = js_trim(cut.loaded)[:40]
        first = next((line for line in memdir.lines if head and head in line.text), None)
        kept = utf16_len(cut.loaded)
        rest = cut.lines - 1
        after = f", and the {rest:,} {'line' if rest == 1 else 'lines'} after it" if rest else ""
        return Hit(
            f"MEMORY.md is {' and '.join(reasons)}: {cut.reader.title} loads only the first {kept:,} characters of "
            f"its line 1, {counted}; the rest of that line{after} is cut off. It warns: {cut.warning}",
            line=first.number if first else None,
            column=(first.text.find(head) + utf16_prefix_index(first.text[first.text.find(head) :], kept) + 1)
            if first
            else None,
        )
    # The cut starts at the line right after it, blank or not, as the client says; it is found in the
    # file by the first line with text after the cut, less the blank lines before that one.
    after = cut.remainder.removeprefix("\n").split("\n")  # the newline that ends the last line loaded
    blank = next((count for count, text in enumerate(after) if text.strip()), None)
    dropped = after[blank] if blank is not None else ""
    number = next(
        (line.number for line in memdir.lines[cut.loaded_lines - 1 :] if dropped and line.text.rstrip("\r") == dropped),
        None,
    )
    if number and blank:
        number -= blank
    where = f", starting at line {number}" if number else ""
    quoted = f' ("{quote(cut.quoted)}")' if cut.quoted else ""
    lost = cut.dropped_lines
    unreached = _unreached(memdir, number - 1) if number else []
    return Hit(
        f"MEMORY.md is {' and '.join(reasons)}: {cut.reader.title} loads only {cut.loaded_lines:,} of "
        f"{cut.lines:,} lines, {counted}; {lost:,} {'line is' if lost == 1 else 'lines are'} cut off{where}{quoted}."
        f"{_unreached_note(unreached)} It warns: {cut.warning}",
        line=number,
        related=tuple(unreached),
    )


@rule(
    "MEM102",
    "index-near-limit",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="MEMORY.md is at {index-warn-ratio} or more of its load cap.",
    options=(MAX_LINES, MAX_CHARS, WARN_RATIO, TARGET_LINES, TARGET_CHARS),
)
def index_near_limit(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    max_lines, max_chars = options["index-max-lines"], options["index-max-chars"]
    strictest = _strictest(memdir, max_lines, max_chars)
    if strictest is None:
        return
    lines, chars = strictest.lines, strictest.chars  # as the agent that counts the most counts them
    ratio = max(lines / max_lines, chars / max_chars)
    if options["index-warn-ratio"] <= ratio and lines <= max_lines and chars <= max_chars:
        yield Hit(
            f"MEMORY.md is at {ratio:.0%} of its load cap ({lines:,} of {max_lines} lines, {chars:,} of "
            f"{max_chars:,} characters): compress it below {options['index-target-lines']} lines / "
            f"{options['index-target-chars']:,} characters before new entries fall off the end."
        )


def _topic_of(memdir: MemoryDir, line: il.IndexLine) -> str | None:
    """The topic a one-link pointer line points at, when it resolves to one."""
    if line.kind != il.POINTER or len(line.links) != 1:
        return None
    resolved = memdir.resolve(line.links[0].target)
    if resolved and not resolved.problem and resolved.rel in memdir.topic_by_rel:
        return resolved.rel
    return None


# Fixes that write generated lines compute their edits only when applied (`Fix.build`), so that
# the generator is imported by `--fix` and never by a plain `check`.


def _regenerate(memdir: MemoryDir, line: il.IndexLine, rel: str | None, options: dict) -> Fix | None:
    """MEM103 (unsafe): the line replaced by the one generated from its topic, only when it holds
    nothing the topic cannot give back (`_derived`). A fix never rewrites words a person wrote:
    a title or summary of their own stays, and the line is theirs to shorten."""
    if rel is None or unindexable(rel) or not _derived(memdir, line, rel):
        return None
    build = partial(_replacement, memdir, line.number, memdir.topic_by_rel[rel], options)
    return Fix(UNSAFE, "Replace the line with the one generated from the topic's description", build=build)


def _derived(memdir: MemoryDir, line: il.IndexLine, rel: str) -> bool:
    """Whether a pointer line says only what its topic does: titled with the topic's `name` (else
    its file's stem), followed by the topic's whole `description` or by nothing."""
    front = memdir.topic_by_rel[rel].frontmatter
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    title = _folded(line.links[0].title)
    if title not in (_folded(front.text("name") or ""), _folded(stem)):
        return False
    summary = _folded(line.summary())
    return not summary or summary == _folded(front.text("description") or "")


def _replacement(memdir: MemoryDir, number: int, topic: Document, options: dict) -> tuple[Edit, ...] | str:
    from mnemolint.fix import generate

    return generate.replacement(memdir, number, topic, options)


def _appender(memdir: MemoryDir, options: dict) -> Callable[[Document], tuple[Edit, ...] | str]:
    """One per memory dir and run: the orphans' lines claim the index's room one after another."""
    made: list = []

    def append(topic: Document) -> tuple[Edit, ...] | str:
        if not made:
            from mnemolint.fix.generate import Appender

            made.append(Appender(memdir, options))
        return made[0].edits_for(topic)

    return append


def _new_index(memdir: MemoryDir, options: dict) -> tuple[Edit, ...] | str:
    from mnemolint.fix import generate

    return generate.create(memdir, options)


# What MEM108 reports in MEMORY.md, one finding per block of them; MEM103 leaves these lines to it.
_CONTENT_KINDS = {il.CONTENT: "text", il.NESTED: "nested detail", il.CODE: "a code block"}


@rule(
    "MEM103",
    "index-line-too-long",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="An index line is over {index-line-max-chars} characters.",
    fix=UNSAFE,
    options=(LINE_MAX_CHARS, MAX_CHARS),
    reports_on=ON_EACH,  # MEMORY.md and its secondary indexes, each in focus or not
)
def index_line_too_long(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    limit = options["index-line-max-chars"]
    loaded = (
        f"every line is loaded into each session and counts against the {options['index-max-chars']:,}-character cap"
    )
    for document, lines, _ in memdir.listings():
        main = document is memdir.index
        cost = loaded if main else "an agent that opens this index reads every line of it"
        for line in lines:
            if 2 * len(line.text) <= limit:
                continue  # under the limit however it is written: a character is at most two UTF-16 units
            length = utf16_len(line.text)
            if length <= limit or main and line.kind in _CONTENT_KINDS:
                continue  # a paragraph, code or nested detail of MEMORY.md: MEM108's, once for its block
            yield Hit(
                f"Index line is {length:,} characters (advised: under {limit}): {cost}. Keep the entry to "
                "one short pointer and move detail into the topic file.",
                path=document.path,
                line=line.number,
                column=utf16_prefix_index(line.text, limit) + 1,
                end_line=line.number,
                end_column=len(line.text) + 1,
                fix=_regenerate(memdir, line, _topic_of(memdir, line), options) if main else None,
            )


_BROKEN = {
    MISSING: "`{target}` does not exist in the memory dir: the agent follows this entry to nothing.",
    URL: "`{target}` is a URL, not a topic file: index entries point at topic files in the memory dir.",
    ESCAPES: "`{target}` points outside the memory dir: index entries are for the topic files beside "
    "MEMORY.md, and a path relative to the memory dir breaks wherever the agent keeps that dir.",
}
# Which problems make a link broken wherever it stands; the others only in an entry (a pointer
# line or a table row), since a web or repository link in prose is MEM108's matter.
_BROKEN_ANYWHERE = (MISSING, ABSOLUTE)


def _drop_line(index: Document, line: il.IndexLine, message: str) -> Fix | None:
    """A safe fix that deletes a whole pointer line of `index`, when the line holds nothing but that pointer.

    The last line of a file without a final newline goes with the line ending before it, so the
    file still ends without one.
    """
    if line.kind != il.POINTER or len(line.links) != 1 or index.text is None:
        return None
    start, end = index.line_span(line.number)
    if line.number == len(index.lines) and start > 0:
        start -= 2 if index.text.endswith("\r\n", 0, start) else 1
    return Fix(SAFE, message, (Edit(start, end, ""),))


# An index whose entries mostly point to topics not in the tree is a copy without its topics (a
# mirror of a live memory dir, an index carried over alone): its lines are the only record of those
# memories, so it gets one finding and no fix. "Mostly": more than half and at least this many, or
# every entry of three or more.
MIRROR_MIN_MISSING = 5


def _mirror(memdir: MemoryDir, lines: list[il.IndexLine], base: str) -> tuple[list[tuple[il.IndexLine, str]], int]:
    """The entries whose target is missing, each with its target, and how many entries there are."""
    missing, entries = [], 0
    for line in lines:
        if not line.entry:
            continue
        entries += 1
        resolved = memdir.resolve(line.links[0].target, base)
        if resolved is not None and resolved.problem == MISSING:
            missing.append((line, resolved.rel or line.links[0].target))
    return missing, entries


def _only_generated(line: il.IndexLine, rel: str | None) -> bool:
    """Whether the line holds nothing the generator would not write again for its target: a bare
    link titled with the file's name (what a topic with no `name` is titled), no summary."""
    if rel is None or line.summary() or line.text.strip() != f"- [{line.links[0].title}]({line.links[0].target})":
        return False
    return line.links[0].title == posixpath.splitext(posixpath.basename(rel))[0]


@rule(
    "MEM104",
    "index-broken-link",
    ERROR,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="An index entry links to a file that is missing, absolute, a URL, or outside the memory dir.",
    fix=SAFE,
    reports_on=ON_EACH,  # MEMORY.md and its secondary indexes, each in focus or not
)
def index_broken_link(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    for document, lines, base in memdir.listings():
        yield from _broken_links(memdir, document, lines, base)


def _broken_links(memdir: MemoryDir, document: Document, lines: list[il.IndexLine], base: str) -> Iterator[Hit]:
    missing, entries = _mirror(memdir, lines, base)
    mirrored = (len(missing) >= MIRROR_MIN_MISSING and 2 * len(missing) > entries) or (len(missing) == entries >= 3)
    if mirrored:
        first = missing[0][0]
        yield Hit(
            f"{len(missing):,} of {entries:,} index entries point to topics not in this tree "
            f"({_first_few([rel for _, rel in missing])}): an index copied without its topic files, or a mirror of a "
            "memory dir that lacks them. Each line is the only record of its memory here, so none is dropped; "
            "restore the topic files, or remove the lines by hand.",
            path=document.path,
            line=first.number,
            related=tuple(rel for _, rel in missing),
        )
    for line in lines:
        for link in line.links:
            resolved = memdir.resolve(link.target, base)
            if resolved is None or resolved.problem in (None, UNKNOWN):
                continue  # a target that cannot be examined (say, an unsearchable dir) may well be there
            if resolved.problem not in _BROKEN_ANYWHERE and not line.entry:
                continue
            if mirrored and resolved.problem == MISSING and line.entry:
                continue  # said once above
            message = _BROKEN.get(
                resolved.problem,
                "`{target}` is an absolute path: it breaks on every other machine and clone. Link topic "
                "files relative to the memory dir.",
            )
            # The line is dropped only when it holds nothing a person wrote that the tree cannot
            # give back: a missing target's bare, generated-looking link. Its summary, a
            # hand-chosen title, a URL, an absolute path or a path out of the memory dir may be the
            # only record of what the human meant, so no fix, not even an unsafe one, drops those.
            safe = resolved.problem == MISSING and _only_generated(line, resolved.rel)
            message = message.format(target=quote(link.target))
            if base and resolved.problem == MISSING and resolved.rel:  # said from a subfolder's index
                message = (
                    f"`{quote(link.target)}` (`{quote(resolved.rel)}` in the memory dir) does not exist: the "
                    "agent follows this entry to nothing."
                )
            yield _on_link(document, line, link, message, "Remove the broken entry" if safe else None)


@rule(
    "MEM105",
    "index-orphan-topic",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_UNLINKED,
    cacheable=True,
    summary="A topic file that no line of MEMORY.md links to, so the agent never discovers it.",
    fix=SAFE,
    options=(MAX_LINES, MAX_CHARS, TARGET_LINES, TARGET_CHARS, LINE_MAX_CHARS),
    reports_on=ON_MEMBERS,
)
def index_orphan_topic(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    if memdir.cut(options["index-max-lines"], options["index-max-chars"]) is None:
        return
    linked = _discovered(memdir)
    listed = _listed_in(memdir, linked)
    lists: dict[str, list[str]] = {}
    for rel, index in listed.items():
        lists.setdefault(index, []).append(rel)
    append, index_path = _appender(memdir, options), memdir.index_path
    for topic in memdir.topics:  # a finding for each of 100,000 orphans at most: nothing asked twice
        rel = topic.rel
        # One linked only past the load cap is MEM101's, with the cut; one listed in a secondary
        # index no line links is that index's: linking it is the fix, not a line per entry.
        if rel in linked or rel in listed:
            continue
        fix = None
        if not unindexable(rel):
            fix = Fix(SAFE, "Add the topic's generated line to MEMORY.md", path=index_path, build=append, of=topic)
        behind = sorted(lists[rel]) if rel in lists else None
        more = (
            f" It is a secondary index, and the {len(behind):,} {'topic' if len(behind) == 1 else 'topics'} it "
            f"lists are never discovered either: {_first_few(behind)}."
            if behind
            else ""
        )
        yield Hit(
            f"No line of MEMORY.md links to `{rel}`: the index is the agent's only way to discover "
            f"a topic, so this one is never read.{more}",
            path=topic.path,
            fix=fix,
            related=tuple(behind) if behind else (),
        )


def _discovered(memdir: MemoryDir, through_line: int | None = None) -> set[str]:
    """What a link leads the agent to: a line of MEMORY.md (up to `through_line`, if given), or
    of a secondary index that a link leads it to (an archive linked from the index is opened,
    and its entries followed)."""
    linked = memdir.linked(through_line)
    secondaries = _secondaries(memdir)
    opened = [rel for rel in secondaries if rel in linked]
    while opened:
        found = memdir.targets(*secondaries.pop(opened.pop())) - linked
        linked |= found
        opened += [rel for rel in found if rel in secondaries]
    return linked


def _secondaries(memdir: MemoryDir) -> dict[str, tuple[list[il.IndexLine], str]]:
    return {document.rel: (lines, base) for document, lines, base in memdir.listings() if document is not memdir.index}


def _listed_in(memdir: MemoryDir, discovered: set[str]) -> dict[str, str]:
    """The topics that a secondary index no link leads to lists, each with that index."""
    listed: dict[str, str] = {}
    for rel, (lines, base) in _secondaries(memdir).items():
        if rel not in discovered:
            for target in memdir.targets(lines, base):
                listed.setdefault(target, rel)
    return listed


@rule(
    "MEM106",
    "index-missing",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="A memory dir has topic files but no MEMORY.md.",
    fix=SAFE,
    options=(TARGET_LINES, TARGET_CHARS, LINE_MAX_CHARS),
    reports_on=ON_CONTAINER,
)
def index_missing(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    if memdir.index is None and memdir.topics:
        count = len(memdir.topics)
        topics = f"{count:,} topic {'file is' if count == 1 else 'files are'} in this memory dir"
        if memdir.index_link is not None:
            yield Hit(
                f"MEMORY.md is a symlink ({memdir.index_link}) that mnemolint does not follow, so the index of "
                f"this memory dir ({count:,} topic {'file' if count == 1 else 'files'}) could not be checked. "
                "Keep the index a regular file in the memory dir.",
                path=memdir.index_path,
            )
            return
        yield Hit(
            f"MEMORY.md is missing: {topics} and none can be discovered. Generate the index from the "
            "topics' descriptions.",
            path=memdir.index_path,
            fix=Fix(SAFE, "Generate MEMORY.md from the topic files", build=partial(_new_index, memdir, options)),
        )


@rule(
    "MEM107",
    "index-duplicate-entry",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="The same topic is linked from two index lines.",
    fix=SAFE,
    reports_on=ON_EACH,  # MEMORY.md and its secondary indexes, each in focus or not
)
def index_duplicate_entry(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    for document, lines, base in memdir.listings():  # each index on its own: an archive repeats by design
        cost = "spends load budget" if document is memdir.index else "is one more line to read"
        first_line: dict[str, il.IndexLine] = {}
        for line in lines:
            if not line.entry:
                continue  # a link inside prose is not an entry
            for link in line.links:
                resolved = memdir.resolve(link.target, base)
                if resolved is None or resolved.rel is None:
                    continue
                seen = first_line.setdefault(resolved.rel, line)
                if seen is not line:
                    # The later line goes only when it is a true duplicate: it says nothing the first does not.
                    true = _repeats(line, seen, resolved.rel)
                    said = (
                        "tells the agent nothing new"
                        if true
                        else f"says what line {seen.number} could say: move its text there"
                    )
                    message = (
                        f"`{resolved.rel}` is already linked on line {seen.number}: the second entry {cost} and {said}."
                    )
                    yield _on_link(document, line, link, message, "Remove the later duplicate line" if true else None)


def _repeats(line: il.IndexLine, seen: il.IndexLine, rel: str) -> bool:
    """Whether `line` is a true duplicate of `seen`: its text is held by the first line's, and its
    title is the first line's or the file's own name (what the generator writes)."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    title = _folded(line.links[0].title)
    return title in (_folded(seen.links[0].title), _folded(stem)) and _folded(line.summary()) in _folded(seen.summary())


def _on_link(document: Document, line: il.IndexLine, link: il.Link, message: str, drop: str | None) -> Hit:
    """A finding on one link of an index line, whose safe fix, when there is one (`drop` says
    what it does), is to drop the line."""
    return Hit(
        message,
        path=document.path,
        line=line.number,
        column=link.column,
        end_line=line.number,
        end_column=link.end_column,
        fix=None if drop is None else _drop_line(document, line, drop),
    )


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


@rule(
    "MEM108",
    "index-not-pointer",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_NEVER,
    cacheable=True,
    summary="MEMORY.md holds frontmatter, paragraphs, code or nested content instead of one-line pointers.",
    options=(MAX_LINES,),
)
def index_not_pointer(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    lines = memdir.lines
    if lines and lines[0].kind == il.FRONTMATTER:
        end = max(line.number for line in lines if line.kind == il.FRONTMATTER)
        yield Hit(
            f"MEMORY.md has frontmatter, which no agent takes fields from: {_frontmatter_fate(memdir, end, options)}. "
            "Remove it: the index is one pointer per line.",
            line=1,
            end_line=end,
        )
    block: list[il.IndexLine] = []
    for line in [*lines, il.IndexLine(0, "", il.HEADING, [])]:
        if line.kind in _CONTENT_KINDS:
            block.append(line)
        elif line.kind != il.BLANK and block:
            yield _content_block(block, options["index-max-lines"])
            block = []


def _frontmatter_fate(memdir: MemoryDir, lines: int, options: dict) -> str:
    """What each reader of the dir does with the index's frontmatter (Claude Code: cl02a)."""
    fates = []
    for reader in memdir.readers:
        if reader.strips_index_markup:
            fates.append(f"{reader.title} strips it before it loads the index")
        else:
            fates.append(
                f"{reader.title} loads it as index text, its {lines:,} lines counted against the "
                f"{options['index-max-lines']}-line cap"
            )
    return "; ".join(fates)


def _content_block(block: list[il.IndexLine], max_lines: int) -> Hit:
    kinds = sorted({_CONTENT_KINDS[line.kind] for line in block})
    first, last = block[0].number, block[-1].number
    where = f"Line {first} is" if first == last else f"Lines {first}–{last} are"
    return Hit(
        f"{where} {' and '.join(kinds)}, not one-line pointers: the index is loaded into every session, so "
        f"content here spends its {max_lines}-line budget. Move it into a topic file and link that with one line.",
        line=first,
        end_line=last,
    )


@lru_cache(maxsize=4_096)  # a pure function of three texts: a server's keystroke asks again of every entry
def _drift(title: str, summary: str, description: str) -> str | None:
    """How an entry (its link's `title` and `summary`) says something other than its topic's
    description, or None (`wording` judges, on the link's title and the summary together: the
    title is part of what the agent reads of the entry)."""
    from mnemolint.parse import wording

    cut = summary.rstrip().removesuffix("…").removesuffix("...")
    shortened = len(cut) < len(summary.rstrip())
    if shortened:  # its last word may be cut too (`2026-05-1…`)
        summary = cut.rsplit(None, 1)[0] if " " in cut.strip() else ""
    if _folded(description).startswith(_folded(summary)):
        return None  # the description, or its first words (the generator's own line, cut to fit)
    if shortened:
        description = description[: len(cut) + 1]  # what the entry could say of it
    return wording.difference(f"{title} {summary}", description)


def _description(topic: Document) -> str | None:
    return topic.frontmatter.text("description")


# What MEM109 reads of each topic, computed by the per-file pass (`member_facts`): in whichever
# process checked the topic, not parsed again in the container stage.
_DESCRIBED = "description"


@rule(
    "MEM109",
    "index-description-drift",
    INFO,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_LINKED,
    cacheable=True,
    summary="An index entry's text no longer matches its topic's `description`.",
    member_facts=((TOPIC, _DESCRIBED, _description),),
)
def index_description_drift(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    for line in memdir.lines:
        rel = _topic_of(memdir, line)
        summary = line.summary() if rel else ""
        description = memdir.topic_by_rel[rel].derived(_DESCRIBED, _description) if rel and summary else None
        if not description or not description.strip():
            continue
        drift = _drift(line.links[0].title, summary, description)
        if drift:
            yield Hit(
                f"Entry text says something other than the description of `{rel}`, which the index line is "
                f'derived from ({drift}): "{quote(" ".join(description.split()))}".',
                line=line.number,
                column=line.links[0].end_column,
            )


FAMILY = Family(
    "MEM1",
    "the MEMORY.md index",
    "index",
    (
        index_over_load_limit,
        index_near_limit,
        index_line_too_long,
        index_broken_link,
        index_orphan_topic,
        index_missing,
        index_duplicate_entry,
        index_not_pointer,
        index_description_drift,
    ),
    precision={"MEM108": "high", "MEM109": "medium"},  # judged (content, wording), not counted
    cites=("Wave", "Claude Code"),  # a public source: what the pinned client does
)
