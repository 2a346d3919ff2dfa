"""OpenCode's config files (`opencode.json`, `opencode.jsonc`, also under `.opencode/`), and what an
OpenCode session loads, as data: `preview --agent opencode`, the OPC rules and the oracle replay
read `loads`.

A config file is a kind of its own (no container; recognised by its name), read by OpenCode for
its `instructions` (agents/opencode.read_config). Which files a session loads is the agent's
walk (agents/opencode.OpenCodeSession) over the core's probe (kinds/instructions.session): each
file read once through `Document`, never through a link to a credential or system file.
"""

from __future__ import annotations

import os

from mnemolint.agents import OPENCODE
from mnemolint.agents.opencode import (
    CLAUDE_NAME,
    CONFIG_NAMES,
    DISABLE_PROJECT_CONFIG_ENV,
    OpenCodeSession,
    global_files,
    project_names,
)
from mnemolint.kinds.base import Kind
from mnemolint.kinds.instructions import documents, session

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Mapping

    from mnemolint.parse.document import Document

OPENCODE_CONFIG = Kind(
    "opencode config",
    names=CONFIG_NAMES,
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] in CONFIG_NAMES,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,  # JSON has no comment mnemolint could read as one everywhere
    reader=lambda document: OPENCODE,
)


def opencode_session(
    folder: str, known: dict[str, Document], options: dict, env: Mapping[str, str] | None = None
) -> OpenCodeSession:
    """OpenCode's walk for a session in `folder` (`env`: the environment it runs in, default this
    process's)."""
    walk = session(OPENCODE, folder, known, options)
    assert isinstance(walk, OpenCodeSession)
    return walk if env is None else OpenCodeSession(OPENCODE, folder, walk.probe, env)


def loads(walk: OpenCodeSession) -> dict:
    """What the session loads and what it leaves, as data: `files` in OpenCode's order (each with
    where it comes from, its bytes, whether it is sent and why not), `not_loaded` (the files of
    the names it looks for that stand on its way but lose to another), `entries` (each
    `instructions` entry, the config naming it and the files it brings), `urls`, and `partial`
    (the globs whose listing was cut here)."""
    files = []
    for path, origin, entry in walk.start_files():
        (document,) = documents(walk, [path])
        size = len(document.text.encode("utf-8", "surrogatepass")) if document.text is not None else document.size
        sent = walk.sends(path)
        why = "" if sent else ("empty" if document.text == "" else (document.read_error or "not read"))
        files.append({"path": path, "origin": origin, "entry": entry, "bytes": size, "sent": sent, "why": why})
    found = {file["path"] for file in files}
    entries = [
        {"entry": entry, "config": config, "files": [path for path in walk.entry_files(entry) if path in found]}
        for entry, config in walk.entries()
    ]
    return {
        "agent": OPENCODE.name,
        "directory": walk.folder,
        "files": files,
        "not_loaded": not_loaded(walk),
        "entries": entries,
        "urls": walk.urls(),
        "partial": list(dict.fromkeys(walk.partial)),
    }


def not_loaded(walk: OpenCodeSession) -> list[dict[str, str]]:
    """The instruction files standing on the session's way that OpenCode leaves out, and why: a
    project file of a name that loses to the first name found (`AGENTS.md` before `CLAUDE.md`
    before `CONTEXT.md`, anywhere up to the git root), `CLAUDE.md` files or every project file when
    the environment turns them off, and the global file that loses to the other."""
    left: list[dict[str, str]] = []
    won = walk.project_files()[1]
    names = project_names(bool(walk.no_claude))
    for place in walk.up():
        for name in project_names(False):
            path = os.path.join(place, name)
            if path in won or not walk.probe.exists(path):
                continue
            if walk.no_project:
                why = f"{DISABLE_PROJECT_CONFIG_ENV} is set: OpenCode reads no project file"
            elif name not in names:
                why = f"{walk.no_claude} is set: OpenCode reads no {CLAUDE_NAME}"
            else:
                first = os.path.relpath(won[0], walk.folder).replace(os.sep, "/")
                why = f"{first} wins: OpenCode loads only the first of {', '.join(names)} it finds on its way"
            left.append({"path": path, "name": name, "why": why, "winner": won[0] if won and name in names else ""})
    chosen = walk.global_file()
    for path in global_files(walk.home, walk.env):
        if path != chosen and chosen and walk.probe.exists(path):
            left.append({"path": path, "name": os.path.basename(path), "why": f"{chosen} wins", "winner": chosen})
    if walk.no_claude and walk.probe.exists(claude := os.path.join(walk.home, ".claude", CLAUDE_NAME)):
        left.append({"path": claude, "name": CLAUDE_NAME, "why": f"{walk.no_claude} is set", "winner": ""})
    return left
