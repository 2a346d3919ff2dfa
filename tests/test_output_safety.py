"""What mnemolint prints is safe to print: no secret it quotes, no control character it was handed,
no file name it cannot encode (issue 7: `secrets`, `inject`, `badname` in ../shared/repro/repro.sh).

Everything runs the real CLI on real files, in every output format; the redaction helper is also
tested on its own, both ways: credentials masked, ordinary prose about them left alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli, write_tree
from test_cli import run_on_terminal
from test_sarif import assert_valid, validator  # noqa: F401 - the fixture, shared

from mnemolint.parse.textutil import visible
from mnemolint.redact import MASK, find_secrets, redact, redact_pair

FORMATS = ("text", "json", "sarif", "github")


def topic(name: str, description: str, type_: str = "user") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n"


def output(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout + result.stderr


# --- secrets ---------------------------------------------------------------------------------

SECRETS = {  # the repro case, as files
    "k/mem/c.md": topic("C", "db password is hunter2 AKIAIOSFODNN7EXAMPLE"),
    "k/mem/d.md": "---\npassword: hunter2\npassword: hunter3\n---\n",
    "k/mem/MEMORY.md": "- [C](c.md) — creds\n- [U](https://admin:hunter2@db.internal/) — db\n- [D](d.md) — d\n",
}
LEAKS = ("hunter2", "hunter3", "IOSFODNN7EXAMPLE")


@pytest.mark.parametrize("format_", FORMATS)
def test_secrets_are_not_echoed(tmp_path: Path, format_: str) -> None:
    root = write_tree(tmp_path, SECRETS)
    text = output(run_cli("check", "--preview", "--output-format", format_, "k", cwd=root))
    assert not [leak for leak in LEAKS if leak in text]
    # The shape stays, so each message still says what it found.
    shown = text.replace("\\", "")  # JSON escapes the quotes
    assert "https://admin:***@db.internal/" in shown  # MEM104
    assert 'db password is *** AKIA***"' in shown  # MEM109
    assert 'duplicate key "password" with value "***" (original value: "***")' in shown  # FM001


def test_secret_type_value_is_masked(tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    root = write_tree(tmp_path, {"m/mem/MEMORY.md": "- [A](a.md) — a\n", "m/mem/a.md": topic("A", "a", token)})
    text = output(run_cli("check", "m", cwd=root))
    assert token[4:] not in text
    assert "MEM206 `type: ghp_***` is not a memory type" in text


def test_first_dropped_line_is_masked(tmp_path: Path) -> None:
    lines = "".join(f"- [T{n}](t{n}.md) — t\n" for n in range(3)) + "- export API_KEY=sk-live-0123456789abcdefghij\n"
    root = write_tree(tmp_path, {"m/mem/MEMORY.md": lines, "pyproject.toml": "[tool.mnemolint]\nindex-max-lines = 3\n"})
    text = output(run_cli("check", "--select", "MEM101", "m", cwd=root))
    assert "MEM101" in text
    assert "0123456789abcdefghij" not in text
    assert '("- export API_KEY=***")' in text


def test_diff_masks_what_the_file_holds_and_shows_what_lands(tmp_path: Path) -> None:
    token = "ghp_" + "a1B2" * 9
    root = write_tree(
        tmp_path,
        {
            "d/mem/MEMORY.md": "# Memory\n- [B](b.md) — db password: hunter2\n",
            "d/mem/a.md": topic("A", f"deploy with token={token}"),
            "d/mem/b.md": topic("B", "b"),
        },
    )
    result = run_cli("check", "--diff", "d", cwd=root)
    assert result.returncode == 1
    assert "hunter2" not in output(result) and token[4:] not in result.stdout
    # The human line is context, masked; the added line holds no description: it had a token.
    shown = ["@@ -1,2 +1,3 @@", " # Memory", " - [B](b.md) — db password: ***", "+- [A](a.md)"]
    assert result.stdout.splitlines()[2:] == shown
    assert run_cli("check", "--fix", "--ignore", "SEC001", "d", cwd=root).returncode == 0
    assert (root / "d/mem/MEMORY.md").read_text(encoding="utf-8") == (
        "# Memory\n- [B](b.md) — db password: hunter2\n- [A](a.md)\n"
    )


def test_diff_of_a_change_beside_a_secret_still_shows(tmp_path: Path) -> None:
    """The diff compares the real lines: two lines that differ only in a secret still differ."""
    from mnemolint.fix.fixer import unified_diff

    path = str(tmp_path / "MEMORY.md")
    diff = unified_diff({path: ("password: hunter2\nsame\n", "password: hunter3\nsame\n")})
    assert diff.splitlines()[2:] == ["@@ -1,2 +1,2 @@", "-password: ***", "+password: ***", " same"]


def test_diff_keeps_tabs_and_line_endings_and_escapes_controls(tmp_path: Path) -> None:
    from mnemolint.fix.fixer import unified_diff

    path = str(tmp_path / "MEMORY.md")
    diff = unified_diff({path: ("a\tb\r\nx\x1b]0;t\x07\r\n", "a\tb\r\n")})
    assert diff.splitlines(keepends=True)[2:] == ["@@ -1,2 +1 @@\n", " a\tb\r\n", "-x\\x1b]0;t\\x07\r\n"]
    assert unified_diff({path: ("a\n", "a\nb")}).endswith("+b\n\\ No newline at end of file\n")


def fingerprints(root: Path) -> list[str]:
    result = run_cli("check", "--output-format", "sarif", "--select", "MEM104", "m", cwd=root)
    return [r["partialFingerprints"]["mnemolint/v1"] for r in json.loads(result.stdout)["runs"][0]["results"]]


def test_sarif_fingerprint_hashes_the_redacted_line(tmp_path: Path) -> None:
    """The line is hashed redacted: the hash is the same whatever the password, so it gives none away."""
    index = tmp_path / "m/mem/MEMORY.md"
    write_tree(tmp_path, {"m/mem/MEMORY.md": ""})
    seen = []
    for summary in ("password: hunter2", "password: s3cr3t", "other"):
        index.write_text(f"- [G](gone.md) — {summary}\n", encoding="utf-8")
        seen.append(fingerprints(tmp_path))
    assert seen[0] == seen[1]
    assert seen[0] != seen[2]  # a line without a secret is hashed as it is


def test_sarif_leaves_out_a_fix_that_would_insert_a_secret() -> None:
    from mnemolint.model import SAFE, Diagnostic, Edit, Fix, Hit
    from mnemolint.report.sarif_format import sarif

    def result(content: str) -> dict:
        hit = Hit("m", line=1, fix=Fix(SAFE, "Replace", (Edit(0, 1, content),)))
        return sarif([Diagnostic("MEM104", "index-broken-link", "error", "/nowhere/MEMORY.md", hit)], "/nowhere")

    assert "fixes" in result("- [A](a.md) — plain\n")["runs"][0]["results"][0]
    assert "fixes" not in result("- [A](a.md) — password: hunter2\n")["runs"][0]["results"][0]


CREDENTIALS = [  # (text, what must remain visible)
    ("https://admin:hunter2@db.internal/x", "https://admin:***@db.internal/x"),
    ("postgres://app:p%40ss@10.0.0.1:5432/db", "postgres://app:***@10.0.0.1:5432/db"),
    ("token ghp_" + "A1b2C3d4E5" * 4, "token ghp_***"),
    ("github_pat_11AAAAAAA0" + "x1" * 30, "github_pat_***"),
    ("glpat-" + "a1B2c3D4e5F6g7H8i9J0", "glpat-***"),
    ("xoxb-123456789012-1234567890123-abcdefABCDEF", "xoxb-***"),
    ("AKIAIOSFODNN7EXAMPLE", "AKIA***"),
    ("ASIAY34FZKBOKMUTVV7A.", "ASIA***."),
    ("key sk-proj-" + "Ab1" * 20, "key sk-***"),
    ("sk-ant-api03-" + "Zz9" * 30, "sk-***"),
    ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_***"),
    ("AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIza***"),
    ("npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm_***"),
    ("hf_" + "abcdefghijABCDEFGHIJabcdefghijABCD", "hf_***"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJ***"),
    ("password: hunter2", "password: ***"),
    ("password: letmein", "password: ***"),
    ("DB_PASSWORD=hunter2.", "DB_PASSWORD=***."),
    ('"api_key": "abc def"', '"api_key": "***"'),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = ***"),
    ("see ?token=abc123&page=2", "see ?token=***&page=2"),
    ("Authorization: Bearer abc.def-123456", "Authorization: Bearer ***"),
    ("Authorization: Basic YWRtaW46aHVudGVyMg==", "Authorization: Basic ***"),
    ("curl -H 'authorization: basic dXNlcjpwYXNzd29yZA'", "curl -H 'authorization: basic ***'"),
    ("the db password is hunter2, rotate it", "the db password is ***, rotate it"),
    ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", MASK),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKC\n-----END RSA PRIVATE KEY-----\nafter",
        "-----BEGIN RSA PRIVATE KEY-----\n***\n***\n-----END RSA PRIVATE KEY-----\nafter",
    ),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz\n", "-----BEGIN OPENSSH PRIVATE KEY-----\n***\n"),
]


@pytest.mark.parametrize(("text", "shown"), CREDENTIALS)
def test_credentials_are_masked_with_their_shape(text: str, shown: str) -> None:
    assert redact(text) == shown
    assert redact(shown) == shown  # nothing left to find
    assert text.count("\n") == shown.count("\n")


PROSE = [
    "password reset flow",
    "token budget: 2,000 words per session",
    "the password is stored in the vault",
    "Secret: never commit .env files",
    "Secret: never, ever commit",
    "passwords: see the onboarding doc",
    "max_tokens: 4096",
    "password_hash: bcrypt",
    "use sk-learn-compatible estimators",
    "task-management-system-overview",
    "ASIAN_COUNTRIES_AND_REGIONS_LIST",
    "basic understanding of YAML",
    "use basic HTML/View tags",
    "Basic auth: basic username/password prompts",
    "commit 0123456789abcdef0123456789abcdef01234567",
    "https://github.com/Org/Repo/blob/main/Some/Path/With1/Upper/And/More.md",
    "https://user@example.com/path and http://host:8080/path",
    "ssh://git@github.com:22/org/repo.git",
    "-----BEGIN PUBLIC KEY-----",
    "Prefer `gh pr create`; the API token lives in 1Password.",
    "",
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_about_credentials_is_left_alone(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


def test_redact_pair_masks_a_credential_named_key_whole() -> None:
    assert redact_pair("password", "hunter3") == MASK
    assert redact_pair("DB_PASSWORD", "x") == MASK
    assert redact_pair("name", "hunter3") == "hunter3"
    assert redact_pair("name", "token=abc123") == "token=***"
    assert redact_pair("passwords_policy", "x") == "x"


def test_find_secrets_gives_spans_and_kinds() -> None:
    text = "db https://u:pw@h/ and ghp_" + "a1B2" * 9
    found = [(text[s.start : s.end], s.kind) for s in find_secrets(text)]
    assert found == [("pw", "password in URL"), ("a1B2" * 9, "token")]


ADVERSARIAL = ["sk-", "password=", 'password="', "password is ", "a://b:", "-----BEGIN PRIVATE KEY-----", "a-", "a/"]


@pytest.mark.parametrize("piece", [*ADVERSARIAL, "A", "Aa1" * 14])
def test_redaction_is_linear(piece: str) -> None:
    """1 MB of each pattern's favourite prefix, repeated: bounded time, no backtracking blow-up."""
    text = piece * (1_000_000 // len(piece))
    start = time.perf_counter()
    redact(text)
    assert time.perf_counter() - start < 1.0  # about 0.1 s


def test_example_repository_holds_no_false_secret() -> None:
    """Every text file of the bundled example: redaction would change none of them but the one
    planted token of its SEC001 defect."""
    from conftest import EXAMPLE

    planted = EXAMPLE / "security" / "memory" / "deploy.md"
    for path in EXAMPLE.rglob("*"):
        if path.is_file() and not path.is_symlink():
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            found = [(secret.kind, text[secret.start : secret.start + 4]) for secret in find_secrets(text)]
            assert found == ([("token", "A1b2")] if path == planted else []), path


# --- injection -------------------------------------------------------------------------------

FORGED_TYPE = '---\nname: A\ndescription: a\ntype: "x\\n::error file=README.md,line=1::FORGED"\n---\n'
NEWLINE_NAME = "x\n::warning title=FORGED2::y.md"
OSC_NAME = "e\x1b]0;PWNED\x07.md"


@pytest.fixture
def injected(tmp_path: Path) -> Path:
    """The repro case: a `type` with a newline, a name with a newline, a name with an OSC title escape."""
    return write_tree(
        tmp_path,
        {
            "j/mem/MEMORY.md": "- [A](a.md) — a\n",
            "j/mem/a.md": FORGED_TYPE,
            f"j/mem/{NEWLINE_NAME}": topic("X", "x"),
            f"j/mem/{OSC_NAME}": topic("E", "e"),
        },
    )


@pytest.mark.parametrize("format_", FORMATS)
def test_no_forged_line_and_no_escape_sequence(injected: Path, format_: str) -> None:
    result = run_cli("check", "--output-format", format_, "j", cwd=injected)
    assert result.returncode == 1
    text = output(result)
    assert "\x1b" not in text and "\x07" not in text
    lines = result.stdout.splitlines()
    if format_ == "github":  # each finding is one command line; the summary is on stderr
        assert all(line.startswith(("::warning file=j/mem/", "::error file=j/mem/")) for line in lines)
        assert len(lines) == 5 and result.stderr.startswith("Found 5 findings")
    else:
        assert not any(line.startswith("::") for line in lines)
    if format_ in ("json", "sarif"):
        text = json.dumps(json.loads(result.stdout), ensure_ascii=False)
        text = text.replace("\\\\", "\\")  # undo JSON's doubling of the escapes' backslash
    assert "e\\x1b]0;PWNED\\x07.md" in text
    assert "x\\n::error file=README.md,line=1::FORGED" in text


def test_text_lines_spell_out_the_escapes(injected: Path) -> None:
    lines = run_cli("check", "j", cwd=injected).stdout.splitlines()
    assert "j/mem/a.md:4:1: MEM206 `type: x\\n::error file=README.md,line=1::FORGED` is not a memory type" in lines[0]
    assert lines[1].startswith("j/mem/e\\x1b]0;PWNED\\x07.md: MEM105 No line of MEMORY.md links to `e\\x1b]0;")
    assert lines[3].startswith("j/mem/x\\n::warning title=FORGED2::y.md: MEM105")


def test_colour_output_escapes_too(injected: Path) -> None:
    """Through rich, on a real terminal: its own colour codes, nothing else."""
    shown = run_on_terminal("check", "--preview", "j", cwd=injected, no_color_env=False)
    assert "\x1b[" in shown  # rich did colour it
    assert "\x1b]" not in shown and "\x07" not in shown
    assert "e\\x1b]0;PWNED\\x07.md" in shown


@pytest.mark.parametrize(
    ("char", "escape"),
    [("\x7f", "\\x7f"), ("\x9b", "\\x9b"), ("\u2028", "\\u2028"), ("\u202e", "\\u202e"), ("\t", "\\t"), ("\r", "\\r")],
)
@pytest.mark.parametrize("format_", FORMATS)
def test_every_control_character_is_escaped_visibly(tmp_path: Path, format_: str, char: str, escape: str) -> None:
    front = f'---\nname: A\ndescription: a\ntype: "v{char}w"\n---\n'.replace(char, json.dumps(char)[1:-1])
    root = write_tree(tmp_path, {"m/mem/MEMORY.md": "- [A](a.md) — a\n", "m/mem/a.md": front})
    result = run_cli("check", "--output-format", format_, "m", cwd=root)
    assert char not in output(result)
    if format_ in ("json", "sarif"):
        messages = [m for m in json.dumps(json.loads(result.stdout)).split('"') if "MEM206" in m or "memory type" in m]
        assert any(f"v{escape}w".replace("\\", "\\\\") in m for m in messages)
    else:
        assert f"`type: v{escape}w`" in result.stdout


def test_visible() -> None:
    assert visible("plain é 中文 🙂 \\n") == "plain é 中文 🙂 \\n"
    assert visible("a\nb\tc\rd\x00e\x1bf\x7fg\x85h\u2029i") == "a\\nb\\tc\\rd\\x00e\\x1bf\\x7fg\\x85h\\u2029i"
    assert visible("b" + os.fsdecode(b"\xff") + ".md") == "b\\xff.md"
    assert visible("a\tb\n", keep="\t") == "a\tb\\n"
    once = visible("x\x1b\n" + os.fsdecode(b"\xfe"))
    assert visible(once) == once


# --- file names that are not UTF-8 -----------------------------------------------------------

BAD_NAME = os.fsdecode(b"b\xff.md")


@pytest.fixture
def badname(tmp_path: Path) -> Path:
    if sys.platform == "darwin":  # APFS refuses names that are not UTF-8
        pytest.skip("the file system takes only UTF-8 names")
    return write_tree(
        tmp_path,
        {"b/mem/MEMORY.md": "- [A](a.md) — a\n", "b/mem/a.md": topic("A", "a"), f"b/mem/{BAD_NAME}": topic("B", "b")},
    )


UTF8 = {"PYTHONIOENCODING": "utf-8"}


@pytest.mark.parametrize("env", [{}, UTF8], ids=["locale", "utf-8"])
@pytest.mark.parametrize("format_", FORMATS)
def test_bad_name_in_every_format(badname: Path, format_: str, env: dict, validator) -> None:  # noqa: F811
    result = run_cli("check", "--output-format", format_, "b", cwd=badname, env=env)
    assert result.returncode == 1, result.stderr
    text = output(result)
    if format_ == "sarif":
        document = json.loads(result.stdout)
        assert_valid(document, validator)
        locations = [result["locations"][0]["physicalLocation"] for result in document["runs"][0]["results"]]
        assert {location["artifactLocation"]["uri"] for location in locations} == {"b/mem/b%FF.md"}
    elif format_ == "json":
        assert {finding["path"] for finding in json.loads(result.stdout)} == {"b/mem/b\\xff.md"}
    else:
        assert "b/mem/b\\xff.md" in text
    assert "its name is not valid UTF-8" in text  # MEM207: index generation skips it


@pytest.mark.parametrize("env", [{}, UTF8], ids=["locale", "utf-8"])
def test_bad_name_with_fix_and_diff(badname: Path, env: dict) -> None:
    index = badname / "b/mem/MEMORY.md"
    diff = run_cli("check", "--diff", "b", cwd=badname, env=env)
    assert diff.returncode == 0 and output(diff).endswith("0 would be fixed, 2 would remain.\n")
    fixed = run_cli("check", "--fix", "b", cwd=badname, env=env)
    assert fixed.returncode == 1
    assert output(fixed).endswith("0 fixed, 2 remaining.\n")
    assert index.read_text(encoding="utf-8") == "- [A](a.md) — a\n"


@pytest.mark.parametrize("env", [{}, UTF8], ids=["locale", "utf-8"])
def test_bad_name_with_index_commands(badname: Path, env: dict) -> None:
    index = badname / "b/mem/MEMORY.md"
    printed = run_cli("index", "b/mem", cwd=badname, env=env)
    assert printed.returncode == 0 and printed.stdout == "- [A](a.md) — a\n"
    assert "b/mem/b\\xff.md: MEM207" in output(printed)
    assert run_cli("index", "--check", "b/mem", cwd=badname, env=env).returncode == 0
    index.write_text("")  # an empty index: a memory dir still, and nothing to lose by writing it
    written = run_cli("index", "--write", "b/mem", cwd=badname, env=env)
    assert written.returncode == 0, output(written)
    assert index.read_bytes() == "- [A](a.md) — a\n".encode()


@pytest.mark.parametrize("format_", FORMATS)
def test_an_output_encoding_without_the_character(tmp_path: Path, format_: str) -> None:
    """A terminal that cannot show `é` gets its escape, and JSON its `\\u` form, not a traceback."""
    root = write_tree(tmp_path, {"u/mem/MEMORY.md": "- [É](é.md) — é\n"})
    result = run_cli("check", "--output-format", format_, "u", cwd=root, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1
    text = output(result)
    assert text.isascii()
    if format_ in ("json", "sarif"):
        assert "é.md" in json.dumps(json.loads(result.stdout), ensure_ascii=False)
    else:
        assert "\\xe9.md" in text
