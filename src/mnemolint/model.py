"""What rules produce: findings, their severity and the fixes they carry.

Plain slotted classes rather than dataclasses: this module is imported on every run, including
the pre-commit path that must start in tens of milliseconds.
"""

from __future__ import annotations

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (INFO, WARNING, ERROR)  # ascending, so index() orders them
SEVERITY_LETTER = {ERROR: "E", WARNING: "W", INFO: "I"}

SAFE = "safe"
UNSAFE = "unsafe"


def severity_rank(severity: str) -> int:
    return SEVERITIES.index(severity)


class Edit:
    """Replace `text[start:end]` of the finding's file with `content` (offsets in decoded text)."""

    __slots__ = ("start", "end", "content")

    def __init__(self, start: int, end: int, content: str = "") -> None:
        self.start = start
        self.end = end
        self.content = content

    def __repr__(self) -> str:
        return f"Edit({self.start}, {self.end}, {self.content!r})"


class Fix:
    """A mechanical fix: what it does, whether it is safe, and its edits.

    Fixes that regenerate index lines carry no edits here: the index generator computes them
    when fixes are applied, from the same facts the finding states.
    """

    __slots__ = ("applicability", "message", "edits")

    def __init__(self, applicability: str, message: str, edits: tuple[Edit, ...] = ()) -> None:
        self.applicability = applicability
        self.message = message
        self.edits = edits


class Hit:
    """What a rule function yields: a finding before the engine stamps code and severity on it.

    `path` defaults to the file the rule was run on; `line` None means the whole file.
    """

    __slots__ = ("message", "path", "line", "column", "end_line", "end_column", "fix")

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        fix: Fix | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column if column is not None or line is None else 1
        self.end_line = end_line
        self.end_column = end_column
        self.fix = fix


class Diagnostic:
    """A finding as reported: rule code and name, effective severity, location, optional fix.

    `path` is absolute; reporters make it relative for display.
    """

    __slots__ = (
        "code",
        "name",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "fix",
    )

    def __init__(self, code: str, name: str, severity: str, path: str, hit: Hit) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.message = hit.message
        self.path = hit.path or path
        self.line = hit.line
        self.column = hit.column
        self.end_line = hit.end_line
        self.end_column = hit.end_column
        self.fix = hit.fix

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line or 0, self.column or 0, self.code)

    def __repr__(self) -> str:
        return f"<{self.code} {self.path}:{self.line}:{self.column} {self.message!r}>"
