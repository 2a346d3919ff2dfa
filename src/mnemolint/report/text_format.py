"""`--output-format text`: `path:line:col: CODE message`, ruff style, then a summary line.

With `--show-fixes` a finding `--fix` would fix is marked `[*]`, and the summary says how many
there are (ruff's marker and line); after `--fix`, `fixed_summary` lists what was fixed. Colour
comes from rich, imported only when colour was chosen (`report.color`).
"""

from __future__ import annotations

from mnemolint.model import ERROR, INFO, SAFE, WARNING, Diagnostic
from mnemolint.parse.textutil import plural
from mnemolint.report import BATCH, ReportOptions, display_path, with_paths

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO

_STYLE = {ERROR: "bold red", WARNING: "yellow", INFO: "cyan"}
MARK = "[*] "


def location(diagnostic: Diagnostic, path: str | None = None) -> str:
    """`path:line:col`, the file as `display_path` shows it unless its `path` is given."""
    path = display_path(diagnostic.path) if path is None else path
    if diagnostic.line is None:
        return path
    return f"{path}:{diagnostic.line}:{diagnostic.column or 1}"


def summary(diagnostics: list[Diagnostic], files: int) -> str:
    if not diagnostics:
        return f"All checks passed: {plural(files, 'memory file')} checked."
    counts = {level: sum(1 for d in diagnostics if d.severity == level) for level in (ERROR, WARNING, INFO)}
    parts = [plural(counts[ERROR], "error"), plural(counts[WARNING], "warning"), plural(counts[INFO], "info", "infos")]
    return f"Found {plural(len(diagnostics), 'finding')} ({', '.join(parts)}) in {plural(files, 'memory file')}."


def fixable(diagnostic: Diagnostic, fixes: str | None) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `fixes` is "unsafe") would fix the finding."""
    fix = diagnostic.fix
    return fixes is not None and fix is not None and (fix.applicability == SAFE or fixes != SAFE)


def fixable_line(diagnostics: list[Diagnostic], fixes: str) -> str | None:
    """ruff's "[*] N fixable with the `--fix` option" line, with the fixes only --unsafe-fixes makes."""
    count = sum(fixable(diagnostic, fixes) for diagnostic in diagnostics)
    hidden = sum(diagnostic.fix is not None for diagnostic in diagnostics) - count
    if not count and not hidden:
        return None
    flag = "`--fix`" if fixes == SAFE else "`--fix --unsafe-fixes`"
    more = f" ({plural(hidden, 'more fix', 'more fixes')} with `--unsafe-fixes`)" if hidden else ""
    return f"{MARK}{count:,} fixable with {flag}{more}."


def fixed_summary(fixed: list[Diagnostic]) -> str:
    """What `--fix` fixed, by the file each fix changed (an orphan topic's fix writes its line in
    MEMORY.md), a count per rule (ruff's `--show-fixes` list)."""
    if not fixed:
        return "No findings were fixed.\n"
    lines = [f"Fixed {plural(len(fixed), 'finding')}:"]
    by_file: dict[str, dict[tuple[str, str], int]] = {}
    for diagnostic in sorted(fixed, key=Diagnostic.sort_key):
        changed = diagnostic.fix.path if diagnostic.fix is not None and diagnostic.fix.path else diagnostic.path
        rules = by_file.setdefault(display_path(changed), {})
        rules[(diagnostic.code, diagnostic.name)] = rules.get((diagnostic.code, diagnostic.name), 0) + 1
    for path, rules in sorted(by_file.items()):
        lines.append(f"- {path}:")
        lines.extend(f"    {count:>3} × {code} ({name})" for (code, name), count in rules.items())
    return "\n".join(lines) + "\n"


def write(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    if options.color:
        _write_rich(diagnostics, out, options)
        return
    fixes = options.fixes
    lines: list[str] = []  # written a batch at a time: a write per finding cost more than its line
    for diagnostic, path in with_paths(diagnostics):
        mark = MARK if fixes is not None and fixable(diagnostic, fixes) else ""
        lines.append(f"{location(diagnostic, path)}: {diagnostic.code} {mark}{diagnostic.message}\n")
        if len(lines) == BATCH:
            out.write("".join(lines))
            lines.clear()
    if lines:  # nothing is written when there is nothing to say (standard output may be closed)
        out.write("".join(lines))
    if not options.quiet:
        for line in _closing(diagnostics, options):
            out.write(line + "\n")


def _closing(diagnostics: list[Diagnostic], options: ReportOptions) -> list[str]:
    """The summary, and with `--show-fixes` the fixable line."""
    lines = [summary(diagnostics, options.files)]
    if options.fixes is not None:
        lines.append(fixable_line(diagnostics, options.fixes) or "")
    return [line for line in lines if line]


def _write_rich(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    from rich.markup import escape

    from mnemolint.report.color import console

    terminal = console(out, soft_wrap=True)
    for diagnostic in diagnostics:
        style = _STYLE[diagnostic.severity]
        mark = "[bold cyan]\\[*][/] " if fixable(diagnostic, options.fixes) else ""
        terminal.print(
            f"[bold]{escape(location(diagnostic))}[/]: [{style}]{diagnostic.code}[/] {mark}{escape(diagnostic.message)}"
        )
    if not options.quiet:
        for line in _closing(diagnostics, options):
            terminal.print(escape(line))
