"""`agents/manifest.py` and `kinds/manifest.py` list what every run asks of all the agents and all
the kinds before it knows which it meets, so that a run imports only those it meets. `python
tests/test_registry_manifest.py` writes them again."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rule_manifest import WIDTH, _literal

from mnemolint import agents
from mnemolint.agents import manifest as agent_manifest
from mnemolint.kinds import manifest as kind_manifest
from mnemolint.kinds import registry

AGENT_MANIFEST = Path(agent_manifest.__file__)
KIND_MANIFEST = Path(kind_manifest.__file__)
RUN = "tests/test_registry_manifest.py"
AGENT_HEAD = '''"""What every run asks of all the agents, without importing them: generated from the agent
modules by `python tests/test_registry_manifest.py`, which fails while it differs from them.

`NAMES`: the names the `agents` setting takes, in registry order. `HOMES`: the homes of the
agents that keep memory or rules dirs. `MEMORY_HOMES`: each agent keeping memory dirs, by module,
with its home. `INSTRUCTION_NAMES`: every file name an agent reads as instructions. `TRACES`:
each agent a project can be seen to use, by title, with the traces that show it.
"""
'''


def generate_agents() -> str:
    every = agents.AGENTS
    modules = dict(zip(every, agents._MODULES, strict=True))
    paths = [name for agent in every if agent.instructions is not None for name in agent.instructions.every_name]
    tables = {
        "NAMES": tuple(agent.name for agent in every if agent.selectable),
        "HOMES": tuple(agent.home for agent in every if agent.home and (agent.memory or agent.rules)),
        "MEMORY_HOMES": tuple((modules[agent], agent.home) for agent in every if agent.memory and agent.home),
        "INSTRUCTION_NAMES": tuple(dict.fromkeys(name.rpartition("/")[2] for name in paths)),
        "TRACES": tuple((agent.title, agent.traces) for agent in every if agent.traces),
    }
    return AGENT_HEAD + "\n" + "".join(_assignment(name, value) for name, value in tables.items())


KIND_HEAD = '''"""What the walk asks of every kind before it knows which it meets, without importing them:
generated from the kind modules by `python tests/test_registry_manifest.py`, which fails while it
differs from them.

`CONTAINERS`: each container type in registry order: its name, module and attribute, its marker
file, its setting, and the names a directory it `located` may have. `ROOT_NAMES`: each file name
a kind in no container may have, with those kinds (module, name) in registry order.
"""
'''


def _modules_of_kinds() -> dict[str, str]:
    """Each kind's module, by kind name, as `registry._KINDS` declares them."""
    return {kind.name: module for module, attribute in registry._KINDS for kind in registry.kinds_at(module, attribute)}


def generate_kinds() -> str:
    modules = _modules_of_kinds()
    containers = tuple(
        (each.name, module, attribute, each.marker, each.setting, tuple(each.names))
        for module, attribute in registry._CONTAINERS
        for each in (getattr(registry._module(module), attribute),)
    )
    roots: dict[str, list[tuple[str, str]]] = {}
    for kind in registry.KINDS:
        if kind.container is None:
            for name in kind.names:
                roots.setdefault(name, []).append((modules[kind.name], kind.name))
    tables = {"CONTAINERS": containers, "ROOT_NAMES": tuple((name, tuple(each)) for name, each in roots.items())}
    return KIND_HEAD + "\n" + "".join(_assignment(name, value) for name, value in tables.items())


def _assignment(name: str, value: tuple) -> str:
    """`name = value` as ruff formats it: on one line where it fits, else one item a line."""
    line = f"{name} = {_literal(value, 0)}"
    if "\n" not in line and len(line) > WIDTH:
        pad = "".join(f"    {_literal(item, 4)},\n" for item in value)
        line = f"{name} = (\n{pad})"
    return line + "\n"


def test_the_agent_manifest_is_the_agents_own() -> None:
    """An agent added, moved, renamed or given another home, memory dir, instruction file name or
    trace fails here until the manifest is written again."""
    assert AGENT_MANIFEST.read_text(encoding="utf-8") == generate_agents(), f"run `python {RUN}`"


def test_the_light_agent_registry_agrees_with_the_whole_one() -> None:
    every = agents.AGENTS
    assert agents.names() == tuple(agent.name for agent in every if agent.selectable)
    assert agents.AGENT_HOMES == tuple(agent.home for agent in every if agent.home and (agent.memory or agent.rules))
    assert set(agents.instruction_names()) == {name.rpartition("/")[2] for name in agents.instruction_paths()}
    for agent in every:
        if agent.memory is not None and agent.home:
            assert agents.memory_reader(f"/x/{agent.home}/projects/p/memory") is agent
    assert agents.memory_reader("/x/y/memory") is agents.CLAUDE_CODE


def test_the_kind_manifest_is_the_kinds_own() -> None:
    """A kind or container type added, moved, renamed or given another marker, setting or name
    fails here until the manifest is written again."""
    assert KIND_MANIFEST.read_text(encoding="utf-8") == generate_kinds(), f"run `python {RUN}`"


# Path parts that make every kind and container type (and near misses), written out here as well
# as read from the declarations, so that a name left out of one is met all the same.
PARTS = [
    *(name for kind in registry.KINDS for name in kind.names),
    *(name for each in registry.CONTAINERS for name in each.names),
    *("memory", "projects", "p", ".claude", ".wave", ".cursor", ".github", ".windsurf", ".gemini", "agent-memory"),
    *("MEMORY.md", "topic.md", "rule.mdc", "x.instructions.md", "README.md", "settings.json", "20260101"),
    *("rules", "instructions", ".ai-memory", ".clinerules", ".gitignore", ".geminiignore", ".cursorrules"),
    *("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "AGENTS.override.md", "GEMINI.md", "copilot-instructions.md"),
    *("opencode.json", "opencode.jsonc"),
]
paths = st.lists(st.sampled_from(PARTS) | st.text("ab.-_M", min_size=1, max_size=5), min_size=1, max_size=6)


@settings(max_examples=600, deadline=None)
@given(paths)
def test_the_light_kind_registry_finds_what_the_whole_one_finds(parts: list[str]) -> None:
    """Asked only of the kinds and types a name may be, the registry gives what asking every one
    in registry order gives: a kind's `names` and a type's `names` hold every name it claims."""
    rel = "/".join(parts)
    for container in (None, *registry.CONTAINERS):
        every = next((kind for kind in registry.KINDS if kind.container is container and kind.matches(rel)), None)
        assert registry.kind_of(rel, container) is every, (rel, container)
    directory = os.path.join(os.sep, "r", *parts)
    assert registry.located(directory) is next((each for each in registry.CONTAINERS if each.located(directory)), None)


def test_a_container_types_kinds_are_its_modules() -> None:
    """`kind_of` looks for a container's kinds in its type's module alone."""
    modules = _modules_of_kinds()
    for kind in registry.KINDS:
        if kind.container is not None:
            assert registry._PLACE[kind.container.name][0] == modules[kind.name], kind
        else:
            assert kind.names, kind  # found by name alone: it must say which


if __name__ == "__main__":  # write the manifests again
    written = generate_agents()
    if AGENT_MANIFEST.read_text(encoding="utf-8") != written:
        AGENT_MANIFEST.write_text(written, encoding="utf-8")
        # The kinds took their instruction file names from the old agents' manifest: start afresh.
        os.execv(sys.executable, [sys.executable, *sys.argv])
    KIND_MANIFEST.write_text(generate_kinds(), encoding="utf-8")
    sys.exit(0)
