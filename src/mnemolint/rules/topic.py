"""MEM2xx: topic files, the `.md` files beside `MEMORY.md` (Wave's capacity rulesprompt 1, 9)."""

from __future__ import annotations

import posixpath
import re
import sys
from collections import Counter
from collections.abc import Iterator

from mnemolint.kinds.memory import MEMORY_DIR, MISSING, SKIPPED, TOPIC, TYPES, MemoryDir, unindexable
from mnemolint.kinds.rules import RULE_FILE
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.options import INT, RATIO, Option
from mnemolint.parse import frontmatter as fm
from mnemolint.parse.document import RELATIONS, Document
from mnemolint.parse.textutil import quote, utf16_len
from mnemolint.parse.wording import FUNCTION_WORDS, UNSPACED
from mnemolint.patterns import Lazy
from mnemolint.rules.base import ON_MEMBERS, OTHERS_MARKED, Family, rule

MAX_BYTES = Option(
    "topic-max-bytes", INT, 4_096, "UTF-8 bytes of a trimmed topic file, frontmatter included (Wave's capacity rules)"
)
MAX_LINES = Option("topic-max-lines", INT, 200, "lines of a trimmed topic file (Wave's capacity rules)")
WARN_RATIO = Option("topic-warn-ratio", RATIO, 0.8, "topic occupancy that starts the warning (Wave's capacity rules)")
DESCRIPTION_MAX = Option(
    "description-max-chars", INT, 300, "longest `description` before it must be compressed (Wave's capacity rules)"
)
DESCRIPTION_TARGET = Option(
    "description-target-chars", INT, 150, "what a too-long description should be compressed to (Wave's capacity rules)"
)
_ONE_OF_TYPES = f"{', '.join(TYPES[:-1])} or {TYPES[-1]}"
_ONE_THING = "One file, one thing: summarise instead of appending, and split different things into their own files."


def _a_memory(document: Document) -> bool:
    """Whether a topic file holds a memory: a secondary index (an archive of index entries,
    `MemoryDir.secondary`) holds none, and the index rules check it instead."""
    container = document.container
    return not isinstance(container, MemoryDir) or container.secondary(document) is None


def _memory_size(document: Document) -> tuple[int, int | None] | None:
    """The trimmed size of a topic that holds a memory (`Document.trimmed_size`), or None: found
    once for MEM201 and MEM202 (`Document.derived`; the caps are options, applied by each rule)."""
    if document.text is None and not document.too_large or not _a_memory(document):
        return None
    return document.trimmed_size


def _measure(document: Document, options: dict) -> tuple[float, int, int | None] | None:
    """A memory topic's occupancy of its cap (the larger of its byte and line shares), its bytes and lines."""
    measured = document.derived("memory size", _memory_size)
    if measured is None:
        return None
    size, lines = measured
    return max(size / options["topic-max-bytes"], (lines or 0) / options["topic-max-lines"]), size, lines


def _occupancy(measured: tuple[float, int, int | None], options: dict) -> str:
    _, size, lines = measured
    max_bytes, max_lines = options["topic-max-bytes"], options["topic-max-lines"]
    return f"{size:,} of {max_bytes:,} bytes" + (f", {lines:,} of {max_lines} lines" if lines is not None else "")


@rule(
    "MEM201",
    "topic-over-limit",
    ERROR,
    reads=(TOPIC,),
    summary="A topic file is over {topic-max-bytes} bytes or {topic-max-lines} lines.",
    options=(MAX_BYTES, MAX_LINES),
    cacheable=True,
)
def topic_over_limit(document: Document, options: dict) -> Iterator[Hit]:
    measured = _measure(document, options)
    if measured and measured[0] > 1:
        yield Hit(
            f"Topic file is over its cap ({_occupancy(measured, options)}): too big to stay one thing. The agent "
            "reads a topic whole when it opens it, so all of it is spent on every read; the cap is the memory's "
            f"capacity convention. Rewrite it now. {_ONE_THING}"
        )


@rule(
    "MEM202",
    "topic-near-limit",
    WARNING,
    reads=(TOPIC,),
    summary="A topic file is at {topic-warn-ratio} or more of its {topic-max-bytes}-byte / {topic-max-lines}-line cap.",
    options=(MAX_BYTES, MAX_LINES, WARN_RATIO),
    cacheable=True,
)
def topic_near_limit(document: Document, options: dict) -> Iterator[Hit]:
    measured = _measure(document, options)
    if measured and options["topic-warn-ratio"] <= measured[0] <= 1:
        yield Hit(
            f"Topic file is at {measured[0]:.0%} of its cap ({_occupancy(measured, options)}): close to too big to "
            f"stay one thing. {_ONE_THING}"
        )


def _readable_frontmatter(document: Document) -> fm.FrontMatter | None:
    """The frontmatter when its fields can be judged (broken YAML is FM0xx's to report), in a file
    that holds a memory: found once per document (`Document.derived`) for the six topic rules and
    the title and link rules that read it."""
    return document.derived("memory frontmatter", _judged_frontmatter)


def _judged_frontmatter(document: Document) -> fm.FrontMatter | None:
    if not document.readable or not _a_memory(document):  # `readable`: known from the cache without a read
        return None
    front = document.frontmatter
    return front if front.status in (fm.OK, fm.NONE) else None


@rule(
    "MEM203",
    "topic-missing-description",
    WARNING,
    reads=(TOPIC,),
    summary="A topic file has no frontmatter `description`, so it cannot be indexed.",
    cacheable=True,
)
def topic_missing_description(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None or (front.text("description") or "").strip():
        return
    raw = (front.data or {}).get("description")
    if isinstance(raw, (list, dict)):
        where = f"`description` is a {'list' if isinstance(raw, list) else 'mapping'}, not one line of text"
    elif front.present:
        where = "frontmatter has no `description`"
    else:
        where = "file has no frontmatter"
    yield Hit(
        f"Topic {where}: the description is the only source of its index line and manifest entry, so "
        "the topic cannot be indexed. Add `description: <one-line summary>` to the frontmatter.",
        line=1 if front.present else None,
    )


@rule(
    "MEM204",
    "topic-description-too-long",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's `description` is over {description-max-chars} characters.",
    options=(DESCRIPTION_MAX, DESCRIPTION_TARGET),
    cacheable=True,
)
def topic_description_too_long(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    description = front.text("description") if front else None
    if front is None or description is None:
        return
    length = utf16_len(description.strip())  # a `>`/`|` block keeps a final newline
    if length > options["description-max-chars"]:
        yield Hit(
            f"Description is {length:,} characters (limit: {options['description-max-chars']}): it becomes "
            f"the topic's index line, so compress it to about {options['description-target-chars']}.",
            line=front.key_line("description") or 1,
        )


def _field(front: fm.FrontMatter, key: str) -> tuple[object, bool]:
    """A field's value and whether it sits under `metadata:` (Claude Code reads it there too)."""
    data = front.data or {}
    if key in data:
        return data[key], False
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and key in metadata:
        return metadata[key], True
    return None, False


@rule(
    "MEM205",
    "topic-missing-field",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's frontmatter lacks `name` or `type`.",
    cacheable=True,
)
def topic_missing_field(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None:
        return
    missing, nested = [], []
    for key in ("name", "type"):
        value, under_metadata = _field(front, key)
        if value is None or value == "":
            missing.append(f"`{key}`")
        elif under_metadata and not document.reader.reads_metadata_block:  # the reader asked only here
            nested.append(f"`{key}`")
    if missing:
        yield Hit(
            f"Topic frontmatter lacks {' and '.join(missing)}: memory files carry name, description and "
            "type, so the agent can title the entry and file it under one of its four memory types.",
            line=1 if front.present else None,
        )
    if nested:
        yield Hit(
            f"{' and '.join(nested)} {'is' if len(nested) == 1 else 'are'} nested under `metadata:`, which "
            "Wave's reader does not look into: move it to the top level of the frontmatter.",
            line=front.key_line("metadata") or 1,
        )


@rule(
    "MEM206",
    "topic-invalid-type",
    WARNING,
    reads=(TOPIC,),
    summary=f"A topic's `type` is not one of {', '.join(TYPES)}.",
    cacheable=True,
)
def topic_invalid_type(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None:
        return
    value, under_metadata = _field(front, "type")
    if value is None or value == "":
        return
    if isinstance(value, str) and value.lower() in TYPES:
        return
    shown = quote(value) if isinstance(value, str) else type(value).__name__
    line = front.key_line("metadata" if under_metadata else "type") or 1
    yield Hit(
        f"`type: {shown}` is not a memory type: the agent files memories under {_ONE_OF_TYPES} only.",
        line=line,
    )


@rule(
    "MEM207",
    "topic-unindexable-name",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's file name cannot be written as an index link, so index generation skips it.",
    cacheable=True,
)
def topic_unindexable_name(document: Document, options: dict) -> Iterator[Hit]:
    problem = unindexable(document.rel)
    if problem:
        yield Hit(SKIPPED.format(problem=problem))


_BLOCK_SCALAR = Lazy(r"^[A-Za-z_][\w-]*:[ \t]*[>|][-+]?[ \t]*$")
_NEEDS_QUOTES = Lazy(r":\s|\s#|^[\s\-?:,\[\]{}#&*!|>'\"%@`]|\s$")


@rule(
    "MEM211",
    "frontmatter-misread",
    WARNING,
    reads=(TOPIC, RULE_FILE),
    summary="A frontmatter field that Wave's own reader takes differently from YAML.",
    cacheable=True,
)
def frontmatter_misread(document: Document, options: dict) -> Iterator[Hit]:
    if not document.reader.own_frontmatter_reader or document.text is None:
        return
    front = document.frontmatter
    if front.status != fm.OK or not isinstance(front.data, dict) or not front.data:
        return
    from mnemolint.parse import wave_frontmatter

    if document.text.startswith("\ufeff"):
        yield Hit(
            "The file starts with a byte-order mark, so Wave's reader finds no frontmatter in it at all "
            f"(YAML readers find {len(front.data)} field{'s' if len(front.data) != 1 else ''}): Wave gets none "
            "of them. Save the file as UTF-8 without a BOM (TXT001's fix).",
            line=1,
        )
        return
    wave = wave_frontmatter.read(document.text)
    if wave is None:
        return
    for key, truth in front.data.items():
        line = front.key_line(key) or 1
        if key == "metadata" and isinstance(truth, dict) and "description" in truth and "description" not in front.data:
            yield Hit(
                f"`metadata:` is one string to Wave's reader (`{quote(str(wave.get(key, '')))}`), so the nested "
                "`description` is lost there: Wave gets no description. Move `description:` to the top level.",
                line=line,
            )
        if key == "paths" or not isinstance(truth, str):
            continue  # rule `paths` are WAV010's; Wave keeps no other type to compare
        got = wave.get(key)
        expected = truth.strip()
        if got == expected:
            continue
        why = _why(got, expected)
        if why == _COMMENT:  # the `#…` may be text YAML drops: both spellings keep what was meant
            advice = (
                f"If the `#…` is part of the text, quote it: {_rewrite(key, str(got), quoted=True)}; if it is "
                "a comment, move it to a line of its own"
            )
        else:
            advice = f"Write it so that every reader gets the same: {_rewrite(key, expected)}"
        yield Hit(
            f"`{key}`: Wave's reader gets {_shown(got)} where YAML gives {_shown(expected)}{why}. {advice}.",
            line=line,
        )
    for key in wave:
        if key not in front.data and not any(isinstance(v, dict) and key in v for v in front.data.values()):
            yield Hit(
                f"`{key}:` is a continuation line of another value in YAML, but Wave's reader ignores "
                f"indentation and takes it as a key of its own (`{key}` = {_shown(wave[key])}). Put the value "
                "on one line.",
                line=front.key_line(key) or _line_of(front, key),
            )
    kind = front.data.get("type")
    if isinstance(kind, str) and kind not in TYPES and kind.lower() in TYPES and wave.get("type") == kind:
        yield Hit(
            f"`type: {quote(kind)}`: Wave matches the type case-sensitively, so this memory has no type there "
            f"(it is filed untyped). Write `type: {kind.lower()}`.",
            line=front.key_line("type") or 1,
        )
    scalars = [text for text in front.yaml_lines if _BLOCK_SCALAR.match(text.rstrip("\r"))]
    if scalars:
        yield Hit(
            f"`{scalars[0].split(':', 1)[0]}` is a block scalar (`{scalars[0].split(':', 1)[1].strip()}`): the "
            "older Wave reader (W-HEAD) takes it as that literal text and loses the value, which the newer one "
            "reads. Write the value on one line if the file must work with older Wave versions.",
            line=_line_of(front, scalars[0].split(":", 1)[0]),
            severity=INFO,
        )


_COMMENT = " (it keeps an inline `# comment` as part of the value)"


def _shown(value: object) -> str:
    if value is None or value == []:
        return "nothing"
    if isinstance(value, list):
        return "the list " + ", ".join(f"`{quote(item)}`" for item in value)
    return f"`{quote(str(value))}`"


def _why(got: object, expected: str) -> str:
    """What in Wave's reader made the difference."""
    if not isinstance(got, str):
        return ""
    if "#" in got and got.startswith(expected.rstrip()):
        return _COMMENT
    if got == re.sub(r"^[\"']|[\"']$", "", expected):
        return " (it strips a quote at either end, even one that does not close)"
    if got and expected.startswith(got) and len(got) < len(expected):
        return " (it drops the continuation lines of a plain value that starts on the key's line)"
    return ""


def _rewrite(key: str, value: str, quoted: bool = False) -> str:
    """A one-line spelling that YAML and Wave read alike; none when no quoting is safe for both."""
    if "\n" in value:
        return "one line per value, or a `|` block (read alike by YAML and the newer Wave)"
    if not quoted and not _NEEDS_QUOTES.search(value) and value[-1:] not in "\"'":
        return f"`{key}: {quote(value)}`"
    if "'" not in value:
        return f"`{key}: '{quote(value)}'`"
    if '"' not in value:
        return f'`{key}: "{quote(value)}"`'
    return "a wording without quotes at either end"


def _line_of(front: fm.FrontMatter, key: str) -> int:
    """The file line of the first frontmatter line that starts `key:` at any indentation."""
    for offset, text in enumerate(front.yaml_lines):
        if text.strip().startswith(f"{key}:"):
            return front.fence_line + 1 + offset
    return front.fence_line or 1


# --- MEM208-MEM212: memory quality (when to update, when to add) ---------

SIMILAR_TITLE_RATIO = Option(
    "similar-title-ratio",
    RATIO,
    0.3,
    "title overlap (Jaccard of CJK character bigrams and words) from which two titles are close (the memory "
    "convention's closeness test)",
)
_CJK = UNSPACED  # kana, Han, Hangul
# CJK runs: character bigrams; other runs: words, a number apart from the word it is written onto
# (`sprint8` is `sprint` and 8, as `sprint-8` is)
_SCRIPT_RUN = Lazy(rf"([{_CJK}]+)|\d+|[^\W\d_{_CJK}]+")
# The same runs of an ASCII title, which holds no CJK: the CJK ranges take ~5 ms to compile, as
# long as the rest of a small run
_ASCII_RUN = Lazy(r"\d+|[^\W\d_]+")
# Function words, and the four type words: `feedback_testing` and `project-testing` name one subject.
_STOP_WORDS = FUNCTION_WORDS | {"not", "no"} | set(TYPES)


def _normal(text: str) -> str:
    """A title as the seed compares it: NFKC (full-width and compatibility forms folded),
    case-folded, whitespace collapsed. 「API 地址」, 「ＡＰＩ　地址」 and 「api  地址」 are one title."""
    import unicodedata

    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class _TitleFacts:
    """What MEM208, MEM209 and MEM212 compare of a topic: its title as normalised (`_normal`), the
    layer and condition it holds under (the memory convention: `scope`, absent is the project
    layer, the default; `when`, absent is its own condition) and what MEM209 compares titles by
    (`_grams`): the words and bigrams, sorted, and the numbers, one string. A dir may hold
    100,000 topics, so each is a few small objects shared where they can be: the title is the
    `name` string itself when it is already normal, the usual key is one tuple, and the dir's
    topics share equal word tuples (`_find_titled`). The title as written is read again from the
    frontmatter for the few findings that show it (`_written_title`)."""

    __slots__ = ("title", "key", "words", "numbers")

    def __init__(self, title: str, key: tuple[object, object], words: tuple[str, ...], numbers: str) -> None:
        self.title = title
        self.key = key
        self.words = words
        self.numbers = numbers  # the title's numbers joined by a space (digits hold none): one string, not a tuple


_PROJECT = ("project", None)  # the key of a topic with neither `scope` nor `when`: most of them


def _title_facts(topic: Document) -> _TitleFacts | None:
    """A topic's `_TitleFacts`, or None when it has no title to compare (the others are MEM205's),
    computed of its text alone: it goes with the document (`Document.derived`), so a language
    server's keystroke in one topic does not read the titles of the 2,000 others again."""
    front = _readable_frontmatter(topic)
    if front is None:
        return None
    name = _name(front)
    if name is None:
        return None
    data = front.data or {}
    written = str(name)
    title = _normal(written)
    key = (_condition(data.get("scope")) or "project", _condition(data.get("when")))
    grams, numbers = _grams(title)
    words = tuple(sorted(sys.intern(gram) for gram in grams))
    title = written if title == written else title  # most names are written normal (`feedback_testing`)
    return _TitleFacts(title, _PROJECT if key == _PROJECT else key, words, " ".join(numbers))


def _name(front: fm.FrontMatter) -> str | int | float | None:
    """The topic's `name` when it is a title to compare: a string, or a number, not blank."""
    name, _ = _field(front, "name")
    if not isinstance(name, (str, int, float)) or isinstance(name, bool) or not str(name).strip():
        return None
    return name


def _written_title(topic: Document) -> str:
    """The title of a titled topic as written (`_title_facts` found it), for a finding to quote."""
    return str(_name(topic.frontmatter)).strip()


def _condition(value: object) -> object:
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, list):
        return tuple(_normal(str(item)) for item in value)
    return _normal(str(value))


# What MEM208 and MEM209 read of every topic, computed by the per-file pass (`member_facts`).
_TITLE_FACTS = ((TOPIC, "titled", _title_facts),)


class _Titles:
    """The topics of a memory dir that have a title (`name`), in path order, beside their facts:
    two lists rather than an object a topic."""

    __slots__ = ("topics", "facts")

    def __init__(self) -> None:
        self.topics: list[Document] = []
        self.facts: list[_TitleFacts] = []


def _titled(memdir: MemoryDir) -> _Titles:
    """The titled topics (the others are MEM205's); once per memory dir and run."""
    return memdir.derived("titled", _find_titled)


def _find_titled(memdir: MemoryDir) -> _Titles:
    found = _Titles()
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # equal word tuples made one (`Topic 1`, `Topic 2`, …)
    for topic in sorted(memdir.topics, key=lambda document: document.rel):
        facts = topic.derived("titled", _title_facts)
        if facts is not None:
            facts.words = shared.setdefault(facts.words, facts.words)
            found.topics.append(topic)
            found.facts.append(facts)
    return found


def _name_line(topic: Document) -> int | None:
    front = topic.frontmatter
    return front.key_line("name") or front.key_line("metadata") or (1 if front.present else None)


def _condition_shown(key: tuple[object, object]) -> str:
    scope, when = key
    return f"scope `{scope}`" + (f", `when` {when}" if when is not None else ", no `when`")


@rule(
    "MEM208",
    "topic-duplicate-title",
    WARNING,
    reads=MEMORY_DIR,
    cacheable=True,
    summary="Two topics of one memory dir have the same title under the same scope and `when`.",
    reports_on=ON_MEMBERS,
    member_facts=_TITLE_FACTS,
)
def topic_duplicate_title(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    titles = _titled(memdir)
    first: dict[tuple[object, object], dict[str, int]] = {}  # by key, then title: no tuple made a topic
    for at, facts in enumerate(titles.facts):
        earlier = first.setdefault(facts.key, {}).setdefault(facts.title, at)
        if earlier != at:
            topic = titles.topics[at]
            yield Hit(
                f"Title `{quote(_written_title(topic))}` is already the title of `{titles.topics[earlier].rel}` "
                f"({_condition_shown(facts.key)}): same title, same layer, same condition is one memory, "
                "so the agent saves into one and the other goes stale. Merge the two files into one, or give "
                "one a `when` or a title of its own if they hold under different conditions.",
                path=topic.path,
                line=_name_line(topic),
            )


def _grams(title: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """What two titles are compared by: the character bigrams of each Han/kana/Hangul run (a lone
    character stands for itself) and each other word except function words, the memory type
    words and numbers; and the numbers, which tell the members of a numbered series apart."""
    grams: set[str] = set()
    numbers = []
    ascii = title.isascii()
    for match in (_ASCII_RUN if ascii else _SCRIPT_RUN).finditer(title):
        run = match.group()
        if not ascii and match.group(1):
            grams.update((run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else (run,))
        elif run.isdigit():
            numbers.append(run)
        elif run not in _STOP_WORDS:
            grams.add(run)
    return frozenset(grams), tuple(numbers)


def close_pairs(grams: list[frozenset[str]], ratio: float) -> Iterator[tuple[int, int, float]]:
    """Pairs (i < j) of gram sets (`_grams`) with a Jaccard overlap of at least `ratio`, each
    once: a prefix-filtered join (AllPairs, Bayardo et al. 2007). Sets are taken smallest first,
    each ordered rarest gram first. Two sets A ⊇size B that overlap that much share at least
    ratio·|A| grams, and at least 2·ratio/(1 + ratio)·|B|, so they share a gram among the first
    |A| - ceil(ratio·|A|) + 1 of A (what A probes) and the first |B| - ceil(2·ratio/(1 + ratio)·|B|) + 1
    of B (what B was indexed under): only such pairs are ever compared, and a grams common to
    every title (`notes`) is rarely in a prefix — a dir of 10,000 topics is not 50 million
    comparisons."""
    from math import ceil

    frequency: dict[str, int] = {}
    for found in grams:
        for gram in found:
            frequency[gram] = frequency.get(gram, 0) + 1
    index: dict[str, list[int]] = {}
    indexed_share = 2 * ratio / (1 + ratio)
    for i in sorted(range(len(grams)), key=lambda i: len(grams[i])):
        size = len(grams[i])
        if not size:
            continue
        ordered = sorted(grams[i], key=lambda gram: (frequency[gram], gram))
        probe = ordered[: size - ceil(ratio * size - 1e-9) + 1]
        for j in {j for gram in probe for j in index.get(gram, ())}:
            shared = len(grams[i] & grams[j])
            overlap = shared / (size + len(grams[j]) - shared)
            if overlap >= ratio - 1e-9:
                yield min(i, j), max(i, j), overlap
        for gram in ordered[: size - ceil(indexed_share * size - 1e-9) + 1]:
            index.setdefault(gram, []).append(i)


@rule(
    "MEM209",
    "topic-similar-title",
    INFO,
    reads=MEMORY_DIR,
    cacheable=True,
    summary="Two topics' titles overlap by {similar-title-ratio} or more, under one scope and `when`.",
    options=(SIMILAR_TITLE_RATIO,),
    reports_on=ON_MEMBERS,
    member_facts=_TITLE_FACTS,
)
def topic_similar_title(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    ratio = options["similar-title-ratio"]
    titles = _titled(memdir)
    groups: dict[tuple[object, object], list[int]] = {}
    for at, facts in enumerate(titles.facts):
        groups.setdefault(facts.key, []).append(at)
    series = series_grams([facts.words for facts in titles.facts])
    for group in groups.values():
        for i, j, overlap in _similar([titles.facts[at] for at in group], ratio, series):
            earlier, later = titles.topics[group[i]], titles.topics[group[j]]
            shown, close_to = _written_title(later), _written_title(earlier)
            yield Hit(
                f"Title `{quote(shown)}` is close to `{quote(close_to)}` of `{earlier.rel}` "
                f"(overlap {overlap:.2f}, from {ratio:g}): if they are one memory, merge them; if they are two, "
                "keep them, and let the titles say what tells them apart (for example 「前端 API 地址」 and "
                "「后端 API 地址」 are two).",
                path=later.path,
                line=_name_line(later),
            )


# A gram in this many titles of one memory dir (the pair and another) names a series — a project,
# a product, a sprint: `AI Bible Gospels contact email`, `AI Bible Gospels Telegram channel` — not
# what one memory is about.
SERIES_TITLES = 3


def series_grams(grams: list[tuple[str, ...]]) -> frozenset[str]:
    """The grams at least `SERIES_TITLES` of the dir's titles hold (their document frequency)."""
    counts = Counter(gram for found in grams for gram in found)
    return frozenset(gram for gram, count in counts.items() if count >= SERIES_TITLES)


def close(a: frozenset[str], b: frozenset[str], ratio: float) -> bool:
    """Whether two gram sets are close: a Jaccard overlap of `ratio` or more, on two shared grams
    or all of one set (one shared word of several each is a head noun, `macro_system` and
    `compendium_system`, not a subject)."""
    shared = len(a & b)
    return bool(shared) and shared / len(a | b) >= ratio - 1e-9 and (shared >= 2 or a <= b or b <= a)


def _similar(
    titles: list[_TitleFacts], ratio: float, series: frozenset[str] = frozenset()
) -> list[tuple[int, int, float]]:
    """The close pairs (i < j) of `titles`, by the later one. Titles whose numbers differ are
    members of a numbered series (`Incident 12`, `Incident 13 notes`), two memories on purpose, and
    never compared; the same title is MEM208's. Two titles are close as a whole (`close`) and
    still close without the `series` grams, the names many titles of the dir share: `sprint 8
    design` and `sprint 8 closed` share only their series. The join runs over the distinct gram
    sets, and their titles are matched by their numbers, so a dir of 2,000 `Topic N` is not two
    million pairs."""
    # Per distinct words, the first title of each numbers; a first title's later ones apart, as
    # most titles have none (a list each would be most of what a dir of 100,000 `Topic N` holds here).
    firsts: dict[tuple[str, ...], dict[str, int]] = {}
    later: dict[int, list[int]] = {}
    for i, facts in enumerate(titles):
        first = firsts.setdefault(facts.words, {}).setdefault(facts.numbers, i)
        if first != i:
            later.setdefault(first, []).append(i)
    sets = [frozenset(words) for words in firsts]  # only while the pairs are found: one a distinct title
    by_numbers = list(firsts.values())
    pairs = [
        (min(i, j), max(i, j), overlap)
        for a, b, overlap in close_pairs(sets, ratio)
        if close(sets[a], sets[b], ratio) and close(sets[a] - series, sets[b] - series, ratio)
        for numbers, first in by_numbers[a].items()
        if numbers in by_numbers[b]
        for i in (first, *later.get(first, ()))
        for j in (by_numbers[b][numbers], *later.get(by_numbers[b][numbers], ()))
    ]
    for first, others in later.items():  # the same words and numbers, written apart (`Build-notes`)
        pairs += [(first, j, 1.0) for j in others if titles[j].title != titles[first].title]
    return sorted(pairs, key=lambda pair: (pair[1], pair[0]))


# "你要…", "请…", "You must…", "Always …": an order, where the memory convention wants a noun phrase. A word
# joined by a hyphen (`Always-on build cache`, `Never-expire tokens policy`) starts a noun phrase,
# and 「请求」, 「请假」, 「请款」, 「请示」, 「请愿」, 「请教」 are nouns, not 「请」.
_IMPERATIVE = Lazy(
    r"(?:you\s+(?:must|should|need\s+to|have\s+to)|always|never|do\s+not|don[’']t|make\s+sure|please)(?![\w-])"
    r"|(?:你要|你需要|你必须|你应该|务必|不要|切勿|一定要|请(?![求假柬帖款示愿教]))",
    re.IGNORECASE,
)
_LEADING_MARKUP = Lazy(r"[\s*_`\"'“‘「>-]*")


@rule(
    "MEM210",
    "description-imperative",
    INFO,
    reads=(TOPIC,),
    summary="A topic's `description` is written as an order (`You must…`, `Always…`, 「请…」), not as a noun phrase.",
    cacheable=True,  # the file's own description, nothing else
)
def description_imperative(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    description = front.text("description") if front else None
    if front is None or not description:
        return
    text = description[_LEADING_MARKUP.match(description).end() :]  # type: ignore[union-attr]
    order = _IMPERATIVE.match(text)
    if order:
        yield Hit(
            f"Description `{quote(description.strip(), 60)}` is an order (`{order.group()}…`): the description is "
            "the memory's one-line summary in the index and in search results, where an order reads as an "
            "instruction to whoever sees it. Say what the memory is about, as a noun phrase (for example "
            "「摘要必须是名词短语」), and keep the rule itself in the body.",
            line=front.key_line("description") or 1,
        )


# An entry as people write it: `[[b]]` (a wiki link), `[B](b.md)`, `b.md#intro`: what it names.
_ENTRY_SYNTAX = Lazy(r"\[\[([^\]|]*)(?:\|[^\]]*)?\]\]|\[[^\]]*\]\(([^)]*)\)")


def _named(entry: str) -> str:
    """What a relation entry names, with its link syntax and `#fragment` taken off."""
    entry = entry.strip()
    written = _ENTRY_SYNTAX.fullmatch(entry)
    if written:
        entry = written.group(1) if written.group(1) is not None else written.group(2)
    return entry.split("#", 1)[0].strip()


@rule(
    "MEM212",
    "topic-broken-link",
    WARNING,
    reads=MEMORY_DIR,
    reads_other_members=OTHERS_MARKED,
    cacheable=True,
    summary="A topic's relative link, or its `relates_to` / `supersedes` / `superseded_by` entry, names no file.",
    reports_on=ON_MEMBERS,
)
def topic_broken_link(memdir: MemoryDir, options: dict) -> Iterator[Hit]:
    known: set[str] | None = None  # what a relation entry that is not a path may name: titles and stems
    folders = {rel.rsplit("/", depth)[0] for rel in memdir.topic_by_rel for depth in range(1, rel.count("/") + 1)}
    for topic in sorted(memdir.topics, key=lambda document: document.rel):
        related = any(topic.holds(key) for key in RELATIONS)
        linking = topic.holds("](") or topic.holds("]:")
        if not (related or linking) or not topic.readable or memdir.secondary(topic) is not None:
            continue  # nothing to follow (known from the cache without reading); a secondary index is MEM104's
        base = topic.rel.rpartition("/")[0]
        # YAML is parsed only where a relation may be: in a parallel run this process has none parsed.
        front = _readable_frontmatter(topic) if related else None
        for key, entry, line in _relations(front):
            if ".md" in entry or "/" in entry:
                if _broken(memdir, entry, base, folders):
                    yield Hit(
                        f"`{key}` names `{quote(entry)}`, which is not in the memory dir: the agent following it "
                        "finds nothing. Correct the file name (relative to this topic), or remove the entry.",
                        path=topic.path,
                        line=line,
                    )
                continue
            if known is None:
                known = {facts.title for facts in _titled(memdir).facts}
                known |= {_normal(other.rel.rpartition("/")[2][:-3]) for other in memdir.topics}
            if _normal(entry) not in known:
                yield Hit(
                    f"`{key}` names `{quote(entry)}`, and no topic of this memory dir has that title or file name: "
                    "the agent following it finds nothing. Name the topic's file (`name.md`), or remove the entry.",
                    path=topic.path,
                    line=line,
                )
        if not linking:
            continue
        body_start = fm.fences(topic.lines)[1]  # 0: no frontmatter, or one never closed
        body = "\n".join(topic.lines[body_start:])
        if "](" not in body and "]:" not in body:
            continue  # no inline link nor reference definition: the Markdown layer is never loaded
        from mnemolint.parse import markdown

        for line, target in markdown.links(body) or ():
            if _broken(memdir, target, base, folders):
                from urllib.parse import unquote  # CommonMark percent-encodes it: show it as written

                yield Hit(
                    f"Link to `{quote(unquote(target))}` leads to no file: the agent following it from this topic "
                    "finds nothing. Correct the path (relative to this topic), or remove the link.",
                    path=topic.path,
                    line=body_start + line,
                )


def _relations(front: fm.FrontMatter | None) -> Iterator[tuple[str, str, int]]:
    """Each `relates_to` / `supersedes` / `superseded_by` entry (the value is a string or a list
    of strings), with its key and line."""
    data = front.data if front is not None and isinstance(front.data, dict) else {}
    for key in RELATIONS:
        value = data.get(key)
        for entry in [value] if isinstance(value, str) else value if isinstance(value, list) else ():
            named = _named(entry) if isinstance(entry, str) else ""
            if named:
                yield key, named, front.key_line(key) or 1  # type: ignore[union-attr]


def _broken(memdir: MemoryDir, target: str, base: str, folders: set[str]) -> bool:
    """Whether a relative target, resolved from the topic's folder `base` as MEM104 resolves index
    links, is a memory-dir path that names no file. It is one when it names a file beside the
    topic (`x.md`), goes up a folder within the memory dir (`../x.md` from a subfolder), or starts
    with a folder of the memory dir (`folders`); `docs/x.md`, with no `docs/` there, is taken as the
    project path an agent opens it as (from the project root), and a path out of the memory dir is
    the project's too: neither is judged, since a memory dir is often linted without its project."""
    resolved = memdir.resolve(target, base)
    if resolved is None or resolved.problem != MISSING or resolved.rel is None:
        return False
    if base and not resolved.rel.startswith(base + "/"):
        return True  # up a folder, and still within the memory dir
    below = resolved.rel[len(base) + 1 :] if base else resolved.rel
    return "/" not in below or posixpath.join(base, below.split("/")[0]) in folders


FAMILY = Family(
    "MEM2",
    "topic files",
    "topic",
    (
        topic_over_limit,
        topic_near_limit,
        topic_missing_description,
        topic_description_too_long,
        topic_missing_field,
        topic_invalid_type,
        topic_unindexable_name,
        frontmatter_misread,
        topic_duplicate_title,
        topic_similar_title,
        description_imperative,
        topic_broken_link,
    ),
    precision={"MEM209": "high", "MEM210": "high"},  # judged (closeness, wording), not counted
)
