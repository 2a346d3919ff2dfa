"""The MCP server `mnemolint mcp` runs over stdio, for an agent to check memory before and after it
writes it: `lint`, `preview`, `explain_rules`, `fix` and `rule`, each the core function the CLI
command of that name calls.

The trust rules hold as for the CLI. The server is started for one project root, and every path a
call names is resolved there; one outside it (`..`, an absolute path, a link that leads out) is
refused, and the engine's reads never go through a dangerous link. Every call runs in a child
process killed at the time limit, and its answer is cut at a size limit; every string of an
answer is redacted, so a secret in the memory never reaches the agent's context.

The `mcp` SDK (the `mnemolint[mcp]` extra) is imported by `serve` only.
"""

from __future__ import annotations

import json
import os
import sys

from mnemolint.errors import ConfigError
from mnemolint.paths import inside

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection
    from typing import Any

TIMEOUT = 60.0  # seconds one call may take before its process is killed
MAX_FINDINGS = 200  # findings one answer lists; the count says how many there were
MAX_TEXT = 200_000  # characters of one answer's diff or page
MAX_CHARS = 1_000_000  # characters of one whole answer

INSTRUCTIONS = (
    "mnemolint checks agent memory (MEMORY.md and its topic files, AGENTS.md/CLAUDE.md, rules dirs). "
    "Call `lint` after you write memory, `preview` to see what an agent loads of an index, "
    "`explain_rules` before you edit a file, `fix` for a diff of the safe fixes, `rule` to read a rule's page."
)


class Project:
    """The root the server was started for, and the paths calls name resolved inside it."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)

    def path(self, given: str) -> str:
        """`given` (relative to the root, or absolute) as an absolute path inside the root; a
        ConfigError when it, or what a link along it leads to, lies outside."""
        if "\0" in given:
            raise ConfigError("a path cannot hold a NUL character")
        absolute = os.path.normpath(os.path.join(self.root, given or "."))
        if not inside(absolute, self.root) or not inside(os.path.realpath(absolute), self.root):
            raise ConfigError(f"{given} is outside the project root: the server reads nothing there")
        return absolute

    def shown(self, path: str) -> str:
        """`path` relative to the root, with `/`, as answers name files."""
        return os.path.relpath(path, self.root).replace(os.sep, "/")


# The tools: each takes the project and the call's arguments and returns the answer as data.


def lint(project: Project, path: str = ".", preview: bool = False) -> dict:
    from mnemolint import api
    from mnemolint.report.json_format import as_dict

    findings = [as_dict(d) for d in api.lint(project.path(path), preview=True if preview else None)]
    return {"count": len(findings), "findings": findings[:MAX_FINDINGS], "truncated": len(findings) > MAX_FINDINGS}


def preview(project: Project, directory: str, agent: str | None = None) -> dict:
    from mnemolint import api
    from mnemolint.agents import memory_readers

    names = [reader.name for reader in memory_readers()]
    if agent not in (None, *names):
        raise ConfigError(f"agent must be one of {', '.join(names)}")
    facts = api.preview(project.path(directory), agent)
    return {**facts, "index": project.shown(facts["index"])}


def explain_rules(project: Project, file: str, agent: str | None = None, show_all: bool = False) -> dict:
    from mnemolint.agents import by_name
    from mnemolint.config import load_settings
    from mnemolint.explain import EXPLAINED, explain

    names = [reader.name for reader in EXPLAINED]
    if agent not in (None, *names):
        raise ConfigError(f"agent must be one of {', '.join(names)}")
    target = project.path(file)
    readers = (by_name(agent),) if agent else EXPLAINED
    found = explain(target, project.root, load_settings(None, project.root), readers, show_all)
    return {"file": project.shown(target), "agents": [explanation.as_dict() for explanation in found]}


def fix(project: Project, path: str = ".", write: bool = False) -> dict:
    from mnemolint.config import load_settings
    from mnemolint.fix.fixer import fix as run
    from mnemolint.fix.fixer import unified_diff
    from mnemolint.report import shown
    from mnemolint.report.json_format import as_dict

    target = project.path(path)
    outcome = run([target], load_settings(None, target), unsafe=False, write=write)
    diff = unified_diff(outcome.changes)
    remaining = [as_dict(diagnostic) for diagnostic in shown(outcome.diagnostics)]
    return {
        "written": write and bool(outcome.changes),
        "fixed": len(outcome.fixed),
        "diff": diff[:MAX_TEXT],
        "diff_truncated": len(diff) > MAX_TEXT,
        "remaining": remaining[:MAX_FINDINGS],
        "remaining_count": len(remaining),
    }


def rule(project: Project, code: str) -> dict:
    from mnemolint.catalog import page, rule_url
    from mnemolint.rules import BY_CODE

    code = code.upper()
    if code not in BY_CODE:
        raise ConfigError(f"unknown rule `{code}`")
    text = page(code)
    if text is None:
        raise ConfigError(f"no page found for {code}: the rules catalogue is missing from this installation")
    return {"code": code, "url": rule_url(code), "page": text[:MAX_TEXT]}


TOOLS: dict[str, Callable[..., dict]] = {
    "lint": lint,
    "preview": preview,
    "explain_rules": explain_rules,
    "fix": fix,
    "rule": rule,
}


def call(root: str, tool: str, arguments: dict, timeout: float = TIMEOUT) -> str:
    """The answer of `tool` as JSON text, computed in a child process killed after `timeout`
    seconds; a ConfigError carries what went wrong (a refused path, a timeout, a bad argument)."""
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_work, args=(sender, root, tool, arguments), daemon=True)
    worker.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise ConfigError(f"{tool} took longer than {timeout:g} seconds and was stopped")
        ok, answer = receiver.recv()
    except EOFError:
        raise ConfigError(f"{tool} stopped without an answer") from None
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receiver.close()
    if not ok:
        raise ConfigError(answer)
    if len(answer) > MAX_CHARS:
        raise ConfigError(f"the answer of {tool} is over {MAX_CHARS:,} characters: name a smaller path")
    return answer


def _context() -> Any:
    """Fresh interpreters, so no lock a thread of the server holds is copied: on POSIX forked from a
    server process that has imported the engine once (a call starts in milliseconds), else spawned."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


PRELOAD = ("mnemolint.mcp_server", "mnemolint.api", "mnemolint.engine", "mnemolint.fix.fixer", "mnemolint.explain")


def _work(sender: Connection, root: str, tool: str, arguments: dict) -> None:
    """The child's side of `call`: stdout is the protocol's channel, so nothing may print there."""
    sys.stdout = sys.stderr
    from mnemolint.redact import redacted
    from mnemolint.report import printable

    try:
        answer = TOOLS[tool](Project(root), **arguments)
    except (ConfigError, ValueError, OSError) as error:
        sender.send((False, printable(str(error))))
    else:
        sender.send((True, json.dumps(redacted(answer), ensure_ascii=False)))
    sender.close()


def serve(root: str, timeout: float = TIMEOUT) -> None:
    """Answer MCP requests on stdin/stdout until the client closes them."""
    import anyio.to_thread
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations

    from mnemolint import __version__

    server: Any = MCPServer("mnemolint", version=__version__, instructions=INSTRUCTIONS)
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    async def answer(tool: str, **arguments: Any) -> dict:
        try:
            text = await anyio.to_thread.run_sync(call, root, tool, arguments, timeout)
        except ConfigError as error:
            raise ToolError(str(error)) from None
        return json.loads(text)

    @server.tool(annotations=reading)
    async def lint(path: str = ".", preview: bool = False) -> dict:
        """Lint memory and instruction files: a file or folder relative to the project root ("." for
        the whole project). Call after you write or edit memory. Returns the findings (code,
        severity, message, path, line, fix), secrets masked. `preview`: also run the preview rules,
        among them SEC001's scan for credentials saved as memory."""
        return await answer("lint", path=path, preview=preview)

    @server.tool(annotations=reading)
    async def preview(directory: str, agent: str | None = None) -> dict:
        """What an agent loads of the MEMORY.md in `directory` (a memory folder relative to the root):
        loaded and total size, the agent's warning when it cuts the index, the entries dropped past
        the cut and the topics no session can reach. `agent`: "claude-code" or "wave" (default: by
        where the folder is). Call before you add to an index."""
        return await answer("preview", directory=directory, agent=agent)

    @server.tool(annotations=reading)
    async def explain_rules(file: str, agent: str | None = None, show_all: bool = False) -> dict:
        """Which rules and instruction files each agent ("claude-code", "wave"; default both) injects
        when it reads `file` (relative to the root; it need not exist), and why. `show_all` adds the
        conditional rules that do not apply. Call before you edit a file, to know its rules."""
        return await answer("explain_rules", file=file, agent=agent, show_all=show_all)

    @server.tool(annotations=ToolAnnotations(destructive_hint=False, idempotent_hint=True, open_world_hint=False))
    async def fix(path: str = ".", write: bool = False) -> dict:
        """The safe fixes for a file or folder (relative to the root) as a unified diff, and the
        findings that would remain. Nothing is written unless `write` is true; then only safe fixes
        are applied. Call after `lint` reports fixable findings; show the diff before writing."""
        return await answer("fix", path=path, write=write)

    @server.tool(annotations=reading)
    async def rule(code: str) -> dict:
        """A rule's page (what it checks, why, a bad and a good example, its fix and options), by its
        code, e.g. "MEM101". Call when a finding's code is unclear."""
        return await answer("rule", code=code)

    server.run("stdio")
