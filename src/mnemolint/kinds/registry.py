"""The kind registry: every container type and every kind of file mnemolint lints, in one place.

Discovery asks `located`, `MARKERS`, `CONFIGURED` and `type_named` which directories are
containers and `kind_of` what each file is; a file no kind claims is not linted. Adding a kind
is one module in `kinds/` (its `Kind`, and its `ContainerType` when it has a new one), its line
in `_KINDS` (and `_CONTAINERS`), then `python tests/test_registry_manifest.py`; see
docs/architecture.md.

A run imports only the kinds it meets. What the walk asks of every kind before it knows which it
meets (a container type's marker, setting and directory names, the file names of the kinds that
live in no container) is `manifest.py`, plain data; a kind's module is imported when a directory
or file of one of its names is met. The whole registry (`CONTAINERS`, `KINDS`,
`WITH_FRONTMATTER`, `TAKING_FRONTMATTER`) is imported on first use of one of those names (PEP
562), as the rule registry is.
"""

from __future__ import annotations

import os

from mnemolint.kinds import manifest

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.base import ContainerType, Kind

    # the whole registry, made by `__getattr__` on first use
    CONTAINERS: tuple[ContainerType, ...]
    KINDS: tuple[Kind, ...]
    WITH_FRONTMATTER: tuple[Kind, ...]
    TAKING_FRONTMATTER: tuple[Kind, ...]

# The container types and the kinds, in registry order, by module and attribute (a tuple
# attribute: each kind in it). The first kind in this order that matches a file wins.
_CONTAINERS = (
    ("memory", "MEMORY_DIR"),
    ("rules", "RULES_DIR"),
    ("ai_memory", "AI_MEMORY_DIR"),
    ("cursor", "CURSOR_RULES_DIR"),
    ("copilot", "COPILOT_INSTRUCTIONS_DIR"),
    ("windsurf", "WINDSURF_RULES_DIR"),
    ("cline", "CLINE_RULES_DIR"),
)
_KINDS = (
    ("memory", "INDEX"),
    ("memory", "TOPIC"),
    ("rules", "RULE_FILE"),
    ("instructions", "INSTRUCTION_FILE"),
    ("ai_memory", "KINDS"),
    ("gitignore", "GITIGNORE"),
    ("gemini", "KINDS"),
    ("cursor", "CURSOR_RULE"),
    ("cursor", "CURSORRULES"),
    ("copilot", "PATH_INSTRUCTIONS"),
    ("windsurf", "WINDSURF_RULE"),
    ("cline", "CLINE_RULE"),
    ("cline", "CLINERULES_FILE"),
    ("opencode", "OPENCODE_CONFIG"),
)
# A marker file's name: the name of the container type it makes a directory.
MARKERS: dict[str, str] = {marker: name for name, _, _, marker, _, _ in manifest.CONTAINERS if marker}
# The container types a setting names directories of (`memory-dirs`): each type's name, and the setting.
CONFIGURED: tuple[tuple[str, str], ...] = tuple((name, each) for name, _, _, _, each, _ in manifest.CONTAINERS if each)
_BY_DIRECTORY_NAME: dict[str, list[str]] = {}  # a directory's name: the types it may be, in registry order
for _type in manifest.CONTAINERS:
    for _each in _type[5]:
        _BY_DIRECTORY_NAME.setdefault(_each, []).append(_type[0])
_PLACE = {name: (module, attribute) for name, module, attribute, _, _, _ in manifest.CONTAINERS}
_ROOT_NAMES = dict(manifest.ROOT_NAMES)

_types: dict[str, ContainerType] = {}  # by name, as their modules are imported
_of_type: dict[ContainerType, list[Kind]] = {}  # each type's kinds, in registry order
_at_root: dict[str, list[Kind]] = {}  # the kinds in no container a file name may be, in registry order


def _module(name: str) -> object:
    """The kind module `name`, imported once (`__import__` with a `fromlist` gives the module itself)."""
    return __import__(f"mnemolint.kinds.{name}", fromlist=["__name__"])


def kinds_at(module: str, attribute: str) -> tuple[Kind, ...]:
    """The kinds a line of `_KINDS` names: the attribute's kind, or each kind of its tuple."""
    value = getattr(_module(module), attribute)
    return value if isinstance(value, tuple) else (value,)


def _declared(module: str) -> list[Kind]:
    """The kinds of `module`, in registry order."""
    return [kind for each, attribute in _KINDS if each == module for kind in kinds_at(each, attribute)]


def type_named(name: str) -> ContainerType:
    """The container type called `name` (one of the manifest's), its module imported."""
    found = _types.get(name)
    if found is None:
        module, attribute = _PLACE[name]
        found = _types[name] = getattr(_module(module), attribute)
    return found


def located(directory: str) -> ContainerType | None:
    """The container type `directory` is by where it stands (`ContainerType.located`), asked only
    of the types a directory of its name may be; None for none."""
    for name in _BY_DIRECTORY_NAME.get(os.path.basename(directory.rstrip(os.sep)), ()):
        each = type_named(name)
        if each.located(directory):
            return each
    return None


def kinds_in(container_type: ContainerType) -> list[Kind]:
    """The kinds a file in a container of `container_type` may be, in registry order."""
    kinds = _of_type.get(container_type)
    if kinds is None:
        place = _PLACE.get(container_type.name)
        declared = _declared(place[0]) if place is not None else _every()
        kinds = _of_type[container_type] = [kind for kind in declared if kind.container is container_type]
    return kinds


def kind_of(rel: str, container_type: ContainerType | None) -> Kind | None:
    """The kind of a file at `rel` (POSIX, relative to its container, or to the root when it is in
    none), or None when no kind claims it. The first kind in registry order that matches wins."""
    if container_type is not None:
        kinds = kinds_in(container_type)
    else:
        name = rel.rpartition("/")[2]
        at_root = _at_root.get(name)
        if at_root is None:
            at_root = _at_root[name] = [
                next(kind for kind in _declared(module) if kind.name == kind_name)
                for module, kind_name in _ROOT_NAMES.get(name, ())
            ]
        kinds = at_root
    return first_kind(kinds, rel)


def first_kind(kinds: list[Kind], rel: str) -> Kind | None:
    """The first of `kinds` (in registry order) that claims the file at `rel`, or None: `kind_of`
    once its candidates are known (a caller filing a directory asks `kinds_in` once for all)."""
    for kind in kinds:
        if kind.matches(rel):
            return kind
    return None


def __getattr__(name: str) -> object:
    """The whole registry, every kind module imported, on first use of one of its names (PEP 562)."""
    if name not in ("CONTAINERS", "KINDS", "WITH_FRONTMATTER", "TAKING_FRONTMATTER"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _every()
    return globals()[name]


def _every() -> tuple[Kind, ...]:
    """The whole registry (`KINDS` and the rest), every kind module imported, once."""
    if "KINDS" in globals():
        return globals()["KINDS"]
    kinds = [kind for module, attribute in _KINDS for kind in kinds_at(module, attribute)]
    globals().update(
        CONTAINERS=tuple(type_named(name) for name, *_ in manifest.CONTAINERS),
        KINDS=tuple(kinds),
        WITH_FRONTMATTER=tuple(kind for kind in kinds if kind.frontmatter),
        TAKING_FRONTMATTER=tuple(kind for kind in kinds if kind.frontmatter_fields),
    )
    return globals()["KINDS"]
