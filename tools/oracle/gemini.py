"""Gemini CLI in the oracle: how it is run offline, how its API is answered, what a fixture keeps.

Gemini CLI (`@google/gemini-cli`) talks to the Gemini API at `GOOGLE_GEMINI_BASE_URL` (plain HTTP
on 127.0.0.1 is allowed) with `GEMINI_API_KEY`; the API key auth type is chosen in the throwaway
`~/.gemini/settings.json`, and `GEMINI_CLI_TRUST_WORKSPACE=true` trusts the case's folder (a
headless run refuses an untrusted one, and an untrusted folder loads no project context).

What it sends of the user's files is a list of blocks, each `--- Context from: PATH ---` … `--- End
of Context from: PATH ---`: the global files and the private project memory in the system
instruction, the project files in the first user message, and the files it discovers when a tool
reads a path below them at the end of that tool's result. A fixture keeps per block its path (said
with <PROJECT>/<HOME>), kind, place, turn, counts and digest, and what the client's import
processor wrote in it about each `@import` (imported, already processed, failed and why); nothing
of the client's own prompt text. Standard library only, like the rest of tools/oracle.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from casetree import Session

CLIENT = "gemini-cli"
PACKAGE = "@google/gemini-cli"
VERSION = os.environ.get("GEMINI_CLI_VERSION", "0.61.0")
BINARY = "gemini"
SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
BLOCK = re.compile(r"--- Context from: (/[^\n]*?) ---\n(.*?)\n--- End of Context from: \1 ---", re.S)
IMPORT_NOTE = re.compile(r"<!-- (Imported from|File already processed|Import failed): (.*?)(?: - ([^\n]*?))? -->")
OUTCOME = {"Imported from": "imported", "File already processed": "already processed", "Import failed": "failed"}
JIT_START = "\n--- Newly Discovered Project Context ---\n"


def home_settings(session: Session) -> dict:
    """The user's settings of the run: API-key auth, no updates or usage statistics, plus the case's
    own `gemini_settings.json` (its `context` keys: `fileName`, …), merged over them."""
    settings = json.loads(json.dumps(SETTINGS))
    for key, value in json.loads(session.option("gemini_settings.json") or "{}").items():
        settings[key] = {**settings.get(key, {}), **value} if isinstance(value, dict) else value
    return settings


def write_home(session: Session) -> None:
    """Write `~/.gemini/settings.json` into the session's $HOME (the recorder and the replay both)."""
    path = session.home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(home_settings(session), indent=1), encoding="utf-8")


def client_spec(
    session: Session, binary: Path, prompt: str, base_url: str, key: str
) -> tuple[list[str], dict[str, str]]:
    """Gemini CLI's argv and extra environment for one headless turn against the fake API."""
    write_home(session)
    env = {
        "GEMINI_API_KEY": key,
        "GOOGLE_GEMINI_BASE_URL": base_url,
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_TELEMETRY_ENABLED": "false",
        "NO_COLOR": "1",
    }
    return [str(binary), "-p", prompt], env


def version_of(stdout: str) -> str:
    """`gemini --version` prints the bare version."""
    return stdout.split()[0] if stdout.split() else ""


# --- the fake Gemini API ---------------------------------------------------------------------------


def _example(schema: dict) -> object:
    """The smallest value of a JSON schema (a routing classifier's answer must parse)."""
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        return {name: _example(sub) for name, sub in (schema.get("properties") or {}).items()}
    if kind in ("number", "integer"):
        return 1
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    return (schema.get("enum") or ["x"])[0]


def _response(parts: list[dict]) -> dict:
    return {
        "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11},
        "modelVersion": "fake-model",
    }


def offers(body: dict, tool: str) -> bool:
    """Whether the request offers the model a function named `tool`."""
    return any(
        isinstance(declaration, dict) and declaration.get("name") == tool
        for group in body.get("tools") or []
        if isinstance(group, dict)
        for declaration in group.get("functionDeclarations") or []
    )


def answer(route: str, body: dict, next_read) -> tuple[bytes, str] | None:
    """The fake API's reply to a Gemini API call, or None when `route` is not one. A main turn that
    offers `read_file` is answered with a read of the next `reads` path (`next_read()`), then "hi";
    a JSON-mode side request gets the smallest value of its schema."""
    if route.endswith(":countTokens"):
        return b'{"totalTokens": 10}', "application/json"
    if not route.endswith((":generateContent", ":streamGenerateContent")):
        return None
    config = body.get("generationConfig") or {}
    read = next_read() if offers(body, "read_file") else None
    if config.get("responseMimeType") == "application/json":
        schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
        parts = [{"text": json.dumps(_example(schema))}]
    elif read is not None:
        parts = [{"functionCall": {"name": "read_file", "args": {"file_path": read}}}]
    else:
        parts = [{"text": "hi"}]
    reply = json.dumps(_response(parts))
    if route.endswith(":streamGenerateContent"):
        return f"data: {reply}\r\n\r\n".encode(), "text/event-stream"
    return reply.encode(), "application/json"


# --- the fixture -----------------------------------------------------------------------------------


def _kind(session: Session, path: str, place: str) -> str:
    """What a block is: the global file, the private project memory, a project file or one
    discovered on a tool's read."""
    gemini_home = str(session.home / ".gemini")
    if place == "system":
        return "global" if os.path.dirname(path) == gemini_home else "private-memory"
    return "jit" if place == "tool-result" else "project"


def _texts(body: dict) -> list[tuple[str, int, str]]:
    """(place, turn, text) of every text of a request that can hold the user's files: the system
    instruction, the user's messages, and the output of each tool result (turn = its number)."""
    found = [
        ("system", 0, part.get("text") or "")
        for part in (body.get("systemInstruction") or {}).get("parts") or []
        if isinstance(part, dict)
    ]
    results = 0
    for content in body.get("contents") or []:
        for part in (content.get("parts") or []) if isinstance(content, dict) else []:
            if not isinstance(part, dict):
                continue
            if "functionResponse" in part:
                results += 1
                output = ((part["functionResponse"] or {}).get("response") or {}).get("output")
                if isinstance(output, str):  # the tool's own output, then what the loader added
                    at = output.find(JIT_START) if JIT_START in output else len(output)
                    found += [("other", results, output[:at]), ("tool-result", results, output[at:])]
            elif isinstance(part.get("text"), str):
                found.append(("messages" if content.get("role") == "user" else "other", results, part["text"]))
    return found


def imports_in(text: str, session: Session) -> list[dict[str, str]]:
    """What the import processor wrote about each `@import` of a block, in order."""
    return [
        {"import": match.group(2), "outcome": OUTCOME[match.group(1)]}
        | ({"reason": session.neutral(match.group(3))} if match.group(3) else {})
        for match in IMPORT_NOTE.finditer(text)
    ]


def fixture(session: Session, capture: Path, version: str) -> dict[str, object]:
    """The fixture of one recorded Gemini CLI case (see the module's docstring)."""
    from extract import MARKER, _compress, about, counts, requests

    files: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    elsewhere: set[str] = set()
    save_memory = False
    for request in requests(capture):
        body = request.get("body")
        if not isinstance(body, dict) or not str(request.get("path", "")).split("?")[0].lower().endswith(
            "generatecontent"
        ):
            continue
        save_memory = save_memory or offers(body, "save_memory")
        for place, turn, text in _texts(body):
            outside = text
            if place != "other":
                for block in BLOCK.finditer(text):
                    content = session.neutral(block.group(2))
                    entry = {
                        "path": session.placeholder(block.group(1)),
                        "kind": _kind(session, block.group(1), place),
                        "place": place,
                        "turn": turn,
                        **counts(content),
                        "imports": imports_in(block.group(2), session),
                    }
                    key = (str(entry["path"]), str(entry["sha256"]))
                    if key not in seen:
                        seen.add(key)
                        files.append(entry)
                outside = BLOCK.sub("\n", text)
            elsewhere.update(MARKER.findall(outside))
    return {
        **about(session, version),
        "files": files,
        "save_memory_tool": save_memory,
        "markers_elsewhere": _compress(elsewhere),
    }
