"""The README and docs stay true: the CI command, the rule table, every setting documented."""

from __future__ import annotations

import re
from pathlib import Path

from mnemolint.options import OPTIONS
from mnemolint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    command = re.search(r"# 2\. run the whole test suite\n(.+)\n", README).group(1)
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_readme_rule_table_matches_the_registry() -> None:
    rows = re.findall(r"^\| ([A-Z]{2,3}\d{3}) \| ([a-z0-9-]+) \| (\w+) \| (\w*) ?\|$", README, re.M)
    assert rows == [(rule.code, rule.name, rule.severity, rule.fix or "") for rule in RULES]


def test_every_option_is_documented() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for name, option in OPTIONS.items():
        assert f"`{name}`" in text, name
        assert f"{option.default:,}".replace(",", "") in text.replace(",", ""), f"default of {name}"
