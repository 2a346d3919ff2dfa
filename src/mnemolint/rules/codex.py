"""CDX: what Codex really loads of the `AGENTS.md` files (its profile, agents/codex.py: openai/codex
codex-rs/core/src/project_doc.rs @0bd53e4, verified on the client).

Codex reads one file per folder, from the git root down to the folder it works in
(`AGENTS.override.md` where there is one, else `AGENTS.md`), and stops at a combined
`project_doc_max_bytes` (32 KiB): the budget is spent root first, so a big root file starves the
nested ones, and the last file read is cut at a raw byte (a split character shows as U+FFFD).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents import codex
from mnemolint.agents.base import Part
from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import AGENTS_MD, AGENTS_OVERRIDE_MD, INSTRUCTION_FILE, codex_chain
from mnemolint.model import ERROR, WARNING, Hit
from mnemolint.options import INT, Option
from mnemolint.parse.document import Document
from mnemolint.rules.base import TREE, Family, rule

MAX_BYTES = Option(
    "codex-max-bytes",
    INT,
    codex.MAX_BYTES,
    f"bytes of the `AGENTS.md` chain Codex loads: its `{codex.MAX_BYTES_SETTING}` (project_doc.rs), for teams "
    "that raised it (`--codex-max-bytes`)",
)


def chains(tree: Tree, max_bytes: int) -> list[tuple[str, list[Document], list[Part]]]:
    """For each folder holding a file Codex reads, the chain Codex reads for a session there and
    what it keeps of each file; computed once per run."""
    return tree.derived(f"codex chains {max_bytes}", lambda tree: _chains(tree, max_bytes))


def _chains(tree: Tree, max_bytes: int) -> list[tuple[str, list[Document], list[Part]]]:
    known = {
        document.path: document
        for document in tree.documents
        if document.kind is INSTRUCTION_FILE and os.path.basename(document.path) in codex.NAMES
    }
    # A session works in a project folder, not in a hidden one (`.agents/skills/x/AGENTS.md` is a
    # skill's text, read whole on demand): those folders start no chain.
    folders = sorted({os.path.dirname(path) for path in known if not _hidden(os.path.dirname(path), tree.root)})
    options = next(iter(known.values())).options if known else {}
    found = []
    for folder in folders:
        chain = [document for document in codex_chain(folder, known, options) if document.text is not None]
        parts, _ = codex.load([(document.path, _bytes(document)) for document in chain], max_bytes)
        found.append((folder, chain, parts))
    return found


def _hidden(folder: str, root: str) -> bool:
    rel = os.path.relpath(folder, root)
    return rel != "." and any(part.startswith(".") for part in rel.split(os.sep))


def _bytes(document: Document) -> bytes:
    return (document.text or "").encode("utf-8", "surrogatepass")


def _shown(path: str, tree: Tree) -> str:
    return os.path.relpath(path, tree.root).replace(os.sep, "/")


@rule(
    "CDX001",
    "agents-md-over-budget",
    ERROR,
    reads=TREE,
    needs=(INSTRUCTION_FILE,),  # the chains are of the instruction files found
    reads_members=False,
    summary="An `AGENTS.md` that Codex cuts or drops: the chain from the git root down to it is over "
    "{codex-max-bytes} bytes.",
    options=(MAX_BYTES,),
)
def agents_md_over_budget(tree: Tree, options: dict) -> Iterator[Hit]:
    limit = options["codex-max-bytes"]
    reported: set[str] = set()
    for folder, chain, parts in chains(tree, limit):
        for position, part in enumerate(parts):
            if not part.cut or part.blank or part.path in reported:
                continue
            reported.add(part.path)
            above = [each for each in parts[:position] if each.kept and not each.empty]
            total = sum(each.size for each in parts[: position + 1])
            where = f"`{_shown(folder, tree)}/`" if folder != tree.root else "the root"
            if not above:
                spent = f"this file alone is {part.size:,} bytes, over `project_doc_max_bytes` ({limit:,})"
            else:
                spenders = ", ".join(
                    f"`{_shown(each.path, tree)}` ({each.kept:,} bytes)"
                    for each in sorted(above, key=lambda each: -each.kept)[:3]
                )
                spent = (
                    f"the files above it in the chain to {where} take {limit - part.budget:,} of the "
                    f"{limit:,} bytes of `project_doc_max_bytes` first: {spenders}"
                )
            if part.kept == 0:
                yield Hit(
                    f"Codex never reads this file ({part.size:,} bytes): {spent}. {_advice(total, bool(above))}",
                    path=part.path,
                )
                continue
            document = chain[position]
            line, column = _position(_bytes(document)[: part.kept])
            split = " The cut falls inside a UTF-8 character, which Codex shows as U+FFFD." if part.split else ""
            yield Hit(
                f"Codex reads only the first {part.kept:,} of {part.size:,} bytes of this file, up to line "
                f"{line}: {spent}.{split} {_advice(total, bool(above))}",
                path=part.path,
                line=line,
                column=column,
            )


def _position(kept: bytes) -> tuple[int, int]:
    """The 1-based line and column where the kept bytes end."""
    text = kept.decode("utf-8", "ignore")
    return text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1


def _advice(total: int, above: bool) -> str:
    source = "the files above" if above else "this file"
    return (
        f"The chain is {total:,} bytes: move detail out of {source} into files the agent opens on "
        "demand, or, where the team raised `project_doc_max_bytes` in `~/.codex/config.toml`, set "
        "`codex-max-bytes` to match."
    )


@rule(
    "CDX002",
    "agents-override-committed",
    WARNING,
    reads=TREE,
    needs=(INSTRUCTION_FILE,),  # the chains are of the instruction files found
    reads_members=False,
    summary="An `AGENTS.override.md` tracked in git: it replaces `AGENTS.md` for everyone who clones.",
)
def agents_override_committed(tree: Tree, options: dict) -> Iterator[Hit]:
    from mnemolint.project import is_tracked

    for document in tree.documents:
        if document.kind is not INSTRUCTION_FILE or os.path.basename(document.path) != AGENTS_OVERRIDE_MD:
            continue
        if not is_tracked(document.path):
            continue
        beside = os.path.join(os.path.dirname(document.path), AGENTS_MD)
        hidden = f" `{_shown(beside, tree)}` beside it is never read by Codex." if os.path.lexists(beside) else ""
        yield Hit(
            "`AGENTS.override.md` is tracked in git: Codex reads it instead of `AGENTS.md` in this folder, "
            f"so it overrides the shared instructions for everyone who clones the repository.{hidden} An "
            "override is meant to be local: untrack it (`git rm --cached AGENTS.override.md`) and ignore it, "
            "or merge it into `AGENTS.md`.",
            path=document.path,
        )


FAMILY = Family(
    "CDX",
    "Codex instruction files",
    "codex",
    (agents_md_over_budget, agents_override_committed),
    cites=("project_doc.rs",),
)
