"""What a kind of file is, and what a container of files is: the seam a new kind plugs into.

A container is a directory that gives the files below it their meaning: a memory dir makes its
`MEMORY.md` an index and its other `.md` files topics. A kind says how a file is recognised (by
its path relative to its container, or to the linted root when the kind has no container), how
it is read (frontmatter, suppression comments) and which agent reads it (a reader profile).

Discovery asks the registry (`kinds/registry.py`) what each directory and each file is; rules
declare the kinds, the container or the tree they read, and the engine dispatches from that.
Nothing here imports the rest of mnemolint: every other layer may depend on it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from mnemolint.agents.base import Agent

    T = TypeVar("T")

    Document = Any  # parse.document depends on this module, never the other way round
    Tree = Any  # nor does discovery's tree


class Container:
    """One container found by discovery. `anchor_path` is the file that stands for the whole
    container in findings and in a pre-commit run's focus (a memory dir's `MEMORY.md`, whether or
    not it exists); `marker_link` says why a marker file that is a symlink was not followed;
    `others` are the files in it that no kind claims (a rules dir reports those no agent loads)."""

    __slots__ = ("path", "type", "anchor_path", "documents", "marker_link", "others", "_derived")

    def __init__(self, path: str, container_type: ContainerType) -> None:
        self.path = path
        self.type = container_type
        self.anchor_path = os.path.join(path, container_type.marker) if container_type.marker else path
        self.documents: list[Document] = []
        self.marker_link: str | None = None
        self.others: list[str] = []
        self._derived: dict[str, object] = {}

    def derived(self, key: str, make: Callable[[Any], T]) -> T:
        """What `make(container)` computes, once per run: facts several of its rules share (the
        titled topics MEM208, MEM209 and MEM212 compare), as `Tree.derived` is for tree rules."""
        if key not in self._derived:
            self._derived[key] = make(self)
        return self._derived[key]  # type: ignore[return-value]

    def add(self, document: Document) -> None:
        """Take a document discovery found in this container (subclasses file it by kind)."""
        self.documents.append(document)

    def add_all(self, documents: list[Document]) -> None:
        """`add` each of a directory's documents, in order (a subclass may file them at once)."""
        for document in documents:
            self.add(document)

    def carry(self, earlier: Container) -> None:
        """Take what `earlier` — this container, holding the same files, in an earlier run of the
        same process — found that still holds (`MemoryDir`: the links resolved by name alone);
        most containers take nothing. A language server's renewed tree asks it (lsp/kept.py)."""

    def settle(self, tree: Tree) -> None:
        """Take what it needs of the whole discovery, once every file is filed (a rules dir its
        project); most containers need nothing."""

    def probes(self) -> tuple:
        """What this run's rules asked the file system through the container beyond its files
        (plain data, with the answers), so that a cached result of its `cacheable` rules stands
        only while every answer is the same (`probed_alike`); most containers ask nothing."""
        return ()

    def probed_alike(self, probes: tuple) -> bool:
        """Whether asking `probes` again gets the same answers."""
        return not probes

    def lost_to(self, link: str) -> str:
        """What the agents that scan this container lose to the dangling symlink `link` in it,
        completing "Dangling symlink …;" (empty: no more than the link itself)."""
        return ""


class ContainerType:
    """A kind of container. A directory is one when it holds `marker` (a file name), when
    `located(directory)` says so (by where it is), or when it matches a glob of the `setting`
    list of the configuration. `make(path)` builds the container object. `about` says in a
    sentence what the container is and which files in it are linted (a run that lints nothing
    says it).

    What a symlink in it means (the LNK rules ask these, never the type's name): `unasked_writes`,
    the agent writes here without approval, so any link turns a write into one anywhere (a memory
    dir); `shared_by_link`, a link to a folder outside the repository is a documented way to share
    its files (a rules dir): the walk follows it, since the agents load what it points
    at, and it is not a defect. What a dangling link in it costs is the container's to say
    (`Container.lost_to`). `companions(path)` are the other containers its rules compare it with
    (the rules dirs beside a rules dir), walked too when a file in it is named alone.
    `confirms(directory, text)`: whether a directory holding the marker as a regular file is this
    container by what the marker holds (`text`: its head, as discovery reads it; another tool's
    file may carry the same name); a marker that is a link is judged by its name, so the LNK
    rules still meet it.
    `gitignored`: its convention keeps (some of) its files out of git and the agent loads them all
    the same (an `.ai-memory/`'s dated logs), so discovery walks it where a `.gitignore` ignores them.
    `names`: the names a directory it `located` may have (the last part of its path): discovery
    asks `located` of no other directory, and imports the type's module only when it meets one."""

    __slots__ = (
        "name",
        "names",
        "marker",
        "setting",
        "located",
        "make",
        "about",
        "unasked_writes",
        "shared_by_link",
        "companions",
        "confirms",
        "gitignored",
    )

    def __init__(
        self,
        name: str,
        *,
        names: tuple[str, ...] = (),
        marker: str | None,
        setting: str | None,
        located: Callable[[str], bool],
        make: Callable[[str], Container],
        about: str,
        unasked_writes: bool = False,
        shared_by_link: bool = False,
        companions: Callable[[str], list[str]] = lambda path: [],
        confirms: Callable[[str, str], bool] = lambda directory, text: True,
        gitignored: bool = False,
    ) -> None:
        self.name = name
        self.names = names
        self.marker = marker
        self.setting = setting
        self.located = located
        self.make = make
        self.about = about
        self.unasked_writes = unasked_writes
        self.shared_by_link = shared_by_link
        self.companions = companions
        self.confirms = confirms
        self.gitignored = gitignored

    def __repr__(self) -> str:
        return f"<ContainerType {self.name}>"


class Kind:
    """A kind of file.

    `matches(rel)` recognises a file by its POSIX path relative to its container (or to the root
    when `container` is None). `frontmatter` and `suppressions` say whether documents of this
    kind have them, so that neither is parsed (nor its rules run) where it means nothing;
    `frontmatter_fields` whether the agent takes fields from it (an index's frontmatter is parsed
    only to be reported: the loader takes the index as it is). `unread_frontmatter` completes
    "Invalid YAML in frontmatter: …;" with what that costs; `fields` names what the agent takes
    from the frontmatter (a topic's name, description and type), what a reader that misses the
    block loses; `keys` are the frontmatter keys an agent or a rule acts on, where a value's type
    changes what the agent does (an ambiguous scalar matters only there: FM004; a key no agent or
    rule reads, such as the `modified` timestamp Claude Code writes, is the file's own business).
    `reader(document)` is the profile of the agent that loads the file.
    `companions(path)` are the files its rules compare it with (the `CLAUDE.md` beside an
    `AGENTS.md`), read too when the file is named alone (as pre-commit names changed files).
    `instructions`: the agent loads the file whole into its context as instructions (an
    `AGENTS.md`, a rule file), so what it imports and how large it is with them matters.
    `gitignored(rel)`: the agent's convention keeps the file at `rel` out of git and the agent
    loads it all the same (`CLAUDE.local.md`), so discovery lints it where a `.gitignore` ignores it.
    `names`: for a kind in no container, the names its files may have (the last part of the path):
    `matches` is asked of no other file, and the kind's module imported only when one is met.
    """

    __slots__ = (
        "name",
        "names",
        "container",
        "matches",
        "frontmatter",
        "frontmatter_fields",
        "suppressions",
        "unread_frontmatter",
        "fields",
        "keys",
        "reader",
        "companions",
        "instructions",
        "gitignored",
    )

    def __init__(
        self,
        name: str,
        *,
        names: tuple[str, ...] = (),
        container: ContainerType | None,
        matches: Callable[[str], bool],
        frontmatter: bool,
        frontmatter_fields: bool,
        suppressions: bool,
        unread_frontmatter: str = "",
        fields: str = "",
        keys: tuple[str, ...] = (),
        reader: Callable[[Document], Agent],
        companions: Callable[[str], list[str]] = lambda path: [],
        instructions: bool = False,
        gitignored: Callable[[str], bool] = lambda rel: False,
    ) -> None:
        self.name = name
        self.names = names
        self.container = container
        self.matches = matches
        self.frontmatter = frontmatter
        self.frontmatter_fields = frontmatter_fields
        self.suppressions = suppressions
        self.unread_frontmatter = unread_frontmatter
        self.fields = fields
        self.keys = keys
        self.reader = reader
        self.companions = companions
        self.instructions = instructions
        self.gitignored = gitignored

    def __repr__(self) -> str:
        return f"<Kind {self.name}>"
