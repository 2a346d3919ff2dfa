"""Families are the one source of family facts: codes, order, options, SARIF facts, redaction.

A new family is one module ending in `FAMILY = Family(...)` plus one line in `rules/__init__.py`;
these tests fail when a module, an option or a security rule is left half declared.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.model import WARNING, Diagnostic, Hit
from mnemolint.options import BOOL, ENUM, INT, RATIO, SHARED, STRING, STRINGS, Option, defaults
from mnemolint.report import shown
from mnemolint.rules import BY_CODE, FAMILIES, FAMILY_OF, OPTIONS, RULES
from mnemolint.rules.base import EVERY_FILE, Rule, rule

RULES_DIR = Path(__file__).resolve().parent.parent / "src" / "mnemolint" / "rules"
NOT_FAMILIES = ("__init__", "base", "manifest")  # the registry, what a rule is, the generated manifest
FAMILY_MODULES = sorted(path.stem for path in RULES_DIR.glob("*.py") if path.stem not in NOT_FAMILIES)


@pytest.mark.parametrize("name", FAMILY_MODULES)
def test_every_rule_module_is_one_listed_family(name: str) -> None:
    module = importlib.import_module(f"mnemolint.rules.{name}")
    assert module.FAMILY in FAMILIES, f"rules/{name}.py's FAMILY is not in rules/__init__.py's FAMILIES"
    defined = {value for value in vars(module).values() if isinstance(value, Rule)}
    assert defined == set(module.FAMILY.rules), f"rules/{name}.py defines rules its FAMILY does not list"


def test_codes_follow_their_family() -> None:
    assert len(BY_CODE) == len(RULES)
    for family in FAMILIES:
        assert family.rules and family.title and family.tag and family.cites
        for member in family.rules:
            assert member.code.startswith(family.prefix), (family.prefix, member.code)
    prefixes = [family.prefix for family in FAMILIES]
    assert not [a for a in prefixes for b in prefixes if a != b and b.startswith(a)], "one prefix inside another"


def test_security_families_rate_every_rule_and_no_other_family_rates_any() -> None:
    for family in FAMILIES:
        if family.security is None:
            continue
        codes = [member.code for member in family.rules]
        assert sorted(family.security) == sorted(codes), f"{family.prefix}: a rule has no security severity"
        for severity in family.security.values():
            assert 0.0 < float(severity) <= 10.0
    assert {family.prefix for family in FAMILIES if family.security is not None} == {"LNK", "SEC"}


def test_precision_names_rules_of_the_family() -> None:
    for family in FAMILIES:
        assert set(family.precision) <= {member.code for member in family.rules}
        assert set(family.precision.values()) <= {"high", "medium", "low"}
    assert FAMILY_OF["MEM108"].precision["MEM108"] == "high"
    assert FAMILY_OF["MEM109"].precision["MEM109"] == "medium"


def test_options_are_declared_once() -> None:
    declared = [option.name for family in FAMILIES for option in family.options] + [option.name for option in SHARED]
    assert len(declared) == len(set(declared)) == len(OPTIONS)
    for member in RULES:
        for option in member.options:
            assert OPTIONS[option.name] is option, f"{member.code} uses {option.name}, which no family declares"


@pytest.mark.parametrize("member", RULES, ids=lambda member: member.code)
def test_summaries_name_no_threshold_of_their_own(member: Rule) -> None:
    for option in OPTIONS.values():
        for spelled in {option.shown(option.default), str(option.default)} - {""}:
            assert not re.search(rf"(?<![\w.]){re.escape(spelled)}(?![\w.])", member.template), (option.name, spelled)


def test_summaries_follow_the_options_in_force() -> None:
    over = BY_CODE["MEM101"]
    assert over.summary == "MEMORY.md is over 200 lines or 25,000 characters, so the agent loads only part of it."
    assert over.describe({"index-max-lines": 120, "index-max-chars": 9_000}).startswith(
        "MEMORY.md is over 120 lines or 9,000 characters"
    )
    near = BY_CODE["MEM202"]
    assert near.summary == "A topic file is at 80 % or more of its 4,096-byte / 200-line cap."
    assert near.describe({"topic-warn-ratio": 0.75}).startswith("A topic file is at 75 % or more")


def test_a_placeholder_must_name_an_option_of_the_rule() -> None:
    with pytest.raises(KeyError):
        rule("ZZZ001", "zzz", WARNING, reads=EVERY_FILE, summary="Over {index-max-lines} lines.")(lambda d, o: ())


@pytest.mark.parametrize(
    ("kind", "good", "spelled", "bad"),
    [
        (INT, 3_000, "3,000", [0, -1, 1.5, True, "3"]),
        (RATIO, 0.5, "50 %", [0, 1.5, True, "0.5"]),
        (STRING, "x", "x", [1, ["x"], None]),
        (STRINGS, ["a", "b"], "a, b", ["a", [1], ("a",)]),
        (BOOL, False, "false", [0, "false"]),
        (ENUM, "wave", "wave", ["codex", 1]),
    ],
)
def test_each_option_type_takes_its_values_and_names_what_it_wants(
    kind: str, good: object, spelled: str, bad: list
) -> None:
    option = Option("x-option", kind, good, "a test option", ("wave", "claude") if kind == ENUM else ())
    assert option.validate(good) == good
    assert option.shown(good) == spelled
    for value in bad:
        with pytest.raises(ValueError, match=rf"^must be {re.escape(option.expected)}, not "):
            option.validate(value)
    with pytest.raises(ValueError):
        Option("x-option", kind, bad[0], "a default of the wrong type is refused at declaration")


def test_only_the_core_options_are_read_by_a_document() -> None:
    assert defaults() == {"yaml-max-depth": 16, "max-file-bytes": 2 * 1024 * 1024}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param("index-line-max-chars = 10\n", 1, id="valid-option-fires"),
        pytest.param("index-line-max-chars = 400\n", 0, id="valid-option-does-not-fire"),
        pytest.param("index-warn-ratio = true\n", 2, id="bool-is-no-ratio"),
        pytest.param("topic-warn-ratio = 0\n", 2, id="ratio-zero"),
        pytest.param('max-file-bytes = "2MB"\n', 2, id="core-option-string"),
    ],
)
def test_options_from_a_config_file(tmp_path: Path, body: str, code: int) -> None:
    write_tree(
        tmp_path,
        {
            ".mnemolint.toml": body,
            "m/memory/MEMORY.md": "- [Alpha](alpha.md) — the alpha topic, summarised in one short line\n",
            "m/memory/alpha.md": "---\nname: Alpha\ndescription: the alpha topic, summarised in one short line\n"
            "type: project\n---\nBody.\n",
        },
    )
    result = run_cli("check", "--select", "MEM103", "--output-format", "json", "m", cwd=tmp_path)
    assert result.returncode == code, result.stderr
    if code == 2:
        key = body.split(" ", 1)[0]
        assert f"`{key}` must be" in result.stderr and result.stderr.count("\n") == 1
    elif code == 1:
        [finding] = json.loads(result.stdout)
        assert "(advised: under 10)" in finding["message"]


def _finding(code: str, message: str) -> Diagnostic:
    return Diagnostic(code, "zzz", WARNING, "/tmp/MEMORY.md", Hit(message))


def test_every_message_is_redacted_and_escaped_before_any_reporter() -> None:
    """Any rule may quote what a file holds (a glob, a link target): every family's message is
    masked, not only the secrets family's; a message without a secret passes as it is."""
    [masked] = shown([_finding("WAV002", "Found `password: hunter2` in\x1b line 3.")])
    assert masked.message == "Found `password: ***` in\\x1b line 3."
    [kept] = shown([_finding("MEM109", "Entry text differs from the description")])
    assert kept.message == "Entry text differs from the description"


def test_only_the_secrets_family_is_sensitive() -> None:
    """Sensitive: its findings exist because of a secret, so SARIF fingerprints their message."""
    assert [family.prefix for family in FAMILIES if family.sensitive] == ["SEC"]
