"""The OpenAI Chat Completions part of the fake API, for OpenCode's OpenAI-compatible provider.

OpenCode posts `/v1/chat/completions` (streamed). The answer is "hi", or, while the case has
`reads` left, a call of OpenCode's `read` tool on the next one, so the client touches that file and
its next request shows what it attached for it (a nested AGENTS.md). fake_api.py routes here.
"""

from __future__ import annotations

import json


def _chunk(model: str, delta: dict, finish: str | None, usage: dict | None = None) -> str:
    body: dict = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = usage
    return f"data: {json.dumps(body)}\n\n"


def offers_read(body: dict) -> bool:
    """Whether the request offers the `read` tool (a main turn, not a title or summary request)."""
    return any(
        isinstance(tool, dict) and (tool.get("function") or {}).get("name") == "read"
        for tool in body.get("tools") or []
    )


def chat_stream(model: str, read_path: str | None, turn: int) -> bytes:
    """A streamed assistant message: the text "hi", or a `read` call of `read_path`."""
    usage = {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}
    if read_path is None:
        parts = [
            _chunk(model, {"role": "assistant", "content": "hi"}, None),
            _chunk(model, {}, "stop", usage),
        ]
    else:
        call = {
            "index": 0,
            "id": f"call_fake_{turn:02d}",
            "type": "function",
            "function": {"name": "read", "arguments": json.dumps({"filePath": read_path})},
        }
        parts = [
            _chunk(model, {"role": "assistant", "content": None, "tool_calls": [call]}, None),
            _chunk(model, {}, "tool_calls", usage),
        ]
    return ("".join(parts) + "data: [DONE]\n\n").encode()


def chat_message(model: str) -> bytes:
    """A whole (not streamed) assistant message "hi"."""
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11},
        }
    ).encode()
