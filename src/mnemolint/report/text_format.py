"""`--output-format text`: `path:line:col: CODE message`, ruff style, then a summary line.

Colour comes from rich, imported only when writing to a terminal that allows colour.
"""

from __future__ import annotations

from mnemolint.model import ERROR, INFO, WARNING, Diagnostic
from mnemolint.parse.textutil import plural
from mnemolint.report import ReportOptions, display_path

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO

_STYLE = {ERROR: "bold red", WARNING: "yellow", INFO: "cyan"}


def location(diagnostic: Diagnostic) -> str:
    path = display_path(diagnostic.path)
    if diagnostic.line is None:
        return path
    return f"{path}:{diagnostic.line}:{diagnostic.column or 1}"


def summary(diagnostics: list[Diagnostic], files: int) -> str:
    if not diagnostics:
        return f"All checks passed: {plural(files, 'memory file')} checked."
    counts = {level: sum(1 for d in diagnostics if d.severity == level) for level in (ERROR, WARNING, INFO)}
    parts = [plural(counts[ERROR], "error"), plural(counts[WARNING], "warning"), plural(counts[INFO], "info", "infos")]
    return f"Found {plural(len(diagnostics), 'finding')} ({', '.join(parts)}) in {plural(files, 'memory file')}."


def write(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    if options.color:
        _write_rich(diagnostics, out, options)
        return
    for diagnostic in diagnostics:
        out.write(f"{location(diagnostic)}: {diagnostic.code} {diagnostic.message}\n")
    if not options.quiet:
        out.write(summary(diagnostics, options.files) + "\n")


def _write_rich(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=out, highlight=False, soft_wrap=True)
    for diagnostic in diagnostics:
        style = _STYLE[diagnostic.severity]
        console.print(
            f"[bold]{escape(location(diagnostic))}[/]: [{style}]{diagnostic.code}[/] {escape(diagnostic.message)}"
        )
    if not options.quiet:
        console.print(escape(summary(diagnostics, options.files)))
