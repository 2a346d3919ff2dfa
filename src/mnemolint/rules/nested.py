"""NST: nested instruction and memory files. Today the files the walk could not read (NST002),
reported so that the run goes on and nothing it skipped is skipped silently; the rules on nested
`AGENTS.md` / `CLAUDE.md` files join it.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.model import ERROR, Hit
from mnemolint.options import MAX_FILE_BYTES
from mnemolint.parse.document import Document
from mnemolint.rules.base import EVERY_FILE, Family, rule


@rule(
    "NST002",
    "memory-file-unreadable",
    ERROR,
    reads=EVERY_FILE,
    summary="A memory file (or a directory holding memory) that cannot be read.",
    options=(MAX_FILE_BYTES,),
)
def memory_file_unreadable(document: Document, options: dict) -> Iterator[Hit]:
    if document.unlisted:
        yield Hit(f"Cannot read this path ({document.read_error}): memory files in it were not checked.")
    elif document.too_large:
        yield Hit(
            f"File is {document.size:,} bytes, over max-file-bytes ({options['max-file-bytes']:,}): "
            "it was not read, so only its size was checked."
        )
    elif document.text is None and document.read_error:
        yield Hit(
            f"Cannot read this memory file ({document.read_error}): it was skipped, and the agent "
            "cannot load it either."
        )


FAMILY = Family(
    "NST",
    "nested instruction files",
    "instruction-files",
    (memory_file_unreadable,),
    cites=("seed", "SPEC"),
)
