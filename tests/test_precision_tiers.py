"""The default rule set is what the held-out measurement says: precision.py's counts are
the judgement files' verdicts, and a rule is on by default only at 95 % with 5 judged findings."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from mnemolint.catalog import page
from mnemolint.precision import HELD_OUT, MIN_JUDGED, MIN_PRECISION, preview_reason, sarif_precision
from mnemolint.rules import BY_CODE, PREVIEW, RULES

CORPUS = Path(__file__).parent / "corpus"
JUDGEMENTS = ("judgements-heldout.tsv", "judgements-heldout3.tsv")


def _verdicts() -> Counter:
    counted: Counter = Counter()
    for name in JUDGEMENTS:
        with open(CORPUS / name, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                counted[row["code"], row["verdict"]] += 1
    return counted


def test_the_counts_are_the_judgement_files_verdicts() -> None:
    verdicts = _verdicts()
    judged = {code for code, verdict in verdicts if verdict in ("true", "false")}
    assert set(HELD_OUT) == judged
    for code, (right, wrong) in HELD_OUT.items():
        assert (right, wrong) == (verdicts[code, "true"], verdicts[code, "false"]), code


def test_a_rule_is_on_by_default_only_when_measured_precise_on_enough_findings() -> None:
    for rule in RULES:
        right, wrong = HELD_OUT.get(rule.code, (0, 0))
        measured_in = right + wrong >= MIN_JUDGED and right / (right + wrong) >= MIN_PRECISION
        assert (rule.code not in PREVIEW) == measured_in, rule.code
    assert sorted(code for code in BY_CODE if code not in PREVIEW) == [
        "CDX001", "MEM103", "MEM104", "NST001", "WAV002", "WAV005",
    ]  # fmt: skip


def test_a_preview_rules_page_says_what_was_measured() -> None:
    assert preview_reason("MEM108") == (
        "Read finding by finding on 68 public repositories before any rule was tuned on them, 19 of its 22 judged "
        "findings were right (86%); a rule is on by default from 95%."
    )
    assert "it had no finding that could be judged" in preview_reason("LNK001")
    assert "it had 2 findings that could be judged, fewer than the 5" in preview_reason("CLD001")
    assert preview_reason("MEM104") is None
    assert "This rule is in preview" in page("MEM108") and "19 of its 22 judged findings" in page("MEM108")
    assert "This rule is in preview" not in page("MEM104")


def test_sarif_precision_is_the_measured_class_where_there_is_one() -> None:
    assert sarif_precision("MEM105", "very-high") == "low"  # 3 of 31
    assert sarif_precision("MEM108", "high") == "high"  # 19 of 22
    assert sarif_precision("SEC001", "very-high") == "medium"  # 7 of 14
    assert sarif_precision("WAV005", "medium") == "very-high"  # 6 of 6
    assert sarif_precision("LNK001", "very-high") == "very-high"  # nothing judged: the family's word
