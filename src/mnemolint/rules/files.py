"""Files the walk could not read, and symlink loops: reported, and the run goes on.

NST002 and LNK004 belong to families that later grow more rules (nested instruction files,
dangerous symlinks); these two are what the walk itself must report so that nothing it skipped
is skipped silently.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.discover.tree import Tree
from mnemolint.parse.document import Document
from mnemolint.model import ERROR, Hit
from mnemolint.rules.base import EVERY_FILE, TREE, rule


@rule(
    "NST002",
    "memory-file-unreadable",
    ERROR,
    reads=EVERY_FILE,
    summary="A memory file (or a directory holding memory) that cannot be read.",
    options=("max-file-bytes",),
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


@rule(
    "LNK004",
    "symlink-cycle",
    ERROR,
    reads=TREE,
    summary="A symlink that loops back to itself or to a directory it is inside.",
)
def symlink_cycle(tree: Tree, options: dict) -> Iterator[Hit]:
    for link in tree.links:
        if link.problem == "cycle":
            yield Hit(
                f"Symlink loop: `{link.target}` {link.detail}. A recursive reader "
                "(the agent's rule scan, a backup, a search) never ends here; mnemolint did not follow it.",
                path=link.path,
            )
