"""Gemini CLI's own files, and what a Gemini CLI session loads (the facts are agents/gemini_cli.py's).

Its context files are instruction files by name (`GEMINI.md`; `AGENTS.md` or others where
`context.fileName` names them). Its own kinds here: the settings file `.gemini/settings.json`
(where `context.fileName` lives) and `.geminiignore` (what its file tools leave alone).

`GeminiSession` applies the profile to a session folder: which files load at the start (global,
private project memory, the project's walk), which a tool's touch of a path adds, and each one's
text after the client's import processor. Every file is read through `Document` (bounded, never
through a link to a sensitive place), and an import naming a credential or system file is never
read at all.
"""

from __future__ import annotations

import os

from mnemolint.agents import gemini_cli as gemini
from mnemolint.agents.base import Agent
from mnemolint.kinds.base import Kind
from mnemolint.kinds.gitignore import Ignores
from mnemolint.parse.document import Document
from mnemolint.paths import inside, sensitive_place

SETTINGS_REL = f"{gemini.HOME_DIR}/{gemini.SETTINGS_FILE}"


def _reader(document: Document) -> Agent:
    return gemini.AGENT


SETTINGS = Kind(
    "gemini settings",
    names=(SETTINGS_REL.rpartition("/")[2],),
    container=None,
    matches=lambda rel: rel == SETTINGS_REL or rel.endswith("/" + SETTINGS_REL),
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,  # JSON: no comment can hold one
    reader=_reader,
)
IGNORE = Kind(
    "geminiignore",
    names=(gemini.IGNORE_FILE,),
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] == gemini.IGNORE_FILE,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,
    reader=_reader,
)
KINDS = (SETTINGS, IGNORE)

START, TOUCH = "start", "touch"


class Loaded:
    """One context file of a session: where it goes (`kind`: global, private-memory, project;
    `when`: START or TOUCH), and what the client sends of it (`expanded`, None when mnemolint
    could not read it)."""

    __slots__ = ("path", "kind", "when", "expanded")

    def __init__(self, path: str, kind: str, when: str, expanded: gemini.Expanded | None) -> None:
        self.path, self.kind, self.when, self.expanded = path, kind, when, expanded

    @property
    def sent(self) -> str | None:
        return self.expanded.sent if self.expanded is not None else None

    def __repr__(self) -> str:
        return f"<Loaded {self.kind} {self.path}>"


class _ToolIgnores(Ignores):
    """`.geminiignore` of the session folder, read with git's semantics, as the client reads it."""

    def _spec(self, directory: str):  # type: ignore[override]
        if directory != self.top:
            return None
        return super()._spec(directory)

    def text(self, path: str) -> str | None:
        own = os.path.join(os.path.dirname(path), gemini.IGNORE_FILE)
        if own not in self.texts:
            self.texts[own] = Document(own, IGNORE, self.options).text if os.path.isfile(own) else None
        return self.texts[own]


class GeminiSession:
    """What Gemini CLI loads for a session started in `folder` (trusted, as the oracle runs it)."""

    def __init__(self, folder: str, options: dict) -> None:
        self.folder = os.path.abspath(folder)
        self.options = options
        self.names = gemini.context_names(self.folder)
        self.setting = gemini.names_setting(self.folder)
        self._texts: dict[str, str | None] = {}
        self._start: list[Loaded] | None = None
        root = gemini.git_root(self.folder)
        self._git = Ignores(root, {}, options) if root else None
        self._own = _ToolIgnores(self.folder, {}, options)

    def read(self, path: str) -> str | None:
        """A file's text as the client gets it; None for one mnemolint does not read."""
        if path not in self._texts:
            self._texts[path] = None if sensitive_place(path) else Document(path, None, self.options).text
        return self._texts[path]

    def _loaded(self, path: str, kind: str, when: str) -> Loaded:
        text = self.read(path)
        return Loaded(path, kind, when, None if text is None else gemini.expand(path, text, self.read))

    def start(self) -> list[Loaded]:
        """The files sent at the start: the global ones and the private memory (system
        instruction), then the project's walk (first message), each in the client's order."""
        if self._start is None:
            groups = [
                ("global", gemini.global_files(self.names)),
                ("project", gemini.project_files(self.folder, self.names)),
                ("private-memory", [path for path in [gemini.private_memory_file(self.folder, self.names)] if path]),
            ]
            kept = set(gemini.once([path for _, paths in groups for path in paths]))  # one file, one read
            order = (groups[0], groups[2], groups[1])  # the system instruction's, then the first message's
            self._start = [self._loaded(path, kind, START) for kind, paths in order for path in paths if path in kept]
        return self._start

    def ignored(self, path: str) -> str | None:
        """Why the client's file tools refuse `path` (a `.geminiignore` or `.gitignore` line), or None."""
        if not inside(path, self.folder):
            return "it is outside the session folder"
        for ignores, own in ((self._own, gemini.IGNORE_FILE), (self._git, None)):
            verdict = ignores.check(path, os.path.isdir(path)) if ignores is not None else None
            if verdict is not None and verdict.ignored and verdict.source is not None:
                name = own or os.path.relpath(verdict.source.path, self.folder)
                return f"`{verdict.source.pattern}` in {name} (line {verdict.source.line})"
        return None

    def touch(self, target: str) -> list[Loaded]:
        """The files a tool's first read of `target` adds to its result; none when the tools refuse
        that path."""
        if target == self.folder or self.ignored(target):
            return []
        sent = [entry.path for entry in self.start()]
        paths = gemini.touched_files(target, self.folder, self.names, sent)
        return [self._loaded(path, "project", TOUCH) for path in paths]

    def facts(self) -> dict:
        """What `preview --agent gemini-cli` shows: the names, the setting that gave them, and each
        file sent at the start in the client's order, with what it sends (redacted) and its imports."""
        from mnemolint.redact import redact

        def shown(entry: Loaded) -> dict:
            expanded = entry.expanded
            sent = entry.sent
            return {
                "path": entry.path,
                "kind": entry.kind,
                "place": "system instruction" if entry.kind != "project" else "first message",
                "sent": redact(sent) if sent is not None else None,
                "bytes": len(sent.encode("utf-8", "surrogatepass")) if sent is not None else 0,
                "read": expanded is not None,
                "complete": expanded.complete if expanded is not None else False,
                "imports": [
                    {"import": found.written, "file": found.file, "line": found.line, "outcome": found.outcome}
                    | ({"reason": found.reason} if found.reason else {})
                    for found in (expanded.imports if expanded is not None else ())
                ],
            }

        return {
            "agent": gemini.NAME,
            "version": gemini.VERSION,
            "directory": self.folder,
            "names": self.names,
            "setting": self.setting[0] if self.setting else None,
            "files": [shown(entry) for entry in self.start()],
        }
