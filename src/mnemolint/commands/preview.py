"""`mnemolint preview DIR [--agent wave|claude-code|codex]`: what the agent loads from `DIR/MEMORY.md`
(with `--agent codex`: from the `AGENTS.md` chain of a session in `DIR`).

The loaded part's size, the agent's own warning text when its loader cuts the index (`load.py`),
the entries it drops by title, and the topics that only those entries
linked, which no session can reach any more (Wave's capacity rules). An empty or missing index
loads no memory section at all (capacity 10); with topics but no index, the index that
`mnemolint check --fix` (MEM106) would generate is shown, marked as not yet written.
"""

from __future__ import annotations

import os
import sys

from mnemolint.agents import names
from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_codex_argument, add_config_argument

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.agents.base import Agent
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.parse.document import Document

NAME = "preview"
HELP = "show what an agent loads from a memory dir's MEMORY.md and what it drops"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "directory", metavar="DIR", help="the memory dir (with --agent codex or opencode: a session's folder)"
    )
    parser.add_argument(
        "--agent",
        choices=names(),
        help="default: wave for a dir under .wave/, else claude-code; codex shows the AGENTS.md chain of DIR, "
        "opencode the files a session in DIR loads",
    )
    parser.add_argument("--output-format", choices=("text", "json"), default="text", help="default: text")
    parser.add_argument(
        "--auto-memory",
        action="store_true",
        help="DIR is a project: show what Claude Code loads of its auto memory (~/.claude/projects/<project>/memory)",
    )
    add_config_argument(parser)
    add_codex_argument(parser)


def preview(memdir: MemoryDir, reader: Agent, options: dict) -> dict:
    """The facts of what `reader` loads from the index of `memdir`, as data (`--output-format json`,
    and `mnemolint.api.preview`). Text quoted from the files is redacted."""
    from mnemolint.load import load
    from mnemolint.redact import redact

    index = memdir.index
    facts: dict = {
        "agent": reader.name,
        "index": memdir.index_path,
        "exists": index is not None,
        "loaded": None,
        "total": None,
        "warning": None,
        "dropped": [],
        "unreachable": [],
        "generated": None,
        "unread": _unread(memdir),
    }
    if index is None or index.text is None:
        if index is None and memdir.topics:
            from mnemolint.fix.generate import generate

            facts["generated"] = [redact(line) for line in generate(memdir, options).lines]
        return facts
    loaded = load(index.text, reader, options["index-max-lines"], options["index-max-chars"])
    from mnemolint.parse.textutil import utf16_len

    facts["loaded"] = {"lines": loaded.loaded_lines if loaded.loaded else 0, "characters": utf16_len(loaded.loaded)}
    facts["total"] = {"lines": loaded.lines if loaded.chars else 0, "characters": loaded.chars}
    facts["warning"] = None if loaded.warning is None else redact(loaded.warning)
    if loaded.cut:
        facts["dropped"], facts["unreachable"] = _dropped(memdir, loaded.loaded, loaded.remainder)
    return facts


def _dropped(memdir: MemoryDir, kept: str, remainder: str) -> tuple[list[dict], list[str]]:
    """The entries in the dropped text (title, target, the topic it resolves to) and the topics
    linked there but nowhere in the loaded part."""
    from mnemolint.parse.index_lines import classify
    from mnemolint.redact import redact

    def linked(text: str) -> list[tuple[str, str, str | None]]:
        found = []
        for line in classify(text.split("\n"), 0):
            if not line.entry:
                continue
            for link in line.links:
                resolved = memdir.resolve(link.target)
                topic = (
                    resolved.rel if resolved and not resolved.problem and resolved.rel in memdir.topic_by_rel else None
                )
                found.append((link.title, link.target, topic))
        return found

    reachable = {topic for _, _, topic in linked(kept) if topic}
    dropped: list[dict] = [
        {
            "title": redact(title),
            "target": redact(target),
            "topic": topic,
            "unreachable": bool(topic and topic not in reachable),
        }
        for title, target, topic in linked(remainder.lstrip("\n"))
    ]
    unreachable = list(dict.fromkeys(str(entry["topic"]) for entry in dropped if entry["unreachable"]))
    return dropped, unreachable


def codex_preview(directory: str, options: dict) -> dict:
    """What Codex loads for a session in `directory`: each file of its `AGENTS.md` chain with the
    bytes it reads, and the text it loads (redacted), as data (load.codex_load)."""
    from mnemolint.agents.codex import load as codex_load
    from mnemolint.kinds.instructions import codex_chain
    from mnemolint.redact import redact

    found = codex_chain(directory, {}, options)
    chain = [document for document in found if document.text is not None]
    limit = options["codex-max-bytes"]
    parts, text = codex_load([(doc.path, (doc.text or "").encode("utf-8", "surrogatepass")) for doc in chain], limit)
    return {
        "agent": "codex",
        "directory": directory,
        "max_bytes": limit,
        "files": [
            {"path": part.path, "bytes": part.size, "read": part.kept, "cut": part.cut, "split": part.split}
            for part in parts
        ],
        "loaded_bytes": sum(part.kept for part in parts if not part.empty),
        "loaded": redact(text),
        "unread": [{"path": doc.path, "reason": _why_unread(doc)} for doc in found if doc.text is None],
    }


def _why_unread(document: Document) -> str:
    """Why a file of the chain was not read: a dangerous link (never read by any command), too
    large, or not text."""
    if document.read_error:
        return document.read_error
    return "over `max-file-bytes`" if document.too_large else "not UTF-8 text"


def describe_codex(facts: dict) -> str:
    """`codex_preview`'s facts as the text `preview --agent codex` prints."""
    import os

    from mnemolint.parse.textutil import visible
    from mnemolint.report import display_path

    where = display_path(facts["directory"])
    unread = facts["unread"]
    if not facts["files"] and not unread:
        return f"No AGENTS.md on Codex's way from the git root to {where}: Codex loads no project doc there.\n"
    lines = [f"Codex's AGENTS.md chain for a session in {where} (project_doc_max_bytes {facts['max_bytes']:,}):"]
    # One file a folder, root first: a deeper path comes later in the chain.
    for entry in sorted([*facts["files"], *unread], key=lambda entry: entry["path"].count(os.sep)):
        if "reason" in entry:  # what Codex would take from it is neither shown nor counted below
            lines.append(f"  {display_path(entry['path'])}: not read: {entry['reason']}")
            continue
        if not entry["cut"]:
            state = "read whole"
        elif entry["read"] == 0:
            state = "never read"
        else:
            split = ", inside a UTF-8 character (shown as U+FFFD)" if entry["split"] else ""
            state = f"cut after {entry['read']:,} bytes{split}"
        lines.append(f"  {display_path(entry['path'])}: {entry['bytes']:,} bytes, {state}")
    if unread:
        lines.append("Codex also loads what the files not read here hold; mnemolint shows none of it.")
        if not facts["files"]:
            return "\n".join(lines) + "\n"
    read = " of the files read here" if unread else ""
    lines.append(f"Codex loads {facts['loaded_bytes']:,} bytes{read}, the files joined with a blank line:")
    lines.append("")
    lines.extend(visible(line) for line in facts["loaded"].split("\n"))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from mnemolint.agents import by_name, memory_reader
    from mnemolint.commands.common import find_memory_dir, memory_dir_settings

    if args.agent == "codex":
        return _run_codex(args)
    if args.agent == "opencode":
        from mnemolint.commands import preview_opencode

        return preview_opencode.run(args)
    if args.auto_memory:
        args.directory, args.agent = _auto_memory_of(args.directory), "claude-code"
    directory, settings = memory_dir_settings(args, args.directory)
    reader = by_name(args.agent) if args.agent else memory_reader(directory)
    facts = preview(find_memory_dir(directory, settings), reader, settings.options)
    if args.output_format == "json":
        import json

        from mnemolint.report import display_path

        json.dump({**facts, "index": display_path(facts["index"])}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(describe(facts, reader))
    return EXIT_CLEAN


def _auto_memory_of(project: str) -> str:
    """The auto-memory dir Claude Code keeps for a session in `project`; a usage error when auto
    memory is off there or the dir does not exist, saying which and why."""
    from mnemolint.agents.claude_code import auto_memory_dir, auto_memory_off
    from mnemolint.commands.common import directory_argument
    from mnemolint.errors import ConfigError

    folder = directory_argument(project)
    off = auto_memory_off(folder)
    if off:
        raise ConfigError(f"Claude Code's auto memory is off for {folder}: {off}")
    memory = auto_memory_dir(folder)
    if not os.path.isdir(memory):
        raise ConfigError(f"Claude Code keeps the auto memory of {folder} in {memory}, which does not exist yet")
    return memory


def _run_codex(args: argparse.Namespace) -> int:
    from mnemolint.commands.common import directory_argument, settings_from_args

    directory = directory_argument(args.directory)
    facts = codex_preview(directory, settings_from_args(args, directory).options)
    if args.output_format == "json":
        import json

        from mnemolint.report import display_path

        shown = {
            **facts,
            "directory": display_path(directory),
            "files": [{**entry, "path": display_path(entry["path"])} for entry in facts["files"]],
            "unread": [{**entry, "path": display_path(entry["path"])} for entry in facts["unread"]],
        }
        json.dump(shown, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(describe_codex(facts))
    return EXIT_CLEAN


def _unread(memdir: MemoryDir) -> str | None:
    """Why `MEMORY.md` is there but not read: a symlink (never followed), or not a regular file."""
    import os
    import stat

    if memdir.index_link:
        return f"is a symlink ({memdir.index_link})"
    try:
        mode = os.lstat(memdir.index_path).st_mode
    except OSError:
        return None  # not there at all
    if stat.S_ISLNK(mode):
        return "is a symlink"
    return None if stat.S_ISREG(mode) else "is not a regular file"


def describe(facts: dict, reader: Agent) -> str:
    """`facts` as the text `preview` prints."""
    from mnemolint.agents.claude_code import kilobytes
    from mnemolint.parse.textutil import plural, visible
    from mnemolint.report import display_path

    name = display_path(facts["index"])
    if facts["unread"]:
        return (
            f"{name} {facts['unread']}: mnemolint does not read it, and what {reader.title} would load from it "
            "is not what this folder holds (see LNK001, LNK003, NST002).\n"
        )
    if facts["generated"] is not None:
        lines = [f"{name} does not exist: {reader.title} loads no memory section from it."]
        count = plural(len(facts["generated"]), "line")
        lines.append(f"The index `mnemolint check --fix` would generate (MEM106), not yet written ({count}):")
        lines.extend(f"  {visible(line)}" for line in facts["generated"])
        return "\n".join(lines) + "\n"
    if facts["total"] is None or not facts["total"]["characters"]:
        empty = "is empty" if facts["total"] is not None else "cannot be read"
        state = empty if facts["exists"] else "does not exist"
        return f"{name} {state}: {reader.title} loads no memory section from it.\n"
    loaded, total = facts["loaded"], facts["total"]
    stripped = " (frontmatter and block-level HTML comments removed first)" if reader.strips_index_markup else ""
    size = f"{loaded['characters']:,} of {total['characters']:,} characters"
    if reader.strips_index_markup:  # its warning speaks in KB
        size += f" ({kilobytes(loaded['characters'])} of {kilobytes(total['characters'])})"
    lines = [f"{name}, as {reader.title} loads it{stripped}: {loaded['lines']:,} of {total['lines']:,} lines, {size}."]
    if facts["warning"] is None:
        lines.append("Nothing is cut: the whole index is loaded.")
        return "\n".join(lines) + "\n"
    lines.append(visible(facts["warning"]))
    dropped = facts["dropped"]
    lines.append(
        f"Dropped entries ({len(dropped):,}):" if dropped else "Dropped entries: none (no index entry is past the cut)."
    )
    for entry in dropped:
        mark = " — unreachable now" if entry["unreachable"] else ""
        lines.append(f"  - {visible(entry['title'])} ({visible(entry['target'])}){mark}")
    unreachable = facts["unreachable"]
    if unreachable:
        lines.append(
            f"Topics no session can reach ({len(unreachable):,}): {', '.join(visible(rel) for rel in unreachable)}"
        )
    return "\n".join(lines) + "\n"
