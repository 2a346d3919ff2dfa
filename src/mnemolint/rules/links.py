"""LNK: symlinks, from the links the walk recorded.

The walk examines each link with `lstat`, `readlink` and `realpath` only and never follows one it
cannot prove safe (a loop, a dangling link, a way out of the linted root, a sensitive place);
this family reports what it found and what it refused, so that nothing skipped is skipped
silently, where an agent's reader meets a link (`_links_in`): in a container, as a container, or
as a memory or instruction file itself; the rest of the repository's links are not memory.
What a link means depends on the container it sits in, which the rules ask as facts of its type
(`ContainerType.unasked_writes`, `shared_by_link`) and the container itself (`lost_to`), never by
name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.discover.tree import LinkRecord, Tree
from mnemolint.kinds.base import Container, ContainerType
from mnemolint.kinds.registry import CONTAINERS, kind_of
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.paths import sensitive_place, upwards
from mnemolint.rules.base import TREE, Family, rule


def _links_in(tree: Tree) -> Iterator[tuple[LinkRecord, Container | None]]:
    """Each link an agent's reader meets, with the innermost container holding it: a link inside a
    container (a memory dir, a rules dir, `.ai-memory`), one that stands in for a container (a
    linked `memory/`), or one that is itself a file a kind claims (`AGENTS.md`, `CLAUDE.md`, a
    `.gitignore`). A link anywhere else in the repository (`scripts/python -> /usr/bin/python3`)
    is no memory, and no memory reader meets it: it is not judged."""
    by_path = {container.path: container for container in tree.containers}
    for link in tree.links:
        holder = next((by_path[d] for d in upwards(os.path.dirname(link.path)) if d in by_path), None)
        if holder is not None or _is_container(link) or _is_a_kinds_file(link, tree):
            yield link, holder


def _is_a_kinds_file(link: LinkRecord, tree: Tree) -> bool:
    """Whether the link, by its path from the root, is a file of a kind that lives in no container."""
    rel = os.path.relpath(link.path, tree.root).replace(os.sep, "/")
    return kind_of(rel, None) is not None


def _where(link: LinkRecord, tree: Tree) -> str:
    """Where the link leads: from the linted root inside the repository, absolute outside it."""
    if not link.resolved:
        return "wherever it points"
    if link.outside:
        return f"`{link.resolved}`"
    return f"`{os.path.relpath(link.resolved, tree.root).replace(os.sep, '/')}`"


def _sensitive_where(link: LinkRecord, tree: Tree) -> str:
    """The sensitive place the link names: where it leads, or, when only the path as written is
    one (`-> /etc/alternatives/awk`, which leads on to `/usr/bin/mawk`), that path, then where it
    leads. The same judgement as the walk's (`paths.link_hazard`), on the recorded strings."""
    if not link.resolved or sensitive_place(link.resolved.replace(os.sep, "/")):
        return _where(link, tree)
    written = os.path.normpath(os.path.join(os.path.dirname(link.path), link.target))
    return f"`{written}` (which leads on to `{link.resolved}`)"


def _is_container(link: LinkRecord) -> ContainerType | None:
    """The container type the link itself stands in for by its location (a linked `memory/`)."""
    return next((container for container in CONTAINERS if container.located(link.path)), None)


@rule(
    "LNK001",
    "symlink-in-memory-dir",
    ERROR,
    reads=TREE,
    reads_members=False,
    summary="A symlink inside an auto-memory dir, where the agent writes without asking.",
)
def symlink_in_memory_dir(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, holder in _links_in(tree):
        itself = _is_container(link)
        if itself is not None and itself.unasked_writes:
            yield Hit(
                f"This {itself.name} is a symlink to {_where(link, tree)}: the agent writes its memory here without "
                "asking, so every write lands there instead. Make it a real directory.",
                path=link.path,
            )
        elif holder is not None and holder.type.unasked_writes:
            name = os.path.relpath(link.path, holder.path).replace(os.sep, "/")
            below = f"`{name}/…`" if link.is_dir else f"`{name}`"
            yield Hit(
                f"Symlink in a {holder.type.name} (`{name}` -> `{link.target}`): the agent writes here without "
                f"asking, so a write to {below} lands in {_where(link, tree)}. Replace the link with the file itself.",
                path=link.path,
            )


@rule(
    "LNK002",
    "symlink-escapes-root",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="A symlink that leads out of the repository, which a clone does not have.",
)
def symlink_escapes_root(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, holder in _links_in(tree):
        if link.problem is not None or not link.outside:
            continue  # a dangling link or a loop is LNK003's and LNK004's
        what = "folder" if link.is_dir else "file"
        if holder is not None and holder.type.shared_by_link:
            yield Hit(
                f"Symlink shares a {what} from outside the repository ({_where(link, tree)}): the agents load what "
                "it holds, but only on machines where that path exists, and a review of this repository never sees it.",
                path=link.path,
                severity=INFO,
            )
        else:
            yield Hit(
                f"Symlink leads out of the repository, to {_where(link, tree)}: a clone does not bring that {what} "
                "along, so what it holds depends on the machine; mnemolint did not follow it. Move what it points "
                "to into the repository.",
                path=link.path,
            )


@rule(
    "LNK003",
    "symlink-dangling",
    ERROR,
    reads=TREE,
    reads_members=False,
    summary="A symlink whose target does not exist.",
)
def symlink_dangling(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, holder in _links_in(tree):
        if link.problem != "dangling":
            continue
        cost = (holder.lost_to(link.path) if holder is not None else "") or "whatever reads it gets an error or nothing"
        yield Hit(f"Dangling symlink: `{link.target}` does not exist ({link.detail}); {cost}.", path=link.path)


@rule(
    "LNK004",
    "symlink-cycle",
    ERROR,
    reads=TREE,
    reads_members=False,
    summary="A symlink that loops back to itself or to a directory it is inside.",
)
def symlink_cycle(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, _ in _links_in(tree):
        if link.problem == "cycle":
            yield Hit(
                f"Symlink loop: `{link.target}` {link.detail}. A recursive reader "
                "(the agent's rule scan, a backup, a search) never ends here; mnemolint did not follow it.",
                path=link.path,
            )


@rule(
    "LNK005",
    "symlink-absolute",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="A symlink with an absolute target, the same path on every machine.",
)
def symlink_absolute(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, _ in _links_in(tree):
        if os.path.isabs(link.target) or link.target.startswith("/"):
            yield Hit(
                f"Symlink with an absolute target `{link.target}`: it names that path on whichever machine checks "
                "the repository out, not a file of the repository. Make it relative to the link.",
                path=link.path,
            )


@rule(
    "LNK006",
    "symlink-sensitive-target",
    ERROR,
    reads=TREE,
    reads_members=False,
    summary="A symlink to a system directory, a credential folder, a `.env` file or a private key.",
)
def symlink_sensitive_target(tree: Tree, options: dict) -> Iterator[Hit]:
    for link, _ in _links_in(tree):
        if link.sensitive:
            yield Hit(
                f"Symlink to {_sensitive_where(link, tree)}, {link.sensitive}: an agent that loads it puts what it "
                "holds in its context, and one that writes through it changes it. mnemolint did not follow it. "
                "Remove the link.",
                path=link.path,
            )


FAMILY = Family(
    "LNK",
    "symlinks",
    "symlinks",
    (
        symlink_in_memory_dir,
        symlink_escapes_root,
        symlink_dangling,
        symlink_cycle,
        symlink_absolute,
        symlink_sensitive_target,
    ),
    security={
        "LNK001": "8.0",  # the agent's no-approval write zone becomes an arbitrary write
        "LNK002": "4.0",  # memory that loads on one machine only; content outside review
        "LNK003": "2.0",  # lost memory (and, in a rules dir, lost rules), no disclosure
        "LNK004": "3.0",  # a recursive reader loops: denial of service, no disclosure
        "LNK005": "4.0",  # a target that names anything on the machine
        "LNK006": "9.0",  # credentials or system files loaded into, or written from, a model's context
    },
    cites=("Wave", "`.ai-memory` skill", "claudemd.ts"),
)
