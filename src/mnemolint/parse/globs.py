"""Rule globs (`paths:` of `.wave/rules` and `.claude/rules` files) the way each agent reads and
matches them. The two agents differ:

- Wave (MemoryRuleService.ts:19-25, 66) takes `paths` from its own frontmatter reader: a string
  is one pattern, never split on commas or spaces; each pattern is matched with minimatch
  `{dot: true}` against the workdir-relative path — no `matchBase` (`*.ts` is root files only),
  case-sensitive, no `./` normalisation, a leading `!` negates. Here: wcmatch, translated once
  to a regular expression.
- Claude Code (frontmatterParser.ts:189-266, claudemd.ts:254-278) takes a YAML list or a
  comma-separated string (commas inside braces kept), expands braces (no numeric ranges),
  drops a trailing `/**`, treats all-`**` as unconditional, and matches with gitignore
  semantics, case-insensitive, relative to the folder holding `.claude`. Here: pathspec's
  gitignore patterns, compiled once; one of many wildcards is matched by `safe_regex` (pathspec's
  expression backtracks exponentially: `*a*a*a*a*a*a*a*a*a*a*b` ran for minutes on a 60-character
  name), and one too large even for that is a SYNTAX problem (WAV004), not a hang.
- Wave's patterns, through wcmatch, get the same bound by their form (`wave_cost`): quantified
  extglob groups with alternatives (`+(a|aa)`), more than `MAX_GLOBSTARS` `**` or more than
  `MAX_STARS` `*` in one segment backtrack past any budget, so they are SYNTAX problems too.

Nothing here touches the file system.
"""

from __future__ import annotations

import re

from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TypeVar

    from mnemolint.parse.safe_regex import Budget, SafeRegex

    K = TypeVar("K")

WAVE_STYLE = "minimatch"
CLAUDE_STYLE = "gitignore"
MINIMATCH_MAX_LENGTH = 65_536  # minimatch throws on a longer pattern

# Why a pattern can never match, whatever the project holds (WAV003, WAV004, WAV013).
OUTSIDE = "outside"  # absolute, `./`, drive letter, `..`: the relative path never has that form
SYNTAX = "syntax"  # unbalanced braces or brackets, too long, too many expansions
NEGATED = "negated"  # `!x`: Wave applies the rule to every file but those; Claude Code to none
_NAMED_GROUP = Lazy(r"\(\?P<\w+>")


class GlobError(ValueError):
    """A pattern that cannot be compiled: the reason says why, in the words of a finding."""


class Glob:
    """One pattern as one agent holds it. `written` is the pattern in the file (before Claude
    Code's brace expansion and `/**` drop), `problem` (OUTSIDE, SYNTAX, NEGATED or None) and
    `why` say what stops it matching; `regex` matches a base-relative POSIX path."""

    __slots__ = ("written", "pattern", "problem", "why", "regex", "negated")

    def __init__(
        self, written: str, pattern: str, problem: str | None, why: str, regex: re.Pattern | SafeRegex | None
    ) -> None:
        self.written = written
        self.pattern = pattern
        self.problem = problem
        self.why = why
        self.regex = regex
        self.negated = problem == NEGATED

    @property
    def combinable(self) -> bool:
        """Whether its expression may join others in one `re` alternation (WAV002): not one
        matched by `safe_regex`, which the engine would backtrack through."""
        return isinstance(self.regex, re.Pattern)

    def matches(self, rel: str) -> bool:
        """Whether this pattern alone selects `rel` (for a negated one: the file it leaves out)."""
        return self.regex is not None and self.regex.match(rel) is not None

    def __repr__(self) -> str:
        return f"<Glob {self.pattern!r} {self.problem or 'ok'}>"


def wave_values(value: object) -> list[str]:
    """Wave's patterns from its reader's `paths` value: a list's strings, a string as one pattern."""
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return [value] if isinstance(value, str) and value else []


def claude_values(value: object) -> list[str]:
    """Claude Code's patterns from the YAML `paths` value, before brace expansion: a list's
    strings, or a string split on the commas outside braces."""
    if isinstance(value, list):
        return [item.strip() for item in value if isinstance(item, str) and item.strip()]
    if isinstance(value, str):
        return [part.strip() for part in split_commas(value) if part.strip()]
    return []


def split_commas(text: str) -> list[str]:
    """`text` split on the commas that are not inside `{…}`."""
    parts, depth, start = [], 0, 0
    for position, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif char == "," and not depth:
            parts.append(text[start:position])
            start = position + 1
    parts.append(text[start:])
    return parts


def unbalanced(pattern: str) -> str | None:
    """Why the braces or brackets of `pattern` do not pair up (None when they do)."""
    depth = 0
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            close = pattern.find("]", index + 2 if pattern[index + 1 : index + 2] in ("]", "!", "^") else index + 1)
            if close == -1:
                return f"the `[` at character {index + 1} is never closed"
            index = close + 1
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            if not depth:
                return f"the `}}` at character {index + 1} closes no `{{`"
            depth -= 1
        index += 1
    return "a `{` is never closed" if depth else None


def expand_braces(pattern: str, limit: int) -> list[str]:
    """Claude Code's brace expansion: the first `{a,b}` group each time, recursively, no numeric
    ranges (bracex, which wcmatch uses, expands `{1..3}` too, so it cannot stand in here).
    More than `limit` results is a GlobError: Claude Code has no cap and would keep going."""
    done: list[str] = []
    pending = [pattern]
    while pending:
        current = pending.pop()
        group = _first_group(current)
        if group is None:
            done.append(current)
        else:
            start, end, options = group
            pending.extend(current[:start] + option + current[end + 1 :] for option in reversed(options))
        if len(done) + len(pending) > limit:
            raise GlobError(f"its braces expand to more than {limit:,} patterns")
    return done


def _first_group(pattern: str) -> tuple[int, int, list[str]] | None:
    """The first `{…}` holding a top-level comma: where it starts and ends, and its options.
    One pass with a stack (a scan from each `{` to its close was quadratic: deeply nested braces
    without commas took seconds)."""
    open_groups: list[list] = []  # [start, holds a top-level comma]
    first: tuple[int, int] | None = None
    for position, char in enumerate(pattern):
        if char == "{":
            open_groups.append([position, False])
        elif char == "," and open_groups:
            open_groups[-1][1] = True
        elif char == "}" and open_groups:
            start, comma = open_groups.pop()
            if comma and (first is None or start < first[0]):
                first = (start, position)
    if first is None:
        return None
    start, end = first
    return start, end, split_commas(pattern[start + 1 : end])


def outside_form(pattern: str, style: str) -> str | None:
    """Why a project-relative path can never have this pattern's form (None when it can)."""
    body = pattern.lstrip("!")
    if re.match(r"[A-Za-z]:[\\/]", body) or body.startswith("\\"):
        return "it names a drive or an absolute Windows path"
    if body == ".." or body.startswith("../") or "/../" in body:
        return "it climbs out with `..`, and files outside the project never match"
    if body.startswith("./"):
        return "it starts with `./`, which the relative path never does"
    if body.startswith("/") and style == WAVE_STYLE:
        return "it is absolute, and Wave matches the project-relative path"
    return None


MAX_GLOBSTARS = 3  # `**` segments of one Wave pattern: each is a lazy scan over the whole path
MAX_STARS = 4  # `*` in one segment (wcmatch makes all but the last atomic only on Python 3.11+)
_QUANTIFIED_ALTERNATIVES = Lazy(r"[*+]\([^)]*[|(]")


def wave_cost(pattern: str) -> str | None:
    """Why wcmatch's expression of a Wave pattern could backtrack past any budget (None when it
    cannot): `+(a|aa)b` against 30 `a`s took 7 s, and each more character doubles it."""
    if _QUANTIFIED_ALTERNATIVES.search(pattern):
        return "a repeated extglob group of alternatives (`*(…|…)`, `+(…|…)`) is too complex to match in bounded time"
    segments = pattern.split("/")
    if sum(segment == "**" for segment in segments) > MAX_GLOBSTARS:
        return f"more than {MAX_GLOBSTARS} `**` segments are too complex to match in bounded time"
    if any(segment != "**" and segment.count("*") > MAX_STARS for segment in segments):
        return f"more than {MAX_STARS} `*` in one path segment are too complex to match in bounded time"
    return None


def compile_wave(pattern: str, limit: int) -> Glob:
    """One of Wave's patterns, judged and compiled for minimatch `{dot: true}` semantics."""
    from wcmatch import glob

    if len(pattern) > MINIMATCH_MAX_LENGTH:
        return Glob(
            pattern, pattern, SYNTAX, f"it is over {MINIMATCH_MAX_LENGTH:,} characters, which minimatch refuses", None
        )
    why = outside_form(pattern, WAVE_STYLE)
    if why:
        return Glob(pattern, pattern, OUTSIDE, why, None)
    broken = unbalanced(pattern) or wave_cost(pattern)
    if broken:
        return Glob(pattern, pattern, SYNTAX, broken, None)
    negated = len(pattern) - len(pattern.lstrip("!"))
    body = pattern[negated:]
    flags = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB | glob.EXTGLOB | glob.FORCEUNIX | glob.CASE
    try:
        include, _ = glob.translate(body, flags=flags, limit=limit)
    except Exception as error:  # noqa: BLE001 - wcmatch's limit error and its pattern errors alike
        reason = f"its braces expand to more than {limit:,} patterns" if "limit" in str(error) else str(error)
        return Glob(pattern, pattern, SYNTAX, reason, None)
    regex = re.compile("|".join(f"(?:{part})" for part in include)) if include else None
    if negated % 2:
        return Glob(pattern, pattern, NEGATED, "a leading `!` makes it match every file except those", regex)
    return Glob(pattern, pattern, None, "", regex)


MAX_COSTLY_GLOBS = 16  # patterns of many wildcards one rule file's `paths` may hold (`safe_regex.Budget`)


def compile_claude_all(written: list[str], limit: int) -> list[Glob]:
    """Claude Code's comma parts of one rule file, compiled; at most `MAX_COSTLY_GLOBS` of them
    are patterns of many wildcards, the rest of those are SYNTAX problems."""
    from mnemolint.parse.safe_regex import Budget

    budget = Budget(MAX_COSTLY_GLOBS)
    return [glob for part in written for glob in compile_claude(part, limit, budget)]


def compile_claude(written: str, limit: int, budget: Budget | None = None) -> list[Glob]:
    """One of Claude Code's comma parts, expanded and compiled for gitignore semantics (its
    patterns of many wildcards taken from `budget`, one of its own when None)."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    from mnemolint.parse.safe_regex import Budget, TooComplex, guarded

    budget = budget or Budget(MAX_COSTLY_GLOBS)

    why = outside_form(written, CLAUDE_STYLE)
    if why:
        return [Glob(written, written, OUTSIDE, why, None)]
    broken = unbalanced(written)
    if broken:
        return [Glob(written, written, SYNTAX, broken, None)]
    try:
        expanded = expand_braces(written, limit)
    except GlobError as error:
        return [Glob(written, written, SYNTAX, str(error), None)]
    found = []
    for pattern in expanded:
        pattern = pattern[:-3] if pattern.endswith("/**") and pattern != "/**" else pattern
        negated = pattern.startswith("!")
        try:
            compiled = GitIgnoreSpecPattern(pattern[negated:].lower())
        except Exception as error:  # noqa: BLE001 - pathspec's own refusal of a pattern
            found.append(Glob(written, pattern, SYNTAX, str(error), None))
            continue
        if compiled.regex is None:  # gitignore reads `#a` as a comment, an empty line as nothing
            found.append(Glob(written, pattern, SYNTAX, "gitignore reads it as a comment, so it matches nothing", None))
            continue
        # pathspec names a group (`ps_d`) in every pattern: unnamed, so that WAV002 can join them.
        try:
            regex = guarded(re.compile(_NAMED_GROUP.sub("(?:", compiled.regex.pattern), re.IGNORECASE), budget)
        except TooComplex as error:
            found.append(Glob(written, pattern, SYNTAX, f"it is too complex to match in bounded time: {error}", None))
            continue
        if negated:  # its expression is what it takes back out
            why = "a `!` pattern only takes files back out, so alone it selects none"
            found.append(Glob(written, pattern, NEGATED, why, regex))
        else:
            found.append(Glob(written, pattern, None, "", regex))
    return found


_SPECIAL = frozenset("*?[]{}()!+@\\")


def literal_tail(glob: Glob) -> str:
    """The literal text a path must end with for this minimatch pattern to match it (`.py` of
    `**/*.py`), or "" when it ends in a wildcard; gitignore patterns also match what lies below a
    folder they name, so they have none."""
    if glob.negated or glob.problem is not None or not glob.regex or glob.regex.flags & re.IGNORECASE:
        return ""
    tail = len(glob.pattern)
    while tail and glob.pattern[tail - 1] not in _SPECIAL:
        tail -= 1
    return glob.pattern[tail:]


def unconditional_for_claude(patterns: Iterable[str]) -> bool:
    """Claude Code treats an empty list, or one of `**` patterns only, as no condition at all."""
    return all(set(pattern.strip()) <= {"*", "/"} for pattern in patterns)


def unmatched(pending: list[tuple[K, Glob]], files: list[str]) -> list[tuple[K, Glob]]:
    """The patterns of `pending` (each with the key of what it stands for) that match none of
    `files` (WAV002, and the CUR, CPL, WSF and CLN glob rules). A minimatch pattern ending in
    literal text (`**/*.py`) can only match a path ending in it, so it is tried on those alone;
    the rest share one combined expression per file, rebuilt only when a pattern is found live."""
    by_tail: dict[str, list[tuple[K, Glob]]] = {}
    rest: list[tuple[K, Glob]] = []
    alone = [item for item in pending if not item[1].combinable]  # each matched by itself, in bounded time
    for item in pending:
        tail = literal_tail(item[1])
        if item[1].combinable:
            (by_tail.setdefault(tail, []) if tail else rest).append(item)
    left = _scan(rest, files) + [item for item in alone if not any(item[1].matches(rel) for rel in files)]
    for tail, items in by_tail.items():
        left += _scan(items, [rel for rel in files if rel.endswith(tail)])
    return left


def _scan(pending: list[tuple[K, Glob]], files: list[str]) -> list[tuple[K, Glob]]:
    left = list(pending)
    combined = _combine(left)
    for rel in files:
        if combined is None:
            break
        if combined.match(rel):
            left = [(key, glob) for key, glob in left if not glob.matches(rel)]
            combined = _combine(left)
    return left


def _combine(pending: list[tuple[K, Glob]]) -> re.Pattern | None:
    if not pending:
        return None
    flags = pending[0][1].regex.flags & re.IGNORECASE  # type: ignore[union-attr]
    return re.compile("|".join(f"(?:{glob.regex.pattern})" for _, glob in pending), flags)  # type: ignore[union-attr]
