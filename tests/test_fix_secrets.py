"""No fix writes a secret, and `--diff` shows exactly what `--fix` writes.

A generated index line copies a topic's title, path and description into `MEMORY.md`, the file
loaded into every session: a token there, as YAML decodes it (`"\\x67hp_…"`) or as the file
spells it, is left out of the line, and SEC001 reports it in the topic. The cases of
`repro2.sh indexsecret`, run through the CLI as a user would.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

BODY = "R8x2KqLm9Zt4Wv7Yp3Nc6Hb1Jd5Fg0Se2AqZ"  # what follows `ghp_`: never printed, never written
ESCAPED = "Q8x2KqLm9Zt4Wv7Yp3Nc6Hb1Jd5Fg0Se2AqZ"


def topic(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: user\n---\nBody.\n"


def memory(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    return write_tree(
        tmp_path,
        {
            "mem/MEMORY.md": "# M\n",
            "mem/t.md": topic("T", f"deploy with ghp_{BODY}"),
            "mem/u.md": topic("U", f'"\\x67hp_{ESCAPED}"'),  # YAML gives the agent `ghp_Q8x2…`
            **(extra or {}),
        },
    )


def test_index_prints_and_writes_no_token(tmp_path: Path) -> None:
    root = memory(tmp_path)
    (root / "mem/MEMORY.md").write_text("")  # an empty index: nothing to lose by writing it
    printed = run_cli("index", "mem", cwd=root)
    assert printed.returncode == 0
    assert printed.stdout == "- [T](t.md)\n- [U](u.md)\n"
    assert run_cli("index", "mem", "--write", cwd=root).returncode == 0
    assert (root / "mem/MEMORY.md").read_text(encoding="utf-8") == "- [T](t.md)\n- [U](u.md)\n"


def test_diff_shows_exactly_what_fix_writes(tmp_path: Path) -> None:
    root = memory(tmp_path)
    diff = run_cli("check", "--diff", "mem", cwd=root)
    assert BODY not in diff.stdout + diff.stderr and ESCAPED not in diff.stdout + diff.stderr
    added = [line[1:] for line in diff.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == ["- [T](t.md)", "- [U](u.md)"]
    run_cli("check", "--fix", "mem", cwd=root)
    written = (root / "mem/MEMORY.md").read_text(encoding="utf-8")
    assert written == "# M\n" + "".join(line + "\n" for line in added)
    assert BODY not in written and ESCAPED not in written


def test_sec001_reports_a_token_only_its_decoded_value_shows(tmp_path: Path) -> None:
    binary = base64.b64encode(f"ghp_{ESCAPED[::-1]}".encode()).decode()
    root = memory(tmp_path, {"mem/v.md": topic("V", f"!!binary {binary}")})
    result = run_cli("check", "--no-cache", "--preview", "--select", "SEC001", "mem", cwd=root)
    found = [line for line in result.stdout.splitlines() if "SEC001" in line]
    assert [line.split(": SEC001")[0] for line in found] == ["mem/t.md:3:30", "mem/u.md:3:1", "mem/v.md:3:1"]
    assert "`description` holds `ghp_***` once decoded (36 characters masked)" in found[1]
    assert BODY not in result.stdout and ESCAPED not in result.stdout and ESCAPED[::-1] not in result.stdout


def test_an_escape_that_hides_nothing_is_not_reported(tmp_path: Path) -> None:
    root = memory(tmp_path, {"mem/t.md": topic("T", '"tabs\\tand \\x41 letters"'), "mem/u.md": topic("U", "u")})
    result = run_cli("check", "--no-cache", "--preview", "--select", "SEC001", "mem", cwd=root)
    assert (result.returncode, "SEC001" in result.stdout) == (0, False)


def test_a_title_with_a_token_gives_way_to_the_file_name(tmp_path: Path) -> None:
    root = memory(tmp_path, {"mem/t.md": topic(f"ghp_{BODY}", "how to deploy"), "mem/u.md": topic("U", "u")})
    assert run_cli("index", "mem", cwd=root).stdout == "- [t](t.md) — how to deploy\n- [U](u.md) — u\n"


def test_a_topic_whose_path_holds_a_token_gets_no_line(tmp_path: Path) -> None:
    plain = {"mem/t.md": topic("T", "t"), "mem/u.md": topic("U", "u")}
    root = memory(tmp_path, {f"mem/ghp_{BODY}.md": topic("G", "g"), **plain})
    printed = run_cli("index", "mem", cwd=root)
    assert printed.stdout == "- [T](t.md) — t\n- [U](u.md) — u\n"
    assert "MEM207 Index generation skips this topic: its path holds credential-shaped text" in printed.stderr
    assert BODY not in printed.stderr
    run_cli("check", "--fix", "mem", cwd=root)
    assert BODY not in (root / "mem/MEMORY.md").read_text(encoding="utf-8")


def test_no_fix_writes_a_secret_the_file_does_not_hold() -> None:
    from mnemolint.fix.fixer import writes_secret
    from mnemolint.model import Edit

    token = f"ghp_{BODY}"
    assert writes_secret((Edit(0, 0, f"- [A](a.md) — {token}\n"),), "# M\n")
    assert not writes_secret((Edit(0, 0, f"{token}\r"),), f"{token}\n")  # a line re-ended keeps what it held
    assert not writes_secret((Edit(0, 0, "- [A](a.md) — plain\n"),), None)


# --- bounded on hostile input ----------------------------------------------------------------------


def test_the_walk_of_decoded_values_is_bounded_when_they_fan_out() -> None:
    """The frontmatter reader refuses aliases; were a parsed value ever to share its parts (ten
    levels of ten references are 10^10 strings to a naive walk), the walk still visits 10,000."""
    from mnemolint.rules.secrets import _strings

    value: object = ["\x41"]
    for _ in range(10):
        value = [value] * 10
    started = time.perf_counter()
    assert sum(1 for _ in _strings({"k": value}, 10_000)) < 10_000
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    "pieces",
    [
        ["secret:", "Webhook", "Secret", "2"],
        ["password: ", "your-", "-here", "x"],
        ["token=", "GOCSPX-", "a1B2c3", "-"],
        ["```.env.example\n", "API_KEY=a1-", "\n```\n", "`.env.sample`:\n"],
    ],
    ids=["names", "stand-ins", "oauth", "templates"],
)
def test_secret_precision_is_linear_on_a_megabyte(tmp_path: Path, pieces: list[str]) -> None:
    from mnemolint.redact import find_secrets
    from mnemolint.rules.secrets import _template_lines

    text = ("".join(pieces) * ((1 << 20) // len("".join(pieces)) + 1))[: 1 << 20]
    started = time.perf_counter()
    find_secrets(text, credible=True)
    _template_lines(str(tmp_path / "t.md"), text)
    assert time.perf_counter() - started < 5
