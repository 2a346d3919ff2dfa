"""A bounded check of a JSON-lines file: each line one JSON value.

A session file may be far larger than `max-file-bytes` (a runaway agent appends for hours), so
one that was not read whole is streamed in blocks of `BLOCK` bytes. Memory stays at a block plus
one line of at most `MAX_LINE` bytes: the rest of a longer line is skipped through, and that line
is not parsed (a session record is a summary, not a dump). Time is one pass: each block's lines
are parsed at once, as the items of one JSON array, and only a block where that fails, or yields
another count of items than it has lines, is parsed line by line for the lines to report. (That
shortcut can let a line through that is no value alone but completes the next one into one, never
report a good line.) The scan stops after `MAX_BAD` bad lines, and after `MAX_STREAM` bytes (a
sparse file of terabytes reads as fast as the disk allows, and would take an hour): what lies past
that is not checked, and the scan says so (`unread`). Only a regular file is streamed, opened
without blocking (a FIFO named like a session file would wait for a writer).
"""

from __future__ import annotations

import io
import json
import os
import stat

MAX_LINE = 1024 * 1024  # bytes of one line parsed as JSON
MAX_BAD = 5  # bad lines reported before the scan stops
BLOCK = 128 * 1024
MAX_STREAM = 256 * 1024 * 1024  # bytes of one file streamed: about a second of disk


class Scan:
    """The bad lines found (1-based number, reason), `more` when the scan stopped at `MAX_BAD`,
    and `unread`, the bytes past `MAX_STREAM` that were not checked (0: it read to the end)."""

    __slots__ = ("bad", "more", "unread")

    def __init__(self) -> None:
        self.bad: list[tuple[int, str]] = []
        self.more = False
        self.unread = 0


def scan_text(text: str) -> Scan:
    """Check a file already read and decoded."""
    return _scan(io.BytesIO(text.encode("utf-8", "surrogatepass")))


def scan_file(path: str) -> Scan | None:
    """Stream a regular file from disk, up to `MAX_STREAM` bytes; None when it cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                return None
            scan = _scan(handle)
            if handle.tell() >= MAX_STREAM:
                scan.unread = max(status.st_size - handle.tell(), 0)
            return scan
    except OSError:
        return None


def _scan(handle: io.BufferedIOBase | io.BytesIO) -> Scan:
    scan = Scan()
    number = 0  # lines before the pending one
    pending = b""  # the start of a line not ended yet
    skipping = False  # the pending line is over MAX_LINE: counted, never parsed
    left = MAX_STREAM
    while left:  # at the cap, the line it cuts is not checked
        block = handle.read(min(BLOCK, left))
        left -= len(block)
        if not block:
            if pending and not skipping:
                _check(scan, number, [pending])
            return scan
        pieces = block.split(b"\n")
        if len(pieces) == 1:  # no line ends in this block
            if not skipping:
                pending += block
                skipping = len(pending) > MAX_LINE
                pending = b"" if skipping else pending
            continue
        first = b"" if skipping else pending + pieces[0]
        lines = [b"" if len(first) > MAX_LINE else first, *pieces[1:-1]]
        if _check(scan, number, lines):
            return scan
        number += len(lines)
        pending, skipping = pieces[-1], False
    return scan


def _check(scan: Scan, number: int, lines: list[bytes]) -> bool:
    """Check `lines` (numbered from `number` + 1); True when the scan must stop."""
    filled = [line for line in lines if line.strip()]
    if not filled:
        return False
    if b"\0" not in b"".join(filled):
        try:
            if len(json.loads(b"[" + b",".join(filled) + b"]")) == len(filled):
                return False
        except (ValueError, RecursionError):
            pass
    for offset, line in enumerate(lines, number + 1):
        reason = _problem(line)
        if reason is None:
            continue
        if len(scan.bad) == MAX_BAD:
            scan.more = True
            return True
        scan.bad.append((offset, reason))
    return False


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
