"""`mnemolint preview DIR [--agent NAME]`: what the agent loads from `DIR/MEMORY.md` (for an agent
that keeps no memory dir, Codex: from the instruction files of a session in `DIR`; Gemini CLI: the
context files a session in `DIR` sends, its imports expanded).

The facts and their text are the core's (`mnemolint/preview.py`, which `mnemolint.api.preview`
returns too): this command reads its arguments and prints them.
"""

from __future__ import annotations

import os
import sys

from mnemolint.agents import names
from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_codex_argument, add_config_argument

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse


NAME = "preview"
HELP = "show what an agent loads from a memory dir's MEMORY.md and what it drops"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "directory", metavar="DIR", help="the memory dir (with --agent codex or opencode: a session's folder)"
    )
    parser.add_argument(
        "--agent",
        choices=names(),
        help="default: wave for a dir under .wave/, else claude-code; codex shows the AGENTS.md chain of DIR, "
        "gemini-cli the context files a session in DIR sends, opencode the files a session in DIR loads, "
        "cursor|copilot|windsurf|cline the rule files a session in DIR gets",
    )
    parser.add_argument("--output-format", choices=("text", "json"), default="text", help="default: text")
    parser.add_argument(
        "--auto-memory",
        action="store_true",
        help="DIR is a project: show what Claude Code loads of its auto memory (~/.claude/projects/<project>/memory)",
    )
    add_config_argument(parser)
    add_codex_argument(parser)
    from mnemolint.report.color import add_color_argument

    add_color_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint import preview
    from mnemolint.agents import CLAUDE_CODE, by_name
    from mnemolint.commands.common import memory_dir_settings
    from mnemolint.memory_dirs import find_memory_dir
    from mnemolint.report.color import use_color

    if args.agent == "opencode":  # its own view: where each file comes from, and what it leaves out
        from mnemolint.commands import preview_opencode

        return preview_opencode.run(args)
    if args.agent == "gemini-cli":  # its own import processor and files: kinds/gemini.GeminiSession
        return _run_gemini(args)
    if args.agent in _tools():
        return _run_tool(args)
    if args.agent and by_name(args.agent).memory is None:
        return _run_instructions(args)
    if args.auto_memory:
        args.directory, args.agent = _auto_memory_of(args.directory), CLAUDE_CODE.name
    directory, settings = memory_dir_settings(args, args.directory)
    memdir = find_memory_dir(directory, settings)
    reader = preview.reader_of(memdir, args.agent)
    facts = preview.memory(memdir, reader, settings.options)
    if args.output_format == "json":
        import json

        from mnemolint.report import display_path

        json.dump({**facts, "index": display_path(facts["index"])}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    elif use_color(args.color, sys.stdout):
        from rich.text import Text

        from mnemolint.report.color import console

        terminal = console(sys.stdout, soft_wrap=True)
        for line, style in preview.styled_memory(facts, reader):
            terminal.print(Text(line, style=style))
    else:
        sys.stdout.write(preview.describe_memory(facts, reader))
    return EXIT_CLEAN


def _auto_memory_of(project: str) -> str:
    """The auto-memory dir Claude Code keeps for a session in `project` (its profile's
    `auto_memory`); a usage error when auto memory is off there or the dir does not exist, saying
    which and why."""
    from mnemolint.agents import CLAUDE_CODE
    from mnemolint.commands.common import directory_argument
    from mnemolint.errors import ConfigError

    assert CLAUDE_CODE.auto_memory is not None
    folder = directory_argument(project)
    memory, off = CLAUDE_CODE.auto_memory(folder)
    if off:
        raise ConfigError(f"{CLAUDE_CODE.title}'s auto memory is off for {folder}: {off}")
    if not os.path.isdir(memory):
        raise ConfigError(
            f"{CLAUDE_CODE.title} keeps the auto memory of {folder} in {memory}, which does not exist yet"
        )
    return memory


def _run_instructions(args: argparse.Namespace) -> int:
    from mnemolint import preview
    from mnemolint.agents import by_name
    from mnemolint.commands.common import directory_argument, settings_from_args

    agent = by_name(args.agent)
    directory = directory_argument(args.directory)
    facts = preview.instructions(agent, directory, settings_from_args(args, directory).options)
    if args.output_format == "json":
        import json

        from mnemolint.report import display_path

        shown = {
            **facts,
            "directory": display_path(directory),
            "files": [{**entry, "path": display_path(entry["path"])} for entry in facts["files"]],
            "unread": [{**entry, "path": display_path(entry["path"])} for entry in facts["unread"]],
        }
        json.dump(shown, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(preview.describe_instructions(facts, agent))
    return EXIT_CLEAN


def _run_gemini(args: argparse.Namespace) -> int:
    """Gemini CLI: the context files a session in DIR sends at the start (kinds/gemini.py)."""
    from mnemolint import preview
    from mnemolint.commands.common import directory_argument, settings_from_args
    from mnemolint.kinds.gemini import GeminiSession
    from mnemolint.report import display_path

    directory = directory_argument(args.directory)
    facts = GeminiSession(directory, settings_from_args(args, directory).options).facts()
    if args.output_format == "json":
        import json

        shown = {
            **facts,
            "directory": display_path(directory),
            "setting": display_path(facts["setting"]) if facts["setting"] else None,
            "files": [
                {
                    **entry,
                    "path": display_path(entry["path"]),
                    "imports": [{**found, "file": display_path(found["file"])} for found in entry["imports"]],
                }
                for entry in facts["files"]
            ],
        }
        json.dump(shown, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(preview.describe_gemini(facts))
    return EXIT_CLEAN


def _tools() -> set[str]:
    """The agents whose rule files, not a MEMORY.md or an instruction chain, `preview` shows."""
    from mnemolint.kinds.tool_rules import READERS

    return {agent.name for agent in READERS.values()}


def _run_tool(args: argparse.Namespace) -> int:
    from mnemolint import preview
    from mnemolint.agents import by_name
    from mnemolint.commands.common import directory_argument, settings_from_args

    directory = directory_argument(args.directory)
    agent = by_name(args.agent)
    facts = preview.tool_rules(agent, directory, settings_from_args(args, directory))
    if args.output_format == "json":
        import json

        from mnemolint.report import display_path

        shown = {
            **facts,
            "directory": display_path(directory),
            "start": [display_path(path) for path in facts["start"]],
            "files": [{**entry, "path": display_path(entry["path"])} for entry in facts["files"]],
        }
        json.dump(shown, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(preview.describe_tool_rules(facts, agent))
    return EXIT_CLEAN
