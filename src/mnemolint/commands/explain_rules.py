"""`mnemolint explain-rules FILE [--agent NAME] [--all]`: what each agent injects when
it reads FILE — project memory, always-on and matching rules, nested instruction files — and
why, with the rules replaced by a later one and those a dangling link keeps from loading."""

from __future__ import annotations

import json
import os
import sys

from mnemolint.agents import names
from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_config_argument, add_user_rules_argument
from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.explain import Entry, Explanation

NAME = "explain-rules"
HELP = "show which rules and instruction files an agent injects when it reads FILE, and why"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the file the agent reads (it need not exist)")
    parser.add_argument(
        "--agent",
        choices=names(),
        help="only this agent (default: each agent the project uses, else wave and claude-code)",
    )
    parser.add_argument("--all", action="store_true", help="also list the conditional rules that do not apply, and why")
    parser.add_argument(
        "--root", metavar="DIR", help="the folder the agent works in (default: the current one when it holds FILE)"
    )
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    add_user_rules_argument(parser)
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    from mnemolint.agents import by_name
    from mnemolint.commands.common import settings_from_args, working_directory
    from mnemolint.explain import EXPLAINED, explain, project_root
    from mnemolint.redact import redacted

    working_directory()
    root = os.path.abspath(args.root) if args.root else project_root(args.file)
    if not os.path.isdir(root):
        raise ConfigError(f"not a directory: {args.root}")
    settings = settings_from_args(args, root)
    readers = (by_name(args.agent),) if args.agent else _used(root, settings.options) or EXPLAINED
    found = explain(args.file, root, settings, readers, args.all)
    shown = os.path.relpath(os.path.abspath(args.file), root).replace(os.sep, "/")
    if args.output_format == "json":
        data = {"file": shown, "project": root, "agents": [explanation.as_dict() for explanation in found]}
        json.dump(redacted(data), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("\n".join(_text(explanation, shown, args.all) for explanation in found))
    return EXIT_CLEAN


def _used(root: str, options: dict) -> tuple:
    """The agents the project uses that load instruction files or rules (the `agents` setting, else
    their traces): an `AGENTS.md` read by several shows each one's reading."""
    from mnemolint.agents import used_by

    return tuple(
        agent
        for agent in used_by(root, list(options.get("agents") or []))
        if agent.instructions is not None or agent.rules is not None
    )


def _text(found: Explanation, shown: str, show_all: bool) -> str:
    from mnemolint.report import printable as visible

    lines = [f"{found.reader.title}: what it injects when it reads {visible(shown)}"]
    if found.auto_memory is not None:  # a line of its own, no list: `mnemolint preview --auto-memory` shows it
        lines.append(f"  Auto memory (its MEMORY.md loads in every session): {visible(found.auto_memory)}")
    sections: list[tuple[str, list[str]]] = [
        ("Project memory, always loaded", found.memory),
        ("Always-on rules", [_entry(entry) for entry in found.always]),
        ("Conditional rules that apply", [_entry(entry) for entry in found.applying]),
        ("Read on request (by its description, or when @-mentioned)", [_entry(entry) for entry in found.requested]),
        ("Nested instruction files, outermost first", found.nested),
        (
            "Imported with them (@imports)",
            [f"{path} → {', '.join(brought)}" for path, brought in found.imports.items()],
        ),
        ("Replaced by a later rule with the same id", [_entry(entry) for entry in found.replaced]),
        ("Never loaded (a dangling link)", [_entry(entry) for entry in found.lost]),
    ]
    if show_all:
        sections.append(("Conditional rules that do not apply", [_entry(entry) for entry in found.not_applying]))
    for title, items in sections:
        if items or (found.reader.rules is not None and title.startswith(("Always", "Conditional rules that apply"))):
            lines.append(f"  {title}:")
            lines.extend(f"    {visible(item)}" for item in items or ["(none)"])
    return "\n".join(lines) + "\n"


def _entry(entry: Entry) -> str:
    origin = " [user]" if entry.origin == "user" else ""
    return f"{entry.path}{origin}" + (f" — {entry.why}" if entry.why else "")
