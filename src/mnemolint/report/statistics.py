"""`--statistics`: a count per rule, most frequent first (as text, or JSON with `--output-format json`);
as text, the summary line `check` prints closes it (ruff's total), unless `--quiet`."""

from __future__ import annotations

import json

from mnemolint.model import Diagnostic

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import TextIO


def counts(diagnostics: list[Diagnostic]) -> list[dict]:
    tally: dict[str, dict] = {}
    for diagnostic in diagnostics:
        entry = tally.setdefault(
            diagnostic.code,
            {"code": diagnostic.code, "name": diagnostic.name, "count": 0, "fixable": 0},
        )
        entry["count"] += 1
        entry["fixable"] += diagnostic.fix is not None
    return sorted(tally.values(), key=lambda entry: (-entry["count"], entry["code"]))


def write_statistics(
    diagnostics: list[Diagnostic], out: TextIO, as_json: bool, files: int = 0, quiet: bool = False
) -> None:
    rows = counts(diagnostics)
    if as_json:
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    for row in rows:
        out.write(f"{row['count']:>6}  {row['code']:<6}  {row['name']}\n")
    if not quiet:
        from mnemolint.report.text_format import summary

        out.write(summary(diagnostics, files) + "\n")
