"""The preview tier: a rule declared `@rule(..., preview="what was measured")` runs only in
preview mode (`--preview`, `preview = true`, `{"preview": True}`), however it is selected, as in
ruff; it is marked wherever rules are listed. Real trees in tmp_path, the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint import api
from mnemolint.catalog import page
from mnemolint.rules import PREVIEW, RULES

# The seed's own close pair: MEM209 (a preview rule) fires on it in preview mode.
CLOSE = {
    "memory/MEMORY.md": "- [前端 API 地址](front.md) — 前端\n- [后端 API 地址](back.md) — 后端\n",
    "memory/front.md": "---\nname: 前端 API 地址\ndescription: 前端\ntype: reference\n---\nx\n",
    "memory/back.md": "---\nname: 后端 API 地址\ndescription: 后端\ntype: reference\n---\ny\n",
}
WARNING = "selection `MEM209` has no effect because preview is not enabled"


def found(*args: str, cwd: Path) -> tuple[set[str], str]:
    process = run_cli("check", "--output-format", "json", "--exit-zero", "--no-cache", *args, cwd=cwd)
    assert process.returncode == 0, process.stderr
    return {finding["code"] for finding in json.loads(process.stdout)}, process.stderr


def test_the_three_rules_start_in_preview() -> None:
    assert PREVIEW == {"MEM109", "MEM209", "SEC001", "OPC001", "OPC002", "OPC003"}


def test_a_preview_rule_is_off_by_default_and_on_with_preview(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLOSE)
    assert "MEM209" not in found(cwd=root)[0]
    assert "MEM209" in found("--preview", cwd=root)[0]
    assert "MEM209" in found("--preview", "--select", "MEM2", cwd=root)[0]  # a prefix takes it in preview mode


def test_selecting_a_preview_rule_by_its_code_needs_preview_and_says_so(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLOSE)
    codes, stderr = found("--select", "MEM209", cwd=root)
    assert codes == set()
    assert f"mnemolint: warning: {WARNING}" in stderr and "--preview" in stderr
    codes, stderr = found("--select", "MEM209", "--preview", cwd=root)
    assert (codes, WARNING in stderr) == ({"MEM209"}, False)
    assert WARNING not in found("--select", "MEM2", cwd=root)[1]  # a prefix: what is on by default, silently


def test_the_preview_setting_and_no_preview_over_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**CLOSE, ".mnemolint.toml": "preview = true\n"})
    assert "MEM209" in found(cwd=root)[0]
    assert "MEM209" not in found("--no-preview", cwd=root)[0]


def test_a_preview_setting_that_is_not_a_boolean_is_a_usage_error(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**CLOSE, ".mnemolint.toml": 'preview = "yes"\n'})
    process = run_cli("check", cwd=root)
    assert process.returncode == 2 and "`preview` must be a boolean" in process.stderr


def test_the_api_and_the_hook_take_preview_too(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", CLOSE)
    assert "MEM209" not in {finding.code for finding in api.lint(root / "memory")}
    assert "MEM209" in {finding.code for finding in api.lint(root / "memory", {"preview": True})}
    home = tmp_path / "home"
    memory = home / ".claude" / "projects" / "p" / "memory"
    write_tree(memory, {name.split("/", 1)[1]: text for name, text in CLOSE.items()})
    written = {"file_path": ".claude/projects/p/memory/front.md"}
    event = json.dumps(
        {"cwd": str(home), "hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": written}
    )
    said = [run_cli("hook", "post-tool-use", *flag, stdin=event, cwd=home).stdout for flag in ([], ["--preview"])]
    assert "MEM209" not in said[0] and "MEM209" in said[1]


def test_rules_marks_the_preview_rules_and_gives_them_as_json() -> None:
    listed = run_cli("rules").stdout.splitlines()
    marked = {line.split()[0] for line in listed if re.match(r"[A-Z]+\d{3} ", line) and "  preview  " in line}
    assert marked == PREVIEW
    described = json.loads(run_cli("rules", "--output-format", "json").stdout)
    assert [rule["code"] for rule in described] == [rule.code for rule in RULES]
    assert {rule["code"]: rule["preview_reason"] for rule in described if rule["preview"]} == {
        rule.code: rule.preview for rule in RULES if rule.preview
    }


@pytest.mark.parametrize("rule", [rule for rule in RULES if rule.preview], ids=lambda rule: rule.code)
def test_a_preview_rules_page_begins_with_what_was_measured(rule) -> None:
    assert re.search(r"\d", rule.preview), "the reason states what was measured"
    printed = run_cli("rule", rule.code).stdout
    title = f"# {rule.code} {rule.name}\n\n> **This rule is in preview:** it runs only with `--preview`"
    assert title in printed and rule.preview in printed


def test_a_default_rules_page_has_no_preview_note() -> None:
    assert all("This rule is in preview" not in (page(rule.code) or "") for rule in RULES if not rule.preview)


def test_sarif_says_a_preview_rule_is_not_enabled_by_default(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLOSE)
    sarif = json.loads(run_cli("check", "--output-format", "sarif", "--exit-zero", cwd=root).stdout)
    for descriptor in sarif["runs"][0]["tool"]["driver"]["rules"]:
        preview = descriptor["id"] in PREVIEW
        assert ("enabled" in descriptor["defaultConfiguration"]) is preview
        assert ("preview" in descriptor["properties"]["tags"]) is preview
        if preview:
            assert descriptor["defaultConfiguration"]["enabled"] is False
            assert descriptor["properties"]["preview"] == next(r.preview for r in RULES if r.code == descriptor["id"])
            assert "This rule is in preview" in descriptor["help"]["markdown"]


def test_the_cache_of_a_default_run_is_not_the_cache_of_a_preview_run(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLOSE)
    for args, expected in (([], False), (["--preview"], True), ([], False)):
        process = run_cli("check", "--output-format", "json", "--exit-zero", *args, cwd=root)
        assert ("MEM209" in {finding["code"] for finding in json.loads(process.stdout)}) is expected
