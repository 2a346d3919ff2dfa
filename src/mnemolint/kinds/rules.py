"""Rules dirs (`.wave/rules`, `.claude/rules`) and their rule files.

A rules dir's `.md` files are rules: a rule without `paths` is always on; one with `paths` is
injected when the agent reads a matching file. Which agents read a rules dir depends on where
it is: Wave reads `<workdir>/.claude/rules` then `<workdir>/.wave/rules` (and the user-level
`~/.claude/rules`, `~/.wave/rules` before them), a later rule with the same id (its path in its
rules dir) replacing an earlier one; Claude Code reads `.claude/rules` of the folder it works in
and of the folders it enters, matching globs relative to the folder holding `.claude`.

`RulesDir.reading(document)` is each rule's `paths` as each of its agents reads them, worked out
once for all the WAV rules.
"""

from __future__ import annotations

import os

from mnemolint.agents import AGENTS, CLAUDE_CODE, WAVE
from mnemolint.agents.base import DROPS_FOLDER, Agent
from mnemolint.kinds.base import Container, ContainerType, Kind
from mnemolint.parse.document import Document
from mnemolint.paths import inside

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.discover.tree import Tree
    from mnemolint.parse.globs import Glob
    from mnemolint.project import Project

RULES = "rules"
# The agents whose home holds a rules dir of their own (`.wave`, `.claude`), by that home.
HOMES = {
    agent.home: agent for agent in AGENTS if agent.rules is not None and f"{agent.home}/{RULES}" in agent.rules.folders
}
# Wave's load order (its profile): user before project, each in its folders' order; a later rule
# with the same id replaces the earlier one.
LOAD_ORDER = tuple((user, folder.partition("/")[0]) for user in (True, False) for folder in WAVE.rules.folders)  # type: ignore[union-attr]


class Reading:
    """A rule file's `paths` as one agent reads it: the raw value it got, its patterns, and
    whether the rule is unconditional for that agent (no patterns: always injected)."""

    __slots__ = ("reader", "value", "globs", "unconditional")

    def __init__(self, reader: Agent, value: object, globs: list[Glob], unconditional: bool) -> None:
        self.reader = reader
        self.value = value
        self.globs = globs
        self.unconditional = unconditional


class RulesDir(Container):
    """A rules dir: its rule files (`rules`, in the agents' scan order: by name), the other files
    in it that no agent loads (`others`), the project whose files its globs are matched against,
    and `user` when it is a user-level dir (`~/.wave/rules`)."""

    __slots__ = ("home", "base", "user", "project", "rules", "siblings", "dangling", "_readings")

    def __init__(self, path: str) -> None:
        super().__init__(path, RULES_DIR)
        self.home = os.path.basename(os.path.dirname(path))
        self.base = os.path.dirname(os.path.dirname(path))  # the folder holding `.wave` / `.claude`
        self.user = False  # a user-level dir (`~/.wave/rules`) of another project: known once settled
        self.project: Project | None = None
        self.rules: list[Document] = []
        self.siblings: list[RulesDir] = []  # every rules dir of the run, this one included
        self.dangling: list[str] = []  # the dangling symlinks inside it
        self._readings: dict[tuple[str, str], Reading] = {}

    def add(self, document: Document) -> None:
        super().add(document)
        self.rules.append(document)

    def settle(self, tree: Tree) -> None:
        """Globs are matched relative to the folder holding the rules dir; a user-level dir's
        relative to the folder the session works in, the linted root (Wave's path rules)."""
        # A rules dir in the home folder is the user's, unless the home folder is what is linted
        # (a dotfiles repository's own rules).
        self.user = self.base == os.path.expanduser("~") and not inside(self.base, tree.root)
        self.project = tree.project_at(tree.root if self.user else self.base)
        self.siblings = [container for container in tree.containers if isinstance(container, RulesDir)]
        self.dangling = [
            link.path for link in tree.links if link.problem == "dangling" and inside(link.path, self.path)
        ]

    def unloaded(self, reader: Agent) -> dict[str, str]:
        """Each rule of this dir that `reader` never loads because of a dangling link, by path,
        with the link's name."""
        lost: dict[str, str] = {}
        for link in self.dangling:
            for rel in self.never_loaded(link).get(reader, []):
                lost.setdefault(os.path.join(self.path, *rel.split("/")), os.path.basename(link))
        return lost

    @property
    def order(self) -> int:
        """Where Wave loads this dir among a project's four (LOAD_ORDER)."""
        return LOAD_ORDER.index((self.user, self.home))

    def replaced(self) -> list[tuple[Document, Document]]:
        """This dir's rules that Wave replaces by a rule with the same id loaded later, each with
        the rule that wins (the last one loaded)."""
        if WAVE not in self.readers:
            return []
        later = sorted(
            (
                other
                for other in self.siblings
                if other.project is self.project and WAVE in other.readers and other.order > self.order
            ),
            key=lambda other: other.order,
        )
        winners: dict[str, Document] = {}
        for other in later:
            kept_out = other.unloaded(WAVE)  # a rule a dangling link keeps out wins nothing
            winners.update((document.rel, document) for document in other.rules if document.path not in kept_out)
        return [(document, winners[document.rel]) for document in self.rules if document.rel in winners]

    @property
    def readers(self) -> tuple[Agent, ...]:
        """The agents that load this dir: Wave reads `.wave/rules`, and `.claude/rules` of a
        project that uses Wave; Claude Code reads `.claude/rules` (never `.wave/rules`) of a
        project that uses it. A user-level dir goes by the project being linted; an `agents`
        setting that leaves an agent out leaves its dirs unread."""
        uses = self.project.readers if self.project is not None else (CLAUDE_CODE,)
        return tuple(reader for reader in self.readable_by if reader in uses)

    @property
    def readable_by(self) -> tuple[Agent, ...]:
        """The agents whose loader scans a dir like this one, used or not (each profile's
        `rules.folders`): the agent whose home holds it first (Wave `.wave/rules`; Claude Code, then
        Wave, `.claude/rules`)."""
        folder = f"{self.home}/{RULES}"
        readers = [agent for agent in AGENTS if agent.rules is not None and folder in agent.rules.folders]
        return tuple(sorted(readers, key=lambda agent: agent.home != self.home))

    def reading(self, document: Document, limit: int) -> list[Reading]:
        """How each agent that loads this dir reads `document`'s `paths` (once per document)."""
        return [self.read_by(document, reader, limit) for reader in self.readers]

    def read_by(self, document: Document, reader: Agent, limit: int) -> Reading:
        """How `reader` reads `document`'s `paths`, once per document and reader."""
        key = (document.path, reader.name)
        found = self._readings.get(key)
        if found is None:
            found = self._readings[key] = _read(document, reader, limit)
        return found

    def lost_to(self, link: str) -> str:
        lost = self.never_loaded(link)
        said = []
        for reader, ids in lost.items():
            if reader not in self.readers:
                continue  # an agent the project does not use loses nothing it would load
            how = "stops scanning this folder here" if reader is WAVE else "loads no rule of this folder at all"
            shown = ", ".join(f"`{rule_id}`" for rule_id in ids[:5]) + (
                f" and {len(ids) - 5} more" if len(ids) > 5 else ""
            )
            said.append(f"{reader.title} {how}, so it never loads {shown or 'any rule past it'}")
        return "; ".join(said)

    def never_loaded(self, link: str) -> dict[Agent, list[str]]:
        """The rules each agent never loads because of the dangling link `link` in this dir:
        Wave stops scanning that directory at the link, so the entries after it by name are lost
        (MemoryRuleManager.ts:114-119); Claude Code drops every rule of that directory level,
        subdirectories included (claudemd.ts:712-787): each profile's `rules.dangling`."""
        directory, name = os.path.split(link)
        lost: dict[Agent, list[str]] = {}
        for reader in self.readable_by:
            ids = []
            for document in self.rules:
                if not document.path.startswith(directory + os.sep):
                    continue
                first = document.path[len(directory) + 1 :].split(os.sep, 1)[0]
                if reader.rules is not None and reader.rules.dangling == DROPS_FOLDER or first > name:
                    ids.append(document.rel)
            lost[reader] = ids
        return lost


def _read(document: Document, reader: Agent, limit: int) -> Reading:
    """`paths` as `reader` takes it: Wave from its own frontmatter reader, Claude Code from YAML."""
    from mnemolint.parse import globs

    if reader.own_frontmatter_reader:
        from mnemolint.parse import wave_frontmatter

        fields = wave_frontmatter.read(document.text or "") or {}
        value: object = fields.get("paths")
        wave = [globs.compile_wave(pattern, limit) for pattern in globs.wave_values(value)]
        return Reading(reader, value, wave, not wave)
    data = document.frontmatter.data  # with what Claude Code's second try reads of invalid YAML
    value = data.get("paths") if isinstance(data, dict) else None
    written = globs.claude_values(value)
    if globs.unconditional_for_claude(written):
        return Reading(reader, value, [], True)
    claude = globs.compile_claude_all(written, limit)
    return Reading(reader, value, claude, False)


def _located(directory: str) -> bool:
    """`…/.wave/rules` or `…/.claude/rules`, at any depth (Claude Code reads nested ones)."""
    head, name = os.path.split(directory)
    return name == RULES and os.path.basename(head) in HOMES


def _reader(document: Document) -> Agent:
    """The agent a rule file is written for: Wave under `.wave/`, else Claude Code."""
    container = document.container
    return WAVE if isinstance(container, RulesDir) and container.home == WAVE.home else CLAUDE_CODE


RULES_DIR = ContainerType(
    "rules dir",
    names=(RULES,),
    marker=None,
    setting=None,
    located=_located,
    make=RulesDir,
    about="A rules dir is `.wave/rules/` or `.claude/rules/`; its rules are its .md files, at any depth.",
    shared_by_link=True,
    companions=lambda path: [
        other
        for home in HOMES
        if (other := os.path.join(os.path.dirname(os.path.dirname(path)), home, RULES)) != path and os.path.isdir(other)
    ],
)
RULE_FILE = Kind(
    "rule file",
    container=RULES_DIR,
    matches=lambda rel: rel.endswith(".md"),  # case-sensitive, as both agents test it
    frontmatter=True,
    frontmatter_fields=True,
    suppressions=True,
    unread_frontmatter=(
        "YAML readers (Claude Code's among them) get no `paths` from it (Wave reads the block with its own "
        'reader), so what scopes the rule depends on the agent: quote each glob (`- "**/*.md"`)'
    ),
    fields="`paths`, so the rule applies to every file",
    keys=("paths",),  # the only field either agent takes from a rule
    reader=_reader,
    instructions=True,
)
