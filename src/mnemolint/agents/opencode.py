"""OpenCode (`opencode-ai` on npm) as the pinned client really behaves: the one place its facts live.

Each fact names the oracle cases that show it (`tools/oracle/cases_opencode.py`: the real client
run offline with `opencode run` on a crafted tree, its model requests captured; `tests/oracle/opencode/`),
or, where no case can show it offline, says it was read in the client's source of that version.
Pure text and names in, facts out: the files are found through the probe the core gives
(`kinds/opencode.py`), which reads through `Document` only.

What a session started in a folder loads, in this order, each file sent whole as
`Instructions from: PATH` and its text, an empty one not at all:
1. the global file: OpenCode's config folder's `AGENTS.md`, else `~/.claude/CLAUDE.md` — the first
   that exists, even empty;
2. the project files: `AGENTS.md`, else `CLAUDE.md`, else `CONTEXT.md` — the first name standing
   anywhere from the session folder up to the git root (the file system's root outside git),
   and then every file of that name on the way, nearest first;
3. the files the `instructions` of the config files name, in the merged order of the configs;
   a relative entry is a glob tried in the session folder and in each folder up to the git root.
When the model reads a file below the session folder, the first of those names in each folder
between the file and the session folder is attached to what the read returns, nearest first,
unless it loaded already.
"""

from __future__ import annotations

import os
import re

from mnemolint.agents.base import CLIENT, GIT_ROOT, NO_CAP, ON_TOUCH, Agent, Instructions, Session, Verified
from mnemolint.paths import upwards
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from mnemolint.agents.base import Probe

VERSION = "1.18.33"
PACKAGE = "opencode-ai"
SOURCE_READ = "2026-12-02"  # the day its instruction and config code was read in that release

# ------------------------------------------------------------------ instruction files
PROJECT_NAMES = ("AGENTS.md", "CLAUDE.md", "CONTEXT.md")  # the first name found on the way wins
CLAUDE_NAME = "CLAUDE.md"  # dropped, with ~/.claude/CLAUDE.md, when one of these is true:
DISABLE_CLAUDE_ENV = ("OPENCODE_DISABLE_CLAUDE_CODE", "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT")
GLOBAL_NAME = "AGENTS.md"  # in the config folder, before `~/.claude/CLAUDE.md`
CLAUDE_GLOBAL = (".claude", "CLAUDE.md")  # under the home folder
WINNER_STANDS_EMPTY = True  # an empty file of the winning name still wins: nothing loads (oc01e, oc03d)
EMPTY_NOT_SENT = True  # a file without a character is not sent; one of blanks is, as it is (oc01f)
WALKS_TO_GIT_ROOT = True  # else the file system's root (oc02a, oc02c)
ALL_ON_THE_WAY = True  # every file of the winning name from the session folder up, nearest first
NESTED_ON_READ = True  # a read below the session folder attaches its folders' files (oc05a, oc05b)
NESTED_FIRST_NAME = True  # per folder, the first of PROJECT_NAMES standing there (oc05a)
SENT_WHOLE = True  # no size cap, nothing stripped (oc06_big_agents)

# ------------------------------------------------------------------ config files
CONFIG_NAMES = ("opencode.json", "opencode.jsonc")  # per folder, merged in this order
CONFIG_FOLDER = ".opencode"  # its CONFIG_NAMES too, nearest folder first, after the project's
GLOBAL_CONFIG_NAMES = ("config.json", "opencode.json", "opencode.jsonc")  # in the config folder
INSTRUCTIONS_KEY = "instructions"  # merged over every config: outermost first, each entry once
DISABLE_PROJECT_CONFIG_ENV = "OPENCODE_DISABLE_PROJECT_CONFIG"  # no project files, configs or relative entries
URL_PREFIXES = ("https://", "http://")  # an entry fetched at every start (5 s), sent after the files
GLOB_DOT = True  # a glob's `*` matches dot files; `**` does not follow linked folders; files only
ABSOLUTE_GLOBS_LAST_PART = True  # `/x/*.md` globs only its last part, in its own folder

# Each fact and the oracle cases that show it; () for one read in the source bundled in the
# opencode-ai 1.18.33 package (SOURCE_READ), which no case shows (a URL fetch, how its glob treats
# dot files and links).
VERIFIED: dict[str, tuple[str, ...]] = {
    "PROJECT_NAMES": ("oc01a_agents_and_claude", "oc01b_claude_only", "oc01d_context_only"),
    "DISABLE_CLAUDE_ENV": ("oc01c_claude_disabled", "oc03c_global_claude_disabled"),
    "GLOBAL_NAME": ("oc03a_global_agents_and_claude", "oc03b_global_claude_only"),
    "WINNER_STANDS_EMPTY": ("oc01e_empty_agents", "oc03d_global_agents_empty"),
    "EMPTY_NOT_SENT": ("oc01e_empty_agents", "oc01f_blank_agents", "oc04a_instructions"),
    "WALKS_TO_GIT_ROOT": ("oc02a_parents", "oc02c_nogit"),
    "ALL_ON_THE_WAY": ("oc02a_parents", "oc02b_parent_agents_shadows_claude", "oc02d_claude_chain"),
    "NESTED_ON_READ": ("oc05a_nested_read", "oc05b_nested_twice"),
    "NESTED_FIRST_NAME": ("oc05a_nested_read",),
    "SENT_WHOLE": ("oc06_big_agents",),
    "CONFIG_NAMES": ("oc04c_instructions_merged",),
    "CONFIG_FOLDER": ("oc04c_instructions_merged",),
    "GLOBAL_CONFIG_NAMES": ("oc04c_instructions_merged",),
    "INSTRUCTIONS_KEY": ("oc04a_instructions", "oc04b_instructions_lookup", "oc04c_instructions_merged"),
    "DISABLE_PROJECT_CONFIG_ENV": ("oc04e_project_config_disabled",),
    "URL_PREFIXES": (),
    "GLOB_DOT": (),
    "ABSOLUTE_GLOBS_LAST_PART": ("oc04a_instructions",),
}


def claude_off(env: Mapping[str, str]) -> str | None:
    """The variable of the environment that turns OpenCode's Claude Code files off (a true
    boolean flag), or None."""
    return next((name for name in DISABLE_CLAUDE_ENV if _true(env.get(name))), None)


def project_config_off(env: Mapping[str, str]) -> bool:
    return _true(env.get(DISABLE_PROJECT_CONFIG_ENV))


def _true(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true")


def project_names(no_claude: bool) -> tuple[str, ...]:
    return tuple(name for name in PROJECT_NAMES if not (no_claude and name == CLAUDE_NAME))


def config_folder(home: str, env: Mapping[str, str]) -> str:
    """OpenCode's config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`."""
    base = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return os.path.join(base, "opencode")


def global_files(home: str, env: Mapping[str, str]) -> list[str]:
    """The global candidates in OpenCode's order; the first that exists is the one."""
    files = [os.path.join(config_folder(home, env), GLOBAL_NAME)]
    if not claude_off(env):
        files.append(os.path.join(home, *CLAUDE_GLOBAL))
    return files


def is_url(entry: str) -> bool:
    return entry.startswith(URL_PREFIXES)


def substituted(entry: str) -> bool:
    """Whether OpenCode rewrites the entry before it reads it (`{env:NAME}`, `{file:path}`): what it
    names then is not in the repository."""
    return "{env:" in entry or "{file:" in entry


# ------------------------------------------------------------------ reading a config file
class Config:
    """What OpenCode takes from one `opencode.json(c)`: its `instructions` entries with the offset
    of each in the text, or why the file cannot be read (`error`)."""

    __slots__ = ("instructions", "error")

    def __init__(self, instructions: list[tuple[str, int]], error: str | None = None) -> None:
        self.instructions = instructions
        self.error = error


# A string (an unterminated one runs to the line's end), a comment (an unclosed one to the text's
# end), a bracket or a separator; anything else is skipped by the engine. No alternative can fail
# once it has started to match, so nothing is scanned twice: a megabyte of hostile text is one pass.
_TOKEN = Lazy(r'"(?:[^"\\\n]|\\.)*(?:"|\\?$)|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/|\Z)|[{}\[\],]', re.M)
MAX_DEPTH = 256  # deeper nesting is no config anyone writes; such a file is reported, not read


def read_config(text: str) -> Config:
    """The `instructions` of a config file as OpenCode's JSONC reader takes them: comments and
    trailing commas allowed, the last of a repeated key wins. One pass over the tokens blanks the
    comments and trailing commas (offsets kept) and notes where each entry of the top-level
    `instructions` list starts; the standard JSON reader does the rest."""
    import json

    if INSTRUCTIONS_KEY not in text:
        return Config([])  # what else the file says is not read here
    cleaned = list(text)
    offsets: list[int] = []
    stack: list[list] = []  # per open bracket: the bracket, the object's last key, whether a key comes next
    comma = -1
    for match in _TOKEN.finditer(text):
        token, start = match.group(), match.start()
        if token.startswith(("//", "/*")):
            cleaned[start : match.end()] = " " * len(token)
            continue
        if token in ("}", "]") and comma >= 0:
            cleaned[comma] = " "
        comma = start if token == "," else -1
        if token in ("{", "["):
            if len(stack) >= MAX_DEPTH:
                return Config([], f"nested more than {MAX_DEPTH} levels deep")
            stack.append([token, None, token == "{"])
            if len(stack) == 2 and token == "[" and stack[0][1] == INSTRUCTIONS_KEY:
                offsets = []
        elif token in ("}", "]"):
            if stack:
                stack.pop()
        elif token == "," and stack and stack[-1][0] == "{":
            stack[-1][2] = True
        elif token.startswith('"') and stack:
            if stack[-1][0] == "{" and stack[-1][2]:
                stack[-1][1:] = [_string(token), False]
            elif len(stack) == 2 and stack[1][0] == "[" and stack[0][1] == INSTRUCTIONS_KEY:
                offsets.append(start)
    try:
        value = json.loads("".join(cleaned))
    except (ValueError, RecursionError):
        return Config([], "not JSON (with comments): OpenCode cannot read it")
    entries = value.get(INSTRUCTIONS_KEY, []) if isinstance(value, dict) else []
    if not isinstance(entries, list) or not all(isinstance(entry, str) for entry in entries):
        return Config([], f"`{INSTRUCTIONS_KEY}` is not a list of strings")
    if len(offsets) != len(entries):
        offsets = [0] * len(entries)
    return Config(list(zip(entries, offsets, strict=True)))


def _string(token: str) -> str | None:
    import json

    try:
        return json.loads(token)
    except ValueError:
        return None


# ------------------------------------------------------------------ the session
GLOB_MAX_ENTRIES = 20_000  # folder entries one `instructions` glob may list here (OpenCode has no cap)
_MAGIC = Lazy(r"[*?\[\]{}()!+@]")


class OpenCodeSession(Session):
    """What OpenCode loads for a session started in `folder` (see the module's docstring), over
    the core's probe (kinds/opencode.py: `exists`, `loads`, and `text` and `listing` to read the
    config files and list folders for the globs, never through a dangerous link)."""

    def __init__(self, agent: Agent, folder: str, probe: Probe, env: Mapping[str, str] | None = None) -> None:
        super().__init__(agent, folder, probe)
        self.env = os.environ if env is None else env
        self.home = os.path.expanduser("~")
        self.no_claude = claude_off(self.env)
        self.no_project = project_config_off(self.env)
        self.worktree = next((place for place in upwards(folder) if os.path.lexists(os.path.join(place, ".git"))), "/")
        self.partial: list[str] = []  # the entries whose glob listed more than GLOB_MAX_ENTRIES

    def up(self) -> list[str]:
        """The folders from the session folder up to the git root (the file system's root outside
        git), nearest first: where project files and relative entries are looked for."""
        folders = []
        for place in upwards(self.folder):
            folders.append(place)
            if place == self.worktree:
                break
        return folders

    def chain(self) -> list[str]:
        return list(reversed(self.up()))

    def sends(self, path: str) -> bool:
        """Whether OpenCode sends the file at `path`: it has a character (blanks count)."""
        text = self.probe.text(path)
        return self.probe.loads(path) if text is None else text != ""

    # -- the three sources, in OpenCode's order
    def global_file(self) -> str | None:
        """The global file that wins (even an empty one: then no global file loads)."""
        return next((path for path in global_files(self.home, self.env) if self.probe.exists(path)), None)

    def global_paths(self) -> list[str]:
        found = self.global_file()
        return [found] if found and self.sends(found) else []

    def project_files(self) -> tuple[str | None, list[str]]:
        """The winning name and every file of it on the way, nearest first (sent or not)."""
        if self.no_project:
            return None, []
        for name in project_names(bool(self.no_claude)):
            found = [path for place in self.up() if self.probe.exists(path := os.path.join(place, name))]
            if found:
                return name, found
        return None, []

    def configs(self) -> list[str]:
        """The config files whose `instructions` this session merges, in OpenCode's order: the
        global ones, the project's from the git root down, then each `.opencode/` folder's, nearest
        first, and `~/.opencode/`'s."""
        config = config_folder(self.home, self.env)
        found = [os.path.join(config, name) for name in GLOBAL_CONFIG_NAMES]
        folders = [] if self.no_project else self.up()
        found += [os.path.join(place, name) for place in reversed(folders) for name in CONFIG_NAMES]
        dot = [os.path.join(place, CONFIG_FOLDER) for place in folders] + [os.path.join(self.home, CONFIG_FOLDER)]
        found += [os.path.join(place, name) for place in dict.fromkeys(dot) for name in CONFIG_NAMES]
        return [path for path in dict.fromkeys(found) if self.probe.exists(path)]

    def entries(self) -> list[tuple[str, str]]:
        """(entry, config file) of each `instructions` entry, merged: each entry once, where it
        first comes."""
        merged: dict[str, str] = {}
        for path in self.configs():
            for entry, _ in read_config(self.probe.text(path) or "").instructions:
                merged.setdefault(entry, path)
        return list(merged.items())

    def entry_files(self, entry: str) -> list[str]:
        """The files one `instructions` entry brings, in a stable order (nothing for a URL)."""
        if is_url(entry) or substituted(entry):
            return []
        if entry.startswith("~/"):
            entry = os.path.join(self.home, entry[2:])
        if os.path.isabs(entry):
            return self.glob(os.path.basename(entry), os.path.dirname(entry))
        if self.no_project:
            return []
        return [path for place in self.up() for path in self.glob(entry, place)]

    def glob(self, pattern: str, base: str) -> list[str]:
        """The files `pattern` matches from `base` as OpenCode's glob does (minimatch, dot files
        too, files only; linked folders not entered here), sorted."""
        if not _MAGIC.search(pattern):
            path = os.path.normpath(os.path.join(base, pattern))
            return [path] if self.probe.exists(path) else []
        from mnemolint.parse.globs import compile_wave

        compiled = compile_wave(pattern, 1000)
        if compiled.problem is not None or compiled.regex is None:
            return []
        parts = pattern.split("/")
        static = next((at for at, part in enumerate(parts) if _MAGIC.search(part)), len(parts))
        start = os.path.join(base, *parts[:static])
        depth = None if "**" in pattern else len(parts) - static
        found, budget = [], [GLOB_MAX_ENTRIES]
        for path in self._walk(start, depth, budget):
            if compiled.matches(os.path.relpath(path, base).replace(os.sep, "/")):
                found.append(path)
        if budget[0] <= 0:
            self.partial.append(pattern)
        return sorted(found)

    def _walk(self, folder: str, depth: int | None, budget: list[int]) -> Iterator[str]:
        """The files under `folder`, `depth` levels down at most (None: any), a linked folder not
        entered, at most `budget` entries listed in all."""
        pending = [(folder, 1)]
        while pending and budget[0] > 0:
            place, level = pending.pop()
            for name, is_folder in self.probe.listing(place):
                budget[0] -= 1
                path = os.path.join(place, name)
                if is_folder:
                    if depth is None or level < depth:
                        pending.append((path, level + 1))
                else:
                    yield path

    def start_files(self) -> list[tuple[str, str, str | None]]:
        """(path, origin, entry) of each file the session takes at the start, in OpenCode's order,
        each once, sent or not: `global`, `project`, or `instructions` with the entry naming it."""
        seen: dict[str, tuple[str, str, str | None]] = {}
        first = self.global_file()
        if first:
            seen[first] = (first, "global", None)
        for path in self.project_files()[1]:
            seen.setdefault(path, (path, "project", None))
        for entry, _ in self.entries():
            for path in self.entry_files(entry):
                seen.setdefault(path, (path, "instructions", entry))
        return list(seen.values())

    def start(self) -> list[str]:
        """The files sent at the start but the global one (`global_paths`), in OpenCode's order;
        the URL entries (`urls`) are fetched and sent after them."""
        return [path for path, origin, _ in self.start_files() if origin != "global" and self.sends(path)]

    def urls(self) -> list[str]:
        return [entry for entry, _ in self.entries() if is_url(entry)]

    def folder_file(self, place: str) -> str | None:
        """The file OpenCode attaches for folder `place` on a read below it: the first of the names
        standing there (sent only when it has a character)."""
        return next(
            (
                path
                for name in project_names(bool(self.no_claude))
                if self.probe.exists(path := os.path.join(place, name))
            ),
            None,
        )

    def nested(self, target: str) -> list[str]:
        """The files attached when the model reads `target`: per folder between it and the session
        folder, nearest first, the folder's file, unless it is `target` or loaded at the start."""
        target = os.path.abspath(target)
        loaded = {path for path, _, _ in self.start_files()}
        found = []
        place = os.path.dirname(target)
        while place != self.folder and place.startswith(self.folder + os.sep):
            path = self.folder_file(place)
            if path and path != target and path not in loaded and self.sends(path):
                found.append(path)
            place = os.path.dirname(place)
        return found


AGENT = Agent(
    "opencode",
    "OpenCode",
    CONFIG_FOLDER,
    verified=Verified(CLIENT, VERSION, f"{PACKAGE} (npm)", SOURCE_READ),
    facts=VERIFIED,
    traces=("opencode.json", "opencode.jsonc", f"{CONFIG_FOLDER}/"),
    instructions=Instructions(
        PROJECT_NAMES[:2],
        walk=GIT_ROOT,
        below=ON_TOUCH,
        first_only=True,
        global_files=("~/.config/opencode/AGENTS.md", "~/.claude/CLAUDE.md"),
        cut=NO_CAP,
        session=OpenCodeSession,
    ),
    frontmatter="none",  # an instruction file is sent as it is
)
