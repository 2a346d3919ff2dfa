"""SEC001: credential values in memory files, found where they are and never printed back.

The detector's two sides: every class of credential the issue lists is found, at its line and
column, once; what is only credential-shaped (placeholders, references, examples, prose) is not.
Then the promise that matters most: the raw secret appears in no output at all, whichever rule
quotes the text that holds it (MEM101's echo, MEM103, MEM109), in every format, `--diff` and
`--statistics`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import only, preview_settings, run_cli, run_lint, write_tree

from mnemolint.redact import find_secrets

GHP = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"
SECRETS = [  # (a line holding one secret, its body: what must never be printed)
    (f"deploy with {GHP}", GHP[4:]),
    ("gho_" + "a1B2c3D4e5" * 4, "a1B2c3D4e5" * 4),
    ("ghs_" + "Zz9Yy8Xx7W" * 4, "Zz9Yy8Xx7W" * 4),
    ("github_pat_11ABCDEFG0" + "q1W2e3R4t5" * 6, "11ABCDEFG0" + "q1W2e3R4t5" * 6),
    ("glpat-" + "a1B2c3D4e5F6g7H8i9J0", "a1B2c3D4e5F6g7H8i9J0"),
    ("xoxb-123456789012-1234567890123-" + "aB3dE6gH9jK2", "123456789012-1234567890123-aB3dE6gH9jK2"),
    ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    ("OPENAI_KEY=sk-proj-" + "Ab1Cd2Ef3G" * 5, "proj-" + "Ab1Cd2Ef3G" * 5),
    ("sk-ant-api03-" + "Zz9Qq8Ww7E" * 8, "ant-api03-" + "Zz9Qq8Ww7E" * 8),
    ("npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("pypi-AgEIcHlwaS5vcmc" + "a1B2c3D4e5" * 6, "AgEIcHlwaS5vcmc" + "a1B2c3D4e5" * 6),
    ("AWS key AKIAZ7Q3K5M2N8P4R6T1", "Z7Q3K5M2N8P4R6T1"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEYabc12", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEYabc12"),
    (
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=q8Zt3Lm0Xv7Rp2Nk5Wb9Yd4Hs6Jf1Ga8Qe3Tu7Io0Pl5Kz2;"
        "EndpointSuffix=core.windows.net",
        "q8Zt3Lm0Xv7Rp2Nk5Wb9Yd4Hs6Jf1Ga8Qe3Tu7Io0Pl5Kz2",
    ),
    (
        '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw'
        '\\n-----END PRIVATE KEY-----\\n"}',
        "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\\n-----END PRIVATE KEY-----\\n",
    ),
    ("client_secret: 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", "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"),
    ("db: postgres://app:Xk9-pw2Lq@db.internal:5432/app", "Xk9-pw2Lq"),
    ("password: hunter2-Tq8", "hunter2-Tq8"),
    ('password: "hunter2-Xq9', "hunter2-Xq9"),  # a quote left open
    ("**Age passphrase:** stage-build-girl-license-benefit-mountain", "stage-build-girl-license-benefit-mountain"),
    ("Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c", "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c"),
    ("Authorization: Basic ZGVwbG95OlE5dzhFN3I2VDU=", "ZGVwbG95OlE5dzhFN3I2VDU="),  # deploy:Q9w8E7r6T5
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("the OAuth client 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", "q8Zt3Lm0Xv7Rp2Nk5Wb9Yd4Hs6Jf"),  # no key name
    ("xoxp-2348723-9823749823-a8Sd7f6G5h4J", "2348723-9823749823-a8Sd7f6G5h4J"),
    ("password: Summer2024!", "Summer2024"),  # one word and a year: a weak password, not a name
]
NOT_SECRETS = [
    "password: <token>",
    "token: ${TOKEN}",
    "token: {{ secrets.GH_TOKEN }}",
    "password: ****",
    "api_key: xxx",
    "secret: [REDACTED]",
    "password: your-password-here",
    "token: stored in 1Password, item `CI deploy`",
    "the deploy token lives in the vault; fetch it with `vault kv get ci/deploy`",
    "GH_TOKEN: GITHUB_TOKEN",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "secret: process.env.SESSION_SECRET",
    "Credentials: `~/.config/app/credentials.json`",
    "AWS docs use AKIAIOSFODNN7EXAMPLE as the example key id",
    "password: postgres",
    'Default DB password is `"changeme"` — never deploy it',
    '`credentials: "include"` sends the cookies',
    "https://user:${PASS}@host/ and https://user:password@host/",
    "Authorization: Bearer <token>",
    "?filters=eyJhdXRob3IiOiJ0YW5uZXIiLCJtaW5fd29yZHMiOjgwMH0%3D",
    "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "a basic Express.js server; basic psychiatric-register checks",
    "use basic HTML/View tags for the layout",
    "Confirm `gh auth token` is intact**: `gh auth token | head -c 8`",
    "max_tokens: 4096, token budget: 2,000 words",
    # Issue 22, held-back repositories: placeholders, a template's stand-ins, names of settings.
    "OPENAI_API_KEY=your-api-key-here",
    "api_key: your_api_key_123",
    "password: changeme",
    "token: changeme123!",
    "API_KEY=replace_me_123",
    "api_key: example",
    "password: example-password-123",
    "api_key: sample-key-123",
    "token: ${VAR}",
    "secret: ***",
    "password: xxx",
    "`secret:WebhookSecret`",
    "WEBHOOK_SECRET=secret:WebhookSecret",
    "client_secret: secret:GoogleClientSecret",
    "secret: WebhookSecret2",
    "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "GOCSPX-your-client-secret-here-1234",
]


def topic(body: str, description: str = "how a release goes out") -> str:
    return f"---\nname: Deploy\ndescription: {description}\ntype: project\n---\n{body}\n"


@pytest.mark.parametrize(("line", "body"), SECRETS, ids=range(len(SECRETS)))
def test_each_kind_of_credential_is_one_finding_at_its_line_and_column(tmp_path: Path, line: str, body: str) -> None:
    write_tree(tmp_path, {"memory/MEMORY.md": "- [Deploy](deploy.md) — deploys\n", "memory/deploy.md": topic(line)})
    [finding] = run_lint(tmp_path, select=["SEC001"], preview=True)
    column = line.index(body) + 1
    assert (finding.line, finding.column) == (6, column), finding.message
    assert body not in finding.message and body[:8] not in finding.message


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_what_is_only_credential_shaped_is_no_finding(tmp_path: Path, text: str) -> None:
    assert find_secrets(text, credible=True) == []
    write_tree(tmp_path, {"memory/MEMORY.md": "- [Deploy](deploy.md) — deploys\n", "memory/deploy.md": topic(text)})
    assert only(run_lint(tmp_path, select=["SEC001"], preview=True), "SEC001") == []


def test_the_index_is_linted_too_and_each_secret_once(tmp_path: Path) -> None:
    index = f"- [Deploy](deploy.md) — token {GHP} and password: hunter2-Tq8\n"
    write_tree(tmp_path, {"memory/MEMORY.md": index, "memory/deploy.md": topic("no secret here")})
    findings = run_lint(tmp_path, select=["SEC001"], preview=True)
    assert [(f.path.rsplit("/", 1)[1], f.line) for f in findings] == [("MEMORY.md", 1), ("MEMORY.md", 1)]


def test_a_suppression_comment_silences_a_known_fixture(tmp_path: Path) -> None:
    body = f"<!-- mnemolint-disable-next-line SEC001 -->\ntest fixture {GHP}"
    write_tree(tmp_path, {"memory/MEMORY.md": "- [Deploy](deploy.md) — d\n", "memory/deploy.md": topic(body)})
    assert run_lint(tmp_path, select=["SEC001"], preview=True) == []


# --- the secret never leaves the process -------------------------------------------------------

LEAK = "Q9w8E7r6T5Q9w8"  # a piece of GHP's body: no output may hold it
LONG_LINE = f"- [Deploy](deploy.md) — deploys with {GHP} " + "and a long tail of words " * 6 + "\n"


def _leaky_tree(root: Path) -> Path:
    """One token quoted by every rule that quotes text: MEM101 (the first dropped line), MEM103 (a
    long line), MEM109 (a description that drifted), SEC001, FM and MEM206."""
    index = LONG_LINE + "- [Other](other.md) — other\n" + f"- [Dropped](dropped.md) — token={GHP}\n"
    return write_tree(
        root,
        {
            "pyproject.toml": "[tool.mnemolint]\nindex-max-lines = 2\n",
            "m/memory/MEMORY.md": index,
            "m/memory/deploy.md": topic("body", description=f"deploys with {GHP} now"),
            "m/memory/other.md": f"---\nname: Other\ndescription: other\ntype: {GHP}\n---\n",
            "m/memory/dropped.md": topic("dropped"),
        },
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--output-format", "text"],
        ["--output-format", "json"],
        ["--output-format", "sarif"],
        ["--output-format", "github"],
        ["--statistics"],
        ["--diff"],
        ["--diff", "--unsafe-fixes"],
        ["--fix", "--unsafe-fixes"],
    ],
    ids=lambda args: "-".join(arg.strip("-") for arg in args),
)
def test_no_output_holds_the_raw_secret(tmp_path: Path, args: list[str]) -> None:
    root = _leaky_tree(tmp_path)
    result = run_cli("check", "--preview", *args, "m", cwd=root)
    assert "Traceback" not in result.stderr
    assert LEAK not in result.stdout + result.stderr
    if args not in (["--statistics"], ["--diff"], ["--diff", "--unsafe-fixes"]):  # nothing of the text to show
        shown = result.stdout + result.stderr
        assert any(code in shown for code in ("MEM101", "MEM109", "SEC001", "@@")), shown


def test_an_internal_error_that_quotes_the_file_is_redacted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule's exception may carry file content: the line told on stderr is masked too."""
    from mnemolint.engine import lint
    from mnemolint.rules import BY_CODE

    def broken(document: object, options: dict) -> None:
        raise ValueError(f"cannot read `token={GHP}`")

    monkeypatch.setattr(BY_CODE["MEM203"], "check", broken)
    write_tree(tmp_path, {"memory/MEMORY.md": "# M\n", "memory/a.md": "no frontmatter\n"})
    [error] = lint([str(tmp_path)], preview_settings(tmp_path)).errors
    assert error.endswith("ValueError: cannot read `token=***`")


def test_every_quoting_rule_fired_on_the_leaky_tree(tmp_path: Path) -> None:
    """The grep above proves something only if the rules that quote the secret did quote it."""
    codes = {finding.code for finding in run_lint(_leaky_tree(tmp_path), preview=True)}
    assert {"MEM101", "MEM103", "MEM109", "MEM206", "SEC001"} <= codes


@pytest.mark.parametrize(
    "args",
    [
        ["preview", "m/memory"],
        ["preview", "m/memory", "--agent", "wave", "--output-format", "json"],
        ["manifest", "m/memory", "--staleness", "--now", "2026-12-01"],
        ["explain-rules", "m/memory/deploy.md", "--all"],
    ],
    ids=lambda args: "-".join(arg.strip("-") for arg in args[:2]),
)
def test_the_agent_side_commands_never_show_the_raw_secret(tmp_path: Path, args: list[str]) -> None:
    """`preview` echoes the first dropped line and `manifest` the descriptions, as the agents do."""
    root = _leaky_tree(tmp_path)
    result = run_cli(*args, cwd=root)
    assert "Traceback" not in result.stderr
    assert LEAK not in result.stdout + result.stderr


@pytest.mark.parametrize("agent", ["claude-code", "wave"])
def test_the_hook_never_shows_the_raw_secret(tmp_path: Path, agent: str) -> None:
    root = _leaky_tree(tmp_path)
    event = json.dumps(
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "cwd": str(root),
            "tool_input": {"file_path": "m/memory/MEMORY.md"},
        }
    )
    result = run_cli("hook", "post-tool-use", "--agent", agent, stdin=event, cwd=root)
    assert result.stdout + result.stderr, "the index is over its cap: there is a reminder to give"
    assert LEAK not in result.stdout + result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--output-format", "text", "."],
        ["check", "--output-format", "json", "."],
        ["check", "--output-format", "sarif", "."],
        ["check", "--output-format", "github", "."],
        ["explain-rules", "src/a.ts", "--all"],
        ["explain-rules", "src/a.ts", "--all", "--output-format", "json"],
    ],
    ids=lambda args: "-".join(arg.strip("-") for arg in args[:3]),
)
def test_a_token_in_a_rule_glob_or_a_link_target_is_masked_in_every_rule_s_message(
    tmp_path: Path, args: list[str]
) -> None:
    """WAV and MEM rules quote globs and link targets: their messages are redacted like SEC001's."""
    write_tree(
        tmp_path,
        {
            "src/a.ts": "x\n",
            ".wave/rules/r.md": f'---\npaths:\n  - "src/{GHP}/**"\n  - "/{GHP}"\n  - "!{GHP}"\n---\nRule.\n',
            "memory/MEMORY.md": f"- [Gone]({GHP}.md) — gone\n",
        },
    )
    result = run_cli(*args, cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert LEAK not in result.stdout + result.stderr
    assert result.stdout


@pytest.mark.parametrize(
    "line",
    [
        "The factory is AbstractSingletonProxyFactoryBeanWithLongName2Impl3 in core.",
        "Logo: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6"
        "kgAAAABJRU5ErkJggg==",
    ],
    ids=["camel-case-identifier", "data-uri"],
)
def test_a_long_name_or_an_inline_image_is_no_key_material(line: str) -> None:
    assert find_secrets(line, credible=True) == []


def test_the_identifier_check_is_linear_on_a_long_run() -> None:
    """A 40-character run of one letter split into words every way would take forever (the fuzz
    harness found such a pattern hanging): the check is one left-to-right pass."""
    import time

    started = time.monotonic()
    find_secrets("x" * 5_000 + "A1" * 30 + " " + "Ab1" * 2_000, credible=True)
    assert time.monotonic() - started < 1


ENV_TEMPLATE = "DATABASE_URL=postgres://app:Xk9-pw2Lq@localhost/app\nSTRIPE_SECRET=whx-Test-7f3a9c\n"


def test_a_template_file_holds_stand_ins_not_secrets(tmp_path: Path) -> None:
    """A file named like `.env.example` shows a configuration's shape; a provider's token there
    is still a token."""
    write_tree(tmp_path, {"memory/MEMORY.md": "# M\n", "memory/settings.example.md": topic(ENV_TEMPLATE + GHP)})
    [finding] = run_lint(tmp_path, select=["SEC001"], preview=True)
    assert finding.line == 8 and "an access token" in finding.message


def test_a_code_block_a_template_name_introduces_holds_stand_ins(tmp_path: Path) -> None:
    body = f"Copy `.env.example`:\n```sh\n{ENV_TEMPLATE}```\n```.env.sample\npassword: hunter2-Tq8\n```\n"
    real = "```sh\npassword: hunter2-Tq8\n```\n"  # line 15: a block no template's name introduces
    write_tree(tmp_path, {"memory/MEMORY.md": "# M\n", "memory/deploy.md": topic(body + real)})
    assert [finding.line for finding in run_lint(tmp_path, select=["SEC001"], preview=True)] == [15]
