"""`mnemolint preview DIR --agent opencode`: what OpenCode loads for a session started in `DIR`.

Each file in OpenCode's order (the global one, the project's, those `instructions` name), where it
comes from, its size and whether it is sent (an empty file is not); the instruction files on the
way that OpenCode leaves out because another name wins; the `instructions` entries that bring
nothing; the URL entries it fetches at every start (not fetched here). The facts are
kinds/opencode.loads; commands/preview.py hands `--agent opencode` here.
"""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    from mnemolint.commands.common import directory_argument, settings_from_args
    from mnemolint.kinds.opencode import loads, opencode_session

    directory = directory_argument(args.directory)
    facts = loads(opencode_session(directory, {}, settings_from_args(args, directory).options))
    if args.output_format == "json":
        import json

        json.dump(shown(facts), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(describe(facts))
    return EXIT_CLEAN


def shown(facts: dict) -> dict:
    """The facts with each path said as the other formats say it (relative to the current folder)."""
    from mnemolint.report import display_path

    return {
        **facts,
        "directory": display_path(facts["directory"]),
        "files": [{**entry, "path": display_path(entry["path"])} for entry in facts["files"]],
        "not_loaded": [
            {**entry, "path": display_path(entry["path"]), "winner": entry["winner"] and display_path(entry["winner"])}
            for entry in facts["not_loaded"]
        ],
        "entries": [
            {**entry, "config": display_path(entry["config"]), "files": [display_path(path) for path in entry["files"]]}
            for entry in facts["entries"]
        ],
    }


def describe(facts: dict) -> str:
    """The facts as the text `preview --agent opencode` prints."""
    from mnemolint.agents.opencode import VERSION
    from mnemolint.parse.textutil import visible
    from mnemolint.report import display_path

    where = display_path(facts["directory"])
    sent = [entry for entry in facts["files"] if entry["sent"]]
    if not sent and not facts["urls"]:
        lines = [f"OpenCode {VERSION} loads no instruction file for a session in {where}."]
    else:
        lines = [f"OpenCode {VERSION} loads, for a session in {where}, each file whole, in this order:"]
    for entry in facts["files"]:
        origin = entry["origin"] if entry["entry"] is None else f"instructions `{visible(entry['entry'])}`"
        state = f"{entry['bytes']:,} bytes" if entry["sent"] else f"not sent: {entry['why']}"
        lines.append(f"  {display_path(entry['path'])} ({origin}): {state}")
    for url in facts["urls"]:
        lines.append(f"  {visible(url)} (instructions): fetched at every start, not checked here")
    if facts["not_loaded"]:
        lines.append("Not loaded by OpenCode:")
        lines.extend(f"  {display_path(entry['path'])}: {entry['why']}" for entry in facts["not_loaded"])
    empty = [entry for entry in facts["entries"] if not entry["files"] and "://" not in entry["entry"]]
    if empty:
        lines.append("`instructions` entries that bring no file here:")
        lines.extend(f"  `{visible(entry['entry'])}` ({display_path(entry['config'])})" for entry in empty)
    for pattern in facts["partial"]:
        lines.append(f"`{visible(pattern)}` lists more files than mnemolint looks at: the list above may be short.")
    return "\n".join(lines) + "\n"
