"""Frontmatter, split strictly and read as the agents' YAML 1.2 parsers read it.

Libraries such as python-frontmatter return `{}` for exactly the cases a linter must report (a
BOM before the fence, an unclosed fence, a list instead of a mapping), so the fences are split
here and only the YAML between them goes to ruamel.yaml (YAML 1.2: `no` stays a string, a
duplicate key is an error). Anchors, aliases and deep nesting are refused from the event stream
before any value is built, so an alias bomb costs microseconds, not gigabytes.
"""

from __future__ import annotations

import re

from mnemolint.parse.fast_yaml import read_flat
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import Any

NONE = "none"
OK = "ok"
UNCLOSED = "unclosed"
INVALID = "invalid"
NOT_MAPPING = "not-mapping"
TOO_COMPLEX = "too-complex"

_FENCE = Lazy(r"---[ \t]*\r?")
_KEY = Lazy(r"([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
# Plain scalars whose meaning differs between YAML 1.1 and YAML 1.2 (core schema). A source
# string, compiled (and cached by `re`) on first use: most frontmatter never needs it. No two
# adjacent quantifiers can take the same character ("digits and `_` with one `_`" is
# `[0-9]*_[0-9_]*`, never `[0-9_]*_[0-9_]*`), so a failing match costs linear time.
_AMBIGUOUS = r"""(?x)
    (?P<bool>y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)
    |(?P<int>[-+]?0[0-7_]+|[-+]?0b[01_]+|[-+]?0o[0-7]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+|[-+]?[0-9]+_[0-9_]*)
    |(?P<float>[-+]?[0-9]+[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*\.[0-9]*_[0-9_]*)
    |(?P<date>[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
        (?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?)
    """
_AMBIGUOUS_START = frozenset("yYnNoO+-0123456789")

_loader_class: Any = None


def _make_loader(text: str) -> Any:
    """A YAML 1.2 safe loader over `text`, with libyaml's C parser when ruamel.yaml.clib is there.

    `CSafeLoader` pairs the C parser with ruamel's YAML 1.2 `Resolver`, whose rules are built once
    per class; `YAML(typ="safe").load` builds a new loader class and resolver table on every call,
    which costs three times the parse itself on a small frontmatter.
    """
    global _loader_class
    if _loader_class is None:
        import warnings

        from ruamel.yaml.error import YAMLWarning

        # ruamel warns about YAML 1.1 readings (`1e3` has no dot); FM004 reports them instead.
        warnings.simplefilter("ignore", YAMLWarning)
        try:
            from ruamel.yaml.cyaml import CSafeLoader

            _loader_class = tolerant(CSafeLoader)
        except ImportError:  # no C extension (PyPy, say): the same classes in pure Python
            _loader_class = pure_loader_class()
    return _loader_class(text)


def pure_loader_class() -> Any:
    """ruamel's pure-Python safe loader, as tolerant, with the one attribute its composer expects of `YAML()`."""
    from ruamel.yaml.loader import SafeLoader

    class PureSafeLoader(SafeLoader):
        max_depth = None

    return tolerant(PureSafeLoader)


_MAX_INT_DIGITS = 4_300  # Python's default limit on converting between int and decimal text
_INT_TAG = "tag:yaml.org,2002:int"
_SCALAR_TAGS = ("tag:yaml.org,2002:bool", _INT_TAG, "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp")


def tolerant(loader_class: Any) -> Any:
    """`loader_class` whose typed scalars never raise a Python error while they are built.

    ruamel raises ValueError for a plain scalar that matches a type's pattern but is no value of
    it (`2024-13-45`, `0b_`, an integer past Python's int-string limit) and KeyError for
    `!!bool maybe`, IndexError for an empty `!!int` or `!!float` (the fuzzer's find): one such
    value cost every rule on the file. Such a plain scalar keeps the
    text it was written as (what Wave's string-only reader, and any core-schema reader for a
    date, make of it); an explicit tag that does not fit its value is invalid YAML. The limit is
    not lifted: converting a long decimal string costs quadratic time, so an integer with more
    digits than the limit, or too large to print back (`0x` and 4,000 digits), stays text too.
    """
    import sys

    from ruamel.yaml.constructor import ConstructorError
    from ruamel.yaml.nodes import ScalarNode

    limit = min(getattr(sys, "get_int_max_str_digits", lambda: 0)() or _MAX_INT_DIGITS, _MAX_INT_DIGITS)
    max_bits = (10**limit - 1).bit_length()
    builders = loader_class.yaml_constructors

    def construct(loader: Any, node: Any) -> Any:
        tag = str(node.tag)
        if tag == _INT_TAG and isinstance(node, ScalarNode) and len(node.value) > limit:
            return node.value
        try:
            value = builders[tag](loader, node)
        except (
            ValueError,
            KeyError,
            OverflowError,
            IndexError,
        ):  # only a scalar node gets this far (IndexError: `!!int` alone)
            if str(loader.resolver.resolve(ScalarNode, node.value, (True, False))) != tag:
                problem = f"the value does not fit its tag `!!{tag.rpartition(':')[2]}`"
                raise ConstructorError(None, None, problem, node.start_mark) from None
            return node.value
        return node.value if tag == _INT_TAG and value.bit_length() > max_bits else value

    class Tolerant(loader_class):
        pass

    for tag in _SCALAR_TAGS:
        Tolerant.add_constructor(tag, construct)
    return Tolerant


class Ambiguous:
    """An unquoted scalar that YAML 1.1 and 1.2 readers take differently, under top-level `key`."""

    __slots__ = ("value", "kind", "line", "column", "key")

    def __init__(self, value: str, kind: str, line: int, column: int, key: str) -> None:
        self.value = value
        self.kind = kind
        self.line = line
        self.column = column
        self.key = key


class FrontMatter:
    """The frontmatter block of one document and what reading it gave.

    Line numbers are 1-based lines of the file. `status` is one of NONE (no fence on line 1),
    OK, UNCLOSED, INVALID, NOT_MAPPING, TOO_COMPLEX; `data` is a dict only when OK. `retried`: plain
    YAML refused the block (its `error` kept) and `data` is what Claude Code's second try reads
    (agents/claude_code.py), which FM001 reports and the other rules read as the fields.
    """

    __slots__ = (
        "status",
        "data",
        "fence_line",
        "close_line",
        "yaml_lines",
        "error",
        "error_line",
        "error_column",
        "ambiguous",
        "retried",
        "_key_lines",
    )

    def __init__(self) -> None:
        self.status = NONE
        self.data: dict[str, Any] | None = None
        self.fence_line = 0
        self.close_line = 0
        self.yaml_lines: list[str] = []
        self.error = ""
        self.error_line: int | None = None
        self.error_column: int | None = None
        self.ambiguous: list[Ambiguous] = []
        self.retried = False
        self._key_lines: dict[str, int] | None = None

    @property
    def present(self) -> bool:
        return self.status != NONE

    def key_line(self, key: str) -> int | None:
        """File line of a top-level key, found from the text (the fast loader keeps no marks)."""
        if self._key_lines is None:
            self._key_lines = {}
            for offset, text in enumerate(self.yaml_lines):
                match = _KEY.match(text)
                if match:
                    self._key_lines.setdefault(match.group(1), self.fence_line + 1 + offset)
        return self._key_lines.get(key)

    def text(self, key: str) -> str | None:
        """A top-level value as the text an agent would show; None when missing or not a scalar."""
        if not self.data:
            return None
        value = self.data.get(key)
        if value is None or isinstance(value, (dict, list)):
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def fences(lines: list[str]) -> tuple[bool, int]:
    """Whether line 1 opens a frontmatter block (a BOM before it is allowed), and the 1-based line
    of the `---` that closes it (0: unclosed or none): the one definition of the fences."""
    if not lines or not _FENCE.fullmatch(lines[0].lstrip("\ufeff")):
        return False, 0
    for index in range(1, len(lines)):
        if lines[index].startswith("---") and _FENCE.fullmatch(lines[index]):
            return True, index + 1
    return True, 0


def after(text: str) -> tuple[int, str]:
    """The lines before the body and the body: the text after a closed frontmatter block, else
    (0, the whole text), as the agents that skip a frontmatter read it."""
    lines = text.split("\n")
    opened, close = fences(lines)
    return (close, "\n".join(lines[close:])) if opened and close else (0, text)


def split_and_parse(lines: list[str], max_depth: int) -> FrontMatter:
    """Find the fences in `lines` (as split on \\n, CRs kept) and read the YAML between them."""
    result = FrontMatter()
    opened, result.close_line = fences(lines)
    if not opened:
        return result
    result.fence_line = 1
    if not result.close_line:
        result.status = UNCLOSED
        return result
    result.yaml_lines = [line.rstrip("\r") for line in lines[1 : result.close_line - 1]]
    _parse(result, "\n".join(result.yaml_lines), max_depth, result.yaml_lines)
    return result


def _parse(
    result: FrontMatter, text: str, max_depth: int, lines: list[str] | None = None, last_wins: bool = False
) -> None:
    """Read `text` into `result`; given its `lines`, a flat block ruamel would read as strings
    alone is read without ruamel (`fast_yaml`: the same facts, minus ruamel's import).
    `last_wins`: a key given twice is no error, its last value counts (as Bun's parser reads it)."""
    if not text.strip():
        result.status, result.data = OK, {}
        return
    flat = fast_path(lines, max_depth) if lines is not None else None
    if flat is not None:
        result.status, result.data = OK, flat
        return
    from ruamel.yaml.error import YAMLError

    try:
        # Anchors, aliases and deep nesting are refused from the event stream before any value
        # is built; everything else is built first, and only values that may read differently
        # in YAML 1.1 (rare) cost a second pass for their positions.
        risky = "&" in text or "*" in text or "[" in text or "{" in text or _may_nest_deep(text, max_depth)
        if risky:
            refusal = _scan_events(text, max_depth, result)
            if refusal:
                result.status, result.error = TOO_COMPLEX, refusal
                return
        data = _load(text, last_wins)
        if not risky and _may_be_ambiguous(data):
            _scan_events(text, max_depth, result)
    except YAMLError as error:
        _record_error(result, error)
        return
    except RecursionError:
        result.status, result.error = TOO_COMPLEX, "nesting too deep to read"
        return
    if data is None:
        data = {}
    if not isinstance(data, dict):
        result.status, result.error = NOT_MAPPING, type(data).__name__
        return
    result.status, result.data = OK, data


def fast_path(lines: list[str], max_depth: int) -> dict[str, str] | None:
    """The mapping `fast_yaml` reads from `lines` where it is all ruamel's path below would give:
    not below depth 1 (a flat mapping is one level deep), and not where that path would scan
    events for FM004's positions (a value YAML 1.1 reads differently). None: ask ruamel."""
    flat = read_flat(lines) if max_depth >= 1 else None
    if flat is None:
        return None
    for value in flat.values():  # `_may_be_ambiguous` of a mapping of strings, without its recursion
        if value[:1] in _AMBIGUOUS_START and re.fullmatch(_AMBIGUOUS, value) is not None:
            return None
    return flat


def parse_block(text: str, max_depth: int, last_wins: bool = False) -> FrontMatter:
    """A frontmatter block's text read as YAML 1.2, its mapping in `data` when OK (no positions:
    the block is not a file's); `last_wins` as for `_parse`."""
    result = FrontMatter()
    _parse(result, text, max_depth, last_wins=last_wins)
    return result


def _load(text: str, last_wins: bool = False) -> Any:
    loader = _make_loader(text)
    if last_wins:
        loader.__class__ = _last_wins_class(type(loader))
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


_LAST_WINS: dict[Any, Any] = {}


def _last_wins_class(loader_class: Any) -> Any:
    """`loader_class` whose mappings take the last value of a repeated key instead of refusing it."""
    if loader_class not in _LAST_WINS:

        class LastWins(loader_class):
            def check_mapping_key(self, node: Any, key_node: Any, mapping: Any, key: Any, value: Any) -> bool:
                return True  # stored again: the last value stays

        _LAST_WINS[loader_class] = LastWins
    return _LAST_WINS[loader_class]


def _may_be_ambiguous(value: Any) -> bool:
    """Whether a loaded value could come from a plain scalar that YAML 1.1 reads differently.

    Numbers and dates might (`010`, `1e3`, `2024-01-01`), and so might strings such as `no` or
    `12:30`; a second, event-level pass then tells plain from quoted and finds the position.
    """
    if isinstance(value, str):
        return value[:1] in _AMBIGUOUS_START and re.fullmatch(_AMBIGUOUS, value) is not None
    if isinstance(value, dict):
        return any(_may_be_ambiguous(item) for item in value.values())
    if isinstance(value, list):
        return any(_may_be_ambiguous(item) for item in value)
    return value is not None and not isinstance(value, bool)


def _may_nest_deep(text: str, max_depth: int) -> bool:
    """Whether block collections could nest deeper than `max_depth` (so the event scan must run).

    Block nesting costs indentation: each level moves the node at least one column right (or
    two, with a `- `/`? ` indicator), except a sequence that is a mapping's value, which the next
    level pays for. So a collection nested beyond `max_depth` starts at a column of at least
    `max_depth - 2`, counting spaces and indicators; flow nesting is caught by `[`/`{`.
    """
    return re.search(rf"(?m)^[ ?:-]{{{max(max_depth - 2, 1)},}}", text) is not None


def _scan_events(text: str, max_depth: int, result: FrontMatter) -> str | None:
    """Refuse anchors, aliases and deep nesting; note ambiguous plain scalars on the way."""
    from ruamel.yaml.events import (
        AliasEvent,
        CollectionEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    stack: list[list[bool]] = []  # per open collection: [is_mapping, next scalar is a key]
    key = ""  # the top-level key the scalars being read belong to
    loader = _make_loader(text)
    try:
        while True:
            event = loader.get_event()
            if isinstance(event, StreamEndEvent):
                return None
            refusal = None
            if isinstance(event, AliasEvent):
                refusal = f"alias `*{event.anchor}`: anchors and aliases are refused, not expanded"
            elif getattr(event, "anchor", None):
                refusal = f"anchor `&{event.anchor}`: anchors and aliases are refused, not expanded"
            elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                _advance(stack)
                stack.append([isinstance(event, MappingStartEvent), True])
                if len(stack) > max_depth:
                    refusal = f"nested deeper than {max_depth} levels"
            if refusal:
                result.error_line = result.fence_line + 1 + event.start_mark.line
                result.error_column = event.start_mark.column + 1
                return refusal
            if isinstance(event, CollectionEndEvent):
                stack.pop()
            elif isinstance(event, ScalarEvent):
                is_key = bool(stack) and stack[-1][0] and stack[-1][1]
                _advance(stack)
                if is_key and len(stack) == 1:
                    key = event.value
                elif not is_key and not event.style and not event.tag:
                    _note_ambiguous(event, result, key)
    finally:
        loader.dispose()


def _note_ambiguous(event: Any, result: FrontMatter, key: str) -> None:
    match = re.fullmatch(_AMBIGUOUS, event.value)
    if match:
        line, column = result.fence_line + 1 + event.start_mark.line, event.start_mark.column + 1
        result.ambiguous.append(Ambiguous(event.value, match.lastgroup or "", line, column, key))


def _advance(stack: list[list[bool]]) -> None:
    """A node was read inside the innermost mapping: the next scalar flips key/value."""
    if stack and stack[-1][0]:
        stack[-1][1] = not stack[-1][1]


def _record_error(result: FrontMatter, error: Exception) -> None:
    result.status = INVALID
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    result.error = f"{context}: {problem}" if context and problem and "duplicate" not in problem else str(problem)
    if mark is not None:
        result.error_line = result.fence_line + 1 + mark.line
        result.error_column = mark.column + 1
