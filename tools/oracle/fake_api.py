"""A fake model API on 127.0.0.1 that records every request a client makes and answers "hi".

It speaks just enough of four APIs for one short session:
- Anthropic Messages (Claude Code): POST /v1/messages (streamed or not), /v1/messages/count_tokens;
- OpenAI Responses (Codex): POST /v1/responses (streamed), GET /v1/models;
- the Gemini API (Gemini CLI): POST …:generateContent, …:streamGenerateContent, …:countTokens
  (gemini.py; there the k-th turn that offers `read_file` reads the k-th path);
- OpenAI Chat Completions (OpenCode): POST /v1/chat/completions (fake_chat.py).
With `reads`, the k-th streamed request that offers the Read tool (OpenCode's `read`) is answered
with a Read of the k-th path, so the client touches that file and its next request shows what it
attached for it (conditional rules, nested CLAUDE.md or AGENTS.md). Anything else gets `{}`.
"""

from __future__ import annotations

import gzip
import json
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import gemini
from fake_chat import chat_message, chat_stream, offers_read

SECRET_HEADERS = {"authorization", "x-api-key"}


def _sse(events: list[dict]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def _usage() -> dict:
    return {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def anthropic_stream(model: str, read_path: str | None, turn: int) -> bytes:
    """A streamed assistant message: the text "hi", or a Read of `read_path`."""
    if read_path is None:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": "hi"}
        stop = "end_turn"
    else:
        block = {"type": "tool_use", "id": f"toolu_fake_{turn:02d}", "name": "Read", "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps({"file_path": read_path})}
        stop = "tool_use"
    message = {"id": f"msg_fake_{turn}", "type": "message", "role": "assistant", "model": model, "content": []}
    return _sse(
        [
            {"type": "message_start", "message": {**message, "stop_reason": None, "usage": _usage()}},
            {"type": "content_block_start", "index": 0, "content_block": block},
            {"type": "content_block_delta", "index": 0, "delta": delta},
            {"type": "content_block_stop", "index": 0},
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
            {"type": "message_stop"},
        ]
    )


def anthropic_message(model: str) -> bytes:
    return json.dumps(
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": "hi"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": _usage(),
        }
    ).encode()


def responses_stream(model: str) -> bytes:
    item = {
        "type": "message",
        "id": "msg_fake",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }
    response = {"id": "resp_fake", "object": "response", "created_at": 0, "model": model, "output": []}
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 1,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 11,
    }
    return _sse(
        [
            {"type": "response.created", "response": {**response, "status": "in_progress"}},
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {**item, "status": "in_progress", "content": []},
            },
            {
                "type": "response.output_text.delta",
                "item_id": "msg_fake",
                "output_index": 0,
                "content_index": 0,
                "delta": "hi",
            },
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {
                "type": "response.completed",
                "response": {**response, "status": "completed", "output": [item], "usage": usage},
            },
        ]
    )


def _decode(raw: bytes, encoding: str) -> object:
    encoding = encoding.lower()
    try:
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        elif encoding == "deflate":
            raw = zlib.decompress(raw)
        return json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, zlib.error):
        return {"_undecoded": len(raw)}


class FakeAPI:
    """The server: `start()` binds an ephemeral port on 127.0.0.1; every request is one line of `log`."""

    def __init__(self, log: Path, reads: list[str]) -> None:
        self.log, self.reads = log, reads
        self._lock = threading.Lock()
        self._seq = 0
        self._turn = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.port = self.server.server_address[1]

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _record(self, method: str, path: str, headers: dict[str, str], body: object) -> int:
        with self._lock:
            self._seq += 1
            entry = {"seq": self._seq, "method": method, "path": path, "headers": headers, "body": body}
            with self.log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(entry, ensure_ascii=False) + "\n")
            return self._seq

    def _take_read(self) -> tuple[str | None, int]:
        """The next `reads` path and its turn (None when none is left)."""
        with self._lock:
            turn = self._turn
            self._turn += 1
        return (self.reads[turn] if turn < len(self.reads) else None), turn

    def _next_read(self, body: dict) -> tuple[str | None, int]:
        """The Read to answer this request with, if it is a main turn and reads are left."""
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        if "Read" not in tools and not offers_read(body):
            return None, 0
        return self._take_read()

    def answer(self, method: str, path: str, body: object) -> tuple[bytes, str]:
        body = body if isinstance(body, dict) else {}
        model = str(body.get("model") or "fake-model")
        route = path.split("?")[0]
        answered = gemini.answer(route, body, lambda: self._take_read()[0]) if method == "POST" else None
        if answered is not None:
            return answered
        if method == "POST" and route.endswith("/messages/count_tokens"):
            return b'{"input_tokens": 10}', "application/json"
        if method == "POST" and route.endswith("/messages"):
            if body.get("stream"):
                read, turn = self._next_read(body)
                return anthropic_stream(model, read, turn), "text/event-stream"
            return anthropic_message(model), "application/json"
        if method == "POST" and route.endswith("/chat/completions"):  # OpenCode
            if body.get("stream"):
                read, turn = self._next_read(body)
                return chat_stream(model, read, turn), "text/event-stream"
            return chat_message(model), "application/json"
        if method == "POST" and route.endswith("/responses"):
            return responses_stream(model), "text/event-stream"
        if method == "GET" and route.endswith("/models"):
            models = [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "oracle"}]
            return json.dumps({"object": "list", "data": models, "models": []}).encode(), "application/json"
        return b"{}", "application/json"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                pass

            def handle_one(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size) if size else b""
                body = _decode(raw, self.headers.get("Content-Encoding") or "") if raw else None
                headers = {k: ("<redacted>" if k.lower() in SECRET_HEADERS else v) for k, v in self.headers.items()}
                api._record(self.command, self.path, headers, body)
                reply, ctype = api.answer(self.command, self.path, body)
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_one

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
