"""A bounded check of a JSON-lines file: each line one JSON value.

A session file may be far larger than `max-file-bytes` (a runaway agent appends for hours), so
one that was not read whole is streamed: a line at a time, each line read at most `MAX_LINE`
bytes into memory (the rest of a longer line is skipped through in chunks, and that line is not
parsed: a session record is a summary, and a megabyte-long line is not checked as one), and the
scan stops after `MAX_BAD` bad lines, counting no further. Memory stays at about `MAX_LINE`
whatever the file; time is one pass over it.
"""

from __future__ import annotations

import io
import json

MAX_LINE = 1024 * 1024  # bytes of one line parsed as JSON
MAX_BAD = 5  # bad lines reported before the scan stops
_CHUNK = 1024 * 1024


class Scan:
    """The bad lines found (1-based number, reason), and `more` when the scan stopped early."""

    __slots__ = ("bad", "more")

    def __init__(self) -> None:
        self.bad: list[tuple[int, str]] = []
        self.more = False


def scan_text(text: str) -> Scan:
    """Check a file already read and decoded."""
    return _scan(io.BytesIO(text.encode("utf-8", "surrogatepass")))


def scan_file(path: str) -> Scan | None:
    """Stream a file from disk; None when it cannot be opened."""
    try:
        with open(path, "rb") as handle:
            return _scan(handle)
    except OSError:
        return None


def _scan(handle: io.BufferedIOBase | io.BytesIO) -> Scan:
    scan = Scan()
    number = 0
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return scan
        number += 1
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of an over-long line
                line = handle.readline(_CHUNK)
            continue
        reason = _problem(line)
        if reason is None:
            continue
        if len(scan.bad) == MAX_BAD:
            scan.more = True
            return scan
        scan.bad.append((number, reason))


def _problem(line: bytes) -> str | None:
    """Why one line is not a JSON value, None when it is one (or is the blank end of the file)."""
    body = line.rstrip(b"\r\n")
    if not body.strip():
        return None  # a blank line, the last one above all, holds no record
    if b"\0" in body:
        return "it holds NUL bytes"
    try:
        json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "it is not UTF-8"
    except RecursionError:
        return "it is nested too deeply to read"
    except ValueError as error:
        return str(error).split(":", 1)[0].lower() if isinstance(error, json.JSONDecodeError) else "not JSON"
    return None
