"""What an option is (a name, a type, a default, a help text), and the core options.

A rule family declares its own options beside its rules (`rules/index.py`, `rules/topic.py`);
the registry of every option is derived from the families in `rules/__init__.py`, and the config
loader validates each key against it. Only the options the parse layer reads live here, as they
apply to every file of every kind whichever rules run: `max-file-bytes` (which files are read at
all) and `yaml-max-depth` (how deep any frontmatter is parsed; the topic rules read the parsed
fields too, not only FM005, which reports the refusal). `now` lives here too: the one moment every
age is judged against, by rules and commands alike (`clock.py`).
"""

from __future__ import annotations

from mnemolint import agents

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterable

INT = "integer"  # a positive integer
RATIO = "ratio"  # above 0 and at most 1: above 1 a near-limit warning could never fire
STRING = "string"
STRINGS = "list of strings"
BOOL = "boolean"
ENUM = "enum"  # one of `choices`


class Option:
    """One configuration key. `validate` raises ValueError saying what the value must be; the
    config loader puts the key's name in front of it."""

    __slots__ = ("name", "type", "default", "help", "choices")

    def __init__(self, name: str, type: str, default: object, help: str, choices: tuple[str, ...] = ()) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.help = help
        self.choices = choices
        if (type == ENUM and not choices) or (choices and type not in (ENUM, STRINGS)):
            raise ValueError(f"option {name}: choices are for enum options and lists, and an enum needs them")
        self.validate(default)

    def validate(self, value: object) -> object:
        """`value` if it is one of this option's values, else ValueError("must be …, not …")."""
        if _VALID[self.type](value, self.choices):
            return list(value) if isinstance(value, list) else value  # a list is copied, never shared
        raise ValueError(f"must be {self.expected}, not {value!r}")

    @property
    def expected(self) -> str:
        """What a valid value is, as the config error and docs/configuration.md say it."""
        if self.type == ENUM:
            return "one of " + ", ".join(self.choices)
        if self.choices:
            return "a list of " + ", ".join(self.choices)
        return _EXPECTED[self.type]

    def shown(self, value: object) -> str:
        """The value as a sentence names it: `25,000`, `80 %`."""
        if self.type == INT:
            return f"{value:,}"
        if self.type == RATIO:
            return f"{value * 100:g} %"  # type: ignore[operator]
        if self.type == STRINGS:
            return ", ".join(value)  # type: ignore[arg-type]
        return str(value).lower() if self.type == BOOL else str(value)

    def __repr__(self) -> str:
        return f"<Option {self.name}>"


def _number(value: object) -> bool:
    """An integer or a float; TOML's `true` is a bool, which Python counts as an int."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_VALID = {
    INT: lambda value, _: _number(value) and isinstance(value, int) and value > 0,
    RATIO: lambda value, _: _number(value) and 0 < value <= 1,  # type: ignore[operator]
    STRING: lambda value, _: isinstance(value, str),
    STRINGS: lambda value, choices: (
        isinstance(value, list) and all(isinstance(item, str) and (not choices or item in choices) for item in value)
    ),
    BOOL: lambda value, _: isinstance(value, bool),
    ENUM: lambda value, choices: isinstance(value, str) and value in choices,
}
_EXPECTED = {
    INT: "a positive integer",
    RATIO: "a ratio above 0 and at most 1",
    STRING: "a string",
    STRINGS: "a list of strings",
    BOOL: "true or false",
}

MAX_FILE_BYTES = Option(
    "max-file-bytes",
    INT,
    2 * 1024 * 1024,
    "files larger than this (2 MiB) are not read; size rules use the size on disk",
)
YAML_MAX_DEPTH = Option("yaml-max-depth", INT, 16, "deepest nesting of frontmatter collections read before refusing it")
NOW = Option(
    "now",
    STRING,
    "",
    "the moment ages are judged against, ISO 8601 (`2026-12-01`, `2026-12-01T09:30:00Z`); empty: the real clock",
)
CORE: tuple[Option, ...] = (YAML_MAX_DEPTH, MAX_FILE_BYTES)
AGENTS = Option(
    "agents",
    STRINGS,
    [],
    "the agents the project uses; empty: each agent whose traces the project holds ("
    + "; ".join(f"{title} {', '.join(f'`{trace}`' for trace in traces)}" for title, traces in agents.manifest.TRACES)
    + ")",
    choices=agents.names(),
)
USER_RULES = Option(
    "user-rules", BOOL, False, "also lint the user-level rules `~/.claude/rules` and `~/.wave/rules` (`--user-rules`)"
)
USER_MEMORY = Option(
    "user-memory",
    BOOL,
    False,
    "also read your user-level memory (`--user-memory`, by `$HOME`): `~/.ai-memory/user_profile.md`, and the "
    "`@~/` imports Claude Code follows on your machine; off, neither is checked",
)
AUTO_MEMORY = Option(
    "auto-memory",
    BOOL,
    False,
    "also lint Claude Code's auto memory of each project linted (`--auto-memory`): "
    "`~/.claude/projects/<project>/memory/`, where the project uses Claude Code and auto memory is on",
)
# Options no one family owns: the parse layer's, what discovery reads, and the clock.
SHARED: tuple[Option, ...] = (*CORE, AGENTS, USER_RULES, USER_MEMORY, AUTO_MEMORY, NOW)


def defaults(options: Iterable[Option] = CORE) -> dict[str, object]:
    """Each option's default by name: the core ones alone are what a `Document` reads."""
    return {option.name: option.default for option in options}
