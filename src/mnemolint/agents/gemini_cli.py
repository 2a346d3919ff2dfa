"""Gemini CLI as the pinned client really behaves: the one place its facts live.

Each fact is a constant that `FACTS` maps to the oracle cases showing it: Gemini CLI 0.61.0
(`@google/gemini-cli` on npm) run offline on the crafted trees of `tools/oracle/cases_gemini.py`,
what it sent the model recorded in `tests/oracle/gemini-cli/`. An empty tuple marks a fact read
in that version's published code (read 2026-12-02) that no offline request shows.

What a session sends of the user's files is a list of context files, each trimmed and sent whole
(no size cap), after its `@imports` are expanded by the client's own processor (`expand`): the
global ones of `~/.gemini/` in the system instruction, the project's in the first message, and the
ones below the session folder at the end of a tool's result when the tool first touches a path
below them. Pure paths and text in, facts out: the only files opened are the user's and the
session folder's `settings.json`, `~/.gemini/projects.json` and the `.project_root` markers beside
it (at most 8 KiB each); every other text comes through the `read` the core passes in (bounded,
never through a dangerous link).
"""

from __future__ import annotations

import errno as errnos
import os
import re

from mnemolint.agents.base import CLIENT, GIT_ROOT, NO_CAP, ON_TOUCH, Agent, Instructions, Session, Verified
from mnemolint.parse.textutil import js_trim
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

NAME = "gemini-cli"
VERSION = "0.61.0"
PACKAGE = "@google/gemini-cli"

# --- which files --------------------------------------------------------------------------------
# The context file name, and the setting that adds names: `context.fileName`, a string or a list,
# in the session folder's `.gemini/settings.json` (not the git root's: gm22) over the user's
# `~/.gemini/settings.json` (gm23); `GEMINI.md` stays among the names whatever it says (gm20, gm21).
DEFAULT_NAME = "GEMINI.md"
NAMES_SETTING = ("context", "fileName")
HOME_DIR = ".gemini"
SETTINGS_FILE = "settings.json"
# Global files: every name in `~/.gemini/`, in the order of the names (gm20), in the system
# instruction; an `AGENTS.md` there or anywhere is not read unless a name says so (gm01).
GLOBAL_IN_SYSTEM = True
# Project files: each name in each folder from the session folder up to the git root (the nearest
# folder holding `.git`, of any kind), else the session folder alone (gm02, gm03); the walk stops
# at `~/.gemini`; the list is sorted by path, so `A/GEMINI.md` comes before `GEMINI.md` (gm02); a
# file under two names (a link) is sent once, by its first name in that order (gm24).
WALK_CEILING = ".git"
SORTED_BY_PATH = True
# Nothing below the session folder is read at the start (gm01); when a tool first reads a path
# below it, the files of each folder from that path's up to the git root not sent yet are added
# to the tool's result, outermost first (gm30). A project folder must be trusted
# (`GEMINI_CLI_TRUST_WORKSPACE`, the trusted-folders list or folder trust off); an untrusted one
# sends no project file (read in the source; the oracle trusts its folder).
LOADS_BELOW_ON_TOUCH = True
NEEDS_TRUST = True
# `.geminiignore` (with `.gitignore`) keeps paths from the file tools, not from the loader: an
# ignored GEMINI.md and its imports are sent, and a file below an ignored folder is never read, so
# that folder's context files never are either (gm31).
IGNORE_FILE = ".geminiignore"
IGNORE_HIDES_CONTEXT_FILES = False
# Each file is sent trimmed (JavaScript's `trim()`), an empty or blank one not at all (gm05); no
# file is cut or skipped for its size (gm04, 300 KB).
TRIMS = True
MAX_BYTES = None
# The private project memory: `MEMORY.md` in `~/.gemini/tmp/<project>/memory/`, else a context
# file there (gm40, gm41), in the system instruction after the global files. `<project>` is the
# session folder's entry in `~/.gemini/projects.json`, else the folder whose `.project_root`
# names it, else the folder's name made a slug (read in the source).
PRIVATE_MEMORY_INDEX = "MEMORY.md"
# 0.61.0 has no save-memory tool (no request of any case offers one: each fixture says so) and
# writes no `## Gemini Added Memories` section; the model is told to edit the context files or the
# private memory itself (that part read in the source).
SAVE_MEMORY_TOOL = False

# --- imports ------------------------------------------------------------------------------------
# `@path` at the start of the text or after a space, tab, CR or LF, up to the next of them, and
# starting with `.`, `/` or an ASCII letter (`me@example.com` is text, `@notes` an import, a
# trailing `.` part of the path); not inside a run of backticks closed by an equal run (code spans
# and fenced blocks alike) (gm10). Five levels: a file imported at the fifth keeps its own `@…` as
# text (gm10). A file already on the chain of imports above is not read again (a cycle, the file
# itself); one imported twice beside itself is sent twice (gm10, gm12; the context file itself is
# not on its chain). An import must lead (links resolved) inside the project root, the nearest
# folder at or above the context file's holding `.git`, else the context file's folder; an URL
# never does (gm03, gm10, gm11). The processor writes what happened in the text it sends.
IMPORT_DEPTH = 5
IMPORT_BOUNDARY = ".git"
IMPORTED = "imported"
REPEATED = "already processed"
FAILED = "failed"
OUTSIDE = "outside"
UNEXPANDED = "too deep"
UNREAD = "unread"  # mnemolint did not read it (too large, a link to a sensitive place)

FACTS: dict[str, tuple[str, ...]] = {
    "DEFAULT_NAME": ("gm01_global_and_project",),
    "NAMES_SETTING": ("gm20_filename_list", "gm21_filename_user_setting", "gm22_settings_of_session_folder",
                      "gm23_project_setting_wins"),
    "GLOBAL_IN_SYSTEM": ("gm01_global_and_project", "gm20_filename_list"),
    "WALK_CEILING": ("gm02_walk_sorted", "gm03_no_git"),
    "SORTED_BY_PATH": ("gm02_walk_sorted", "gm20_filename_list", "gm24_same_file_twice"),
    "LOADS_BELOW_ON_TOUCH": ("gm01_global_and_project", "gm30_read_loads_nested"),
    "NEEDS_TRUST": (),
    "IGNORE_HIDES_CONTEXT_FILES": ("gm31_geminiignore",),
    "TRIMS": ("gm05_blank_and_trimmed",),
    "MAX_BYTES": ("gm04_big_file",),
    "PRIVATE_MEMORY_INDEX": ("gm40_private_memory", "gm41_private_memory_legacy"),
    "SAVE_MEMORY_TOOL": ("gm01_global_and_project", "gm40_private_memory"),
    "IMPORT_DEPTH": ("gm10_imports",),
    "IMPORT_BOUNDARY": ("gm03_no_git", "gm10_imports", "gm11_global_imports"),
}  # fmt: skip

# Bounds of mnemolint's own expansion (the client has none): an import tree may repeat a file
# beside itself, so its text can grow as a power of the file count.
MAX_EXPANDED_CHARS = 16 * 1024 * 1024
MAX_IMPORTS = 5_000

_NODE_ERRORS = {
    errnos.ENOENT: "no such file or directory",
    errnos.ENOTDIR: "not a directory",
    errnos.EACCES: "permission denied",
    errnos.ELOOP: "too many symbolic links encountered",
    errnos.ENAMETOOLONG: "name too long",
}
URL = Lazy(r"(?:file|https?)://")


class Import:
    """One `@path` of a file and what the processor made of it."""

    __slots__ = ("written", "file", "line", "column", "depth", "target", "outcome", "reason", "chain")

    def __init__(self, written: str, file: str, at: tuple[int, int], depth: int, target: str, outcome: str, **more):
        self.written, self.file, (self.line, self.column), self.depth = written, file, at, depth
        self.target, self.outcome = target, outcome
        self.reason: str = more.get("reason", "")
        self.chain: tuple[str, ...] = more.get("chain", ())  # the files from the context file down to `file`

    def __repr__(self) -> str:
        return f"<Import @{self.written} {self.outcome} ({self.file}:{self.line})>"


class Expanded:
    """A context file after the import processor: the text it sends and every import met."""

    __slots__ = ("text", "imports", "complete")

    def __init__(self, text: str, imports: list[Import], complete: bool) -> None:
        self.text, self.imports, self.complete = text, imports, complete

    @property
    def sent(self) -> str | None:
        """The file's text in the request (trimmed), or None: an empty file is not sent."""
        return js_trim(self.text) or None


# --- names and settings -------------------------------------------------------------------------


def _strip_comments(text: str) -> str:
    """JSON with `//` and `/* */` comments (the settings files allow them) made plain JSON."""
    out, at, size = [], 0, len(text)
    while at < size:
        char = text[at]
        if char == '"':
            end = at + 1
            while end < size and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[at : end + 1])
            at = end + 1
        elif text.startswith("//", at):
            at = text.find("\n", at)
            at = size if at < 0 else at
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            at = size if end < 0 else end + 2
        else:
            out.append(char)
            at += 1
    return "".join(out)


def read_settings(path: str, limit: int = 1 << 20) -> dict | None:
    """A settings file's object; {} when there is none (or it is a link to a sensitive place,
    never read), None when it is not a JSON object (the client then reports it and uses none of it)."""
    from mnemolint.paths import dangerous_link

    if dangerous_link(path):
        return {}
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError:
        return {}
    if len(raw) > limit:
        return None
    import json  # only where a settings file stands: not on every run

    try:
        value = json.loads(_strip_comments(raw.decode("utf-8", "replace")))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def home() -> str:
    return os.path.expanduser("~")


def settings_paths(session_dir: str) -> tuple[str, str]:
    """The user's settings file and the session folder's (the workspace's)."""
    return (
        os.path.join(home(), HOME_DIR, SETTINGS_FILE),
        os.path.join(os.path.abspath(session_dir), HOME_DIR, SETTINGS_FILE),
    )


def configured_names(settings: dict | None) -> list[str] | None:
    """What `context.fileName` of one settings object says (None: it says nothing)."""
    value = (settings or {}).get(NAMES_SETTING[0])
    value = value.get(NAMES_SETTING[1]) if isinstance(value, dict) else None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def names_setting(session_dir: str) -> tuple[str, list[str]] | None:
    """The settings file whose `context.fileName` counts for a session, and what it says."""
    user, workspace = settings_paths(session_dir)
    if os.path.abspath(session_dir) != home():
        said = configured_names(read_settings(workspace))
        if said is not None:
            return workspace, said
    said = configured_names(read_settings(user))
    return (user, said) if said is not None else None


def context_names(session_dir: str) -> list[str]:
    """The file names a session loads in each folder, in order: the configured ones (trimmed,
    normalized, empty ones dropped), then `GEMINI.md` unless among them."""
    setting = names_setting(session_dir)
    names: list[str] = []
    for name in setting[1] if setting else []:
        name = name.strip()
        if name and "\0" not in name and os.path.normpath(name) not in names:
            names.append(os.path.normpath(name))
    return names + ([DEFAULT_NAME] if DEFAULT_NAME not in names else [])


# --- where -------------------------------------------------------------------------------------


def git_root(folder: str) -> str | None:
    """The nearest folder at or above `folder` holding `.git` (a folder, a file or a live link)."""
    from mnemolint.paths import upwards

    return next((up for up in upwards(os.path.abspath(folder)) if os.path.exists(os.path.join(up, WALK_CEILING))), None)


def _readable(path: str) -> bool:
    return os.access(path, os.R_OK) and not os.path.isdir(path)


def _identity(path: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def once(paths: list[str], seen: set[tuple[int, int]] | None = None) -> list[str]:
    """`paths` less those naming a file met before (by device and inode: a link, a second name)."""
    seen = set() if seen is None else seen
    kept = []
    for path in dict.fromkeys(paths):
        identity = _identity(path)
        if identity is None or identity not in seen:
            kept.append(path)
            if identity is not None:
                seen.add(identity)
    return kept


def _utf16_key(path: str) -> bytes:
    """JavaScript's default sort order (UTF-16 code units) for `Array.prototype.sort()`."""
    return path.encode("utf-16-be", "surrogatepass")


def global_files(names: list[str]) -> list[str]:
    """The global context files: each name in `~/.gemini/` that can be read, in name order."""
    folder = os.path.join(home(), HOME_DIR)
    return [path for path in (os.path.join(folder, name) for name in names) if _readable(path)]


def _upward(start: str, ceiling: str, names: list[str]) -> list[str]:
    """The context files from `ceiling` down to `start` (outermost first), each folder's names in
    order; the walk never goes past `~/.gemini`."""
    stop, current = os.path.join(home(), HOME_DIR), os.path.abspath(start)
    found: list[str] = []
    while current != stop:
        found[:0] = [path for path in (os.path.join(current, name) for name in names) if _readable(path)]
        parent = os.path.dirname(current)
        if current == ceiling or parent == current:
            break
        current = parent
    return found


def project_files(session_dir: str, names: list[str]) -> list[str]:
    """The project's context files a session in `session_dir` sends at the start, in its order."""
    session_dir = os.path.abspath(session_dir)
    ceiling = git_root(session_dir) or session_dir
    return sorted(once(_upward(session_dir, ceiling, names)), key=_utf16_key)


def touched_files(target: str, session_dir: str, names: list[str], loaded: list[str]) -> list[str]:
    """The context files a tool's first touch of `target` (a path below the session folder) adds,
    outermost first, less those `loaded` already (by file identity)."""
    session_dir, target = os.path.abspath(session_dir), os.path.abspath(target)
    from mnemolint.paths import inside

    if not inside(target, session_dir):
        return []
    ceiling = git_root(session_dir) or session_dir
    start = target if os.path.isdir(target) else os.path.dirname(target)
    seen = {identity for identity in map(_identity, loaded) if identity is not None}
    return once(_upward(start, ceiling, names), seen)


def _slug(name: str) -> str:
    return re.sub(r"^-|-$", "", re.sub(r"-+", "-", re.sub(r"[^a-z0-9]", "-", name.lower()))) or "project"


def private_memory_dir(session_dir: str) -> str:
    """`~/.gemini/tmp/<project>/memory`, the private project memory of a session in `session_dir`
    (it may not exist): the project's id as the client finds it, without registering one."""
    folder = os.path.abspath(session_dir)
    base = os.path.join(home(), HOME_DIR)
    bases = (os.path.join(base, "tmp"), os.path.join(base, "history"))

    def owner(slug: str, where: str) -> str | None:
        try:
            with open(os.path.join(where, slug, ".project_root"), encoding="utf-8", errors="replace") as handle:
                return os.path.abspath(handle.read(8192).strip())
        except OSError:
            return None

    registry = read_settings(os.path.join(base, "projects.json")) or {}
    listed = registry.get("projects")
    projects: dict = listed if isinstance(listed, dict) else {}
    slug = projects.get(folder)
    if not (isinstance(slug, str) and all(owner(slug, where) in (None, folder) for where in bases)):
        slug = next(
            (
                entry
                for where in bases
                if os.path.isdir(where)
                for entry in sorted(os.listdir(where))[:10_000]
                if owner(entry, where) == folder
            ),
            None,
        )
    if slug is None:  # the id the client would claim: the folder's name as a slug, numbered past taken ones
        taken = {value for value in projects.values() if isinstance(value, str)}
        stem = _slug(os.path.basename(folder) or "project")
        slug = next(
            (
                candidate
                for candidate in (stem if n == 0 else f"{stem}-{n}" for n in range(10_000))
                if candidate not in taken and all(owner(candidate, where) in (None, folder) for where in bases)
            ),
            stem,
        )
    return os.path.join(base, "tmp", slug, "memory")


def private_memory_file(session_dir: str, names: list[str]) -> str | None:
    """The private project memory file a session loads: `MEMORY.md` there, else the first
    context file name standing there; None when neither does."""
    folder = private_memory_dir(session_dir)
    for name in (PRIVATE_MEMORY_INDEX, *names):
        if _readable(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


# --- the import processor -----------------------------------------------------------------------


def find_imports(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, path) of each `@path` the client takes for an import, in order."""
    at, size = 0, len(text)
    while at < size:
        at = text.find("@", at)
        if at < 0:
            return
        if at > 0 and text[at - 1] not in " \t\n\r":
            at += 1
            continue
        end = at + 1
        while end < size and text[end] not in " \t\n\r":
            end += 1
        path = text[at + 1 : end]
        if path and (path[0] in "./" or ("A" <= path[0] <= "Z") or ("a" <= path[0] <= "z")):
            yield at, end, path
        at = end + 1


def code_regions(text: str) -> list[tuple[int, int]]:
    """The spans of `/(`+)([\\s\\S]*?)\\1/g` in `text`, where the client sees code: a run of
    backticks up to the first as many backticks after it (a longer run may close a shorter one with
    its first backticks, a run may close itself: four backticks are two and two). Computed over the
    runs of backticks in linear time, not by backtracking."""
    starts, lengths = [], []
    for match in re.finditer(r"`+", text):
        starts.append(match.start())
        lengths.append(match.end() - match.start())
    count = len(starts)
    longest_after = [0] * (count + 1)
    for index in range(count - 1, -1, -1):
        longest_after[index] = max(lengths[index], longest_after[index + 1])
    regions: list[tuple[int, int]] = []
    index, used = 0, 0  # the run the next match may start in, and how much of it a match took
    while index < count:
        length = lengths[index] - used
        start = starts[index] + used
        closing = min(length, longest_after[index + 1])  # the longest opener a later run closes
        if closing > length // 2:
            index += 1
            while lengths[index] < closing:
                index += 1
            regions.append((start, starts[index] + closing))
            used = closing
        elif length > 1:  # this run closes itself first
            regions.append((start, start + 2 * (length // 2)))
            used += 2 * (length // 2)
        else:  # one backtick and none after it
            used = lengths[index]
        if used == lengths[index]:
            index, used = index + 1, 0
    return regions


def _decoded(path: str) -> str:
    """`decodeURIComponent` as the client applies it before resolving links (a malformed escape
    leaves the path as it is)."""
    if "%" not in path or not re.fullmatch(r"(?:[^%]|%[0-9A-Fa-f]{2})*", path):
        return path
    from urllib.parse import unquote

    try:
        return unquote(path, errors="strict")
    except UnicodeDecodeError:
        return path


def _error(code: int, call: str, path: str) -> str:
    """Node's message for a failed file-system call."""
    name = errnos.errorcode.get(code, "EIO")
    return f"{name}: {_NODE_ERRORS.get(code, os.strerror(code).lower())}, {call} '{path}'"


def _judge(written: str, target: str, chain: frozenset[str], root: str) -> tuple[str, str]:
    """What the processor does with an import of `target` (written `written`) on `chain`, in the
    project `root`: IMPORTED (when it can be read), OUTSIDE, REPEATED or FAILED, and why."""
    from mnemolint.paths import inside

    if URL.match(written) or not inside(os.path.realpath(_decoded(target)), root):
        return OUTSIDE, "Path traversal attempt"
    if target in chain:
        return REPEATED, ""
    try:
        os.stat(target)
    except OSError as error:
        return FAILED, _error(error.errno or errnos.EIO, "access", target)
    if os.path.isdir(target):
        return FAILED, "EISDIR: illegal operation on a directory, read"
    return IMPORTED, ""


def expand(path: str, text: str, read: Callable[[str], str | None], depth_limit: int = IMPORT_DEPTH) -> Expanded:
    """What the client makes of context file `path` holding `text`: its imports expanded as its
    processor expands them (the comments it writes included), and each import met. `read(path)`
    gives another file's text, None when mnemolint does not read it."""
    from bisect import bisect_right

    folder = os.path.dirname(os.path.abspath(path))
    root = os.path.realpath(git_root(folder) or folder)
    met: list[Import] = []
    budget = {"chars": MAX_EXPANDED_CHARS, "imports": MAX_IMPORTS}
    complete = True
    texts: dict[str, str | None] = {}
    judged: dict[str, tuple[str, str]] = {}

    def run(source: str, here: str, base: str, chain: frozenset[str], path_of: tuple[str, ...], depth: int) -> str:
        nonlocal complete
        found = list(find_imports(source))
        if not found:
            return source
        regions = code_regions(source)
        opens = [region[0] for region in regions]
        starts = [m.end() for m in re.finditer("\n", source)]

        def in_code(at: int) -> bool:
            index = bisect_right(opens, at) - 1
            return index >= 0 and at < regions[index][1]

        def where(at: int) -> tuple[int, int]:
            line = bisect_right(starts, at)
            return line + 1, at - (starts[line - 1] if line else 0) + 1

        if depth >= depth_limit:
            for start, _end, written in found:
                if not in_code(start):
                    target = os.path.normpath(os.path.join(base, written))
                    met.append(Import(written, here, where(start), depth + 1, target, UNEXPANDED, chain=path_of))
            return source
        out: list[str] = []
        last = 0
        for start, end, written in found:
            out.append(source[last:start])
            last = end
            if in_code(start):
                out.append("@" + written)
                continue
            if budget["imports"] <= 0 or budget["chars"] <= 0:
                complete = False
                out.append("@" + written)
                continue
            budget["imports"] -= 1
            target = os.path.normpath(os.path.join(base, written))
            outcome, reason = judged[target] if target in judged else _judge(written, target, chain, root)
            if outcome in (FAILED, OUTSIDE):  # the file system's answer: the same wherever it is imported
                judged[target] = outcome, reason
            if outcome == IMPORTED and target not in texts:
                texts[target] = read(target)
            if outcome == IMPORTED and texts[target] is None:
                outcome = UNREAD
            met.append(Import(written, here, where(start), depth + 1, target, outcome, reason=reason, chain=path_of))
            if outcome == IMPORTED:
                inner = run(
                    texts[target] or "",
                    target,
                    os.path.dirname(target),
                    chain | {target},
                    (*path_of, target),
                    depth + 1,
                )
                budget["chars"] -= len(inner)
                out.append(f"<!-- Imported from: {written} -->\n{inner}\n<!-- End of import from: {written} -->")
            elif outcome == UNREAD:
                complete = False
                out.append("@" + written)
            elif outcome == REPEATED:
                out.append(f"<!-- File already processed: {written} -->")
            else:
                out.append(f"<!-- Import failed: {written} - {reason} -->")
        out.append(source[last:])
        return "".join(out)

    top = os.path.abspath(path)
    expanded = run(text, top, os.path.dirname(top), frozenset(), (top,), 0)
    return Expanded(expanded, met, complete and budget["chars"] > 0)


class GeminiWalk(Session):
    """The seam's walk for Gemini CLI (agents/base.Session): the names come from the settings and
    the start is sorted by path, so the declared fields cannot say it. The core's own session
    (kinds/gemini.GeminiSession) adds the global files, the private memory and the ignore files."""

    def start(self) -> list[str]:
        names = context_names(self.folder)
        return [path for path in project_files(self.folder, names) if self.probe.loads(path)]

    def nested(self, target: str) -> list[str]:
        names = context_names(self.folder)
        return [path for path in touched_files(target, self.folder, names, self.start()) if self.probe.loads(path)]


AGENT = Agent(
    NAME,
    "Gemini CLI",
    HOME_DIR,
    verified=Verified(CLIENT, VERSION, f"{PACKAGE} (npm)", "2026-12-02"),
    facts=FACTS,
    traces=(f"{HOME_DIR}/", DEFAULT_NAME, IGNORE_FILE),
    instructions=Instructions(
        (DEFAULT_NAME,),
        walk=GIT_ROOT,
        below=ON_TOUCH,
        global_files=(f"~/{HOME_DIR}/{DEFAULT_NAME}",),
        cut=NO_CAP,
        strips=("surrounding whitespace",),
        # `imports` stays None: the core follows an `Imports` with Claude Code's processor
        # (parse/imports.py); Gemini CLI's own is `expand` above, which kinds/gemini.py applies.
        session=GeminiWalk,
    ),
    writes=f"~/{HOME_DIR}/tmp/<project>/memory/{PRIVATE_MEMORY_INDEX}",
    frontmatter="none",  # a context file is sent as it is, trimmed
)
