"""docs/mnemolint.schema.json: generated from the option registry and the rule codes, it accepts
every configuration example the docs show and refuses what the loader refuses.

After changing a setting, an option or a rule code, run `python tests/test_schema.py` to write it
again.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from mnemolint import config_schema
from mnemolint.config import SETTING_KEYS, Settings, apply_table
from mnemolint.errors import ConfigError
from mnemolint.parse import markdown
from mnemolint.rules import OPTIONS

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / config_schema.PATH
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "rules-catalog").glob("*.md"))]
CONFIG_FILES = (".mnemolint.toml", "mnemolint.toml", "pyproject.toml")


def validator() -> Draft7Validator:
    return Draft7Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def loads(table: dict) -> bool:
    """Whether the loader takes `table` as a config file's settings."""
    try:
        apply_table(Settings(str(ROOT)), table, "test.toml")
    except ConfigError:
        return False
    return True


def test_the_schema_file_is_generated_from_the_registry() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == config_schema.text(), (
        "docs/mnemolint.schema.json is stale: run `python tests/test_schema.py`"
    )


def test_the_schema_is_a_valid_draft_7_schema() -> None:
    Draft7Validator.check_schema(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def test_the_schema_has_every_key_the_loader_and_the_docs_know() -> None:
    properties = set(config_schema.schema()["properties"])
    assert properties == {*SETTING_KEYS, *OPTIONS}
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "docs/configuration.md").read_text("utf-8"), re.M))
    assert documented == properties


def config_examples() -> list[tuple[str, dict]]:
    """Every TOML block of the docs that is a configuration (`file=` a config file, or a
    `[tool.mnemolint]` table), as (where, its settings), and the example repository's file."""
    found = []
    for document in DOCUMENTS:
        for block in markdown.fences(document.read_text(encoding="utf-8")):
            info = block.info.split()
            if info[:1] != ["toml"]:
                continue
            named = [part.split("=", 1)[1] for part in info[1:] if part.startswith("file=")]
            data = tomllib.loads(block.content)
            where = f"{document.relative_to(ROOT)}:{block.start_line}"
            if "mnemolint" in data.get("tool", {}):
                found.append((where, data["tool"]["mnemolint"]))
            elif named and Path(named[0]).name in CONFIG_FILES:
                found.append((where, data))
            else:  # another tool's TOML (Codex's MCP servers, an editor's language server): no setting of ours
                assert not set(data) & {*SETTING_KEYS, *OPTIONS}, f"{where}: mnemolint settings outside a config file"
    example = ROOT / "docs/example-repo/mnemolint.toml"
    found.append((str(example.relative_to(ROOT)), tomllib.loads(example.read_text(encoding="utf-8"))))
    return found


EXAMPLES = config_examples()


def test_the_docs_show_configuration_examples() -> None:
    assert len(EXAMPLES) >= 10
    assert any(where.startswith("README.md") for where, _ in EXAMPLES)


@pytest.mark.parametrize(("where", "table"), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_every_documented_example_passes_the_schema_and_the_loader(where: str, table: dict) -> None:
    assert [error.message for error in validator().iter_errors(table)] == []
    assert loads(table)


WRONG = [
    {"ignore": "LNK"},  # a string where a list is expected
    {"select": ["MEM999"]},
    {"select": [""]},
    {"selec": ["MEM"]},
    {"tool": {"mnemolint": {"select": ["MEM"]}}},  # the pyproject header inside a mnemolint.toml
    {"severity": {"MEM105": "fatal"}},
    {"severity": {"NOPE": "error"}},
    {"per-file-ignores": {"legacy/**": "MEM2"}},
    {"fail-level": "fatal"},
    {"preview": "yes"},
    {"cache-dir": " "},
    {"index-max-lines": 0},
    {"index-max-lines": True},
    {"index-max-lines": 2.5},
    {"index-warn-ratio": 1.5},
    {"agents": ["emacs"]},
    {"user-rules": 1},
    {"now": 20261201},
]
RIGHT = [
    {"select": ["MEM10", "ALL", "FM"], "ignore": ["M"]},  # any prefix of a code
    {"per-file-ignores": {"legacy/**": ["MEM2"]}, "severity": {"MEM1": "info"}},
    {"index-warn-ratio": 1, "agents": ["wave", "claude-code"], "now": "2026-12-01"},
]


@pytest.mark.parametrize("table", WRONG, ids=[json.dumps(table) for table in WRONG])
def test_what_the_loader_refuses_the_schema_refuses(table: dict) -> None:
    assert not loads(table)
    assert list(validator().iter_errors(table))


@pytest.mark.parametrize("table", RIGHT, ids=[json.dumps(table) for table in RIGHT])
def test_what_the_loader_takes_the_schema_takes(table: dict) -> None:
    assert loads(table)
    assert list(validator().iter_errors(table)) == []


def test_check_jsonschema_validates_a_config_file_with_the_published_schema(tmp_path: Path) -> None:
    """What an editor or a CI step runs: check-jsonschema reads the TOML file itself."""
    command = [sys.executable, "-m", "check_jsonschema", "--schemafile", str(SCHEMA_FILE)]
    good = subprocess.run([*command, str(ROOT / "docs/example-repo/mnemolint.toml")], capture_output=True, timeout=120)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = tmp_path / "mnemolint.toml"
    bad.write_text('ignore = "LNK"\nindex-max-line = 3\n', encoding="utf-8")
    refused = subprocess.run([*command, str(bad)], capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1
    assert "'LNK' is not of type 'array'" in refused.stdout
    assert "index-max-line" in refused.stdout


if __name__ == "__main__":  # write the schema again
    SCHEMA_FILE.write_text(config_schema.text(), encoding="utf-8")
