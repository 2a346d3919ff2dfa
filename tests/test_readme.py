"""The README and docs stay true: the CI command, the rule table, the option tables.

docs/configuration.md's option tables are generated from the families' declarations; after
changing an option, run `python tests/test_readme.py` to write them again.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from mnemolint.options import SHARED, Option
from mnemolint.rules import FAMILIES, RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONFIGURATION = ROOT / "docs" / "configuration.md"
BEGIN = "<!-- option tables: generated from the rule families by tests/test_readme.py -->\n"
END = "<!-- end of the option tables -->\n"


def test_ci_runs_the_readme_test_command() -> None:
    command = re.search(r"# 2\. run the whole test suite\n(.+)\n", README).group(1)
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_readme_rule_table_matches_the_registry() -> None:
    rows = re.findall(r"^\| ([A-Z]{2,3}\d{3}) \| ([a-z0-9-]+) \| (\w+) \| (\w*) ?\| (\w*) ?\|$", README, re.M)
    expected = [
        (rule.code, rule.name, rule.severity, rule.fix or "", "preview" if rule.preview else "") for rule in RULES
    ]
    assert rows == expected


def option_tables() -> str:
    """One table per family that has options, then the core options every file is read with,
    between blank lines (so that neither marker joins a table)."""
    groups = [(f"{family.prefix}: {family.title}", family.options) for family in FAMILIES if family.options]
    groups.append(("Every run (read while parsing, and the clock)", SHARED))
    blocks = []
    for title, options in groups:
        rows = "".join(_row(option) for option in options)
        blocks.append(f"### {title}\n\n| key | type | default | used by | meaning |\n|---|---|---|---|---|\n{rows}")
    return "\n" + "\n".join(blocks) + "\n"


def _row(option: Option) -> str:
    used_by = ", ".join(rule.code for rule in RULES if option in rule.options)
    return f"| `{option.name}` | {option.expected} | `{json.dumps(option.default)}` | {used_by} | {option.help} |\n"


def _documented(text: str) -> str:
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def test_option_tables_are_generated_from_the_families() -> None:
    documented = _documented(CONFIGURATION.read_text(encoding="utf-8"))
    assert documented == option_tables(), "docs/configuration.md is stale: run `python tests/test_readme.py`"


def test_every_option_is_used_by_a_rule_or_the_parse_layer() -> None:
    """A family's options are those its rules take: one declared in its module that no rule takes
    would be in no table, and no config could set it."""
    used = [option for rule in RULES for option in rule.options]
    for family in FAMILIES:
        module = sys.modules[family.rules[0].check.__module__]
        for name, option in vars(module).items():
            if isinstance(option, Option):
                assert option in used, f"{option.name} ({name}) is declared by {family.prefix} but no rule uses it"


if __name__ == "__main__":  # rewrite the generated tables in place
    head, rest = CONFIGURATION.read_text(encoding="utf-8").split(BEGIN, 1)
    CONFIGURATION.write_text(head + BEGIN + option_tables() + END + rest.split(END, 1)[1], encoding="utf-8")


def test_every_test_that_docs_security_cites_exists() -> None:
    """docs/security.md says how each guarantee is tested: each test it names must be there."""
    cited = set(re.findall(r"`(test_\w+)`", (ROOT / "docs" / "security.md").read_text(encoding="utf-8")))
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    assert cited, "docs/security.md names no test"
    assert sorted(cited - defined) == []


def test_readme_shows_the_example_summary_check_prints() -> None:
    """The summary line of the README's opening example is the one `check` prints on the bundled example."""
    from conftest import EXAMPLE, run_cli

    shown = re.search(r"^Found \d+ findings .*$", README, re.M).group(0)
    assert "$ mnemolint check --preview\n" in README
    printed = run_cli("check", "--no-cache", "--preview", cwd=EXAMPLE).stdout.splitlines()[-1]
    assert shown == printed
