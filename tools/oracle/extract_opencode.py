"""What OpenCode sent of the user's files, from its Chat Completions requests (extract.py calls it).

OpenCode 1.18.33 puts each instruction file it loads at the start into the system message as
`Instructions from: PATH` on a line of its own, the file's text on the next line, and the files
joined by a newline; with the skill tool denied (opencode_client.py) the last file runs to the end
of the system message. The files it attaches beside a file the model read (a nested AGENTS.md)
come the same way, joined by a blank line, in a `<system-reminder>` block of that tool result. A
file the config's `instructions` name by URL is said with the URL in place of a path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

HEADER = re.compile(r"(?m)^Instructions from: ([^\n]+)\n")
REMINDER_END = "\n</system-reminder>"
JOINED_BY = {"system": 1, "read": 2}  # the characters between two files: "\n" or "\n\n"


def strings(body: dict) -> Iterator[tuple[str, str]]:
    """(place, text) of each message text: `system` for the system message, `read` for a tool
    result (what came back for a file the model read), the role otherwise."""
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        role = str(message.get("role"))
        place = "read" if role == "tool" else role
        content = message.get("content")
        parts = [content] if isinstance(content, str) else content if isinstance(content, list) else []
        for part in parts:
            text = part if isinstance(part, str) else part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                yield place, text


def reads_before(body: dict) -> int:
    """How many tool results the request carries: the turn a newly sent file belongs to."""
    return sum(1 for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool")


def sections(place: str, text: str) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """(path or URL, text sent, span of that text) of each instruction file in one message text."""
    headers = list(HEADER.finditer(text))
    for i, header in enumerate(headers):
        start = header.end()
        if i + 1 < len(headers):
            stop = headers[i + 1].start() - JOINED_BY.get(place, 1)
        elif place == "read":
            end = text.find(REMINDER_END, start)
            stop = end if end >= 0 else len(text)
        else:
            stop = len(text)
        yield header.group(1), text[start:stop], (start, stop)
