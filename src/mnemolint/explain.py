"""What an agent injects when it reads one file: `mnemolint explain-rules` (path rules and nested
memory). The same kinds, readings and matchers as the WAV rules, asked the other way round: not
"does this glob match anything" but "what does this file bring into context, and why". What
an agent loads is its profile's (agents/: its `Session`, its `RulesDirs`).
"""

from __future__ import annotations

import os

from mnemolint.agents import CLAUDE_CODE, WAVE, wave
from mnemolint.agents.base import DROPS_FOLDER, Agent
from mnemolint.kinds.rules import HOMES, RulesDir
from mnemolint.parse.globs import NEGATED
from mnemolint.paths import from_home, inside, upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import RulesDirs
    from mnemolint.config import Settings
    from mnemolint.parse.document import Document

EXPLAINED = (WAVE, CLAUDE_CODE)  # the agents `explain-rules` shows by default
OUTSIDE_BASE = "outside the base"  # the file cannot be made relative to the rule's base: no match


class Entry:
    """One rule or instruction file in an explanation: its id, its path, where it comes from
    (`user` or `project`) and why it is there or not (the pattern that matched, say)."""

    __slots__ = ("id", "path", "origin", "why")

    def __init__(self, id: str, path: str, origin: str, why: str = "") -> None:
        self.id = id
        self.path = path
        self.origin = origin
        self.why = why

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.id, "path": self.path, "origin": self.origin, "why": self.why}


class Explanation:
    """What one agent injects for one file: project memory (always loaded), the unconditional
    rules, the conditional rules that apply, the nested instruction files (outermost first), the
    rules replaced by a later one with the same id, the rules a dangling link keeps from loading,
    and (asked with --all) the conditional rules that do not apply."""

    __slots__ = (
        "reader",
        "memory",
        "always",
        "applying",
        "nested",
        "replaced",
        "lost",
        "not_applying",
        "imports",
        "auto_memory",
    )

    def __init__(self, reader: Agent) -> None:
        self.reader = reader
        self.memory: list[str] = []
        self.always: list[Entry] = []
        self.applying: list[Entry] = []
        self.nested: list[str] = []
        self.replaced: list[Entry] = []
        self.lost: list[Entry] = []
        self.not_applying: list[Entry] = []
        self.imports: dict[str, list[str]] = {}  # a file the agent loads → the files its `@imports` bring
        self.auto_memory: str | None = None  # Claude Code: the folder of its auto memory, or why it is off

    def as_dict(self) -> dict[str, object]:
        entries = ("always", "applying", "replaced", "lost", "not_applying")
        found: dict[str, object] = {"agent": self.reader.name, "project_memory": self.memory, "nested": self.nested}
        found.update({name: [entry.as_dict() for entry in getattr(self, name)] for name in entries})
        if self.reader.follows_imports:
            found["imports"] = self.imports
        if self.auto_memory is not None:
            found["auto_memory"] = self.auto_memory
        return found


def project_root(path: str) -> str:
    """The folder an agent session reading `path` works in: the checkout of one of Wave's linked
    worktrees (`<checkout>/.wave/worktrees/<name>/…`); else the current folder when it holds
    `path` and lies in the same git work tree (an agent's workdir is where it was started); else
    that work tree's top; else the outermost folder above `path` holding `.wave` or `.claude`,
    or its own folder."""
    absolute = os.path.abspath(path)
    marker = os.sep + os.path.join(*wave.WORKTREES.split("/")) + os.sep
    if marker in absolute:
        return absolute.split(marker, 1)[0]
    folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
    while not os.path.isdir(folder):  # FILE need not exist: start from what does
        folder = os.path.dirname(folder)
    from mnemolint.project import git_top_level

    here = os.getcwd()
    top = git_top_level(folder)
    if inside(absolute, here) and (top is None or inside(here, top)):
        return here
    if top is not None:
        return top
    homes = [
        current for current in upwards(folder) if any(os.path.isdir(os.path.join(current, home)) for home in HOMES)
    ]
    return homes[-1] if homes else folder


def explain(path: str, root: str, settings: Settings, readers: tuple[Agent, ...], show_all: bool) -> list[Explanation]:
    """What each of `readers` injects when it reads `path`, in the project at `root`."""
    from mnemolint.discover.walk import discover

    tree = discover([root], settings)
    scan = _Scan(
        os.path.abspath(path),
        root,
        [container for container in tree.containers if isinstance(container, RulesDir)],
        int(settings.options["glob-max-expansions"]),  # type: ignore[call-overload]
        show_all,
        settings.options,
    )
    return [_for(reader, scan) for reader in readers]


class _Scan:
    """What both agents' explanations start from: the file, the project, its rules dirs, the glob
    expansion limit, and the chain of folders from the project down to the file."""

    __slots__ = ("target", "root", "dirs", "limit", "show_all", "chain", "options", "_relative")

    def __init__(self, target: str, root: str, dirs: list[RulesDir], limit: int, show_all: bool, options: dict) -> None:
        self.options = options
        self.target = target
        self.root = root
        self.dirs = dirs
        self.limit = limit
        self.show_all = show_all
        self.chain = _folders_between(root, target)
        self._relative: dict[str, str | None] = {}

    def relative(self, base: str) -> str | None:
        """The file relative to `base` as the agents match it, asked once per base (it may run git)."""
        if base not in self._relative:
            from mnemolint.project import relative_to

            self._relative[base] = relative_to(self.target, base)
        return self._relative[base]


def _folders_between(root: str, target: str) -> list[str]:
    """The folders from `root` down to the one holding `target`, `root` first (`root` alone when
    `target` is outside it)."""
    folder = os.path.dirname(target)
    rel = os.path.relpath(folder, root)
    if rel == ".":
        return [root]
    if rel.startswith(".."):
        return [root]  # the workdir's own files still load; no folder below it is entered
    parts = rel.split(os.sep)
    return [root] + [os.path.join(root, *parts[: index + 1]) for index in range(len(parts))]


def _for(agent: Agent, scan: _Scan) -> Explanation:
    """What `agent` injects, from its profile: its session's instruction files at the start and
    those below the session folder down to the file's (`Session.start`, `Session.nested`; Claude
    Code's walks from the file system's root, `AGENTS.md` where no `CLAUDE.md` loads at all), its
    rules dirs (`_rules`), what the loaded files import, and the auto memory it keeps."""
    from mnemolint.kinds.instructions import session

    found = Explanation(agent)
    root = scan.root
    if agent.instructions is not None:
        walk = session(agent, root, {}, scan.options)
        found.memory = [_walked(path, root) for path in walk.start()]
        found.nested = [_walked(path, root) for path in walk.nested(scan.target)]
    if agent.rules is not None:
        _rules(found, agent.rules, scan)
    if agent.follows_imports:
        _imports(found, scan)
    if agent.auto_memory is not None:
        found.auto_memory = _auto_memory(agent, root)
    return found


def _rules(found: Explanation, rules: RulesDirs, scan: _Scan) -> None:
    """The rules dirs the agent loads (the user's, and the session folder's or, where it enters
    folders, each folder's down to the file's), in its load order; where a later rule with the
    same id replaces an earlier one (Wave), the earlier is listed as replaced."""
    agent, root = found.reader, scan.root
    folders = set(scan.chain) if rules.entered else {root}
    loaded = [
        rules_dir
        for rules_dir in scan.dirs
        if agent in rules_dir.readable_by and (rules_dir.user or rules_dir.base in folders)
    ]
    order = (lambda each: each.order) if rules.replaces else (lambda each: (not each.user, each.path))
    registry: dict[str, tuple[RulesDir, Document]] = {}
    for rules_dir in sorted(loaded, key=order):
        lost = rules_dir.unloaded(agent)
        for document in rules_dir.rules:
            if document.path in lost:
                link = lost[document.path]
                why = (
                    f"the dangling link `{link}` drops its directory"
                    if rules.dangling == DROPS_FOLDER
                    else f"after the dangling link `{link}`"
                )
                found.lost.append(_entry(rules_dir, document, root, why))
            elif not rules.replaces:
                _judge(found, rules_dir, document, scan)
            else:
                if document.rel in registry:
                    earlier_dir, earlier = registry[document.rel]
                    why = f"replaced by {_shown(document.path, root)}"
                    found.replaced.append(_entry(earlier_dir, earlier, root, why))
                registry[document.rel] = (rules_dir, document)
    for rules_dir, document in registry.values():
        _judge(found, rules_dir, document, scan)


def _auto_memory(agent: Agent, root: str) -> str | None:
    """Where the agent keeps the auto memory of a session in `root` (its `MEMORY.md` loads in
    every session), said with `~` for the home folder, or why it is off; None when there is none."""
    assert agent.auto_memory is not None
    folder, off = agent.auto_memory(root)
    if not os.path.isdir(folder):
        return None
    if off:
        return f"off: {off}"
    return from_home(folder) or folder


def _imports(found: Explanation, scan: _Scan) -> None:
    """The files each loaded instruction file brings with its `@imports`, as Claude Code follows
    them (parse/imports.py): depth first, each once, 4 levels deep, nothing outside the folder the
    session works in unless the user approved external imports for the project (then the home
    folder and the rest too); a sensitive target is never read either way."""
    from mnemolint.parse.document import Document
    from mnemolint.parse.imports import Memo, expand

    root = scan.root
    imports = found.reader.instructions.imports  # type: ignore[union-attr]
    approved = imports is not None and imports.approved is not None and imports.approved(root)
    within, home = (os.path.sep, os.path.expanduser("~")) if approved else (root, None)
    memo = Memo(scan.options)
    loaded = [*found.memory, *found.nested, *(entry.path for entry in (*found.always, *found.applying))]
    for shown in loaded:
        path = shown if os.path.isabs(shown) else os.path.join(root, shown)
        expansion = expand(Document(path, None, scan.options), within, home=home, memo=memo)
        brought = [_walked(path, root) for path, _ in expansion.loaded[1:]]  # `../x.md` as for a parent
        if brought:
            found.imports[shown] = brought


def _judge(found: Explanation, rules_dir: RulesDir, document: Document, scan: _Scan) -> None:
    """File one rule as always on, applying (with the pattern that matched) or not applying."""
    root = scan.root
    reading = rules_dir.read_by(document, found.reader, scan.limit)
    if reading.unconditional:
        found.always.append(_entry(rules_dir, document, root))
        return
    base = root if rules_dir.user else rules_dir.base
    rel = scan.relative(base)
    if rel is None:
        why = OUTSIDE_BASE
        matched = None
    else:
        matched = _matching(reading.globs, rel, found.reader)
        why = (
            f"`{matched}` matched"
            if matched
            else "no pattern matched (" + ", ".join(f"`{glob.written}`" for glob in reading.globs) + ")"
        )
    if matched:
        found.applying.append(_entry(rules_dir, document, root, why))
    elif scan.show_all:
        found.not_applying.append(_entry(rules_dir, document, root, why))


def _matching(globs: list, rel: str, reader: Agent) -> str | None:
    """The pattern through which a rule applies to `rel`, as the agent decides it: for Wave any
    pattern alone (a `!x` one applies to what it does not name); for Claude Code gitignore's rules
    (the `ignore` package): each folder on the way, then the file, by the last pattern matching
    it, and a file below a matched folder is matched whatever a later `!` says."""
    if reader.glob_style == "minimatch":
        for glob in globs:
            if glob.problem is None and glob.matches(rel):
                return glob.written
            if glob.negated and glob.regex is not None and not glob.matches(rel):
                return glob.written
        return None
    usable = [glob for glob in globs if glob.regex is not None and glob.problem in (None, NEGATED)]
    parts = rel.split("/")
    for depth in range(1, len(parts) + 1):
        path = "/".join(parts[:depth]) + ("/" if depth < len(parts) else "")
        last = next((glob for glob in reversed(usable) if glob.matches(path)), None)
        if last is not None and not last.negated:
            return last.written
    return None


def _entry(rules_dir: RulesDir, document: Document, root: str, why: str = "") -> Entry:
    return Entry(document.rel, _shown(document.path, root), "user" if rules_dir.user else "project", why)


def _shown(path: str, root: str) -> str:
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def _walked(path: str, root: str) -> str:
    """An instruction file of the folders walked, relative to `root`: `../CLAUDE.md` for a parent's."""
    return os.path.relpath(path, root).replace(os.sep, "/")
