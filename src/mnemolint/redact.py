"""Credential-shaped text, found and masked before any output quotes it.

Findings quote what they found (a dropped index line, a description, a link target, a `type`
value, a duplicate key's values) and `--diff` prints whole lines; SARIF files are often uploaded
and public. Every such quote goes through `redact`, which keeps the shape of what it masks, so
the message still says what was there: `https://admin:***@host`, `ghp_***`, `AKIA***`,
`password: ***`, a private key's BEGIN and END lines around `***`. `find_secrets` gives the
spans themselves, for the secrets rules to report on.

What counts as credential-shaped:
- a URL with a password (`scheme://user:password@`);
- a token with a documented prefix (GitHub, GitLab, Slack, AWS access key IDs, OpenAI and
  Anthropic `sk-`, Stripe, Google `AIza`, npm, PyPI, Hugging Face, SendGrid, DigitalOcean,
  Shopify, Grafana, Linear, Perplexity, Groq, xAI, Databricks, age, Google OAuth client secrets
  `GOCSPX-`, JWTs);
- a PEM private key block;
- a value given to a credential-named key: `password: …`, `API_KEY=…`, `"token": "…"`,
  `Authorization: Bearer …`, `Authorization: Basic …` (when base64 of `user:password`: "basic
  HTML/View tags" is prose), and in prose `the password is …` when the value is not a plain
  word (`the password is stored in the vault` is prose, `the password is hunter2` is not);
- a long random-looking run of base64 (40+ characters mixing upper and lower case and digits,
  standing alone): a key's body line, an AWS secret key.
Ordinary prose about credentials ("password reset flow", "token budget") is left alone. Every
pattern runs in linear time: quantifiers are bounded or cannot overlap.

Masking is generous (masking a word that was not a secret costs a word of a message); reporting
is not. `find_secrets(text, credible=True)` keeps only what is really a credential's value, for
SEC001: not a placeholder (`<token>`, `${TOKEN}`, `{{ secrets.X }}`, `****`, `xxx`,
`[REDACTED]`, `...`, `your-api-key-here`, `changeme`, anything holding `example` or `sample`),
not a reference to where it lives (`GITHUB_TOKEN`, `os.environ["X"]`, `process.env.X`,
`secret:WebhookSecret`), not a name (`WebhookSecret2`: words, as a setting is named), not a
documented example (`…EXAMPLE`), not a plain word (`password: letmein` is masked but not
reported), and for a key-shaped run, not base64 of readable text. A value given to a
credential-named key must hold a digit or a symbol, or be a passphrase of four words or more.
"""

from __future__ import annotations

import re

from mnemolint.patterns import Lazy

MASK = "***"


# Documented token prefixes, each with the shape of what follows it (gitleaks' rules, vendor docs).
_TOKENS = (
    r"gh[pousr]_[A-Za-z0-9]{30,}",  # GitHub personal, OAuth, user-to-server, server, refresh
    r"github_pat_[A-Za-z0-9_]{22,}",  # GitHub fine-grained personal access token
    r"gl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|soat|ffct|agent)-[A-Za-z0-9_.-]{20,}",  # GitLab
    r"xox[abposre]-[A-Za-z0-9-]{10,}",  # Slack bot, user, app-level, refresh, …
    r"xapp-[A-Za-z0-9-]{10,}",  # Slack app-level
    r"sk-[A-Za-z0-9_-]{20,}",  # OpenAI (sk-proj-…), Anthropic (sk-ant-…); must hold a digit
    r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe secret and restricted keys
    r"whsec_[A-Za-z0-9+/=]{24,}",  # Stripe webhook signing secret
    r"AIza[A-Za-z0-9_-]{35}",  # Google API key
    r"GOCSPX-[A-Za-z0-9_-]{24,}",  # Google OAuth client secret
    r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",  # AWS access key ID
    r"npm_[A-Za-z0-9]{36}",  # npm
    r"pypi-AgE[A-Za-z0-9_-]{50,}",  # PyPI API token (a macaroon)
    r"hf_[A-Za-z]{34}",  # Hugging Face
    r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",  # SendGrid
    r"do[opr]_v1_[a-f0-9]{64}",  # DigitalOcean
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",  # Shopify
    r"gl(?:c|sa)_[A-Za-z0-9_+/=]{32,}",  # Grafana cloud and service account
    r"lin_api_[A-Za-z0-9]{40}",  # Linear
    r"pplx-[A-Za-z0-9]{48}",  # Perplexity
    r"gsk_[A-Za-z0-9]{40,}",  # Groq
    r"xai-[A-Za-z0-9]{40,}",  # xAI
    r"dapi[a-f0-9]{32}",  # Databricks
    r"AGE-SECRET-KEY-1[A-Z0-9]{58}",  # age
    r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*",  # JWT: header.payload.signature
)
# What is kept of each token: the prefix that says what it is.
_TOKEN_PREFIX = Lazy(
    r"gh[pousr]_|github_pat_|gl[a-z]{1,5}-|xox[a-z]-|xapp-|sk-|[rs]k_(?:live|test)_|whsec_|AIza|GOCSPX-|A[KSBC][IC]A"
    r"|npm_|pypi-|hf_|SG\.|do[opr]_v1_|shp[a-z]{2}_|gl(?:c|sa)_|lin_api_|pplx-|gsk_|xai-|dapi|AGE-SECRET-KEY-1|eyJ"
)
# The look-ahead on the first characters of the prefixes spares trying every prefix at every
# position: the scan of a memory file without a token costs 40 % less. Like every pattern here,
# compiled on first use (5 ms for this one): a run whose texts hold no long run never needs it.
_TOKEN = Lazy(r"(?<![A-Za-z0-9_-])(?=[AGSdeghlnprswx])(?:" + "|".join(_TOKENS) + ")")
# Every character a token is made of, and every one its look-arounds test, is one of these, and
# the shortest token (a Slack one) is 15 of them long: so a token lies inside a run of 15 or more
# that stands alone. Only Slack's are shorter than 20, so in a text without their prefixes a
# token lies in a run of 20 or more (tests/test_redact_prefilter.py checks all three facts
# against `_TOKENS`): a file name or an identifier of 15 to 19 characters is passed over.
_TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=-"
_SHORTEST_TOKEN = 15
_SHORT_TOKENS, _SHORTEST_OTHER = ("xox", "xapp-"), 20

_URL_PASSWORD = Lazy(r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s/?#@:]{0,256}:(?P<value>[^\s/?#@]+)@")

_PRIVATE_KEY = Lazy(
    r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?P<value>[\s\S]*?)"
    r"(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z)"
)

# A credential-named key (`db_password`, `GITHUB_TOKEN`, `"api-key"`) and what it is given.
_KEY = (
    r"pass(?:word|wd|phrase)|secret(?:[_-]?key)?|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|credentials?|auth[_-]?key|account[_-]?key|shared[_-]?access[_-]?key"
)
_PAIR = Lazy(
    r"(?:" + _KEY + r")(?![A-Za-z0-9])[*_`]{0,2}[\"']?[ \t]{0,8}"  # `db_password`, `GITHUB_TOKEN` end in a key
    r"(?P<sep>:=|=>|=|:|\bis\b|\bwas\b)(?:[*_]{1,2}(?=[ \t]))?[ \t]{0,8}"  # `**Password:** value`
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`|[\"'`][^\s\"'`]*|[^\s\"'`,;&<>]+)",  # a quote left open: to a space
    re.IGNORECASE,
)
# The same, for a lower-cased text: re tries a case-folded alternation at every position, ten
# times slower than a plain one, so a text whose lower case keeps its length is matched this way.
_PAIR_LOWER = Lazy(_PAIR.source)
_KEY_NAME = Lazy(r"(?<![A-Za-z0-9])(?:" + _KEY + r")(?![A-Za-z0-9])", re.IGNORECASE)
_PROSE_GOES_ON = Lazy(r"[,;]?[ \t]+[A-Za-z]")
_BEARER = Lazy(r"\b(?P<scheme>bearer|basic)[ \t]{1,8}(?P<value>[A-Za-z0-9._~+/-]{8,}=*)", re.IGNORECASE)
# The pieces of a CamelCase name: acronyms, words, numbers (one left-to-right split, linear).
_NAME_PIECE = Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|.")
_DATA_URI = ";base64,"
_RUN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"  # what `_RANDOM` runs are made of
_SHORTEST_RUN = 40


def _marks(chars: str) -> bytes:
    """A `bytes.translate` table that marks each of `chars` `a`, every other byte a space."""
    table = bytearray(b" " * 256)
    for char in chars:
        table[ord(char)] = ord("a")
    return bytes(table)


_TOKEN_MARKS, _TOKEN_RUN, _OTHER_RUN = _marks(_TOKEN_CHARS), b"a" * _SHORTEST_TOKEN, b"a" * _SHORTEST_OTHER
_RUN_MARKS, _KEY_RUN = _marks(_RUN_CHARS), b"a" * _SHORTEST_RUN
_RANDOM = Lazy(r"(?<![\w/+.-])[A-Za-z0-9+/]{40,}={0,2}(?![\w/+.=-])")

_PLAIN_WORD = Lazy(r"[A-Za-z][a-z]*")
_TRAILING = ".)!?:]*"  # sentence punctuation (or a closing `**`) after an unquoted value is not part of it


class Secret:
    """Credential-shaped text at `text[start:end]` (the part to mask, not the key or prefix beside it);
    `kind` says which shape: "token", "private key", "password in URL", "credential", "key material"."""

    __slots__ = ("start", "end", "kind")

    def __init__(self, start: int, end: int, kind: str) -> None:
        self.start = start
        self.end = end
        self.kind = kind

    def __repr__(self) -> str:
        return f"Secret({self.start}, {self.end}, {self.kind!r})"


def find_secrets(text: str, credible: bool = False) -> list[Secret]:
    """Every credential-shaped span of `text`, in order, none overlapping (the first found wins);
    with `credible`, only those that are really a credential's value (see the module's doc)."""
    found = _every_shape(text)
    if not found:
        return found
    found.sort(key=lambda secret: (secret.start, -secret.end))
    kept: list[Secret] = []
    for secret in found:
        if not kept or secret.start >= kept[-1].end:
            kept.append(secret)
    if credible:
        return [secret for secret in kept if _credible(secret, text[secret.start : secret.end])]
    return kept


def _every_shape(text: str) -> list[Secret]:
    """The spans of each shape, overlapping. A shape's scan runs only where a test at C speed (a
    word it needs, a run of its characters long enough) says it finds something, so a text with
    no credential costs a few substring searches, not a pattern tried at every character: each
    test answers no only when the scan would find nothing."""
    found: list[Secret] = []
    low = text.lower()
    key = "key" in low
    if key and "PRIVATE KEY" in text:
        found += _private_keys(text)
    if "@" in text and "://" in text:  # one character is found faster than three
        found += _urls(text)
    tokens, random = _runs(text)
    if tokens:
        found += _tokens(text)
    if key or "pass" in low or "secret" in low or "token" in low or "credential" in low:
        found += _pairs(text, low)  # every `_KEY` holds one of these words
    if "bearer" in low or "basic" in low:
        found += _bearers(text)
    if random:
        found += _random(text)
    return found


def _runs(text: str) -> tuple[bool, bool]:
    """Whether `text` holds a token, and whether it holds a run of 40 that `_random` looks at.

    A token is made of `_TOKEN_CHARS` only, and what its look-arounds test is one too, so it lies
    inside a run of 15 (20) or more of them that stands alone, and `_TOKEN` finds it in that run alone
    as it does in the text. `bytes.translate` marks the text's UTF-8 (where any other character is
    bytes outside the table), so that the runs are found by substring search; a run of 40
    `_RUN_CHARS` lies in one of 40 or more.
    """
    data = text.encode("utf-8", "surrogatepass")
    marked = data.translate(_TOKEN_MARKS)
    run = _token_run(data)
    start = marked.find(run)
    if start < 0:
        return False, False
    same_offsets = len(data) == len(text)  # ASCII: a byte's offset is its character's
    token = False
    while start >= 0 and not token:
        end = marked.find(b" ", start + len(run))
        end = len(marked) if end < 0 else end
        if same_offsets:
            token = _TOKEN.search(text, start, end) is not None
        else:
            token = _TOKEN.search(data[start:end].decode("ascii")) is not None
        start = marked.find(run, end)
    return token, _holds_key_run(data, marked)


def _token_run(data: bytes) -> bytes:
    """The shortest run of marked token characters a token of the UTF-8 `data` may lie in: 15
    where a Slack prefix stands, else 20."""
    return _TOKEN_RUN if _SHORT_TOKEN_BYTES[0] in data or _SHORT_TOKEN_BYTES[1] in data else _OTHER_RUN


def _holds_key_run(data: bytes, marked: bytes) -> bool:
    """Whether the UTF-8 `data` (`marked` with `_TOKEN_MARKS`) holds a run of 40 `_RUN_CHARS`."""
    return _KEY_RUN in marked and _KEY_RUN in data.translate(_RUN_MARKS)


# The characters outside ASCII whose lower case holds an ASCII letter (`"\u212a".lower()` is "k"),
# as UTF-8: `bytes.lower` leaves them as they are (tests/test_redact_prefilter.py checks the list).
_FOLDS_TO_ASCII = ("\u0130".encode(), "\u212a".encode())
_SHORT_TOKEN_BYTES = tuple(prefix.encode() for prefix in _SHORT_TOKENS)
_CUE_WORDS = (b"key", b"pass", b"secret", b"token", b"credential", b"bearer", b"basic")


def may_hold_secret(data: bytes) -> bool:
    """Whether a text whose UTF-8 lies whole anywhere within `data` may hold a credential-shaped
    span: False only when `find_secrets` finds none in any such text. These are `_every_shape`'s
    cues, loosened so that the bytes around a text never hide one: a token's prefix is looked for
    in every run of 15 token characters (20 where no Slack prefix stands), without the look-behind
    a byte beside the text could fail. A marshal dump holds each of its strings' UTF-8 whole, so a
    cache entry is judged at C speed, its strings never taken out one by one (`may_hold_secrets`)."""
    low = data.lower()
    for word in _CUE_WORDS:
        if word in low:
            return True
    for fold in _FOLDS_TO_ASCII:
        if fold in data:
            return True
    if b"://" in data and b"@" in data:
        return True
    marked = data.translate(_TOKEN_MARKS)
    run = _token_run(data)
    start = marked.find(run)
    while start >= 0:
        end = marked.find(b" ", start + len(run))
        end = len(marked) if end < 0 else end
        if _TOKEN_PREFIX.search(data[start:end].decode("ascii")) is not None:
            return True
        start = marked.find(run, end)
    return _holds_key_run(data, marked)


def redact(text: str) -> str:
    """`text` with every credential-shaped span masked; lines are kept, so a text redacts line for line."""
    secrets = find_secrets(text)
    if not secrets:
        return text
    pieces, position = [], 0
    for secret in secrets:
        pieces += [text[position : secret.start], _mask(text[secret.start : secret.end])]
        position = secret.end
    pieces.append(text[position:])
    return "".join(pieces)


# Texts `redact_all` tests at once: a block that holds a secret is redacted text by text.
_BLOCK = 128


def redact_all(texts: list[str]) -> list[str]:
    """`[redact(text) for text in texts]`, for the many short texts of a large report (its
    messages, its paths). Texts are tested in blocks joined by newlines: where no shape finds
    anything in a block, none finds anything in any of its texts, which are then as they were.
    That holds because a newline gives every shape what the start or end of a text gives it: no
    shape's match spans a newline but a private key's (which then runs on to its END line or
    the end of the block), every look-around, `\b` and data-URI test meets a newline as it meets
    an end, and a run of token characters ends at one. The pairs are matched on the lower case
    only where lowering keeps each text's length, as for a text alone, so a block whose lower
    case does not is redacted text by text."""
    done: list[str] = []
    for start in range(0, len(texts), _BLOCK):
        block = texts[start : start + _BLOCK]
        joined = "\n".join(block)
        if len(joined.lower()) == len(joined) and not _every_shape(joined):
            done += block
        else:
            done += [redact(text) for text in block]
    return done


def may_hold_secrets(blobs: list[bytes]) -> list[bool]:
    """`[may_hold_secret(blob) for blob in blobs]`, for the many entries of a cache: blobs are
    tested in blocks joined, where each blob's texts still lie whole, so a block none of whose
    texts may hold one is cleared at once (a call per blob costs more than the test itself)."""
    found: list[bool] = []
    for start in range(0, len(blobs), _BLOCK):
        block = blobs[start : start + _BLOCK]
        if may_hold_secret(b"".join(block)):
            found += [may_hold_secret(blob) for blob in block]
        else:
            found += [False] * len(block)
    return found


def redact_pair(key: str, value: str) -> str:
    """`value` as quoted beside `key`: masked whole when the key names a credential, else redacted."""
    if value and _KEY_NAME.search(key):
        return MASK
    return redact(value)


_FILLER = Lazy(r"[*xX.•…_#=-]+|\.\.\.|…")
_PLACEHOLDER = Lazy(
    r".*(?:<[^>]*>|\$\{|\$\(|\{\{|\{[A-Za-z_][A-Za-z0-9_.]*\}|\.\.\.|…|\*\*\*|redacted|placeholder|your[_-]|xxxx"
    r"|example|sample|change[_-]?me|replace[_-]?me|dummy|fake[_-]).*"
    r"|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|xxx|none|null|true|false",
    re.IGNORECASE,
)
# Words no real token holds: a token's documented example or a template's stand-in.
_STAND_IN = Lazy(r"example|sample|placeholder|your[_-]|[_-]here(?![a-z])|xxxxxx|change[_-]?me", re.IGNORECASE)
# A secret store's or configuration's reference to a value by name: `secret:WebhookSecret`,
# `env:API_TOKEN`, `keyvault:db-password` (a scheme, then a name).
_NAMED = Lazy(r"[a-z][a-z0-9_-]{1,24}:[A-Za-z][A-Za-z0-9_.-]*")
_CAMEL = Lazy(r"[a-z][A-Z]")
_REFERENCE = Lazy(  # an environment variable, code that fetches it, a secret store's name, a file
    r"[A-Z0-9_|]*[A-Z][A-Z0-9_|]*|.*[(\[].*|(?:os|process|env|secrets|vars|vault|op|ssm|arn)[.:].*"
    r"|[~.]?/.*|[A-Za-z]:[\\/].*|https?://.*|.*[/\\].*\.[A-Za-z0-9]{1,5}"
)
_SYMBOL = Lazy(r"[^A-Za-z0-9._-]")


def _credible(secret: Secret, value: str) -> bool:
    """Whether a masked span is a credential's real value, not a placeholder, reference or example."""
    if _STAND_IN.search(value) or _FILLER.fullmatch(value):
        return False
    if secret.kind == "private key":
        return re.search(r"[A-Za-z0-9+/]{16,}", value) is not None
    if secret.kind == "token":
        return len(set(value)) >= 6
    if secret.kind == "key material":
        return not _readable_base64(value)
    return _credible_value(value.strip().strip("\"'`"))


def _credible_value(value: str) -> bool:
    """A value given to a credential-named key (or a URL's password) that is one."""
    if _PLACEHOLDER.fullmatch(value) or _REFERENCE.fullmatch(value) or _PLAIN_WORD.fullmatch(value):
        return False
    if _is_reference(value) or _is_name(value):  # a setting's name given as the value of another
        return False
    if len(value) < 6 or len(set(value)) < 5:
        return False
    if any(char.isdigit() for char in value) or _SYMBOL.search(value):
        return True
    words = re.split(r"[-_.]", value)  # a passphrase: `stage-build-girl-license-…`
    return len(words) >= 4 and len(value) >= 20 and all(word.isalpha() for word in words)


def _is_name(value: str) -> bool:
    """Whether `value` reads as a CamelCase name of two words or more (`WebhookSecret2`): no real
    credential splits into dictionary-sized pieces this way, and a passphrase is not written so."""
    if not value.isalnum() or not value.isascii() or _CAMEL.search(value) is None or not _is_identifier(value):
        return False
    return sum(not piece.isdigit() for piece in _NAME_PIECE.findall(value)) >= 2


def _is_reference(value: str) -> bool:
    """Whether `value` names a value in a store (`secret:WebhookSecret`, `env:db-password`): a
    scheme, then words and short numbers."""
    if _NAMED.fullmatch(value) is None:
        return False
    pieces = re.split(r"[-_.]", value.split(":", 1)[1])
    return all(piece.isalpha() or (piece.isdigit() and len(piece) <= 4) for piece in pieces if piece)


def _readable_base64(run: str) -> bool:
    """Whether a base64-looking run decodes to text (an encoded JSON or URL parameter, not a key)."""
    import base64
    import binascii

    try:
        data = base64.b64decode(run + "=" * (-len(run) % 4))
    except (binascii.Error, ValueError):
        return False
    printable = sum(32 <= byte < 127 or byte in (9, 10, 13) for byte in data)
    return printable >= 0.9 * len(data)


def _mask(value: str) -> str:
    """One mask per line of `value`, line endings kept."""
    return re.sub(r"[^\r\n]+", MASK, value)


def _private_keys(text: str) -> list[Secret]:
    return [Secret(*match.span("value"), "private key") for match in _PRIVATE_KEY.finditer(text) if match["value"]]


def _urls(text: str) -> list[Secret]:
    return [Secret(*match.span("value"), "password in URL") for match in _URL_PASSWORD.finditer(text)]


def _tokens(text: str) -> list[Secret]:
    secrets = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token.startswith("sk-") and not any(char.isdigit() for char in token):
            continue  # `sk-` starts words too; the keys always hold digits
        prefix = _TOKEN_PREFIX.match(token)
        secrets.append(Secret(match.start() + (prefix.end() if prefix else 0), match.end(), "token"))
    return secrets


def _pairs(text: str, low: str) -> list[Secret]:
    pattern, subject = (_PAIR_LOWER, low) if len(low) == len(text) else (_PAIR, text)
    secrets = []
    for match in pattern.finditer(subject):
        start, end = match.span("value")
        value = text[start:end]
        if value[0] in "\"'`":
            start += 1  # the quotes stay
            end -= len(value) > 1 and value[-1] == value[0]
        else:
            stripped = value.rstrip(_TRAILING)
            end -= len(value) - len(stripped)
            value = stripped
            sep = match["sep"].lower()
            plain = _PLAIN_WORD.fullmatch(value) is not None
            # Prose goes on after a plain word ("Secret: never commit it"); `is` takes only a value
            # that is not a word ("the password is stored" is prose).
            if plain and (sep in ("is", "was") or (sep == ":" and _PROSE_GOES_ON.match(text, end))):
                continue
        if end > start:
            secrets.append(Secret(start, end, "credential"))
    return secrets


def _bearers(text: str) -> list[Secret]:
    return [
        Secret(*match.span("value"), "credential")
        for match in _BEARER.finditer(text)
        if _PLAIN_WORD.fullmatch(match["value"]) is None
        and (match["scheme"].lower() == "bearer" or _user_password(match["value"]))
    ]


def _user_password(value: str) -> bool:
    """Whether `value` is what a Basic credential is, `user:password` in base64 (RFC 7617), and not
    the words after "basic" in prose (`basic HTML/View tags`)."""
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):  # not base64, or not text
        return False
    return ":" in decoded and decoded.isprintable()


def _is_identifier(run: str) -> bool:
    """Whether `run` reads as a CamelCase name: words of three letters or more, numbers of up to
    four digits, acronyms of up to five capitals. Random base64 of 40 characters almost never
    splits this way, and long identifiers always do."""
    for piece in _NAME_PIECE.findall(run):
        if piece.isdigit():
            if len(piece) > 4:
                return False
        elif piece.isupper():
            if len(piece) > 5:
                return False
        elif not (piece.isalpha() and len(piece) >= 3):
            return False
    return True


def _random(text: str) -> list[Secret]:
    """Long base64 runs that mix upper case, lower case and digits: key material, not words or hashes."""
    secrets = []
    for match in _RANDOM.finditer(text):
        run = match.group()
        if _is_identifier(run) or text.endswith(_DATA_URI, 0, match.start()):
            continue  # `AbstractProxyFactory2Impl` is a name; a `data:…;base64,` URI carries an image
        if any(c.isupper() for c in run) and any(c.islower() for c in run) and any(c.isdigit() for c in run):
            if len(run) >= 10 * (run.count("/") + 1):  # not a path of short names
                secrets.append(Secret(*match.span(), "key material"))
    return secrets


def redacted(value: object) -> object:
    """Every string in `value` (nested lists and dicts) with its credential-shaped spans masked: a
    glob or a file name may hold a token, and no output prints one."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redacted(item) for item in value]
    if isinstance(value, dict):
        return {key: redacted(item) for key, item in value.items()}
    return value
