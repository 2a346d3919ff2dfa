"""mnemolint's findings as the protocol's diagnostics, and file paths as URIs."""

from __future__ import annotations

from lsprotocol import types

from mnemolint.catalog import rule_url
from mnemolint.lsp.positions import Lines
from mnemolint.model import ERROR, INFO, SAFE, WARNING, Diagnostic

SOURCE = "mnemolint"
SEVERITY = {
    ERROR: types.DiagnosticSeverity.Error,
    WARNING: types.DiagnosticSeverity.Warning,
    INFO: types.DiagnosticSeverity.Information,
}


def diagnostic(finding: Diagnostic, lines: Lines) -> types.Diagnostic:
    """One finding (already `report.shown`: redacted, escaped) on the text of its file."""
    message = finding.message
    if finding.fix is not None:
        kind = "safe fix" if finding.fix.applicability == SAFE else "unsafe fix"
        message += f" ({kind}: {finding.fix.message})"
    return types.Diagnostic(
        range=lines.line_range(finding.line, finding.column, finding.end_line, finding.end_column),
        message=message,
        severity=SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=rule_url(finding.code)),
        source=SOURCE,
    )


def uri_of(path: str) -> str:
    from pygls.uris import from_fs_path

    return from_fs_path(path) or ""


def path_of(uri: str) -> str | None:
    """The absolute, normalised path of a `file:` URI; None for any other scheme."""
    import os

    from pygls.uris import to_fs_path

    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return os.path.normpath(path) if path else None
