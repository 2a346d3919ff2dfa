"""The tests `redact.find_secrets` runs before each shape's scan answer no only when the scan finds
nothing: the spans are those of every scan run on the whole text, whatever the text.

The token test rests on two facts about `_TOKENS` (every character a token is made of or its
look-arounds test is one of `_TOKEN_CHARS`, and none is shorter than `_SHORTEST_TOKEN`), read here
from the patterns themselves, so a token added later cannot slip past it. Hypothesis then compares
the fast path with the full scans on texts made of what each scan looks for, and 1 MB of what
makes the runs' search work hardest stays fast. `may_hold_secret`, which clears a cache entry's
dump at once, never clears bytes holding a text with a secret, whatever bytes stand around it.
Last, `report.shown`, which makes a text many findings share printable once, still gives each
finding its own masked text.
"""

from __future__ import annotations

import marshal
import re
import sys
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mnemolint import redact
from mnemolint.redact import find_secrets

try:  # the parser behind `re.compile`; `sre_parse` before Python 3.11
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

equivalent = settings(max_examples=1_500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def matchable(tree: object) -> set[str]:
    """Every character a parsed pattern (`sre_parse.parse`) can match or test anywhere, its
    look-arounds included; a negated class or a category (`\\d`, `\\w`) fails the test."""
    chars: set[str] = set()
    for op, argument in tree:  # type: ignore[attr-defined]
        name = str(op)
        if name == "LITERAL":
            chars.add(chr(argument))
        elif name == "IN":
            for item, value in argument:
                assert str(item) in ("LITERAL", "RANGE"), (item, value)
                chars.update(chr(value) if str(item) == "LITERAL" else map(chr, range(value[0], value[1] + 1)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            chars |= matchable(argument[2])
        elif name == "SUBPATTERN":
            chars |= matchable(argument[3])
        elif name in ("ASSERT", "ASSERT_NOT"):
            chars |= matchable(argument[1])
        elif name == "BRANCH":
            for branch in argument[1]:
                chars |= matchable(branch)
        else:
            raise AssertionError(f"{name} in a token pattern: the run test does not know it")
    return chars


def test_every_token_is_made_of_the_run_characters() -> None:
    tree = sre_parse.parse(redact._TOKEN.pattern)
    assert redact._TOKEN.flags & re.IGNORECASE == 0
    assert matchable(tree) <= set(redact._TOKEN_CHARS)
    assert redact._TOKEN_CHARS.isascii() and redact._RUN_CHARS.isascii()  # one byte each in UTF-8


def test_no_token_is_shorter_than_the_shortest_run() -> None:
    widths = {token: sre_parse.parse(token).getwidth()[0] for token in redact._TOKENS}
    assert min(widths.values()) == redact._SHORTEST_TOKEN
    short = [token for token, width in widths.items() if width < redact._SHORTEST_OTHER]
    assert short and all(token.startswith(redact._SHORT_TOKENS) for token in short), short


def test_key_material_is_a_run_of_the_run_characters() -> None:
    op, (least, most, run) = sre_parse.parse(redact._RANDOM.pattern)[1]  # after the look-behind
    assert (str(op), least, most) == ("MAX_REPEAT", redact._SHORTEST_RUN, sre_constants.MAXREPEAT)
    assert matchable(run) == set(redact._RUN_CHARS)


def full_scan(text: str) -> list[tuple[int, int, str]]:
    """The spans every scan finds in the whole text, with only the keyword tests that decide what
    the credential-name patterns look at (a case-folded `ſ` is not an `s` there)."""
    low = text.lower()
    found = [*redact._private_keys(text), *redact._urls(text), *redact._tokens(text), *redact._random(text)]
    if any(word in low for word in ("pass", "secret", "token", "key", "credential")):
        found += redact._pairs(text, low)
    if "bearer" in low or "basic" in low:
        found += redact._bearers(text)
    return sorted((secret.start, secret.end, secret.kind) for secret in found)


def shapes(text: str) -> list[tuple[int, int, str]]:
    return sorted((secret.start, secret.end, secret.kind) for secret in redact._every_shape(text))


PREFIXES = [
    *("ghp_", "gho_", "github_pat_", "glpat-", "glrt-", "glc_", "glsa_", "xoxb-", "xapp-", "sk-", "sk-proj-"),
    *("sk_live_", "rk_test_", "whsec_", "AIza", "GOCSPX-", "AKIA", "ASIA", "npm_", "pypi-AgE", "hf_", "SG."),
    *("dop_v1_", "shpat_", "lin_api_", "pplx-", "gsk_", "xai-", "dapi", "AGE-SECRET-KEY-1", "eyJ", ".eyJ"),
]
AROUND = [  # what may stand next to a run: inside it, ending it, a character outside ASCII
    *(" ", "  ", "\n", "\t", ".", "/", "+", "=", "==", "-", "_", ":", "@", "`", '"', "'", "~", ";base64,"),
    *("é", "—", "\u212a", "İ", "ſ", "\udc80", "\U0001f600", "0", "9", "a", "Z"),
]
PIECES = [
    *PREFIXES,
    *AROUND,
    *("password", "PASSWORD", "db_password: ", "API_KEY=", '"token": "', "key=", "secret is ", "Token"),
    *("Authorization: Basic ", "Authorization: Bearer ", "basic ", "BEARER\t", "dXNlcjpwYXNz", "Basic HTML/View"),
    *("https://", "postgres://app:", "@host", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"),
]
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
HEX = "0123456789abcdef"
runs = st.one_of(
    st.text(alphabet=BASE64, min_size=10, max_size=70),
    st.text(alphabet=HEX, min_size=10, max_size=70),
    st.text(alphabet=redact._TOKEN_CHARS, min_size=8, max_size=50),
    st.text(alphabet="aA1", min_size=14, max_size=42),
)
tokens = st.builds(  # a token's prefix, a body around the shortest the prefix takes, a character after it
    lambda prefix, body, after: prefix + body + after,
    st.sampled_from(PREFIXES),
    st.text(alphabet="abcXYZ0189_-", min_size=8, max_size=40),
    st.sampled_from(AROUND),
)
texts = st.lists(st.one_of(st.sampled_from(PIECES), runs, tokens, st.text(max_size=6)), max_size=24).map("".join)


@equivalent
@given(texts)
@example("the build runs `make ci`; Flaky test: test_sync_retry (network).")
@example("x" * 14 + " xoxb-1234567890 and xoxb-123456789")  # the shortest token, and one too short
@example("SG.abcdefghijklmnop.qrstuvwxyz0123456/")
@example("test_sync_retry xoxb-1234567890 topic_000123.md")  # a Slack token among short runs
@example("the app token xapp-1234567890, alone")
@example("AKIAZ7Q3K5M2N8P4R6T1")
@example("é" + "A1b2" * 10)
@example("token: ſecret-1234567")
def test_the_fast_path_finds_what_the_full_scans_find(text: str) -> None:
    assert shapes(text) == full_scan(text)
    token, random = redact._runs(text)
    assert token == (redact._TOKEN.search(text) is not None)
    assert random == (re.search(r"[A-Za-z0-9+/]{40}", text) is not None)


@equivalent
@given(texts)
def test_redaction_masks_what_the_full_scans_find(text: str) -> None:
    """`redact` is the spans of the full scans, the first of overlapping ones kept, each masked."""
    kept: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(full_scan(text), key=lambda span: (span[0], -span[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, kind))
    assert [(secret.start, secret.end, secret.kind) for secret in find_secrets(text)] == kept
    masked = "".join(
        text[(kept[index - 1][1] if index else 0) : start] + redact._mask(text[start:end])
        for index, (start, end, _) in enumerate(kept)
    ) + (text[kept[-1][1] :] if kept else text)
    assert redact.redact(text) == masked


around = st.binary(max_size=8) | st.sampled_from([b"", b"\x00", b"z(", b"0", b"A", b"_", b"-", b"\xda"])


@equivalent
@given(texts, around, around)
@example("the build runs `make ci`; Flaky test: test_sync_retry (network).", b"", b"")
@example("ghp_" + "Q9w8E7r6T5" * 3, b"0", b"")  # a byte beside it that the token's look-behind fails on
@example("\u212aey=hunter2!", b"", b"")  # the Kelvin sign: `bytes.lower` does not make it a k
@example("the passphrase is x9!y", b"", b"")  # one example of each cue alone
@example("Authorization: Basic dXNlcjpwYXNz", b"", b"")
@example("Bearer abcdefgh12", b"", b"")
@example("postgres://app:s3cr3t@host", b"", b"")
@example("the credentials: x9!y", b"", b"")
@example("SECRET=x9!y", b"", b"")
def test_may_hold_secret_never_clears_a_text_with_a_secret(text: str, before: bytes, after: bytes) -> None:
    """Whatever bytes stand around a text (a marshal dump's type codes and lengths, other texts),
    `may_hold_secret` clears them only where the text holds no credential-shaped span; a block
    of dumps is cleared only where every dump in it is."""
    data = before + text.encode("utf-8", "surrogatepass") + after
    if find_secrets(text):
        assert redact.may_hold_secret(data)
    dumps = [marshal.dumps(("plain", 1)), marshal.dumps((text, [text[:5]])), data]
    assert redact.may_hold_secrets(dumps) == [redact.may_hold_secret(blob) for blob in dumps]


def test_may_hold_secret_knows_every_character_that_lowers_to_ascii() -> None:
    changed = [char for char in map(chr, range(0x80, sys.maxunicode + 1)) if char.lower() != char]
    lowered = [char for char in changed if any(ord(each) < 0x80 for each in char.lower())]
    assert sorted(char.encode() for char in lowered) == sorted(redact._FOLDS_TO_ASCII)


@equivalent
@given(st.sampled_from(redact._TOKENS).flatmap(lambda pattern: st.from_regex(pattern, fullmatch=True)))
def test_every_token_starts_with_a_prefix(token: str) -> None:
    """`may_hold_secret` looks for a token's prefix alone, in every long enough run."""
    assert redact._TOKEN_PREFIX.match(token), token
    assert redact.may_hold_secret(b"\x01" + token.encode() + b"\x01")


def test_a_cache_sized_block_of_plain_dumps_is_cleared() -> None:
    """What the screen is for: the dumps of plain memory files, a thousand of them, all cleared."""
    line = "The build runs through `make ci`; Flaky test: test_sync_retry (network)."
    dumps = [marshal.dumps(((f"name: topic-{n}", line), (f"topic_{n:06d}.md",))) for n in range(1_000)]
    assert redact.may_hold_secrets(dumps) == [False] * 1_000


MEGABYTE = 1 << 20


@pytest.mark.parametrize(
    "unit",
    [
        "a" * 14 + " ",  # runs one short of a token's: every one found, none kept
        "a" * 15 + " ",  # the shortest run, a million times
        "".join(f"{n:015d} " for n in range(4_000)),  # many different runs, all searched
        "ghp_" + "a" * 29 + " ",  # one character short of a token, again and again
        "a/" * 40,  # one run, a megabyte long, full of places a token could start
        "A1b2" * 9 + "é",  # key material's runs broken by a character outside them
        "é",
    ],
    ids=["short-runs", "shortest-runs", "distinct-runs", "near-token", "one-run", "broken-runs", "non-ascii"],
)
def test_the_run_search_is_linear_on_a_megabyte(unit: str) -> None:
    text = (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]
    started = time.perf_counter()
    find_secrets(text, credible=True)
    assert time.perf_counter() - started < 3  # about 0.1 s
    started = time.perf_counter()
    redact.may_hold_secret(text.encode("utf-8", "surrogatepass"))  # the cache's screen of a dump
    assert time.perf_counter() - started < 3  # about 0.1 s


def test_a_text_findings_share_is_made_printable_for_each() -> None:
    """`report.shown` makes a text once however many findings share it: each finding still gets
    it masked and escaped, the one that holds a secret as well as the one that does not."""
    from mnemolint.model import Diagnostic, Fix, Hit
    from mnemolint.report import printable, shown

    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"
    texts = [f"deploy with {token}", "a\x1b]0;title\x07 line", "plain", f"deploy with {token}"]
    diagnostics = []
    for text in texts:
        hit = Hit(text, fix=Fix("safe", text), related=(text, "plain"))
        diagnostics.append(Diagnostic("SEC001", "secret-value", "error", "/x/memory/a.md", hit))
    for diagnostic, text in zip(shown(diagnostics), texts, strict=True):
        assert diagnostic.message == diagnostic.fix.message == diagnostic.related[0] == printable(text)
        assert token not in diagnostic.message and "\x1b" not in diagnostic.message
        assert diagnostic.related[1] == "plain"
