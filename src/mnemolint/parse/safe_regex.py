"""The regular expressions pathspec makes of gitignore patterns, matched in bounded time.

pathspec turns each `*` into `[^/]*` and each `**` into `.+`, and Python's engine backtracks over
every way of sharing a name between them: `*a*a*a*a*a*a*a*a*a*a*b` against a 60-character name
did not finish in two minutes. `guarded(regex)` keeps an expression with at most
`CHEAP_QUANTIFIERS` unbounded repeats as it is (the common `*.log`, `src/**/*.py`: fast in C);
any other becomes a `SafeRegex` (at most a `Budget`'s worth of them: each is a Python loop),
which runs the same expression as the engine would, choice by choice in the engine's order, but
tries each (instruction, position) pair at most once: a pair that failed once fails again,
whatever led to it. So it finds the engine's first match (with the same groups: pathspec's
directory mark), in time proportional to the expression's size times the text's. An expression
of more than `MAX_PROGRAM` instructions is `TooComplex`.

Only the forms pathspec writes are read: literal and escaped characters, `.`, classes, groups
(`(?:…)`, `(?P<name>…)`), `|`, `^`, `$`, and `*`, `+`, `?` on one character or `?` on a group.
Each character test is the engine's own (a one-character expression with the same flags), so
classes, case folding and `.` mean exactly what they mean to `re`.
"""

from __future__ import annotations

import re

CHEAP_QUANTIFIERS = 2  # unbounded repeats the engine may take as they are: at worst a square
MAX_PROGRAM = 512  # instructions: a text of 4,096 characters is then 2 million steps at most

_CHAR, _SPLIT, _JUMP, _MARK, _ASSERT, _MATCH = range(6)


class TooComplex(ValueError):
    """An expression mnemolint does not match: too large, or of a form pathspec does not write."""


def costly(regex: re.Pattern | str) -> bool:
    """Whether the engine may backtrack too long on `regex` (or its source): more than
    `CHEAP_QUANTIFIERS` `*` and `+` repeats (counted on the source, escaped ones left out: pathspec
    repeats only `[^/]` and `.`, so the count never falls short)."""
    source = regex if isinstance(regex, str) else regex.pattern
    repeats = source.count("*") + source.count("+") - source.count("\\*") - source.count("\\+")
    return repeats > CHEAP_QUANTIFIERS


def guarded(regex: re.Pattern, budget: Budget) -> re.Pattern | SafeRegex:
    """`regex` itself when the engine matches it in bounded time, else the same as a `SafeRegex`
    (one of `budget`'s: `TooComplex` once they are spent)."""
    if not costly(regex):
        return regex
    if budget.left <= 0:
        raise TooComplex(f"one file may hold at most {budget.size} patterns of this many wildcards")
    budget.left -= 1
    return SafeRegex(regex)


class Budget:
    """How many expressions one run of a matcher takes as `SafeRegex`: each costs a Python loop
    per path matched, so a file of thousands would cost minutes."""

    __slots__ = ("size", "left")

    def __init__(self, size: int) -> None:
        self.size = size
        self.left = size


class Found:
    """A match: the named groups that took part (`groupdict`, each `"/"`-like text or None) and
    where each ends (`end`, -1 for one that took no part), as `re.Match` says them."""

    __slots__ = ("_groups", "_ends")

    def __init__(self, groups: dict[str, str | None], ends: dict[str, int]) -> None:
        self._groups = groups
        self._ends = ends

    def groupdict(self) -> dict[str, str | None]:
        return dict(self._groups)

    def end(self, name: str) -> int:
        return self._ends.get(name, -1) if self._groups.get(name) is not None else -1


class SafeRegex:
    """`regex`, matched by `search` and `match` as `re` would, each pair of instruction and
    position tried once."""

    __slots__ = ("pattern", "flags", "_program", "_names")

    def __init__(self, regex: re.Pattern) -> None:
        import warnings

        self.pattern = regex.pattern
        self.flags = regex.flags
        with warnings.catch_warnings():  # `[[` compiles with a FutureWarning, not for the user's eyes
            warnings.simplefilter("ignore", FutureWarning)
            parsed = _Parser(regex.pattern, regex.flags).parse()
        self._names: list[str] = []
        program: list[tuple] = []
        self._emit(parsed, program)
        program.append((_MATCH,))
        if len(program) > MAX_PROGRAM:
            raise TooComplex(f"it makes {len(program):,} steps of matching, over {MAX_PROGRAM}")
        self._program = program

    def search(self, text: str) -> Found | None:
        return self._run(text, range(len(text) + 1))

    def match(self, text: str) -> Found | None:
        return self._run(text, (0,))

    def _run(self, text: str, starts: range | tuple) -> Found | None:
        program = self._program
        width = len(text) + 1
        tried: set[int] = set()  # shared by every start: a pair's outcome never depends on it
        for start in starts:
            stack: list[tuple[int, int, frozenset]] = [(0, start, frozenset())]
            while stack:
                at, position, marks = stack.pop()
                while True:
                    key = at * width + position
                    if key in tried:
                        break
                    tried.add(key)
                    step = program[at]
                    kind = step[0]
                    if kind == _CHAR:
                        if position < len(text) and step[1].match(text, position):
                            at, position = at + 1, position + 1
                            continue
                        break
                    if kind == _SPLIT:
                        stack.append((step[2], position, marks))
                        at = step[1]
                    elif kind == _JUMP:
                        at = step[1]
                    elif kind == _MARK:
                        marks = marks | {(step[1], step[2], position)}
                        at += 1
                    elif kind == _ASSERT:
                        if not step[1].match(text, position):
                            break
                        at += 1
                    else:
                        return self._found(text, marks)
        return None

    def _found(self, text: str, marks: frozenset) -> Found:
        starts = {name: position for name, edge, position in marks if edge == "open"}
        ends = {name: position for name, edge, position in marks if edge == "close"}
        groups = {name: text[starts[name] : ends[name]] if name in ends else None for name in self._names}
        return Found(groups, ends)

    def _emit(self, items: list, program: list[tuple]) -> None:
        for item in items:
            kind = item[0]
            if kind == "char":
                program.append((_CHAR, item[1]))
            elif kind == "assert":
                program.append((_ASSERT, item[1]))
            elif kind == "repeat":  # greedy: stay first
                _, char, least = item
                for _ in range(least):
                    program.append((_CHAR, char))
                loop = len(program)
                program.append(None)  # type: ignore[arg-type]  # the split, patched below
                program.append((_CHAR, char))
                program.append((_JUMP, loop))
                program[loop] = (_SPLIT, loop + 1, len(program))
            elif kind == "optional":  # greedy: take it first
                split = len(program)
                program.append(None)  # type: ignore[arg-type]
                self._emit(item[1], program)
                program[split] = (_SPLIT, split + 1, len(program))
            elif kind == "group":
                _, name, branches = item
                if name is not None:
                    self._names.append(name)
                    program.append((_MARK, name, "open"))
                jumps = []
                for index, branch in enumerate(branches):
                    split = None
                    if index < len(branches) - 1:
                        split = len(program)
                        program.append(None)  # type: ignore[arg-type]
                    self._emit(branch, program)
                    if split is not None:
                        jumps.append(len(program))
                        program.append(None)  # type: ignore[arg-type]
                        program[split] = (_SPLIT, split + 1, len(program))
                for jump in jumps:
                    program[jump] = (_JUMP, len(program))
                if name is not None:
                    program.append((_MARK, name, "close"))


class _Parser:
    """The items of an expression: ("char", test), ("assert", test), ("repeat", test, least),
    ("optional", items), ("group", name or None, [items of each branch])."""

    def __init__(self, source: str, flags: int) -> None:
        self.source = source
        self.flags = flags
        self.at = 0

    def parse(self) -> list:
        branches = self._branches()
        if self.at != len(self.source):
            raise TooComplex("an unmatched `)`")
        return branches[0] if len(branches) == 1 else [("group", None, branches)]

    def _branches(self) -> list[list]:
        branches = [self._sequence()]
        while self.source.startswith("|", self.at):
            self.at += 1
            branches.append(self._sequence())
        return branches

    def _sequence(self) -> list:
        items: list = []
        source = self.source
        while self.at < len(source) and source[self.at] not in "|)":
            items.append(self._quantified(self._atom()))
        return items

    def _atom(self) -> tuple:
        source, at = self.source, self.at
        char = source[at]
        if char == "(":
            if source.startswith("(?:", at):
                self.at, name = at + 3, None
            elif source.startswith("(?P<", at):
                close = source.find(">", at)
                self.at, name = close + 1, source[at + 4 : close]
            else:
                raise TooComplex("a group of a form pathspec does not write")
            branches = self._branches()
            if not source.startswith(")", self.at):
                raise TooComplex("an unclosed group")
            self.at += 1
            return ("group", name, branches)
        if char in "^$":
            self.at += 1
            return ("assert", self._test(char))
        if char == "[":
            end = at + 1
            end += source.startswith("^", end)
            end += source.startswith("]", end)
            while end < len(source) and source[end] != "]":
                end += 2 if source[end] == "\\" else 1
            if end >= len(source):
                raise TooComplex("an unclosed class")
            self.at = end + 1
            return ("char", self._test(source[at : end + 1]))
        if char == "\\":
            self.at += 2
            return ("char", self._test(source[at : at + 2]))
        if char in "*+?{":
            raise TooComplex("a repeat of nothing")
        self.at += 1
        return ("char", self._test(char))

    def _quantified(self, item: tuple) -> tuple:
        source, at = self.source, self.at
        if at >= len(source) or source[at] not in "*+?{":
            return item
        if source[at] == "{" or source.startswith(("?", "+"), at + 1) or source.startswith("*", at + 1):
            raise TooComplex("a repeat of a form pathspec does not write")
        self.at += 1
        if source[at] == "?":
            return ("optional", [item])
        if item[0] != "char":
            raise TooComplex("a repeated group")
        return ("repeat", item[1], 1 if source[at] == "+" else 0)

    def _test(self, piece: str) -> re.Pattern:
        try:
            return re.compile(piece, self.flags)
        except re.error as error:
            raise TooComplex(str(error)) from None
