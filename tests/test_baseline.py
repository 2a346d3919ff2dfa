"""`check --write-baseline` / `--baseline`: on a real memory in a git repository, through the CLI.
Lines move and a new finding appears; only the new one is reported, and the keys are SARIF's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import git, run_cli, write_tree

GHP = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"  # a GitHub token's shape
TOPIC = "---\nname: {0}\ndescription: {0}\ntype: project\n---\n{1}"
LONG = "- [Build](build.md) — " + "how to build, " * 12  # MEM103


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write_tree(
        tmp_path,
        {
            "memory/MEMORY.md": f"# Index\n\n{LONG}\n- [Deploy](deploy.md) — deploy\n- [Gone](gone.md) — gone\n",
            "memory/build.md": TOPIC.format("Build", "Run `make build`.\n"),
            "memory/deploy.md": TOPIC.format("Deploy", "Intro.\n\nSee [flags](flags.md).\n"),  # MEM212
            "memory/orphan.md": TOPIC.format("Orphan", "body\n"),  # MEM105
        },
    )
    git("init", "-q", cwd=tmp_path)
    return tmp_path


def check(root: Path, *args: str):
    return run_cli("check", "--no-cache", *args, cwd=root)


def findings(result) -> list[list[str]]:
    return [line.split()[:2] for line in result.stdout.splitlines()[:-1]]


def sarif_keys(root: Path, *args: str) -> dict[tuple[str, str, int], str]:
    log = json.loads(check(root, "--output-format", "sarif", *args).stdout)
    return {
        (
            result["ruleId"],
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
        ): result["partialFingerprints"]["mnemolint/v1"]
        for result in log["runs"][0]["results"]
    }


def test_only_new_findings_are_reported_after_lines_move(repo: Path) -> None:
    assert findings(check(repo)) == [
        ["memory/MEMORY.md:3:151:", "MEM103"],
        ["memory/MEMORY.md:5:3:", "MEM104"],
        ["memory/deploy.md:8:1:", "MEM212"],
        ["memory/orphan.md:", "MEM105"],
    ]
    written = check(repo, "--write-baseline", "mnemolint-baseline.json")
    assert (written.returncode, written.stderr) == (0, "Recorded 4 findings in the baseline mnemolint-baseline.json.\n")
    clean = check(repo, "--baseline", "mnemolint-baseline.json")
    assert (clean.returncode, clean.stdout) == (0, "All checks passed: 4 memory files checked.\n")
    assert clean.stderr == "mnemolint: 4 findings in the baseline mnemolint-baseline.json not shown\n"

    # Lines move above every finding, and one new finding appears (a second broken link).
    index = (repo / "memory/MEMORY.md").read_text(encoding="utf-8")
    (repo / "memory/MEMORY.md").write_text(
        index.replace("# Index\n", "# Index\n\n## Setup\n\n") + "- [Lost](lost.md) — lost\n", encoding="utf-8"
    )
    topic = (repo / "memory/deploy.md").read_text(encoding="utf-8")
    (repo / "memory/deploy.md").write_text(
        topic.replace("Intro.\n", "Intro.\n\nMore.\n\nAnd more.\n"), encoding="utf-8"
    )
    assert findings(check(repo)) == [
        ["memory/MEMORY.md:6:151:", "MEM103"],
        ["memory/MEMORY.md:8:3:", "MEM104"],
        ["memory/MEMORY.md:9:3:", "MEM104"],
        ["memory/deploy.md:12:1:", "MEM212"],
        ["memory/orphan.md:", "MEM105"],
    ]
    new = check(repo, "--baseline", "mnemolint-baseline.json")
    assert new.returncode == 1
    assert findings(new) == [["memory/MEMORY.md:9:3:", "MEM104"]]
    assert new.stdout.splitlines()[-1] == "Found 1 finding (1 error, 0 warnings, 0 infos) in 4 memory files."

    # The baseline's keys are SARIF's partialFingerprints, and a filtered log keeps the full run's.
    recorded = json.loads((repo / "mnemolint-baseline.json").read_text(encoding="utf-8"))
    full = sarif_keys(repo)
    assert {entry["fingerprint"] for entry in recorded["findings"]} == set(full.values()) - {
        full[("MEM104", "memory/MEMORY.md", 9)]
    }
    assert sarif_keys(repo, "--baseline", "mnemolint-baseline.json") == {
        ("MEM104", "memory/MEMORY.md", 9): full[("MEM104", "memory/MEMORY.md", 9)]
    }


def test_a_fixed_finding_is_counted_as_gone_only_for_the_files_linted(repo: Path) -> None:
    check(repo, "--write-baseline", "base.json")
    (repo / "memory/deploy.md").write_text(TOPIC.format("Deploy", "Intro.\n"), encoding="utf-8")  # MEM212 fixed
    focused = check(repo, "--baseline", "base.json", "memory/orphan.md")  # a pre-commit run over one file
    assert (focused.returncode, focused.stderr) == (0, "mnemolint: 1 finding in the baseline base.json not shown\n")
    whole = check(repo, "--baseline", "base.json")
    assert whole.stderr == (
        "mnemolint: 3 findings in the baseline base.json not shown; 1 recorded finding no longer found "
        "(--write-baseline records what is left)\n"
    )
    (repo / "memory/orphan.md").unlink()  # a file that is gone is gone for any run
    focused = check(repo, "--baseline", "base.json", "memory/build.md")
    assert focused.stderr == (
        "mnemolint: 0 findings in the baseline base.json not shown; 1 recorded finding no longer found "
        "(--write-baseline records what is left)\n"
    )


def test_identical_findings_are_matched_as_many_times_as_recorded(repo: Path) -> None:
    index = repo / "memory/MEMORY.md"
    index.write_text(index.read_text(encoding="utf-8").replace("- [Gone](gone.md) — gone\n", ""), encoding="utf-8")
    lost = "- [Lost](lost.md) — lost\n"
    index.write_text(index.read_text(encoding="utf-8") + lost, encoding="utf-8")
    check(repo, "--write-baseline", "base.json")
    index.write_text(lost + index.read_text(encoding="utf-8"), encoding="utf-8")  # the same line again, first
    new = check(repo, "--baseline", "base.json")
    assert [code for _, code in findings(new)] == ["MEM104", "MEM107"]  # one of the two broken links, and the copy


def test_a_baseline_holds_no_secret_nor_a_hash_of_a_line_holding_one(repo: Path) -> None:
    line = f"{LONG} token {GHP}"
    (repo / "memory/MEMORY.md").write_text(f"# Index\n\n{line}\n", encoding="utf-8")
    check(repo, "--preview", "--write-baseline", "base.json")
    text = (repo / "base.json").read_text(encoding="utf-8")
    assert {entry["code"] for entry in json.loads(text)["findings"]} >= {"MEM103", "SEC001"}
    assert GHP not in text and GHP[4:20] not in text
    for anchor in (line, line.strip(), f"line:{line.strip()}"):
        for code in ("MEM103", "SEC001"):
            raw = hashlib.sha256(f"{code}\0memory/MEMORY.md\0{anchor}".encode()).hexdigest()[:32]
            assert raw not in text


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read the baseline base.json: No such file or directory (write one with --write-baseline)"),
        ("[1, 2", "base.json is not a mnemolint baseline: not JSON"),
        ('{"findings": []}', 'base.json is not a mnemolint baseline: no `"mnemolint-baseline": 1`'),
        (
            '{"mnemolint-baseline": 1, "findings": [{"path": 1}]}',
            "base.json is not a mnemolint baseline: `findings` is not a list of {path, code, fingerprint} strings",
        ),
        ("[" * 100_000, "base.json is not a mnemolint baseline: not JSON"),
    ],
)
def test_a_missing_or_broken_baseline_is_a_usage_error(repo: Path, content: str | None, said: str) -> None:
    if content is not None:
        (repo / "base.json").write_text(content, encoding="utf-8")
    result = check(repo, "--baseline", "base.json")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"mnemolint: error: {said}\n")


def test_baseline_and_write_baseline_exclude_each_other(repo: Path) -> None:
    result = check(repo, "--baseline", "a.json", "--write-baseline", "b.json")
    assert result.returncode == 2 and "not allowed with argument" in result.stderr


def test_a_filtered_sarif_log_keeps_the_keys_counted_over_every_finding(repo: Path) -> None:
    index = repo / "memory/MEMORY.md"
    lost = "- [Lost](lost.md) — lost\n"
    index.write_text("# Index\n" + lost, encoding="utf-8")
    check(repo, "--write-baseline", "base.json")
    index.write_text("# Index\n" + lost + "\n## More\n\n" + lost, encoding="utf-8")
    full = sarif_keys(repo)
    shown = sarif_keys(repo, "--baseline", "base.json")
    assert full[("MEM104", "memory/MEMORY.md", 2)].endswith(":1")
    assert shown[("MEM104", "memory/MEMORY.md", 6)] == full[("MEM104", "memory/MEMORY.md", 6)]
    assert shown[("MEM104", "memory/MEMORY.md", 6)].endswith(":2")
    assert ("MEM104", "memory/MEMORY.md", 2) not in shown


def test_a_baseline_linked_to_a_credential_is_never_read(repo: Path) -> None:
    (repo / "keys").mkdir()
    (repo / "keys/id_ed25519").write_text('{"mnemolint-baseline": 1, "findings": []}\n', encoding="utf-8")
    (repo / "base.json").symlink_to("keys/id_ed25519")
    result = check(repo, "--baseline", "base.json")
    assert result.returncode == 2
    assert "mnemolint never reads through it" in result.stderr and "findings" not in result.stderr
