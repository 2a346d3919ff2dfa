"""SEC: credential values saved as memory (SPEC §3; seeds 001 and 003: keep where a credential
lives and how to fetch it, never its value).

The detector is `redact.find_secrets(text, credible=True)`: the same patterns that mask every
output, less what is only credential-shaped (a placeholder, a reference, an example). The family
is `sensitive`: every message is redacted again before any reporter sees it, and a finding shows
the text before the secret with the value masked, and the value's length, never the value.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.model import ERROR, Hit
from mnemolint.parse.document import Document
from mnemolint.redact import MASK, find_secrets, redact
from mnemolint.rules.base import EVERY_KIND, Family, rule

_CONTEXT = 24  # characters of the line before the secret that the message shows, masked
_WHAT = {
    "token": "an access token",
    "private key": "a private key",
    "password in URL": "a password in a URL",
    "credential": "a credential's value",
    "key material": "key material (a long random run, like an AWS secret key)",
}


@rule(
    "SEC001",
    "secret-value",
    ERROR,
    reads=EVERY_KIND,
    summary="A credential's value (a key, a token, a password) saved in a memory file.",
    cacheable=True,
    preview=(
        "On 11 public repositories it was not tuned on, none of its 3 findings was a real secret (a config "
        "name, a placeholder in a `.env.example`; 2 debatable): too few right findings to judge it, so it "
        "stays in preview until it has been measured again."
    ),
)
def secret_value(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if text is None:
        return
    for secret in find_secrets(text, credible=True):
        line_start = text.rfind("\n", 0, secret.start) + 1
        before = _tail(redact(text[line_start : secret.start]))
        line = text.count("\n", 0, secret.start) + 1
        yield Hit(
            f"Memory holds {_WHAT[secret.kind]}, `{before}{MASK}` ({secret.end - secret.start} characters "
            "masked). Memory is loaded into the agent's context and committed with the repository: keep where "
            "the credential lives and how to fetch it, never its value. Remove it, and rotate it.",
            line=line,
            column=secret.start - line_start + 1,
        )


def _tail(before: str) -> str:
    """The last words before the secret, enough to find it on its line."""
    before = before.lstrip()
    if len(before) <= _CONTEXT:
        return before
    cut = before[-_CONTEXT:]
    return "…" + (cut[cut.find(" ") + 1 :] if " " in cut[:-1] else cut)


FAMILY = Family(
    "SEC",
    "secrets",
    "secrets",
    (secret_value,),
    security={"SEC001": "9.0"},  # a live credential in a committed file that agents read and quote
    sensitive=True,
    cites=("seed",),
)
