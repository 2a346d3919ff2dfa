"""What a rule is: stable code, kebab-case name, default severity, scope, fix, options, check.

A rule is one function wrapped by `@rule(...)`; the decorator returns the `Rule` and registers
nothing, so the registry in `rules/__init__.py` stays one explicit list (no import side effects).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mnemolint.model import Hit

# What the check function is called with.
DOCUMENT = "document"  # every memory file: check(document, options)
TOPIC = "topic"  # topic files of a memory dir: check(document, options)
MEMDIR = "memdir"  # a memory dir: check(memdir, options)
TREE = "tree"  # the whole discovery result: check(tree, options)

# For MEMDIR rules, which file their findings are about; this decides whether a run over a few
# changed files (pre-commit) needs the rule at all.
ON_INDEX = "index"
ON_TOPICS = "topics"
ON_DIR = "dir"


class Rule:
    __slots__ = ("code", "name", "severity", "scope", "summary", "fix", "options", "reports_on", "check", "since")

    def __init__(
        self,
        code: str,
        name: str,
        severity: str,
        scope: str,
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
        self.scope = scope
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
    scope: str,
    summary: str,
    fix: str | None = None,
    options: tuple[str, ...] = (),
    reports_on: str = ON_INDEX,
    since: str = "0.1.0",
) -> Callable[[Callable[..., Iterable[Hit]]], Rule]:
    """Declare a rule; `summary` is one sentence, shown by `mnemolint rules` and in SARIF."""

    def wrap(check: Callable[..., Iterable[Hit]]) -> Rule:
        return Rule(code, name, severity, scope, summary, fix, options, reports_on, check, since)

    return wrap
