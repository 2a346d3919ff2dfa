"""The agents mnemolint reads for, one module each (`agents/<name>.py` exposing `AGENT`), and
their registry: `AGENTS` in this order (the order `explain-rules` shows them in, and the one that
decides which agent a shared instruction file is written for: the first naming it in its own
`names`), `by_name`, `used_by` (the agents a project uses) and `reader_of` (the agent an
instruction file is written for). Adding an agent: its module, and its line in `_MODULES`.

The agent modules are the lowest layer: they import only `agents.base`, `paths`,
`parse.textutil` and `patterns` (at module level), so that every layer above may ask them.
"""

from __future__ import annotations

import os

from mnemolint.agents import claude_code, cline, codex, copilot, cursor, gemini_cli, opencode, wave, windsurf
from mnemolint.agents.base import Agent
from mnemolint.errors import ConfigError

# one line per agent, in the registry's order
_MODULES = (wave, claude_code, codex, gemini_cli, opencode, cursor, copilot, windsurf, cline)

AGENTS: tuple[Agent, ...] = tuple(module.AGENT for module in _MODULES)
WAVE = wave.AGENT
CLAUDE_CODE = claude_code.AGENT
CLAUDE_AGENT_MEMORY = claude_code.AGENT_MEMORY  # the same agent, its agent-memory loader
CODEX = codex.AGENT
GEMINI_CLI = gemini_cli.AGENT
OPENCODE = opencode.AGENT
# The homes of the agents that keep memory dirs (`<home>/projects/<id>/memory`) or rules dirs.
AGENT_HOMES = tuple(agent.home for agent in AGENTS if agent.home and (agent.memory or agent.rules))
_BY_NAME = {agent.name: agent for agent in AGENTS}


def names() -> tuple[str, ...]:
    """The names the `agents` setting, `--agent` and the API take."""
    return tuple(agent.name for agent in AGENTS if agent.selectable)


def by_name(name: str) -> Agent:
    """The agent called `name` (KeyError for none)."""
    return _BY_NAME[name]


def used_by(project: str, configured: list[str] | tuple[str, ...] = ()) -> tuple[Agent, ...]:
    """The agents a project at the folder `project` uses: those the `agents` setting names, in its
    order (a name it does not know is a usage error), else each whose traces stand there."""
    if configured:
        unknown = [name for name in configured if name not in names()]
        if unknown:  # the config loader checks the choices; a caller of the API may not have
            raise ConfigError(f"`agents` names no agent {', '.join(unknown)} ({', '.join(names())})")
        return tuple(_BY_NAME[name] for name in configured)
    return tuple(agent for agent in AGENTS if agent.selectable and agent.used_in(project))


def memory_readers() -> tuple[Agent, ...]:
    """The agents that load a memory dir's `MEMORY.md` (`preview DIR --agent`, the API)."""
    return tuple(agent for agent in AGENTS if agent.selectable and agent.memory is not None)


def memory_reader(path: str) -> Agent:
    """The agent that reads the memory dir at `path` by default: the first keeping memory dirs whose
    home is a folder on the path (Wave under `.wave/`), else Claude Code."""
    parts = path.replace(os.sep, "/").split("/")
    return next((agent for agent in AGENTS if agent.memory is not None and agent.home in parts), CLAUDE_CODE)


def instruction_names() -> tuple[str, ...]:
    """Every file name an agent reads as instructions (the last part of each of its names)."""
    return tuple(dict.fromkeys(name.rpartition("/")[2] for name in instruction_paths()))


def instruction_paths() -> tuple[str, ...]:
    """Every instruction file an agent reads in a folder, as it stands there (`CLAUDE.md`,
    `.claude/CLAUDE.md`, …)."""
    found = [name for agent in AGENTS if agent.instructions is not None for name in agent.instructions.every_name]
    return tuple(dict.fromkeys(found))


def reader_of(name: str) -> Agent:
    """The agent an instruction file called `name` is written for: the first whose own `names`
    end in it, else the first reading it as a fallback."""
    for fallback in (False, True):
        for agent in AGENTS:
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
        for agent in AGENTS
        if agent.instructions is not None
        and any(each.rpartition("/")[2] == name for each in agent.instructions.every_name)
    )
