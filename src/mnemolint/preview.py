"""What an agent loads, as `mnemolint preview` shows it and `mnemolint.api.preview` returns it: the
one place both faces ask (the CLI command and the API only read their arguments and print or return
these facts).

`memory`: what an agent's index loader keeps of a memory dir's `MEMORY.md` (`load.py`) — the loaded
part's size, the agent's own warning text when it cuts, the entries it drops by title and the topics
only those linked, which no session can reach any more (Wave's capacity rules); with topics but no
index, the index `mnemolint check --fix` (MEM106) would generate. `instructions`: what an agent
keeps of the instruction files a session in a folder loads (its `Session` and `Instructions.load`,
Codex's byte budget), its text in the agent's own words (`Instructions.describe`). `tool_rules`:
what Cursor, Copilot, Windsurf or Cline gets of its rule files in a session, and how each applies.
"""

from __future__ import annotations

import os

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Agent
    from mnemolint.config import Settings
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.parse.document import Document


def reader_of(memdir: MemoryDir, name: str | None) -> Agent:
    """The loader the agent called `name` reads `memdir` with (default: the dir's own agent), as the
    index rules count it (`MemoryDir.readers`: Claude Code's agent memory is cut raw)."""
    from mnemolint.agents import by_name

    readers = memdir.readers
    if name is None:
        return readers[-1]  # a dir any agent may read (a plain `memory/`) is Claude Code's by default
    return next((reader for reader in readers if reader.name == name), None) or by_name(name)


def memory(memdir: MemoryDir, reader: Agent, options: dict) -> dict:
    """The facts of what `reader` loads from the index of `memdir`, as data (`preview --output-format
    json`, and `mnemolint.api.preview`). Text quoted from the files is redacted."""
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


def instructions(agent: Agent, directory: str, options: dict) -> dict:
    """What `agent` loads for a session in `directory`: each instruction file its session loads at
    the start with the bytes it keeps (`Instructions.load`), the text it loads (redacted), and the
    files mnemolint does not read (a dangerous link, too large, not text), as data."""
    from mnemolint.kinds.instructions import documents, session
    from mnemolint.redact import redact

    spec = agent.instructions
    if spec is None or spec.load is None:
        raise ConfigError(f"mnemolint does not show what {agent.title} loads for a session")
    walk = session(agent, directory, {}, options)
    found = documents(walk, walk.start())
    chain = [document for document in found if document.text is not None]
    limit = int(options[spec.max_bytes_option] if spec.max_bytes_option else spec.max_bytes or 0)
    parts, text = spec.load([(doc.path, (doc.text or "").encode("utf-8", "surrogatepass")) for doc in chain], limit)
    return {
        "agent": agent.name,
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


def describe_instructions(facts: dict, agent: Agent) -> str:
    """`instructions`' facts as the text `preview` prints, in the agent's own words."""
    from mnemolint.parse.textutil import visible
    from mnemolint.report import display_path

    assert agent.instructions is not None and agent.instructions.describe is not None
    return agent.instructions.describe(facts, display_path, visible)


def describe_gemini(facts: dict) -> str:
    """`kinds.gemini.GeminiSession.facts()` as the text `preview --agent gemini-cli` prints: each
    file, where it goes, its size as sent, and every import that does not bring its file."""
    from mnemolint.parse.textutil import visible
    from mnemolint.report import display_path

    where = display_path(facts["directory"])
    origin = f" (from {display_path(facts['setting'])})" if facts["setting"] else ""
    names = ", ".join(facts["names"])
    lines = [f"Gemini CLI {facts['version']} for a session in {where}: context file names {names}{origin}"]
    if not facts["files"]:
        lines.append("  no context file on its way from the git root to the session folder, nor in ~/.gemini/")
    for entry in facts["files"]:
        if not entry["read"]:
            state = "not read by mnemolint (too large, or a link to a sensitive place)"
        elif entry["sent"] is None:
            state = "blank: not sent"
        else:
            state = f"{entry['bytes']:,} bytes sent" + ("" if entry["complete"] else " (mnemolint stopped expanding)")
        lines.append(f"  {display_path(entry['path'])} ({entry['kind']}, in the {entry['place']}): {state}")
        for found in entry["imports"]:
            if found["outcome"] != "imported":
                reason = f": {found['reason']}" if found.get("reason") else ""
                spot = f"{display_path(found['file'])}:{found['line']}"
                lines.append(f"    {spot} @{visible(found['import'])}: {found['outcome']}{visible(reason)}")
    return "\n".join(lines) + "\n"


def _unread(memdir: MemoryDir) -> str | None:
    """Why `MEMORY.md` is there but not read: a symlink (never followed), or not a regular file."""
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


def describe_memory(facts: dict, reader: Agent) -> str:
    """`memory`'s facts as the text `preview` prints."""
    return "".join(line + "\n" for line, _ in styled_memory(facts, reader))


def styled_memory(facts: dict, reader: Agent) -> list[tuple[str, str]]:
    """The lines `describe_memory` prints, each with the rich style it gets on a colour terminal:
    what is cut in yellow, what is lost in red, a whole load in green."""
    from mnemolint.parse.textutil import plural, visible
    from mnemolint.report import display_path

    name = display_path(facts["index"])
    if facts["unread"]:
        return [
            (
                f"{name} {facts['unread']}: mnemolint does not read it, and what {reader.title} would load from it "
                "is not what this folder holds (see LNK001, LNK003, NST002).",
                "yellow",
            )
        ]
    if facts["generated"] is not None:
        count = plural(len(facts["generated"]), "line")
        return [
            (f"{name} does not exist: {reader.title} loads no memory section from it.", "yellow"),
            (f"The index `mnemolint check --fix` would generate (MEM106), not yet written ({count}):", ""),
            *((f"  {visible(line)}", "dim") for line in facts["generated"]),
        ]
    if facts["total"] is None or not facts["total"]["characters"]:
        empty = "is empty" if facts["total"] is not None else "cannot be read"
        state = empty if facts["exists"] else "does not exist"
        return [(f"{name} {state}: {reader.title} loads no memory section from it.", "yellow")]
    loaded, total = facts["loaded"], facts["total"]
    memory = reader.memory
    assert memory is not None, reader
    stripped = f" ({' and '.join(memory.strips)} removed first)" if memory.strips else ""
    size = f"{loaded['characters']:,} of {total['characters']:,} characters"
    if memory.shows_size is not None:  # its warning speaks in its own units (Claude Code's KB)
        size += f" ({memory.shows_size(loaded['characters'])} of {memory.shows_size(total['characters'])})"
    lines = [
        (
            f"{name}, as {reader.title} loads it{stripped}: {loaded['lines']:,} of {total['lines']:,} lines, {size}.",
            "bold",
        )
    ]
    if facts["warning"] is None:
        return [*lines, ("Nothing is cut: the whole index is loaded.", "green")]
    lines.append((visible(facts["warning"]), "yellow"))
    dropped = facts["dropped"]
    heading = (
        f"Dropped entries ({len(dropped):,}):" if dropped else "Dropped entries: none (no index entry is past the cut)."
    )
    lines.append((heading, ""))
    for entry in dropped:
        mark = " — unreachable now" if entry["unreachable"] else ""
        lines.append((f"  - {visible(entry['title'])} ({visible(entry['target'])}){mark}", "red" if mark else "yellow"))
    unreachable = facts["unreachable"]
    if unreachable:
        lines.append(
            (
                f"Topics no session can reach ({len(unreachable):,}): {', '.join(visible(rel) for rel in unreachable)}",
                "bold red",
            )
        )
    return lines


def tool_rules(agent: Agent, directory: str, settings: Settings) -> dict:
    """What `agent` (Cursor, Copilot, Windsurf, Cline) loads for a session in `directory`, as the
    walk with `settings` finds the project: the
    instruction files at the start, and each rule file with how the tool applies it and its size;
    for Windsurf, what its character limits keep of each always-on rule (agents/windsurf.py)."""
    from mnemolint.agents import windsurf
    from mnemolint.discover.walk import discover
    from mnemolint.kinds.editor_rules import body_of
    from mnemolint.kinds.instructions import session
    from mnemolint.kinds.tool_rules import ALWAYS, activation, rule_files
    from mnemolint.parse.textutil import utf16_len

    options = settings.options
    tree = discover([directory], settings)
    start = session(agent, directory, {}, options).start() if agent.instructions is not None else []
    per_rule, budget = options["windsurf-max-rule-chars"], options["windsurf-max-total-chars"]
    files = []
    for document in rule_files(agent, tree.containers, tree.documents, directory, [directory]):
        how = activation(document)
        size = utf16_len(body_of(document))  # its text after the frontmatter, as Windsurf counts it
        entry = {"path": document.path, "how": how.mode, "why": how.why, "patterns": how.patterns, "characters": size}
        if agent is windsurf.AGENT and how.mode == ALWAYS:
            entry["kept"] = max(0, min(size, per_rule, budget))
            budget -= entry["kept"]
        files.append(entry)
    return {"agent": agent.name, "directory": directory, "start": start, "files": files}


def describe_tool_rules(facts: dict, agent: Agent) -> str:
    """`tool_rules`' facts as the text `preview --agent cursor|copilot|windsurf|cline` prints."""
    from mnemolint.parse.textutil import visible
    from mnemolint.report import display_path

    where = display_path(facts["directory"])
    if not facts["start"] and not facts["files"]:
        return f"{agent.title} finds no instruction or rule file for a session in {where}.\n"
    lines = [f"What {agent.title} loads for a session in {where}:"]
    lines.extend(f"  {display_path(path)}: loaded at the start" for path in facts["start"])
    said = {"always": "always", "globs": "when a file it matches is worked on", "requested": "on request"}
    for entry in facts["files"]:
        how = said.get(entry["how"], "never")
        patterns = f" ({', '.join(f'`{pattern}`' for pattern in entry['patterns'])})" if entry["patterns"] else ""
        why = f" — {entry['why']}" if entry["why"] else ""
        size = f"{entry['characters']:,} characters"
        if "kept" in entry and entry["kept"] < entry["characters"]:
            size += f", {entry['kept']:,} kept: the rest is cut"
        lines.append(f"  {display_path(entry['path'])}: {how}{patterns}, {size}{visible(why)}")
    return "\n".join(lines) + "\n"
