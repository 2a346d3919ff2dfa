"""The agent seam: what one agent's profile holds, and the walk over its instruction files.

An agent is one module `agents/<name>.py` exposing `AGENT = Agent(...)`, listed once in
`agents/__init__.py`. Its facts live there and nowhere else: rules, `preview`, `manifest`,
`explain-rules`, the hook and the API ask the profile, never which agent it is. One rule set,
several readings (as sqlfluff keeps one rule set and many dialects): a rule asks the profile of a
document's reader (`document.reader`, an `Agent`) what that reader gets.

Each fact is verified one of three ways (`Verified.how`): by running the real client offline on
a crafted tree (CLIENT: the oracle, whose cases `Agent.facts` names), by reading its source at a
named commit (SOURCE), or from its documentation (DOCS); the last two carry the date they were
read, since they go stale.

Pure names and numbers in, facts out: nothing here reads a file (a walk asks only whether a
`.git` marker stands in a folder). What a walk needs of the files (whether one is there, whether
the agent would load it) the core passes in as a `Probe` (kinds/instructions.session).
"""

from __future__ import annotations

import os

from mnemolint.paths import inside, upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Protocol
else:
    Protocol = object  # a `Probe` is any object with these methods

# How a profile's facts were verified.
CLIENT = "client"  # the real client, run offline on crafted trees (tools/oracle, tests/oracle fixtures)
SOURCE = "source"  # its source code, at the commit `Verified.source` names
DOCS = "docs"  # its documentation, at the address `Verified.source` names

# Where the chain of instruction files starts (`Instructions.walk`): every folder from the file
# system's root down to the session folder, from the git root down to it, or the session folder alone.
FILESYSTEM_ROOT = "filesystem root"
GIT_ROOT = "git root"
SESSION = "session folder"

# Which folders below the session folder load their instruction files (`Instructions.below`).
ON_TOUCH = "on touch"  # each folder down to a file the agent reads, when it reads it
NOT_BELOW = "none"

# What a dangling link in a rules folder costs (`RulesDirs.dangling`).
STOPS_SCAN = "stops scan"  # the scan of that folder stops there: the entries after it by name are lost
DROPS_FOLDER = "drops folder"  # every rule of that folder level, subfolders included, is lost

# How an agent's post-write hook takes a reminder (`Agent.hook_reply`).
STDERR_EXIT = "stderr, exit 2"
CONTEXT = "JSON additionalContext"

# How an agent cuts what is too large (`Instructions.cut`).
SKIPS_WHOLE = "skips whole"  # a file over `max_bytes` loads nothing, without a word
CHAIN_BUDGET = "chain budget"  # the files share `max_bytes`, root first; the last one read is cut at a byte
NO_CAP = "no cap"


class Verified:
    """How an agent's profile was verified: `how` (CLIENT, SOURCE or DOCS), the client `version`,
    `source` (for SOURCE a repository and commit, for DOCS an address; for CLIENT the package the
    oracle installs) and `date` (YYYY-MM-DD) it was read or run."""

    __slots__ = ("how", "version", "source", "date")

    def __init__(self, how: str, version: str, source: str, date: str) -> None:
        if how not in (CLIENT, SOURCE, DOCS):
            raise ValueError(f"how must be {CLIENT}, {SOURCE} or {DOCS}, not {how!r}")
        self.how = how
        self.version = version
        self.source = source
        self.date = date

    def __repr__(self) -> str:
        return f"<Verified {self.how} {self.version} ({self.source}, {self.date})>"


class Imports:
    """How an agent's instruction files pull in other files: the `syntax` (`@path`), how many
    nested levels below the file loaded it follows (`depth`), what an import may reach without the
    user's approval (`within`: SESSION, GIT_ROOT or FILESYSTEM_ROOT), which files it reads
    (`reads(path)`: a text file, say; None: any) and whether the user approved imports from
    further out for a session folder (`approved(folder)`; None: no such approval)."""

    __slots__ = ("syntax", "depth", "within", "reads", "approved")

    def __init__(
        self,
        syntax: str,
        depth: int,
        within: str,
        reads: Callable[[str], bool] | None = None,
        approved: Callable[[str], bool] | None = None,
    ) -> None:
        self.syntax = syntax
        self.depth = depth
        self.within = within
        self.reads = reads
        self.approved = approved


class Probe(Protocol):
    """What the core tells a session walk of the file system (kinds/instructions.probe)."""

    def exists(self, path: str) -> bool:
        """A file, or a link, stands at `path`."""
        ...

    def loads(self, path: str) -> bool:
        """The agent loads something from the file at `path` when it comes to it (it has text,
        within the agent's cap)."""
        ...

    def text(self, path: str) -> str | None:
        """The file's text as mnemolint reads it (None: no file, or not read): for an agent whose
        walk depends on what a file says (OpenCode's `instructions`)."""
        ...

    def listing(self, folder: str) -> list[tuple[str, bool]]:
        """(name, is a folder) of each entry of `folder`, links not followed: for an agent's globs."""
        ...


class Session:
    """The instruction files an agent loads for a session started in `folder`, from its
    `Instructions`: `start()` at the start, outermost first, and `nested(target)` when it reads
    `target` below the folder. An agent whose order is not these declared fields subclasses it
    and names the subclass in `Instructions.session` (agents/claude_code.ClaudeSession)."""

    def __init__(self, agent: Agent, folder: str, probe: Probe) -> None:
        assert agent.instructions is not None
        self.agent = agent
        self.instructions = agent.instructions
        self.folder = folder
        self.probe = probe

    def chain(self) -> list[str]:
        """The folders whose files load at the start, outermost first (`Instructions.walk`)."""
        walk = self.instructions.walk
        if walk == SESSION:
            return [self.folder]
        above = list(reversed(list(upwards(self.folder))))
        if walk == FILESYSTEM_ROOT:
            return above[1:]  # the file system's root itself is left out
        for at in range(len(above) - 1, -1, -1):  # GIT_ROOT: from the nearest folder holding `.git`
            if os.path.lexists(os.path.join(above[at], ".git")):  # a directory or a file
                return above[at:]
        return [self.folder]

    def files_of(self, place: str, nested: bool = False) -> list[str]:
        """The files the agent loads from folder `place`, in its order: the first of `names`, then
        of `fallback`, standing there when it reads one a folder (`first_only`), else each of
        `names` that loads (`nested`: the folder is entered on a touch)."""
        if self.instructions.first_only:
            paths = [os.path.join(place, *name.split("/")) for name in self.instructions.every_name]
            chosen = next((path for path in paths if self.probe.exists(path)), None)
            return [chosen] if chosen is not None else []
        return [
            path for name in self.instructions.names if self.probe.loads(path := os.path.join(place, *name.split("/")))
        ]

    def global_paths(self) -> list[str]:
        """The user's own files every session loads first (`global_files`, `~` expanded); not part
        of `start()`: the core reads the user's files only when asked to (`user-memory`)."""
        return [os.path.expanduser(name) for name in self.instructions.global_files]

    def start(self) -> list[str]:
        """The project's files loaded at the start, outermost folder first."""
        return [path for place in self.chain() for path in self.files_of(place)]

    def nested(self, target: str) -> list[str]:
        """The files loaded when the agent reads `target`: those of each folder strictly below the
        session folder down to `target`'s own, outermost first; none for a file outside it or for an
        agent that loads nothing below (`Instructions.below`)."""
        folder = os.path.dirname(os.path.abspath(target))
        if self.instructions.below != ON_TOUCH or folder == self.folder or not inside(folder, self.folder):
            return []
        parts = os.path.relpath(folder, self.folder).split(os.sep)
        places = [os.path.join(self.folder, *parts[: count + 1]) for count in range(len(parts))]
        return [path for place in places for path in self.files_of(place, nested=True)]


class Part:
    """What an agent keeps of one instruction file it loads (`Instructions.load`): `size` its
    bytes, `kept` the bytes it reads (all of them unless its cap ran out), `budget` what was left
    of the cap when it came to this file, `split` whether the cut falls inside a UTF-8 character
    (shown as U+FFFD), `empty` whether the kept text is blank (it then takes no budget and joins
    nothing), `blank` whether the whole file is, so that cutting it loses nothing."""

    __slots__ = ("path", "size", "kept", "budget", "split", "empty", "blank")

    def __init__(self, path: str, size: int, kept: int, budget: int, split: bool, empty: bool, blank: bool) -> None:
        self.path = path
        self.size = size
        self.kept = kept
        self.budget = budget
        self.split = split
        self.empty = empty
        self.blank = blank

    @property
    def cut(self) -> bool:
        return self.kept < self.size


class Instructions:
    """Where an agent finds its instruction files and what it keeps of them.

    `names`: per folder, in load order, relative to the folder (`.claude/CLAUDE.md` speaks for the
    folder above `.claude`); `fallback`: names it reads in their place (with `first_only`, the next
    candidates of a folder: Wave's `CLAUDE.md`; else where its session says: Claude Code's
    `AGENTS.md`); `first_only`: one file a folder, the first of `names`
    there; `global_files`: `~/…` files every session loads first; `walk` and `below`: which folders
    (FILESYSTEM_ROOT, GIT_ROOT or SESSION; ON_TOUCH or NOT_BELOW); `max_bytes` and `cut`: its cap
    and how it cuts (SKIPS_WHOLE, CHAIN_BUDGET, NO_CAP); `strips`: what it removes before it
    counts or sends; `imports`; `session`: the walk (`Session`, or a subclass for an order the
    fields cannot say); for `preview --agent`: `load(files, max_bytes)` what it keeps of the files
    a session loads (`[(path, bytes)]` root first → `([Part], text)`), `describe(facts, shown,
    visible)` the text of those facts (mnemolint/preview.py), `max_bytes_option` the option that
    overrides `max_bytes`."""

    __slots__ = (
        "names",
        "fallback",
        "first_only",
        "global_files",
        "walk",
        "below",
        "max_bytes",
        "cut",
        "strips",
        "imports",
        "session",
        "load",
        "describe",
        "max_bytes_option",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        *,
        walk: str,
        below: str = NOT_BELOW,
        fallback: tuple[str, ...] = (),
        first_only: bool = False,
        global_files: tuple[str, ...] = (),
        max_bytes: int | None = None,
        cut: str = NO_CAP,
        strips: tuple[str, ...] = (),
        imports: Imports | None = None,
        session: type[Session] = Session,
        load: Callable[[list[tuple[str, bytes]], int], tuple[list[Part], str]] | None = None,
        describe: Callable[[dict, Callable[[str], str], Callable[[str], str]], str] | None = None,
        max_bytes_option: str | None = None,
    ) -> None:
        self.names = names
        self.fallback = fallback
        self.first_only = first_only
        self.global_files = global_files
        self.walk = walk
        self.below = below
        self.max_bytes = max_bytes
        self.cut = cut
        self.strips = strips
        self.imports = imports
        self.session = session
        self.load = load
        self.describe = describe
        self.max_bytes_option = max_bytes_option

    @property
    def every_name(self) -> tuple[str, ...]:
        return (*self.names, *(name for name in self.fallback if name not in self.names))


class RulesDirs:
    """An agent's rules folders: `folders` relative to a project folder (`.claude/rules`), in its
    load order, also read from the user's home (before the project's) when `user`; `key` the
    frontmatter field that scopes a rule (`paths`); `glob_style` how it matches its globs
    (`minimatch` or `gitignore`, parse/globs.py); `dangling` what a dangling link in one costs
    (STOPS_SCAN or DROPS_FOLDER); `entered`: it reads the rules folders of each folder it enters
    down to a file it reads, not only the session folder's; `replaces`: a rule loaded later with the
    same id (its path in its rules folder) replaces an earlier one."""

    __slots__ = ("folders", "user", "key", "glob_style", "dangling", "entered", "replaces")

    def __init__(
        self,
        folders: tuple[str, ...],
        glob_style: str,
        dangling: str,
        *,
        entered: bool,
        replaces: bool,
        key: str = "paths",
        user: bool = True,
    ) -> None:
        self.folders = folders
        self.dangling = dangling
        self.entered = entered
        self.replaces = replaces
        self.user = user
        self.key = key
        self.glob_style = glob_style


class Cut:
    """What an index loader cut (load.py), for its agent's warning: `lines` and `chars` (UTF-16
    units) of the counted text, which cap it is over, the whole lines kept (`loaded_lines`),
    whether the cut falls inside line 1 (`in_line`), the units kept, the dropped text's lines
    (`dropped`: the first is what is left of the line cut), and the caps."""

    __slots__ = (
        "lines",
        "chars",
        "over_lines",
        "over_chars",
        "loaded_lines",
        "in_line",
        "kept_units",
        "dropped",
        "max_lines",
        "max_chars",
    )

    def __init__(
        self,
        lines: int,
        chars: int,
        over: tuple[bool, bool],
        loaded_lines: int,
        in_line: bool,
        kept_units: int,
        dropped: list[str],
        caps: tuple[int, int],
    ) -> None:
        self.lines = lines
        self.chars = chars
        self.over_lines, self.over_chars = over
        self.loaded_lines = loaded_lines
        self.in_line = in_line
        self.kept_units = kept_units
        self.dropped = dropped
        self.max_lines, self.max_chars = caps

    def reason(self, size: str, limit: str) -> str:
        """Why the index was cut, as both agents word it: over its characters (`size`, `limit` as the
        agent says them), over its lines, or both."""
        if self.over_chars and not self.over_lines:
            return f"{size} (limit: {limit}) \u2014 index entries are too long"
        if self.over_lines and not self.over_chars:
            return f"{self.lines} lines (limit: {self.max_lines})"
        return f"{self.lines} lines and {size}"


class Memory:
    """The memory dir an agent loads: its index file `index` (`MEMORY.md`) cut to `max_lines` and
    `max_chars` (UTF-16 units), with `strips` removed first (load.py); `warning(cut)` is the
    line the agent quotes from what it dropped and the warning text it appends, its own words.
    Its memory scan (the manifest it is seeded with, `manifest`): `scan(text, max_depth)` the
    fields it takes from a topic, `scans_every_md` whether it lists every `.md` file of the dir
    but the index (READMEs too), not only the topics. `counted(text)` the text it counts (None: the
    file as it is), `strips` what that removes, in words; `shows_size(chars)` how its warning says a
    size (Claude Code's `12.3KB`; None: in characters)."""

    __slots__ = (
        "index",
        "max_lines",
        "max_chars",
        "strips",
        "warning",
        "scan",
        "scans_every_md",
        "counted",
        "shows_size",
    )

    def __init__(
        self,
        index: str,
        max_lines: int,
        max_chars: int,
        warning: Callable[[Cut], tuple[str, str]],
        scan: Callable[[str, int], dict],
        *,
        scans_every_md: bool = False,
        counted: Callable[[str], str] | None = None,
        shows_size: Callable[[int], str] | None = None,
        strips: tuple[str, ...] = (),
    ) -> None:
        self.index = index
        self.max_lines = max_lines
        self.max_chars = max_chars
        self.warning = warning
        self.scan = scan
        self.scans_every_md = scans_every_md
        self.counted = counted
        self.shows_size = shows_size
        self.strips = strips


class Agent:
    """One agent's profile.

    `name` is what the `agents` setting, `--agent` and the API take; `title` how messages name it;
    `home` its per-user and per-project folder (`.claude`), which also holds its auto-memory dirs
    (`<home>/projects/<id>/memory`), None for none; `verified` how its facts were checked (None
    for a reader that is no client: the `.ai-memory` skill's conventions), and
    `facts` each fact's name (a constant of its module) → the oracle cases that show it (empty:
    read in its source or docs, `verified.how`); `traces`: project-relative paths whose presence
    shows a project uses it when no `agents` setting says (`.wave/` a folder, `CLAUDE.md` a file);
    `selectable`: an `agents` choice.

    What it reads: `instructions`, `rules` and `memory` (None where it has no such thing); `writes`
    where it writes memory of its own accord, as users are told it (`~/.claude/projects/<project>/memory/`,
    None for nowhere), and `auto_memory(session_folder)` the folder of the memory it keeps for a
    session there and why it is off (None: on), for an agent that keeps one per project; `hook_reply`
    how its post-write hook takes a reminder (STDERR_EXIT: on stderr with exit code 2; CONTEXT: as
    JSON `additionalContext` on stdout; None: it runs no such hook); how it
    reads a file: `frontmatter` (`yaml`, `own lines` for a hand-written reader that differs from
    YAML: parse/wave_frontmatter.py, or `none`) and `fields(text, max_depth)`, the fields and body it
    takes from a file (None: it takes none; `api.read`), `reads_metadata_block` (a field nested
    under `metadata:` counts as that field).

    `loader` names a variant of the same agent reading with another loader (Claude Code's agent
    memory is cut raw): `variant()` makes it, same name and title."""

    __slots__ = (
        "name",
        "title",
        "home",
        "verified",
        "facts",
        "traces",
        "selectable",
        "instructions",
        "rules",
        "memory",
        "writes",
        "auto_memory",
        "hook_reply",
        "frontmatter",
        "fields",
        "reads_metadata_block",
        "loader",
    )

    def __init__(
        self,
        name: str,
        title: str,
        home: str | None,
        *,
        verified: Verified | None,
        facts: Mapping[str, tuple[str, ...]] | None = None,
        traces: tuple[str, ...] = (),
        selectable: bool = True,
        instructions: Instructions | None = None,
        rules: RulesDirs | None = None,
        memory: Memory | None = None,
        writes: str | None = None,
        auto_memory: Callable[[str], tuple[str, str | None]] | None = None,
        hook_reply: str | None = None,
        frontmatter: str = "yaml",
        fields: Callable[[str, int], tuple[dict, str]] | None = None,
        reads_metadata_block: bool = False,
        loader: str = "",
    ) -> None:
        self.name = name
        self.title = title
        self.home = home
        self.verified = verified
        self.facts = dict(facts or {})
        self.traces = traces
        self.selectable = selectable
        self.instructions = instructions
        self.rules = rules
        self.memory = memory
        self.writes = writes
        self.auto_memory = auto_memory
        self.hook_reply = hook_reply
        self.frontmatter = frontmatter
        self.fields = fields
        self.reads_metadata_block = reads_metadata_block
        self.loader = loader

    # What rules ask of a document's reader.
    @property
    def strips_index_markup(self) -> bool:
        """It removes the frontmatter and block-level HTML comments of `MEMORY.md` before it counts
        the load caps (load.py)."""
        return self.memory is not None and self.memory.counted is not None

    @property
    def glob_style(self) -> str:
        """How it matches rule globs (`minimatch` or `gitignore`; "" for a reader of no rule globs)."""
        return self.rules.glob_style if self.rules is not None else ""

    @property
    def follows_imports(self) -> bool:
        """It loads the imports of the instruction files it reads (parse/imports.py)."""
        return self.instructions is not None and self.instructions.imports is not None

    @property
    def own_frontmatter_reader(self) -> bool:
        return self.frontmatter == "own lines"

    def variant(self, loader: str, memory: Memory, writes: str | None) -> Agent:
        """The same agent reading memory with another loader (`loader` says which)."""
        return Agent(
            self.name,
            self.title,
            self.home,
            verified=self.verified,
            facts=self.facts,
            traces=self.traces,
            selectable=False,
            instructions=self.instructions,
            rules=self.rules,
            memory=memory,
            writes=writes,
            auto_memory=self.auto_memory,
            hook_reply=self.hook_reply,
            frontmatter=self.frontmatter,
            fields=self.fields,
            reads_metadata_block=self.reads_metadata_block,
            loader=loader,
        )

    def session(self, folder: str, probe: Probe) -> Session:
        """Its instruction-file walk for a session in `folder` (it must have `instructions`)."""
        assert self.instructions is not None, self.name
        return self.instructions.session(self, folder, probe)

    def used_in(self, project: str) -> bool:
        """Whether one of its traces stands in the folder `project` (a folder trace ends in `/`)."""
        for trace in self.traces:
            path = os.path.join(project, *trace.rstrip("/").split("/"))
            if os.path.isdir(path) if trace.endswith("/") else os.path.isfile(path):
                return True
        return False

    def __repr__(self) -> str:
        return f"<Agent {self.name}{f' ({self.loader})' if self.loader else ''}>"
