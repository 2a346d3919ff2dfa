"""LNK: symlinks. Today a loop the walk met (LNK004); the dangerous-symlink rules join it.

The walk never follows a link it cannot prove safe; this family reports what it refused, so
that nothing it skipped is skipped silently.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.discover.tree import Tree
from mnemolint.model import ERROR, Hit
from mnemolint.rules.base import TREE, Family, rule


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


FAMILY = Family(
    "LNK",
    "symlinks",
    "symlinks",
    (symlink_cycle,),
    security={"LNK004": "3.0"},  # a recursive reader loops: denial of service, no disclosure
    cites=("seed", "SPEC"),
)
