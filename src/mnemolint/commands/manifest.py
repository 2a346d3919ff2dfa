"""`mnemolint manifest DIR [--staleness]`: the memory manifest the agents' extraction step is
seeded with, in their own format (Wave's memory manifest; Wave memoryIndex.ts:38-102, Claude
Code memoryScan.ts:84-93), and with `--staleness` the note each file gets when it is read
(Wave's staleness note; memoryAge.ts:16-50 in both agents).

`- [<type>] <relpath> (<ISO 8601 mtime>): <description>`: the tag only for one of the four
types, `: <description>` only when there is one; topics in subdirectories too, `MEMORY.md`
never; newest first, at most 200. Ages are judged against `clock.now`, so `--now` pins them.
"""

from __future__ import annotations

import math
import os
import sys

from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_clock_argument, add_config_argument

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    import datetime

    from mnemolint.kinds.memory import MemoryDir

NAME = "manifest"
HELP = "print the memory manifest the agents seed their extraction step with"

MAX_ENTRIES = 200  # memoryIndex.ts: newest first, capped
DAY_MS = 86_400_000
STALENESS = (
    "This memory is {days} days old. Memories are point-in-time observations, not live state — claims about "
    "code behavior or file:line citations may be outdated. Verify against current code before asserting as fact."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="DIR", help="the memory dir")
    parser.add_argument("--staleness", action="store_true", help="add the note each file gets when the agent reads it")
    parser.add_argument("--output-format", choices=("text", "json"), default="text", help="default: text")
    add_config_argument(parser)
    add_clock_argument(parser)


class Entry:
    """One manifest line's facts: the topic's path relative to the memory dir, its mtime in
    milliseconds (as Node's `mtimeMs`), its type tag and description (None when left out)."""

    __slots__ = ("rel", "mtime_ms", "type", "description")

    def __init__(self, rel: str, mtime_ms: float, type: str | None, description: str | None) -> None:
        self.rel = rel
        self.mtime_ms = mtime_ms
        self.type = type
        self.description = description

    @property
    def iso(self) -> str:
        """`new Date(mtimeMs).toISOString()`: UTC, milliseconds, `Z`."""
        import datetime as dt

        moment = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=math.trunc(self.mtime_ms))
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"

    def line(self) -> str:
        tag = f"[{self.type}] " if self.type else ""
        about = f": {self.description}" if self.description else ""
        return f"- {tag}{self.rel} ({self.iso}){about}"


def entries(memdir: MemoryDir, options: dict) -> list[Entry]:
    """The manifest of `memdir` as the agent reading it scans it, newest first, at most
    `MAX_ENTRIES`: `type` only when it is one of the four (matched as written), `description`
    only when it is a non-empty string, each file's fields as the reader's memory scan takes them
    (its profile's `Memory.scan`: Wave's line reader over the file, Claude Code's frontmatter within
    a topic's first 30 lines). Wave lists every `.md` file but `MEMORY.md`, READMEs too
    (`Memory.scans_every_md`)."""
    from mnemolint.kinds.memory import INDEX_NAME, TYPES
    from mnemolint.parse.document import Document

    memory = memdir.reader.memory
    assert memory is not None, memdir.reader
    files = [(topic.rel, topic) for topic in memdir.topics]
    if memory.scans_every_md:  # the files no memory kind claims (README.md, AGENTS.md, …) are in its scan too
        for path in memdir.others:
            rel = os.path.relpath(path, memdir.path).replace(os.sep, "/")
            if rel.endswith(".md") and os.path.basename(path) != INDEX_NAME:
                files.append((rel, Document(path, None, options)))
    found = []
    for rel, document in files:
        try:
            mtime_ms = os.stat(document.path, follow_symlinks=False).st_mtime_ns / 1_000_000
        except OSError:
            continue  # gone since discovery: the agent's scan would not list it either
        data = memory.scan(document.text, document.options["yaml-max-depth"]) if document.text is not None else {}
        kind, description = data.get("type"), data.get("description")
        found.append(
            Entry(
                rel,
                mtime_ms,
                kind if isinstance(kind, str) and kind in TYPES else None,
                description.strip() or None if isinstance(description, str) else None,
            )
        )
    found.sort(key=lambda entry: (-entry.mtime_ms, entry.rel))
    return found[:MAX_ENTRIES]


def age_days(mtime_ms: float, now: datetime.datetime) -> int:
    """`Math.max(0, Math.floor((now - mtimeMs) / 86_400_000))`."""
    now_ms = now.timestamp() * 1000
    return max(0, math.floor((now_ms - mtime_ms) / DAY_MS))


def staleness_note(days: int) -> str | None:
    """The note a file `days` old gets when read; none for today and yesterday."""
    if days <= 1:
        return None
    return f"<system-reminder>{STALENESS.format(days=days)}</system-reminder>"


def run(args: argparse.Namespace) -> int:
    from mnemolint.clock import now
    from mnemolint.commands.common import memory_dir_settings
    from mnemolint.memory_dirs import find_memory_dir
    from mnemolint.parse.textutil import visible
    from mnemolint.redact import redact

    directory, settings = memory_dir_settings(args, args.directory)
    manifest = entries(find_memory_dir(directory, settings), settings.options)
    moment = now(str(settings.options["now"]))
    out = sys.stdout
    if args.output_format == "json":
        import json

        rows = [
            {
                "line": redact(entry.line()),
                "path": entry.rel,
                "mtime": entry.iso,
                "type": entry.type,
                "description": None if entry.description is None else redact(entry.description),
                "age_days": age_days(entry.mtime_ms, moment),
                "staleness": staleness_note(age_days(entry.mtime_ms, moment)),
            }
            for entry in manifest
        ]
        json.dump(rows, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_CLEAN
    for entry in manifest:
        out.write(visible(redact(entry.line())) + "\n")
        note = staleness_note(age_days(entry.mtime_ms, moment)) if args.staleness else None
        if note:
            out.write(f"  {note}\n")
    return EXIT_CLEAN
