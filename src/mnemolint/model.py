"""What rules produce: findings, their severity and the fixes they carry.

Plain slotted classes rather than dataclasses: this module is imported on every run, including
the pre-commit path that must start in tens of milliseconds.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

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
    """A mechanical fix: what it does, whether it is safe, and the edits that make it.

    The edits apply to the finding's file, or to `path` when the fix changes another file (an
    orphan topic's fix adds a line to MEMORY.md); a fix for a file that does not exist creates
    it (MEM106). Fixes that write generated index lines carry `build` instead of edits: it computes
    them only when fixes are applied, so a plain `check` never imports the index generator, and
    returns a reason instead when no edit can be made (the index has no room left, say). `of`, when
    given, is what `build` is called with: the orphan topic whose line it writes, so that the
    100,000 orphans of a large dir share one function, not a closure each.
    """

    __slots__ = ("applicability", "message", "edits", "path", "build", "of")

    def __init__(
        self,
        applicability: str,
        message: str,
        edits: tuple[Edit, ...] = (),
        *,
        path: str | None = None,
        build: Callable[..., tuple[Edit, ...] | str] | None = None,
        of: object = None,
    ) -> None:
        self.applicability = applicability
        self.message = message
        self.edits = edits
        self.path = path
        self.build = build
        self.of = of

    def compute(self) -> tuple[Edit, ...] | str:
        """The edits, or why this fix cannot be made now."""
        if self.build is None:
            return self.edits
        return self.build() if self.of is None else self.build(self.of)


class Hit:
    """What a rule function yields: a finding before the engine stamps code and severity on it.

    `path` defaults to the file the rule was run on; `line` None means the whole file; `severity`
    None is the rule's own: a rule gives one where its finding weighs differently (LNK002 in a
    rules dir, where sharing by link is a feature; AIM004, whose seed sets two levels on one
    measure). A configured `severity` for the code still wins. `related` names what one finding
    stands for when it says many things at once (the topics behind a count), in full for JSON and
    SARIF where the message can give only the first few.
    """

    __slots__ = ("message", "path", "line", "column", "end_line", "end_column", "fix", "severity", "related")

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
        severity: str | None = None,
        related: tuple[str, ...] = (),
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column if column is not None or line is None else 1
        self.end_line = end_line
        self.end_column = end_column
        self.fix = fix
        self.severity = severity
        self.related = related


class Diagnostic:
    """A finding as reported: rule code and name, effective severity, location, optional fix.

    `path` is absolute; reporters make it relative for display. `agents`: for a finding about an
    instruction file, the agents that read it (affected.py).
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
        "related",
        "agents",
    )

    def __init__(self, code: str, name: str, severity: str, path: str, hit: Hit) -> None:
        self.code = code
        self.name = name
        self.severity = hit.severity or severity
        self.message = hit.message
        self.path = hit.path or path
        self.line = hit.line
        self.column = hit.column
        self.end_line = hit.end_line
        self.end_column = hit.end_column
        self.fix = hit.fix
        self.related = hit.related
        self.agents: tuple[str, ...] = ()  # an instruction file's: the agents it affects (affected.py)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line or 0, self.column or 0, self.code)

    def __repr__(self) -> str:
        return f"<{self.code} {self.path}:{self.line}:{self.column} {self.message!r}>"
