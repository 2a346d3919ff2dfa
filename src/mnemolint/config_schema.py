"""The JSON Schema of the configuration (`docs/mnemolint.schema.json`), for editors' completion
and checks of `.mnemolint.toml`, `mnemolint.toml` and `[tool.mnemolint]`.

The thresholds come from the option registry the rule families declare (`rules.OPTIONS`), the
selectors from the rule codes; the other keys are those `config.apply_table` validates by hand,
described here. `python tests/test_schema.py` writes the file again, and the test fails when it
is stale, when a key the docs list is missing, or when the schema and the loader disagree on a
documented example or a wrong value.
"""

from __future__ import annotations

from mnemolint.config import FAIL_LEVELS
from mnemolint.model import SEVERITIES
from mnemolint.options import BOOL, ENUM, INT, RATIO, STRING, STRINGS, Option
from mnemolint.selection import ALL

DRAFT = "http://json-schema.org/draft-07/schema#"  # the draft TOML editors (Taplo) read
PATH = "docs/mnemolint.schema.json"


def schema() -> dict:
    """The whole schema: every key, none other (`additionalProperties: false`, as the loader)."""
    from mnemolint.rules import OPTIONS, RULES

    selector = {"$ref": "#/definitions/selector"}
    codes = {"type": "array", "items": selector}
    globs = {"type": "array", "items": {"type": "string"}}
    level = {"type": "string", "enum": list(SEVERITIES)}
    properties: dict[str, dict] = {
        "select": {
            **codes,
            "default": [ALL],
            "description": "rules to run: codes (MEM101), prefixes (MEM1, FM) or ALL",
        },
        "extend-select": {**codes, "default": [], "description": "codes or prefixes added to `select`"},
        "ignore": {**codes, "default": [], "description": "rules not to run; the most specific selector wins"},
        "per-file-ignores": {
            "type": "object",
            "additionalProperties": codes,
            "default": {},
            "description": "glob → codes not reported for the files it matches",
        },
        "severity": {
            "type": "object",
            "propertyNames": selector,
            "additionalProperties": level,
            "default": {},
            "description": "code or prefix → the severity its findings get",
        },
        "fail-level": {
            "type": "string",
            "enum": list(FAIL_LEVELS),
            "default": "warning",
            "description": "the lowest severity that makes `check` exit 1",
        },
        "preview": {"type": "boolean", "default": False, "description": "also run the preview rules"},
        "respect-gitignore": {
            "type": "boolean",
            "default": True,
            "description": "inside a git work tree, leave out what its `.gitignore` files ignore",
        },
        "force-exclude": {
            "type": "boolean",
            "default": False,
            "description": "apply `exclude` to paths named on the command line too",
        },
        "exclude": {**globs, "default": [], "description": "files and directories not to lint"},
        "extend-exclude": {**globs, "default": [], "description": "globs added to `exclude`"},
        "memory-dirs": {**globs, "default": [], "description": "directories to treat as memory dirs"},
        "cache-dir": {
            "type": "string",
            "pattern": r"\S",
            "default": ".mnemolint_cache",
            "description": "where `check` keeps its cache, relative to the config file",
        },
    }
    for option in OPTIONS.values():
        properties[option.name] = _option(option)
    return {
        "$schema": DRAFT,
        "title": "mnemolint configuration",
        "description": "The settings of `.mnemolint.toml`, `mnemolint.toml` or `[tool.mnemolint]` in pyproject.toml.",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "definitions": {
            "selector": {
                "type": "string",
                "enum": _selectors([rule.code for rule in RULES]),
                "description": "a rule code (MEM101), a prefix of codes (MEM1, FM) or ALL",
            }
        },
    }


def _option(option: Option) -> dict:
    """A threshold's schema: its type as `Option.validate` checks it, its default and help."""
    kinds: dict[str, dict] = {
        INT: {"type": "integer", "minimum": 1},
        RATIO: {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        STRING: {"type": "string"},
        BOOL: {"type": "boolean"},
        ENUM: {"type": "string", "enum": list(option.choices)},
        STRINGS: {
            "type": "array",
            "items": {"type": "string", **({"enum": list(option.choices)} if option.choices else {})},
        },
    }
    return {**kinds[option.type], "default": option.default, "description": option.help}


def _selectors(codes: list[str]) -> list[str]:
    """ALL and every prefix of a code, as `selection.check_selectors` accepts them: the families
    and codes in their public order, then the other prefixes sorted."""
    from mnemolint.rules import FAMILIES

    ordered = [ALL, *(family.prefix for family in FAMILIES), *codes]
    prefixes = {code[:end] for code in codes for end in range(1, len(code) + 1)}
    return list(dict.fromkeys(ordered)) + sorted(prefixes - set(ordered))


def text() -> str:
    """The schema file's text."""
    import json

    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"
