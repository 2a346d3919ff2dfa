"""`check --write-baseline FILE` and `check --baseline FILE`: record the findings there are, then
report only the ones that are not in that record, so a team can turn the check on over a memory
with hundreds of findings and fail only on new ones.

A baseline holds each finding's rule, file URI and key (`report/fingerprint.py`, SARIF's
`partialFingerprints`): a hash of the flagged line's redacted text, never the text, so it survives
lines moving and holds no secret. Comparison is by key, as a multiset: a finding whose key is
recorded once is hidden once. An entry that no finding matched is gone (fixed, or changed past
recognising) when its file was linted or no longer exists; the entries of the other files (a
pre-commit run over a few) are neither matched nor gone.
"""

from __future__ import annotations

import json
import os

from mnemolint.errors import ConfigError
from mnemolint.report import repository_root
from mnemolint.report.fingerprint import Fingerprints, artifact

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.model import Diagnostic

FORMAT = "mnemolint-baseline"
VERSION = 1
MAX_BYTES = 64 * 1024 * 1024  # a baseline is repository content: read no more than this


class Compared:
    """What comparing a run with a baseline gave: the findings `new` to it, with every finding's
    key (by `id`, for SARIF), how many were `hidden`, and how many recorded ones are `gone`."""

    __slots__ = ("new", "keys", "hidden", "gone")

    def __init__(self, new: list[Diagnostic], keys: dict[int, str], hidden: int, gone: int) -> None:
        self.new = new
        self.keys = keys
        self.hidden = hidden
        self.gone = gone


def entries(diagnostics: list[Diagnostic], root: str) -> list[tuple[Diagnostic, str, str]]:
    """(finding, its file's URI, its key) for the sorted findings of a run."""
    fingerprints = Fingerprints()
    found = []
    for diagnostic in diagnostics:
        uri = artifact(diagnostic.path, root)["uri"]
        found.append((diagnostic, uri, fingerprints.key(diagnostic, uri)))
    return found


def write(path: str, diagnostics: list[Diagnostic]) -> int:
    """Record the findings in the baseline file `path` (replaced whole, atomically); how many."""
    recorded = [
        {"path": uri, "code": diagnostic.code, "fingerprint": key}
        for diagnostic, uri, key in entries(diagnostics, repository_root())
    ]
    recorded.sort(key=lambda entry: (entry["path"], entry["code"], entry["fingerprint"]))
    text = json.dumps({FORMAT: VERSION, "findings": recorded}, indent=2) + "\n"
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)  # a link at `path` is replaced, never written through
    except OSError as error:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise ConfigError(f"cannot write the baseline {path}: {error.strerror or error}") from None
    return len(recorded)


def compare(path: str, diagnostics: list[Diagnostic], linted: set[str]) -> Compared:
    """The findings of a run not in the baseline at `path`; `linted`, the files this run read."""
    recorded = load(path)
    root = repository_root()
    left: dict[str, int] = {}
    files: dict[str, str] = {}
    for uri, key in recorded:
        left[key] = left.get(key, 0) + 1
        files[key] = uri
    new, keys, hidden = [], {}, 0
    for diagnostic, _, key in entries(diagnostics, root):
        keys[id(diagnostic)] = key
        if left.get(key, 0) > 0:
            left[key] -= 1
            hidden += 1
        else:
            new.append(diagnostic)
    linted_uris = {artifact(file, root)["uri"] for file in linted}
    gone = sum(count for key, count in left.items() if files[key] in linted_uris or _deleted(files[key], root))
    return Compared(new, keys, hidden, gone)


def _deleted(uri: str, root: str) -> bool:
    """Whether the file a recorded URI below the root names is no longer there."""
    from urllib.parse import unquote

    return "://" not in uri and not os.path.lexists(os.path.join(root, unquote(uri)))


def load(path: str) -> list[tuple[str, str]]:
    """(file URI, key) of each finding a baseline file records; a usage error when it is none.
    A baseline is repository content: never read through a link to a sensitive place."""
    from mnemolint.paths import dangerous_link

    danger = dangerous_link(path)
    if danger:
        raise ConfigError(f"the baseline {path} is {danger}")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise ConfigError(
            f"cannot read the baseline {path}: {error.strerror or error} (write one with --write-baseline)"
        ) from None
    problem = "larger than 64 MiB" if len(data) > MAX_BYTES else None
    document = None
    if problem is None:
        try:
            document = json.loads(data)
        except (ValueError, RecursionError):
            problem = "not JSON"
    if problem is None and not (isinstance(document, dict) and document.get(FORMAT) == VERSION):
        problem = f'no `"{FORMAT}": {VERSION}`'
    findings = document.get("findings") if isinstance(document, dict) else None
    if problem is None and not (isinstance(findings, list) and all(_entry(item) for item in findings)):
        problem = "`findings` is not a list of {path, code, fingerprint} strings"
    if problem is not None:
        raise ConfigError(f"{path} is not a mnemolint baseline: {problem}")
    return [(item["path"], item["fingerprint"]) for item in findings]  # type: ignore[union-attr]


def _entry(item: object) -> bool:
    return isinstance(item, dict) and all(isinstance(item.get(key), str) for key in ("path", "code", "fingerprint"))
