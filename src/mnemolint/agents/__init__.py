"""The agents mnemolint reads for, one module each (`agents/<name>.py` exposing `AGENT`), and
their registry: `AGENTS` in this order (the order `explain-rules` shows them in, and the one that
decides which agent a shared instruction file is written for: the first naming it in its own
`names`), `by_name`, `used_by` (the agents a project uses) and `reader_of` (the agent an
instruction file is written for). Adding an agent: its module, its line in `_MODULES`, then
`python tests/test_registry_manifest.py`.

A run imports only the agents it meets. What every run asks of all of them (the names `agents`
takes, the homes of their memory and rules dirs, the file names they read as instructions) is
`manifest.py`, plain data; one agent (`CLAUDE_CODE`, `WAVE`, …) is its module alone, and the
whole registry (`AGENTS`) is imported on first use (PEP 562), as the rule registry is.

The agent modules are the lowest layer: they import only `agents.base`, `paths`,
`parse.textutil` and `patterns` (at module level), so that every layer above may ask them.
"""

from __future__ import annotations

import os

from mnemolint.agents import manifest
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Agent

    # made by `__getattr__` on first use
    AGENTS: tuple[Agent, ...]
    WAVE: Agent
    CLAUDE_CODE: Agent
    CLAUDE_AGENT_MEMORY: Agent
    CODEX: Agent
    GEMINI_CLI: Agent
    OPENCODE: Agent

# one module per agent, in the registry's order
_MODULES = ("wave", "claude_code", "codex", "gemini_cli", "opencode", "cursor", "copilot", "windsurf", "cline")
# The homes of the agents that keep memory dirs (`<home>/projects/<id>/memory`) or rules dirs.
AGENT_HOMES: tuple[str, ...] = manifest.HOMES
# The agents each name stands for, by module and attribute: one module imported, not the registry.
_ONE = {
    "WAVE": ("wave", "AGENT"),
    "CLAUDE_CODE": ("claude_code", "AGENT"),
    "CLAUDE_AGENT_MEMORY": ("claude_code", "AGENT_MEMORY"),  # the same agent, its agent-memory loader
    "CODEX": ("codex", "AGENT"),
    "GEMINI_CLI": ("gemini_cli", "AGENT"),
    "OPENCODE": ("opencode", "AGENT"),
}
_BY_NAME: dict[str, Agent] = {}  # filled with `AGENTS` (`_every`)


def _module(name: str) -> object:
    """The agent module `name`, imported once (`__import__` with a `fromlist` gives the module
    itself, without importing `importlib`)."""
    return __import__(f"{__name__}.{name}", fromlist=["AGENT"])


def __getattr__(name: str) -> object:
    """One agent, or the whole registry, imported on first use of its name (PEP 562); a name it
    does not know is a submodule's, which the import system then imports."""
    if name in _ONE:
        module, attribute = _ONE[name]
        globals()[name] = getattr(_module(module), attribute)
    elif name == "AGENTS":
        _every()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return globals()[name]


def _every() -> tuple[Agent, ...]:
    """The whole registry, `AGENTS`, every agent module imported (once)."""
    every = globals().get("AGENTS")
    if every is None:
        every = tuple(_module(module).AGENT for module in _MODULES)  # type: ignore[attr-defined]
        globals()["AGENTS"] = every
        _BY_NAME.update((agent.name, agent) for agent in every)
    return every


def names() -> tuple[str, ...]:
    """The names the `agents` setting, `--agent` and the API take."""
    return manifest.NAMES


def by_name(name: str) -> Agent:
    """The agent called `name` (KeyError for none)."""
    _every()
    return _BY_NAME[name]


def used_by(project: str, configured: list[str] | tuple[str, ...] = ()) -> tuple[Agent, ...]:
    """The agents a project at the folder `project` uses: those the `agents` setting names, in its
    order (a name it does not know is a usage error), else each whose traces stand there."""
    if configured:
        unknown = [name for name in configured if name not in names()]
        if unknown:  # the config loader checks the choices; a caller of the API may not have
            raise ConfigError(f"`agents` names no agent {', '.join(unknown)} ({', '.join(names())})")
        return tuple(by_name(name) for name in configured)
    return tuple(agent for agent in _every() if agent.selectable and agent.used_in(project))


def memory_readers() -> tuple[Agent, ...]:
    """The agents that load a memory dir's `MEMORY.md` (`preview DIR --agent`, the API)."""
    return tuple(agent for agent in _every() if agent.selectable and agent.memory is not None)


def memory_reader(path: str) -> Agent:
    """The agent that reads the memory dir at `path` by default: the first keeping memory dirs whose
    home is a folder on the path (Wave under `.wave/`), else Claude Code."""
    parts = path.replace(os.sep, "/").split("/")
    module = next((module for module, home in manifest.MEMORY_HOMES if home in parts), "claude_code")
    return _module(module).AGENT  # type: ignore[attr-defined]


def instruction_names() -> tuple[str, ...]:
    """Every file name an agent reads as instructions (the last part of each of its names)."""
    return manifest.INSTRUCTION_NAMES


def instruction_paths() -> tuple[str, ...]:
    """Every instruction file an agent reads in a folder, as it stands there (`CLAUDE.md`,
    `.claude/CLAUDE.md`, …)."""
    found = [name for agent in _every() if agent.instructions is not None for name in agent.instructions.every_name]
    return tuple(dict.fromkeys(found))


def reader_of(name: str) -> Agent:
    """The agent an instruction file called `name` is written for: the first whose own `names`
    end in it, else the first reading it as a fallback."""
    for fallback in (False, True):
        for agent in _every():
            if agent.instructions is None:
                continue
            listed = agent.instructions.fallback if fallback else agent.instructions.names
            if any(each.rpartition("/")[2] == name for each in listed):
                return agent
    raise KeyError(name)


def readers_of(name: str) -> tuple[Agent, ...]:
    """Every agent that reads an instruction file called `name`, own name or fallback."""
    return tuple(
        agent
        for agent in _every()
        if agent.instructions is not None
        and any(each.rpartition("/")[2] == name for each in agent.instructions.every_name)
    )
