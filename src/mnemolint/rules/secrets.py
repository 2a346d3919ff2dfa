"""SEC: credential values saved as memory (the memory conventions: keep where a credential
lives and how to fetch it, never its value).

The detector is `redact.find_secrets(text, credible=True)`: the same patterns that mask every
output, less what is only credential-shaped (a placeholder, a reference, an example). The family
is `sensitive`: every message is redacted again before any reporter sees it, and a finding shows
the text before the secret with the value masked, and the value's length, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mnemolint.model import ERROR, Hit
from mnemolint.parse.document import Document
from mnemolint.patterns import Lazy
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
)
def secret_value(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if text is None:
        return
    found = document.derived("credible secrets", _credible_secrets)  # a server's keystroke elsewhere: kept
    templates = _template_lines(document.path, text) if found else set()
    for secret in found:
        line_start = text.rfind("\n", 0, secret.start) + 1
        before = _tail(redact(text[line_start : secret.start]))
        line = text.count("\n", 0, secret.start) + 1
        if secret.kind not in _ANYWHERE and (templates is None or line in templates):
            continue
        yield Hit(
            f"Memory holds {_WHAT[secret.kind]}, `{before}{MASK}` ({secret.end - secret.start} characters "
            f"masked). {_ADVICE}",
            line=line,
            column=secret.start - line_start + 1,
        )
    yield from _decoded_secrets(document, text, {text[secret.start : secret.end] for secret in found})


def _credible_secrets(document: Document) -> list:
    return find_secrets(document.text or "", credible=True)


# What is a secret even in a template: a provider's token or a private key is never a stand-in.
_ANYWHERE = ("token", "private key")
# A file that shows the shape of a configuration, not its values: `.env.example`, `config.sample`,
# `settings.template.json`, `.env.dist`.
_TEMPLATE = Lazy(r"[\w.-]*\.(?:example|sample|template|dist|tmpl|tpl)(?:\.[A-Za-z0-9]{1,5})?(?![\w.-])", re.IGNORECASE)


def _template_lines(path: str, text: str) -> set[int] | None:
    """The lines whose values are a template's stand-ins: every line (None) of a file named like
    one, else the lines of each code block that a template's name introduces (in its info string,
    or on the line just before it: "`.env.example`:")."""
    import os

    if _TEMPLATE.fullmatch(os.path.basename(path)):
        return None
    if _TEMPLATE.search(text) is None:
        return set()
    from mnemolint.parse import markdown

    lines = text.split("\n")
    found: set[int] = set()
    for block in markdown.fences(text):
        before = lines[block.start_line - 2] if block.start_line > 1 else ""
        if _TEMPLATE.search(block.info) or _TEMPLATE.search(before):
            found.update(range(block.start_line, block.end_line + 1))
    return found


_ADVICE = (
    "Memory is loaded into the agent's context and committed with the repository: keep where the credential "
    "lives and how to fetch it, never its value. Remove it, and rotate it."
)
_MAX_NODES = 10_000  # frontmatter values looked at per file: a block is a few keys, not thousands


def _decoded_secrets(document: Document, text: str, reported: set[str]) -> Iterator[Hit]:
    """Secrets that only the decoded frontmatter shows: a value spelled with YAML escapes
    (`"\\x67hp_…"`), a `!!binary` one, which the agent and an index line get decoded. A value the
    file spells as is, and a secret already `reported` at its place, were reported above."""
    head = text[: text.find("\n---", 3) + 1] if text.startswith(("---", "\ufeff---")) else ""
    if "\\" not in head and "!" not in head:
        return  # no escape, no tag: YAML gives back the very characters of the file
    front = document.frontmatter
    for key, value in _strings(front.data or {}, _MAX_NODES):
        if value in text:
            continue
        for secret in find_secrets(value, credible=True):
            if value[secret.start : secret.end] in reported:
                continue
            where = front.key_line(key)
            yield Hit(
                f"Memory holds {_WHAT[secret.kind]}, spelled in YAML (an escape, a tag) so that only its decoded "
                f"value shows it: `{key}` "
                f"holds `{_tail(redact(value[: secret.start]))}{MASK}` once decoded ({secret.end - secret.start} "
                f"characters masked). {_ADVICE}",
                line=where or front.fence_line or None,
            )


def _strings(data: dict, budget: int) -> Iterator[tuple[str, str]]:
    """The strings of a parsed frontmatter (keys too, and bytes as text), each with the top-level
    key it is under, depth first; at most `budget` nodes are visited, so aliases that fan out
    cost no more than that."""
    pending: list[tuple[str, object]] = [(str(name), item) for name, item in reversed(data.items())]
    pending += [(name, name) for name in data if isinstance(name, str)]
    while pending and budget > 0:
        key, value = pending.pop()
        budget -= 1
        if isinstance(value, dict):
            pending += [(key, item) for item in reversed(value.values())]
            pending += [(key, name) for name in value if isinstance(name, str)]
        elif isinstance(value, list):
            pending += [(key, item) for item in reversed(value)]
        elif isinstance(value, (str, bytes)):
            yield key, value if isinstance(value, str) else value.decode("utf-8", "replace")


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
    cites=("`.ai-memory` skill", "memory tool"),
)
