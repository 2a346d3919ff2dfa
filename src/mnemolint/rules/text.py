"""TXT0xx: text hygiene of every memory file (the `.ai-memory` skill: UTF-8 without BOM, no absolute paths)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mnemolint.model import ERROR, SAFE, WARNING, Edit, Fix, Hit
from mnemolint.parse.document import BOM, Document
from mnemolint.parse.textutil import dominant_eol, quote
from mnemolint.patterns import Lazy
from mnemolint.rules.base import EVERY_KIND, Family, rule


@rule(
    "TXT001",
    "utf8-bom",
    WARNING,
    reads=EVERY_KIND,
    summary="The file starts with a UTF-8 byte-order mark.",
    fix=SAFE,
    cacheable=True,
)
def utf8_bom(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if not text or not text.startswith(BOM):
        return
    fields = document.kind.fields if document.kind is not None else ""
    hidden = (
        " A reader that expects `---` at the first byte (Wave's does) then misses the frontmatter"
        + (f", and with it {fields}." if fields else ".")
        if document.frontmatter.present
        else ""
    )
    yield Hit(
        f"File starts with a UTF-8 byte-order mark; memory files are UTF-8 without BOM.{hidden}",
        line=1,
        column=1,
        end_line=1,
        end_column=2,
        fix=Fix(SAFE, "Remove the byte-order mark", (Edit(0, 1, ""),)),
    )


@rule(
    "TXT002",
    "invalid-utf8",
    ERROR,
    reads=EVERY_KIND,
    summary="The file is not UTF-8 text: an invalid byte sequence or binary (NUL) content.",
    cacheable=True,
)
def invalid_utf8(document: Document, options: dict) -> Iterator[Hit]:
    if document.text is None and document.wide_encoding:
        name, evidence = document.wide_encoding
        yield Hit(f"File is {name} ({evidence}): memory files are UTF-8. Re-save it.")
    elif document.text is None and document.binary:
        yield Hit("File holds NUL bytes: it is binary, not a text memory the agent can read.")
    elif document.decode_error:
        line, column = document.decode_error
        yield Hit(
            f"Invalid UTF-8 at byte {column} of line {line}: the agent reads it as U+FFFD replacement "
            "characters. Re-save the file as UTF-8.",
            line=line,
            column=column,
        )


def _crlf(text: str) -> bool:
    """Whether `text` holds a CRLF: a CR is looked for first (memchr), a file without one has none."""
    return "\r" in text and "\r\n" in text


@rule(
    "TXT003",
    "mixed-line-endings",
    WARNING,
    reads=EVERY_KIND,
    summary="The file mixes CRLF and LF line endings.",
    fix=SAFE,
    cacheable=True,
)
def mixed_line_endings(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if not text or not _crlf(text):
        return
    lines = document.lines
    ended = lines[:-1]  # the last piece has no line ending
    crlf = [index for index, text in enumerate(ended) if text.endswith("\r")]
    if not crlf or len(crlf) == len(ended):
        return
    dominant_crlf = dominant_eol(lines) == "\r\n"
    minority = [index for index, text in enumerate(ended) if not text.endswith("\r")] if dominant_crlf else crlf
    edits = []
    offset = 0
    wanted = iter(minority)
    target = next(wanted, None)
    for index, text in enumerate(ended):
        offset += len(text)
        if index == target:
            edits.append(Edit(offset, offset, "\r") if dominant_crlf else Edit(offset - 1, offset, ""))
            target = next(wanted, None)
        offset += 1
    style, other = ("CRLF", "LF") if dominant_crlf else ("LF", "CRLF")
    yield Hit(
        f"Mixed line endings: {len(minority):,} of {len(ended):,} lines end in {other}, the rest in {style}. "
        "The agent's loader splits on \\n, so stray CRs become part of the text it counts and shows.",
        line=minority[0] + 1,
        fix=Fix(SAFE, f"Convert every line ending to {style}", tuple(edits)),
    )


# A user's home (`/home/<u>/`, `/Users/<u>/`, `C:\\Users\\<u>`), or a Windows drive path such as
# the seed's own `D:\\my-project`: not a URL's path (`…/home/…` after a host), not a `~/` form.
_ABSOLUTE = Lazy(
    r"(?<![\w./~\\-])/(?:home|Users)/(?P<user>[A-Za-z0-9._-]+)"
    r"|(?<![\w\\/])[A-Za-z]:(?:\\{1,2}|/)(?:Users|Documents and Settings)(?:\\{1,2}|/)(?P<win>[^\\/\s\"'`<>|]+)"
    r"|(?<![\w\\/])[A-Za-z]:\\{1,2}[A-Za-z0-9_.-][^\\\s\"'`<>|]*"
)
# Not one person's home: a placeholder or the classic example names (`/Users/.../x`, `/Users/alice`,
# `C:\\Users\\%USERNAME%`), or the stock account of a server image, CI runner or container, the same
# on every such machine (`/home/ubuntu/app`).
_NOT_A_PERSON = frozenset(
    {"...", "…", "user", "username", "yourname", "your-name", "you", "me", "name", "alice", "bob", "example"}
    | {"ubuntu", "ec2-user", "centos", "debian", "admin", "runner", "vscode", "node", "codespace", "root"}
)
# What every match of `_ABSOLUTE` holds: plain substring tests rule out most files at once (`_marked`).
_MARKS = ("/home/", "/Users/", ":\\", ":/Users", ":/Documents and Settings")
_REST_OF_PATH = Lazy(r"[^\s`'\"<>|]*")
# A path given as an example of what to write, or of what not to ("e.g. … not `D:\projects\x`").
_AS_EXAMPLE = Lazy(r"(?:\be\.g\.|\bfor (?:example|instance)|\bsuch as|\binstead of|\bexamples?\s*:).{0,200}$", re.I)
_HOME_ROOTS = ("Users", "Documents and Settings")  # a drive's home folder with no user after it


def _user_path(line: str) -> re.Match | None:
    """The first hard-coded path into a person's home or onto a drive in `line`; a path written as a
    pattern (`D:\\projects\\...`) is none."""
    for match in _ABSOLUTE.finditer(line):
        user = match.group("user") or match.group("win")
        if user is not None and (user.casefold() in _NOT_A_PERSON or user.startswith(("%", "$", "{", "."))):
            continue
        if match.group().rstrip("\\/").endswith(_HOME_ROOTS):
            continue  # `C:\Users\<user>\…`: the user is a placeholder
        if _AS_EXAMPLE.search(line, 0, match.start()):
            continue
        rest = _REST_OF_PATH.match(line, match.end())
        if rest is None or ("..." not in rest.group() and "…" not in rest.group()):
            return match
    return None


def _marked(text: str) -> bool:
    """Whether `text` holds one of `_MARKS`, each searched once at C speed (no generator): both
    drive marks after `:/` start with it, so they are looked for only where it is."""
    if "/home/" in text or "/Users/" in text or ":\\" in text:
        return True
    return ":/" in text and (":/Users" in text or ":/Documents and Settings" in text)


@rule(
    "TXT004",
    "absolute-path",
    WARNING,
    reads=EVERY_KIND,
    summary="A hard-coded absolute user path (`/home/<u>/`, `/Users/<u>/`, `C:\\Users\\…`, `D:\\…`) outside code.",
    cacheable=True,
)
def absolute_path(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if not text or not _marked(text) or not _ABSOLUTE.search(text):
        return  # most files hold none: no regex scan, no Markdown parse for them
    from mnemolint.parse import markdown

    code = markdown.code_lines(text) or set()
    for number, line in enumerate(document.lines, 1):
        match = None if number in code else _user_path(line)
        if match:
            yield Hit(
                f"`{quote(match.group(), 60)}` is a hard-coded absolute path: another machine, user or clone has "
                "no such directory (the `.ai-memory` skill forbids them). Write it relative to the project "
                "root, or as `~/…`.",
                line=number,
                column=match.start() + 1,
                end_line=number,
                end_column=match.end() + 1,
            )


FAMILY = Family("TXT", "text hygiene", "text", (utf8_bom, invalid_utf8, mixed_line_endings, absolute_path))
