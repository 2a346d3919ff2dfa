"""`redact_all`: many texts redacted at once, exactly as each alone (`redact`), whatever they hold —
secrets of every shape, pieces of one split across two texts, newlines, characters whose lower
case is longer — and a report's formats print the same bytes through it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemolint import redact as redact_module
from mnemolint.redact import redact, redact_all

# Pieces of every shape `redact` masks, the halves of some (so that two texts side by side hold
# one whole), and what a newline or the end of a text is next to.
PIECES = (
    "ghp_" + "a1B2c3D4" * 5,
    "ghp_",
    "a1B2c3D4" * 5,
    "xoxb-1234567890-abc",
    "sk-proj-" + "Ab3" * 8,
    "password: hunter2x9",
    "password:",
    " hunter2x9",
    "the token is s3cr3t-v4lue!",
    "api_key=",
    "'quoted value 9'",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEA7x9",
    "https://admin:pa55word@host.example",
    "https://admin:",
    "@host",
    "Authorization: Bearer abcDEF123456789",
    "Basic dXNlcjpwYXNzd29yZA==",
    "AbCdEf0123456789GhIjKlMn0123456789OpQrStUv",
    "data:image/png;base64,",
    "AKIA" + "ABCDEFGHIJKLMNOP",
    "topic_000123.md",
    "memory/",
    "No line of MEMORY.md links to `",
    "`: ",
    "İ",
    "ſ",
    "Σ",
    "前端",
    "\n",
    " ",
    "\t",
    "",
)
TEXT = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT, max_size=300))
def test_many_texts_are_redacted_as_each_alone(texts: list[str]) -> None:
    assert redact_all(texts) == [redact(text) for text in texts]


def test_a_block_without_secrets_is_scanned_once_and_one_with_is_redacted_text_by_text(monkeypatch) -> None:
    calls: list[str] = []
    real = redact_module._every_shape

    def counted(text: str) -> list:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(redact_module, "_every_shape", counted)
    clean = [f"No line of MEMORY.md links to `topic_{n:06d}.md`." for n in range(200)]
    assert redact_all(clean) == clean
    assert len(calls) == 2  # two blocks, one scan each
    calls.clear()
    texts = [*clean[:5], "password: hunter2x9", *clean[5:]]
    assert redact_all(texts)[5] == "password: ***"
    assert len(calls) == 2 + redact_module._BLOCK  # the block with a secret, then each of its texts
