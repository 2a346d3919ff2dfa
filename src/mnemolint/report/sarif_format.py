"""`--output-format sarif`: one SARIF 2.1.0 run, shaped for what GitHub code scanning reads.

Every catalogue rule is described in `rules[]` (not only those that fired), with its text taken
from its page. Paths are relative to the repository root (`%SRCROOT%`). A whole-file finding
(no line) is reported at line 1 with no column, since code scanning needs a `startLine` to show a
result. `partialFingerprints["mnemolint/v1"]` hashes the rule, the path and the flagged line's text
(not its number), so an alert survives lines moving above it. Tags, precision and security
severity are the rule's family's facts (`rules/base.py` `Family`). See docs/output-formats.md.
"""

from __future__ import annotations

from mnemolint import __version__
from mnemolint.catalog import REPOSITORY, body, page, rule_url, sections
from mnemolint.model import ERROR, INFO, WARNING, Diagnostic, Fix
from mnemolint.precision import sarif_precision
from mnemolint.redact import find_secrets
from mnemolint.report import ReportOptions, json_stream, repository_root, unicode_out
from mnemolint.report.fingerprint import SRCROOT, Fingerprints
from mnemolint.report.fingerprint import artifact as _artifact
from mnemolint.rules import FAMILY_OF, RULES
from mnemolint.rules.base import Rule

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TextIO

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT = "mnemolint/v1"
DESCRIPTION_MAX = 1024  # GitHub's limit for shortDescription and fullDescription
LEVEL = {ERROR: "error", WARNING: "warning", INFO: "note"}
PROBLEM_SEVERITY = {ERROR: "error", WARNING: "warning", INFO: "recommendation"}


def write(diagnostics: list[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    """The log, each result written as it is made (`json_stream`)."""
    root = repository_root()
    document = sarif([], root, options.successful, options.settings)
    document["runs"][0]["results"] = results(diagnostics, root, options.fingerprints)
    json_stream.dump(document, out, ensure_ascii=not unicode_out(out))
    out.write("\n")


def sarif(diagnostics: list[Diagnostic], root: str, successful: bool = True, settings: dict | None = None) -> dict:
    """The whole log; paths below `root` are relative to it (`%SRCROOT%`). `successful` is False
    when a rule failed with an internal error, so its findings may be incomplete; `settings`, the
    options in force, are the thresholds the rule descriptions state."""
    run = {
        "tool": {
            "driver": {
                "name": "mnemolint",
                "semanticVersion": __version__,
                "informationUri": REPOSITORY,
                "rules": [descriptor(rule, settings or {}) for rule in RULES],
            }
        },
        "automationDetails": {"id": "mnemolint/"},  # category "mnemolint"; upload-sarif's `category` overrides it
        "invocations": [{"executionSuccessful": successful}],
        "originalUriBaseIds": {
            SRCROOT: {
                "description": {
                    "text": "The repository root: the nearest directory holding .git above where mnemolint ran, "
                    "else that directory."
                }
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": list(results(diagnostics, root)),
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def results(diagnostics: list[Diagnostic], root: str, keys: dict[int, str] | None = None) -> Iterator[dict]:
    """The `results[]` of the run, one at a time; `keys`: each finding's fingerprint (by `id`),
    counted over a list it was taken from (`--baseline`)."""
    rule_index = {rule.code: index for index, rule in enumerate(RULES)}
    fingerprints = Fingerprints(keys)
    for diagnostic in diagnostics:
        yield _result(diagnostic, rule_index, root, fingerprints)


def descriptor(rule: Rule, settings: dict) -> dict:
    """A rule's `reportingDescriptor`, its texts from its catalogue page (the summary if the page is missing)."""
    summary = rule.describe(settings)
    text = page(rule.code)
    parts = sections(text) if text else {}
    finds = _paragraphs(parts.get("What it finds", ""))
    help_text = "\n\n".join(
        f"{title}\n\n{parts[title]}" for title in ("What it finds", "Why it matters", "Fix") if title in parts
    )
    family = FAMILY_OF[rule.code]
    properties: dict = {
        "tags": [family.tag],
        "precision": sarif_precision(rule.code, family.precision.get(rule.code, "very-high")),
        "problem.severity": PROBLEM_SEVERITY[rule.severity],
    }
    if family.security is not None:
        properties["tags"].append("security")
        properties["security-severity"] = family.security[rule.code]
    default: dict = {"level": LEVEL[rule.severity]}
    if rule.preview:  # off unless --preview: SARIF's `enabled`, and why, for a viewer to show
        properties["tags"].append("preview")
        properties["preview"] = rule.preview
        default["enabled"] = False
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": clip([summary])},
        "fullDescription": {"text": clip(finds or [summary])},
        "help": {
            "text": help_text or f"{summary} See {rule_url(rule.code)}",
            "markdown": body(text).strip() if text else f"{summary} See [{rule.code}]({rule_url(rule.code)}).",
        },
        "helpUri": rule_url(rule.code),
        "defaultConfiguration": default,
        "properties": properties,
    }


def _paragraphs(section: str) -> list[str]:
    """A section's paragraphs as plain text: wrapped lines joined, each list item on its own line."""
    paragraphs = []
    for block in section.split("\n\n"):
        text = ""
        for line in block.split("\n"):
            line = line.strip()
            if line:
                separator = "\n" if line.startswith(("- ", "* ")) else " "
                text = f"{text}{separator}{line}" if text else line
        if text:
            paragraphs.append(text)
    return paragraphs


def clip(paragraphs: list[str], limit: int = DESCRIPTION_MAX) -> str:
    """Whole paragraphs up to `limit` characters; a longer first paragraph ends at its last sentence that fits."""
    text = paragraphs[0]
    for paragraph in paragraphs[1:]:
        if len(text) + 2 + len(paragraph) > limit:
            break
        text += "\n\n" + paragraph
    if len(text) <= limit:
        return text
    cut = text.rfind(". ", 0, limit)
    return text[: cut + 1] if cut > 0 else text[: limit - 1] + "…"


def _result(diagnostic: Diagnostic, rule_index: dict[str, int], root: str, fingerprints: Fingerprints) -> dict:
    artifact = _artifact(diagnostic.path, root)
    result = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index[diagnostic.code],
        "level": LEVEL[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(diagnostic)}}],
        "partialFingerprints": {FINGERPRINT: fingerprints.key(diagnostic, artifact["uri"])},
    }
    properties: dict[str, list[str]] = {}
    if diagnostic.related:  # what a finding that stands for many names in full (json's `related`)
        properties["related"] = list(diagnostic.related)
    if diagnostic.agents:  # the agents a finding about an instruction file affects (json's `agents`)
        properties["agents"] = list(diagnostic.agents)
    if properties:
        result["properties"] = properties
    fix = diagnostic.fix
    # A fix that generates index lines computes its edits only when applied; one that would insert
    # credential-shaped text is left to `--fix`, as the log must not carry it.
    if fix is not None and fix.edits and not any(find_secrets(edit.content) for edit in fix.edits):
        result["fixes"] = [_fix(fix, _artifact(fix.path or diagnostic.path, root))]
    return result


def _fix(fix: Fix, artifact: dict) -> dict:
    """Edits as replacements, in code points of the decoded file like the columns."""
    replacements = []
    for edit in fix.edits:
        replacement: dict = {"deletedRegion": {"charOffset": edit.start, "charLength": edit.end - edit.start}}
        if edit.content:
            replacement["insertedContent"] = {"text": edit.content}
        replacements.append(replacement)
    return {
        "description": {"text": fix.message},
        "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}],
        "properties": {"applicability": fix.applicability},
    }


def _region(diagnostic: Diagnostic) -> dict:
    """1-based; `endColumn` one past the last character. A whole-file finding is line 1, no column."""
    if diagnostic.line is None:
        return {"startLine": 1}
    region = {"startLine": diagnostic.line, "startColumn": diagnostic.column or 1}
    if diagnostic.end_line is not None or diagnostic.end_column is not None:
        region["endLine"] = diagnostic.end_line or diagnostic.line
    if diagnostic.end_column is not None:
        region["endColumn"] = diagnostic.end_column
    return region
