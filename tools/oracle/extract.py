"""From a client's captured requests, what it included of the user's files — and nothing else.

A fixture keeps, per included file, its path (said with <PROJECT>/<HOME>/<SLUG>), where and when
it was sent, its line / UTF-16 / byte counts and a sha256 of the included text (that text, too,
with this machine's folders said as placeholders, so a recording is the same everywhere), and the
notes the client appended about it (`> WARNING: MEMORY.md …`); for Codex, the joined
`<INSTRUCTIONS>` of its AGENTS.md block by size and digest; for OpenCode, each `Instructions from:`
file it sent, and where (extract_opencode.py). The client's own prompt text (system prompt, tool
descriptions, reminders) is never kept: it is not ours to copy, and only the user's part is a fact
about the user's files. The case markers (`MARK-…`, our own text) found outside those sections —
a Read file's content, a side request — are kept as a list, so nothing else the client sent of
the user's files goes unseen.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import extract_opencode
from casetree import Session

# Claude Code: "Contents of PATH (LABEL):\n\n" starts a file; the label says what the file is. A file
# a hook attaches (a nested AGENTS.md on a read) has a short lower-case lead-in on the same line.
HEADER = re.compile(r"(?m)^(?:[a-z][a-z.]*(?: [a-z]+)*: )?Contents of (/[^\n]*?)(?: \(([^()\n]*)\))?:\n\n")
KINDS = {
    "project instructions, checked into the codebase": "project",
    "user's private global instructions for all projects": "user",
    "user's private project instructions, not checked in": "local",
    "user's auto-memory, persists across conversations": "auto-memory",
    None: "attached",  # sent beside a file the model read: a nested CLAUDE.md, a conditional rule
}
SECTION_END = "\n</system-reminder>"
# A note the client appends after a file's text: a quoted paragraph that starts with a word in capitals.
NOTE = re.compile(r"\n\n(> [A-Z][A-Z ]*:.*)\Z", re.S)
# Codex: one "# AGENTS.md instructions for DIR" block with the joined files between these tags.
CODEX_HEADER = "# AGENTS.md instructions for "
CODEX_BODY = re.compile(r"<INSTRUCTIONS>\n(.*)\n</INSTRUCTIONS>", re.S)
MARKER = re.compile(r"MARK-[A-Z0-9-]+")


class CaptureError(Exception):
    """The client did not run as a recording needs (it failed, timed out or sent nothing)."""


def counts(text: str) -> dict[str, object]:
    """Lines (as split on \\n), UTF-16 units, UTF-8 bytes and the sha256 of `text`."""
    data = text.encode("utf-8")
    return {
        "lines": len(text.split("\n")),
        "utf16": len(text.encode("utf-16-le")) // 2,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def _strings(value: object, place: str) -> Iterator[tuple[str, str]]:
    """Every string of a request body with the top-level key it sits under, tools left out."""
    if isinstance(value, str):
        yield place, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if place or key != "tools":
                yield from _strings(item, place or key)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, place)


def _reads_before(body: dict) -> int:
    """How many Read results the request carries: the turn a newly sent file belongs to."""
    return sum(
        1
        for message in body.get("messages") or []
        if isinstance(message, dict) and isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    )


def _claude_sections(text: str) -> Iterator[tuple[str, str | None, str, tuple[int, int]]]:
    """(path, label, body, span of the body) of each "Contents of" section in `text`."""
    headers = list(HEADER.finditer(text))
    for i, header in enumerate(headers):
        start = header.end()
        stop = headers[i + 1].start() - 2 if i + 1 < len(headers) else len(text)
        end = text.find(SECTION_END, start, stop)
        stop = end if end >= 0 else stop
        yield header.group(1), header.group(2), text[start:stop], (start, stop)


def _compress(markers: set[str]) -> list[str]:
    """Sorted markers, a run of numbered lines (MARK-L001 … MARK-L200) said as one range."""
    numbered = sorted(int(m[6:]) for m in markers if re.fullmatch(r"MARK-L\d+", m))
    rest = sorted(m for m in markers if not re.fullmatch(r"MARK-L\d+", m))
    if not numbered:
        return rest
    span = f"MARK-L{numbered[0]:03d}..MARK-L{numbered[-1]:03d}"
    whole = numbered == list(range(numbered[0], numbered[-1] + 1))
    return [span if whole else f"{span} ({len(numbered)} of them)", *rest]


def requests(capture: Path) -> list[dict]:
    """The captured requests, checked: the client exited 0 and sent at least one."""
    rc = (capture / "rc").read_text().strip() if (capture / "rc").exists() else "missing"
    log = capture / "requests.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    if rc != "0" or not lines:
        tail = (capture / "stderr").read_text(errors="replace")[-600:] if (capture / "stderr").exists() else ""
        raise CaptureError(f"{capture.name}: client exit {rc}, {len(lines)} requests; stderr: {tail}")
    return [json.loads(line) for line in lines]


def about(session: Session, version: str) -> dict[str, object]:
    """What every fixture says first: the case, the client and its version, the session's setup."""
    return {
        "case": session.name,
        "client": session.client,
        "client_version": version,
        "session": {
            "cwd": session.placeholder(str(session.cwd)),
            "git": (session.case / "git").exists(),
            "reads": session.reads,
        },
    }


def fixture(session: Session, capture: Path, version: str) -> dict[str, object]:
    """The fixture of one recorded case (see the module's docstring)."""
    files: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    elsewhere: set[str] = set()
    instructions: dict[str, object] | None = None
    for request in requests(capture):
        body = request.get("body")
        if not isinstance(body, dict):
            continue
        opencode = session.client == "opencode"
        for place, text in extract_opencode.strings(body) if opencode else _strings(body, ""):
            spans: list[tuple[int, int]] = []
            if opencode:
                for path, section, span in extract_opencode.sections(place, text):
                    spans.append(span)
                    entry = {
                        "path": session.placeholder(path),
                        "place": place,
                        "turn": extract_opencode.reads_before(body),
                        **counts(session.neutral(section)),
                    }
                    key = (str(entry["path"]), f"{entry['sha256']} {place}")
                    if key not in seen:
                        seen.add(key)
                        files.append(entry)
            elif session.client == "claude":
                for path, label, section, span in _claude_sections(text):
                    spans.append(span)
                    note = NOTE.search(section)
                    content = section[: note.start()] if note else section
                    entry = {
                        "path": session.placeholder(path),
                        "kind": KINDS.get(label, "unknown"),
                        "place": place,
                        "turn": _reads_before(body),
                        **counts(session.neutral(content)),
                        "notes": [note.group(1)] if note else [],
                    }
                    key = (str(entry["path"]), str(entry["sha256"]) + "".join(entry["notes"]))
                    if key not in seen:
                        seen.add(key)
                        files.append(entry)
            elif text.startswith(CODEX_HEADER):
                match = CODEX_BODY.search(text)
                if match:
                    spans.append(match.span(1))
                    directory = text[len(CODEX_HEADER) :].split("\n", 1)[0]
                    text_sent = session.neutral(match.group(1))
                    instructions = {"directory": session.placeholder(directory), **counts(text_sent)}
            outside = text
            for start, stop in reversed(spans):
                outside = outside[:start] + "\n" + outside[stop:]
            elsewhere.update(MARKER.findall(outside))
    record = {**about(session, version), "markers_elsewhere": _compress(elsewhere)}
    if session.client in ("claude", "opencode"):
        record["files"] = files
    else:
        record["instructions"] = instructions
    return record


def dumps(record: dict[str, object]) -> str:
    """The fixture's text: sorted keys, two-space indent, a final newline (a stable, reviewable diff)."""
    return json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
