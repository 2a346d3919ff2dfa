"""`--output-format github`: GitHub Actions workflow commands, one annotation line per finding.

`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE name::message`, with `warning` and
`notice` for the other severities; the default format when `GITHUB_ACTIONS=true`. Paths are
relative to the repository root, as GitHub resolves them. Escaping follows the runner's rules
(`escapeData` and `escapeProperty` in actions/toolkit): `%`, CR and LF in the message;
additionally `:` and `,` in properties, which delimit them. Messages and paths arrive with their
control characters already escaped (`\\n`, `\\x1b`: see `report.shown`), so no line of the log
can be made to start a command of its own.

Standard output holds workflow commands only, as in ruff's `github` format: the summary line goes
to stderr, which the job log shows too (GitHub annotates at most 10 findings of each level per
step, so the count is how the reader learns of the rest).
"""

from __future__ import annotations

import sys

from mnemolint.model import ERROR, INFO, WARNING, Diagnostic
from mnemolint.report import ReportOptions, printable, relative_to, repository_root
from mnemolint.report.text_format import summary

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO

COMMAND = {ERROR: "error", WARNING: "warning", INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic, root: str) -> str:
    """One workflow command. Columns only on a one-line span: GitHub drops them across lines."""
    properties: list[tuple[str, object]] = [("file", printable(relative_to(diagnostic.path, root) or diagnostic.path))]
    if diagnostic.line is not None:
        one_line = diagnostic.end_line in (None, diagnostic.line)
        properties.append(("line", diagnostic.line))
        if one_line:
            properties.append(("col", diagnostic.column or 1))
        if diagnostic.end_line is not None:
            properties.append(("endLine", diagnostic.end_line))
        if one_line and diagnostic.end_column is not None:
            properties.append(("endColumn", diagnostic.end_column))
    properties.append(("title", f"{diagnostic.code} {diagnostic.name}"))
    listed = ",".join(f"{name}={escape_property(str(value))}" for name, value in properties)
    return f"::{COMMAND[diagnostic.severity]} {listed}::{escape_data(diagnostic.message)}"


def write(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    root = repository_root()
    for diagnostic in diagnostics:
        out.write(annotation(diagnostic, root) + "\n")
    if not options.quiet:
        out.flush()  # in a log that merges the two streams, the summary comes after the annotations
        print(summary(diagnostics, options.files), file=sys.stderr)
