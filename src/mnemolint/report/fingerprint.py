"""What identifies a finding across runs, whatever line it moved to: SARIF's
`partialFingerprints["mnemolint/v1"]` and the keys of a `--baseline` file are these.

A key hashes the rule, the file's URI (as SARIF spells it: below the repository root, redacted)
and the flagged line's text, stripped and redacted (not its number), so it survives lines added
or removed above it and a change of line endings. A whole-file finding hashes a marker instead,
and a finding of a `sensitive` family (SEC) its masked message: the hash of a line holding a
secret could be brute-forced, and logs and baselines are shared. Two findings with the same hash
are told apart by order (`:1`, `:2`), as GitHub's own keys are.
"""

from __future__ import annotations

import hashlib
import os
from urllib.parse import quote

from mnemolint.redact import redact
from mnemolint.report import relative_to
from mnemolint.rules import FAMILY_OF

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.model import Diagnostic

SRCROOT = "%SRCROOT%"
MAX_READ = 8 * 1024 * 1024  # bytes of a file read for its lines' fingerprints (a session log may be gigabytes)


def artifact(path: str, root: str) -> dict:
    """SARIF's `artifactLocation` of `path`: relative to the repository root, or an absolute
    `file://` URI outside it. Redacted as the messages are: a token may name a file."""
    rel = relative_to(path, root)
    if rel is None:
        from pathlib import Path

        return {"uri": Path(redact(path)).as_uri()}
    return {"uri": quote(os.fsencode(redact(rel)), safe="/!$&'()*+,;=@"), "uriBaseId": SRCROOT}


class Fingerprints:
    """The keys of one run's findings, given in their sorted order (the ordinals count in it)."""

    def __init__(self, known: dict[int, str] | None = None) -> None:
        self._lines: tuple[str, list[str]] = ("", [])  # the last file's: findings come sorted by path
        self._seen: dict[str, int] = {}
        self._known = known  # the keys already counted (by the finding's `id`), over a longer list

    def key(self, diagnostic: Diagnostic, uri: str) -> str:
        """The key of `diagnostic`, whose file SARIF names `uri` (`artifact(...)["uri"]`)."""
        if self._known is not None:
            return self._known[id(diagnostic)]
        if FAMILY_OF[diagnostic.code].sensitive:
            anchor = "message:" + diagnostic.message  # redacted before any reporter saw it
        elif diagnostic.line is None:
            anchor = "<whole file>"
        else:
            anchor = "line:" + redact(self._line(diagnostic.path, diagnostic.line))
        digest = hashlib.sha256(f"{diagnostic.code}\0{uri}\0{anchor}".encode("utf-8", "surrogatepass")).hexdigest()
        digest = digest[:32]
        self._seen[digest] = self._seen.get(digest, 0) + 1
        return f"{digest}:{self._seen[digest]}"

    def _line(self, path: str, line: int) -> str:
        """The line's text, read as the engine read it (UTF-8, split on \\n); empty if it is gone,
        or past the first `MAX_READ` bytes of the file."""
        read, lines = self._lines
        if read != path:
            lines = _head_lines(path)
            self._lines = (path, lines)
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _head_lines(path: str) -> list[str]:
    """The lines of the first `MAX_READ` bytes of the regular file `path` (its last, cut line
    left out), opened without following a link or blocking; none when it cannot be read."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return []
    with open(fd, "rb") as handle:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return []
            data = handle.read(MAX_READ + 1)
        except OSError:
            return []
    lines = data[:MAX_READ].decode("utf-8", "replace").split("\n")
    return lines[:-1] if len(data) > MAX_READ else lines
