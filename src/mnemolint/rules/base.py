"""What a rule is: stable code, kebab-case name, default severity, what it reads, fix, options, check.

A rule is one function wrapped by `@rule(...)`; the decorator returns the `Rule` and registers
nothing, so the registry in `rules/__init__.py` stays one explicit list (no import side effects).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mnemolint.model import Hit

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.base import ContainerType, Kind

# What a rule reads (`reads=`), and so what its check function is called with:
#   a tuple of kinds         each document of those kinds: check(document, options)
#   EVERY_FILE               every document, and every path the walk could not read
#   a container type         each container of that type: check(container, options)
#   TREE                     the whole discovery result, once: check(tree, options)
EVERY_FILE = "every file"
TREE = "tree"

# For container rules, which file their findings are about; this decides whether a run over a
# few changed files (pre-commit) needs the rule at all.
ON_ANCHOR = "anchor"  # the container's anchor file (a memory dir's MEMORY.md)
ON_MEMBERS = "members"  # the documents in it (a memory dir's topics)
ON_CONTAINER = "container"  # the container as a whole


class Rule:
    __slots__ = ("code", "name", "severity", "reads", "summary", "fix", "options", "reports_on", "check", "since")

    def __init__(
        self,
        code: str,
        name: str,
        severity: str,
        reads: tuple[Kind, ...] | ContainerType | str,
        summary: str,
        fix: str | None,
        options: tuple[str, ...],
        reports_on: str,
        check: Callable[..., Iterable[Hit]],
        since: str,
    ) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.reads = reads
        self.summary = summary
        self.fix = fix
        self.options = options
        self.reports_on = reports_on
        self.check = check
        self.since = since

    def __repr__(self) -> str:
        return f"<Rule {self.code} {self.name}>"


def rule(
    code: str,
    name: str,
    severity: str,
    *,
    reads: tuple[Kind, ...] | ContainerType | str,
    summary: str,
    fix: str | None = None,
    options: tuple[str, ...] = (),
    reports_on: str = ON_ANCHOR,
    since: str = "0.1.0",
) -> Callable[[Callable[..., Iterable[Hit]]], Rule]:
    """Declare a rule; `summary` is one sentence, shown by `mnemolint rules` and in SARIF."""

    def wrap(check: Callable[..., Iterable[Hit]]) -> Rule:
        return Rule(code, name, severity, reads, summary, fix, options, reports_on, check, since)

    return wrap
