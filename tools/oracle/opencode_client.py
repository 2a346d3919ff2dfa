"""OpenCode (`opencode-ai` on npm) in the oracle: its command line, environment and model config.

OpenCode runs non-interactively as `opencode run PROMPT`. Its model is a custom OpenAI-compatible
provider whose `baseURL` is the fake API on 127.0.0.1 (fake_chat.py answers it), given in
`OPENCODE_CONFIG_CONTENT` so that the case's own `opencode.json` files stay the user's: OpenCode
merges that config after them, and it has no `instructions` of its own. The skill tool
is denied, so the system prompt ends with the user's instruction files (extract_opencode.py relies
on that); updates, model-list fetches, LSP downloads and sharing are off.
"""

from __future__ import annotations

import json

from casetree import DUMMY_KEY

MODEL_CONFIG = {
    "$schema": "https://opencode.ai/config.json",
    "model": "local/fake-model",
    "small_model": "local/fake-model",
    "autoupdate": False,
    "share": "disabled",
    "permission": {"skill": "deny"},
    "provider": {
        "local": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "oracle",
            "options": {"baseURL": "{base_url}/v1", "apiKey": DUMMY_KEY},
            "models": {"fake-model": {"name": "fake model"}},
        }
    },
}
OPENCODE_ENV = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
}


def opencode_spec(binary: str, prompt: str, base_url: str) -> tuple[list[str], dict[str, str]]:
    """OpenCode's argv and its environment (runner.py adds the case's own `env` lines after it)."""
    config = json.dumps(MODEL_CONFIG).replace("{base_url}", base_url)
    return [binary, "run", prompt], {**OPENCODE_ENV, "OPENCODE_CONFIG_CONTENT": config}
