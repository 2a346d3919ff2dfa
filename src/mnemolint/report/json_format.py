"""`--output-format json`: a top-level array, one object per finding (docs/output-formats.md)."""

from __future__ import annotations

from mnemolint.catalog import rule_url
from mnemolint.model import Diagnostic
from mnemolint.report import ReportOptions, display_path, json_stream, unicode_out, with_paths

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO


def as_dict(diagnostic: Diagnostic, path: str | None = None) -> dict:
    """A finding as JSON; `related` only on a finding that stands for many, `agents` only on one
    about an instruction file (docs/output-formats.md). Its file as `display_path` shows it,
    unless its `path` is given."""
    fix = diagnostic.fix
    found: dict[str, object] = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity,
        "message": diagnostic.message,
        "path": display_path(diagnostic.path) if path is None else path,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "end_line": diagnostic.end_line,
        "end_column": diagnostic.end_column,
        "fix": None if fix is None else {"applicability": fix.applicability, "message": fix.message},
        "url": rule_url(diagnostic.code),
    }
    if diagnostic.related:
        found["related"] = list(diagnostic.related)
    if diagnostic.agents:
        found["agents"] = list(diagnostic.agents)
    return found


def write(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    """Each finding's object written as it is made (`json_stream`)."""
    findings = (as_dict(diagnostic, path) for diagnostic, path in with_paths(diagnostics))
    json_stream.dump(findings, out, ensure_ascii=not unicode_out(out))
    out.write("\n")
