"""Which agents a finding about an instruction file affects: one `AGENTS.md` is read by Wave, Codex,
OpenCode and (as a fallback) Claude Code, so a finding about it says whom it concerns
(`Diagnostic.agents`: the `agents` field of the JSON and SARIF output).

An agent is affected when the project uses it (the `agents` setting, else its traces; every agent
where the project shows none) and it reads a file of that name: as one of its own names, or as a
fallback where no file of its own names stands in the same folder (Claude Code's `AGENTS.md`
beside no `CLAUDE.md`), and, for an agent that reads one file a folder (Wave, Codex, OpenCode),
where it is the first of its names there. By name and folder only: which session loads the file is
each agent's own rules' business.
"""

from __future__ import annotations

import os

from mnemolint import agents

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Agent
    from mnemolint.discover.tree import Tree
    from mnemolint.model import Diagnostic


def name_agents(diagnostics: list[Diagnostic], tree: Tree) -> None:
    """Set `agents` on each finding whose file is an instruction file (by its name)."""
    names = set(agents.instruction_names())
    endings = tuple(names)  # tested at C speed first: most findings are about no instruction file
    used: tuple[Agent, ...] | None = None
    for diagnostic in diagnostics:
        if not diagnostic.path.endswith(endings) or os.path.basename(diagnostic.path) not in names:
            continue
        if used is None:
            used = tree.project_at(tree.root).readers or tuple(agent for agent in agents.AGENTS if agent.selectable)
        diagnostic.agents = tuple(agent.name for agent in used if reads(agent, diagnostic.path))


def reads(agent: Agent, path: str) -> bool:
    """Whether `agent` reads the instruction file at `path`, by its name and what stands beside it:
    for an agent that reads one file a folder, only when it is the first of its names there."""
    spec = agent.instructions
    if spec is None:
        return False
    name, folder = os.path.basename(path), os.path.dirname(path)

    def stands(each: str) -> bool:
        return os.path.lexists(os.path.join(folder, *each.split("/")))

    if spec.first_only:
        first = next((each for each in spec.every_name if stands(each)), None)
        return first is not None and first.rpartition("/")[2] == name
    if any(each.rpartition("/")[2] == name for each in spec.names):
        return True
    fallback = any(each.rpartition("/")[2] == name for each in spec.fallback)
    return fallback and not any(stands(each) for each in spec.names)
