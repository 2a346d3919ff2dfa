"""Running a real client on a laid-out case, offline (see sandbox.py for the inside).

The client gets a clean environment: the throwaway $HOME, a dummy key, the fake API's address,
telemetry, updates and error reports off, no proxy, and PATH; nothing else of the caller's
environment (no real key can leak into a run). It runs in `unshare -n` (root) or, where only user
namespaces are allowed, `unshare -r -n`; either way its only network is loopback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import gemini
from casetree import DUMMY_KEY, Session, claude_config
from opencode_client import opencode_spec
from sandbox import PORT_TOKEN

HERE = Path(__file__).resolve().parent
BASE_URL = f"http://127.0.0.1:{PORT_TOKEN}"
QUIET = {
    "NO_PROXY": "127.0.0.1,localhost",
    "HTTPS_PROXY": "",
    "HTTP_PROXY": "",
    "https_proxy": "",
    "http_proxy": "",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
}
CLAUDE_ENV = {
    "ANTHROPIC_BASE_URL": BASE_URL,
    "ANTHROPIC_API_KEY": DUMMY_KEY,
    "DISABLE_TELEMETRY": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_BUG_COMMAND": "1",
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
}
CODEX_CONFIG = """model = "gpt-5.1-codex"
model_provider = "local"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.local]
name = "local"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "LOCAL_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[projects.{cwd}]
trust_level = "trusted"
"""


class Unavailable(Exception):
    """The live oracle cannot run here (no clients, no network namespace); the message says why."""


@dataclass(frozen=True)
class Clients:
    """Where the installed clients are: an npm prefix holding their packages."""

    prefix: Path

    def binary(self, client: str) -> Path:
        return self.prefix / "node_modules" / ".bin" / (gemini.BINARY if client == gemini.CLIENT else client)

    def version(self, client: str) -> str:
        """The client's own `--version` (first word), or Unavailable."""
        binary = self.binary(client)
        if not binary.exists():
            raise Unavailable(f"{client} is not installed under {self.prefix} (run with --install)")
        done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
        words = done.stdout.split()
        if done.returncode != 0 or not words:
            raise Unavailable(f"{binary} --version failed: {done.stderr.strip()[:200]}")
        return words[-1] if client == "codex" else words[0]  # "codex-cli 0.171.0", "2.1.332 (Claude Code)", "0.61.0"


def netns_command() -> list[str]:
    """The command prefix that gives a child a network namespace of its own, or Unavailable."""
    tried = []
    for prefix in (["unshare", "-n"], ["unshare", "-r", "-n"]):
        try:
            done = subprocess.run([*prefix, "true"], capture_output=True, text=True, timeout=30)
        except FileNotFoundError:
            raise Unavailable("unshare is not installed (util-linux)") from None
        if done.returncode == 0:
            return prefix
        tried.append(f"`{' '.join(prefix)}`: {done.stderr.strip()[:120]}")
    raise Unavailable("no network namespace: " + "; ".join(tried))


def _client_spec(session: Session, clients: Clients, prompt: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The client's argv, its extra environment, and the files that must name the fake API's port."""
    extra = dict(line.split("=", 1) for line in (session.option("env") or "").splitlines() if "=" in line)
    if session.client == "claude":
        for name, content in claude_config(session).items():
            path = session.home / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(content, indent=1), encoding="utf-8")
        return [str(clients.binary("claude")), "-p", prompt], {**CLAUDE_ENV, **extra}, {}
    if session.client == gemini.CLIENT:
        argv, env = gemini.client_spec(session, clients.binary(gemini.CLIENT), prompt, BASE_URL, DUMMY_KEY)
        return argv, {**env, **extra}, {}
    if session.client == "opencode":
        argv, env = opencode_spec(str(clients.binary("opencode")), prompt, BASE_URL)
        return argv, {**env, **extra}, {}
    codex_home = session.home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    config = CODEX_CONFIG.format(port=PORT_TOKEN, cwd=json.dumps(str(session.cwd))) + (
        session.option("codex.toml") or ""
    )
    env = {"CODEX_HOME": str(codex_home), "LOCAL_API_KEY": DUMMY_KEY, "OPENAI_API_KEY": "", **extra}
    argv = [str(clients.binary("codex")), "exec", "--skip-git-repo-check", prompt]
    return argv, env, {str(codex_home / "config.toml"): config}


def run_case(session: Session, clients: Clients, capture: Path, netns: list[str], timeout: int = 60) -> int:
    """Run the case's client once ("say hi"); its requests go to capture/requests.jsonl. Returns its rc."""
    capture.mkdir(parents=True, exist_ok=True)
    argv, env, files = _client_spec(session, clients, "say hi")
    scratch = session.project.parent / "tmp"  # the run's own temp dir: nothing shared with other runs
    scratch.mkdir(exist_ok=True)
    spec = {
        "argv": argv,
        "env": {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(session.home),
            "TMPDIR": str(scratch),
            "CLAUDE_CODE_TMPDIR": str(scratch),
            **QUIET,
            **env,
        },
        "cwd": str(session.cwd),
        "capture": str(capture),
        "reads": [str(session.project / read) for read in session.reads],
        "timeout": timeout,
        "files_with_port": files,
    }
    spec_path = capture / "spec.json"
    spec_path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    subprocess.run([*netns, sys.executable, str(HERE / "sandbox.py"), str(spec_path)], check=True, timeout=timeout + 60)
    return int((capture / "rc").read_text())
