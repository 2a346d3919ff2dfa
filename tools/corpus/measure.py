"""Measure mnemolint's precision on the held-out half of the rebuilt corpus (see collect.py).

    measure.py run --corpus /work/corpus2 --out /work/h8tmp/measure [--manifest M] [--mnemolint BIN] [-- CHECK-ARGS]
    measure.py table --judgements tests/corpus/judgements-heldout.tsv --findings OUT/findings.jsonl

`run` lints every held-out tree (one `mnemolint check` per repository, run from inside it, the
cache off, the clock fixed), keeps each finding with its repository, and writes `findings.jsonl`
and `sample.tsv`: per rule every finding when there are at most 30, else 30 drawn with a fixed
seed, with verdict and reason blank to be filled by a person reading each one, or carried over
from `--judged` (an earlier judged sample) where the same finding was judged before. Messages
are written with any secret in them masked. A finding on
a file the manifest does not list (a placeholder, see collect.py) says the tree is not faithful
there and is counted apart. `table` prints the per-rule table of a judged sample.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from collect import read_manifest

from mnemolint.redact import redact

HERE = Path(__file__).resolve().parent
TESTS = HERE.parents[1] / "tests" / "corpus"
SAMPLE = 30
SEED = 22  # fixed before any finding was read; each rule draws from its own stream
JUDGED = ("repo", "path", "line", "code", "verdict", "reason", "message")


def held_out(manifest: Path) -> list[str]:
    """The held-out repositories of `manifest`: its `split` column, fixed by `collect.split` when
    it was collected (the shared corpus's repositories, all tuned on, are in no manifest)."""
    return sorted({row["repo"] for row in read_manifest(manifest) if row["split"] == "held-out"})


def listed(manifest: Path) -> set[tuple[str, str]]:
    return {(row["repo"], row["path"]) for row in read_manifest(manifest)}


def judged_before(path: Path | None) -> tuple[dict[tuple, tuple[str, str]], dict[tuple, tuple[str, str]]]:
    """Verdicts already given, by the finding they were given to: its repository, file, line and
    rule, and which of that line's findings under the rule it is. Where every finding of a line
    under one rule got the same verdict and reason, they hold for any of them (a reworded message
    can reorder them)."""
    if path is None:
        return {}, {}
    verdicts: dict[tuple, tuple[str, str]] = {}
    by_line: dict[tuple, set[tuple[str, str]]] = defaultdict(set)
    seen: Counter = Counter()
    for row in read_manifest(path):
        key = (row["repo"], row["path"], row["line"], row["code"])
        verdicts[(*key, seen[key])] = (row["verdict"], row["reason"])
        by_line[key].add((row["verdict"], row["reason"]))
        seen[key] += 1
    uniform = {key: next(iter(given)) for key, given in by_line.items() if len(given) == 1}
    return verdicts, uniform


def shorten(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run(corpus: Path, out: Path, mnemolint: str, extra: list[str], judged: Path | None, manifest: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    real = listed(manifest)
    findings, artefacts = [], []
    for repo in held_out(manifest):
        root = corpus / repo.replace("/", "__")
        command = [mnemolint, "check", "--no-cache", "--output-format", "json", "--now", "2026-12-01", *extra, "."]
        result = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=900)
        if result.returncode not in (0, 1) or result.stderr:
            print(f"{repo}: exit {result.returncode}: {result.stderr[:500]}", file=sys.stderr)
        for finding in json.loads(result.stdout or "[]"):
            finding["repo"] = repo
            faithful = (repo, finding["path"]) in real or os.path.islink(root / finding["path"])
            (findings if faithful else artefacts).append(finding)
    findings.sort(key=lambda f: (f["code"], f["repo"], f["path"], f["line"] or 0, f["column"] or 0, f["message"]))
    with open(out / "findings.jsonl", "w", encoding="utf-8") as handle:
        for finding in findings:
            handle.write(json.dumps(finding, ensure_ascii=False) + "\n")
    by_rule: dict[str, list[dict]] = defaultdict(list)
    seen: Counter = Counter()
    for finding in findings:
        key = (finding["repo"], finding["path"], str(finding["line"] or ""), finding["code"])
        finding["key"] = (*key, seen[key])  # the nth finding of a file's line under one rule
        seen[key] += 1
        by_rule[finding["code"]].append(finding)
    before, uniform = judged_before(judged)
    missing = 0
    with open(out / "sample.tsv", "w", encoding="utf-8") as handle:
        handle.write("\t".join(JUDGED) + "\n")
        for code in sorted(by_rule):
            chance = random.Random(f"{SEED}:{code}")  # one draw per rule: a change in one leaves the others
            chosen = by_rule[code] if len(by_rule[code]) <= SAMPLE else chance.sample(by_rule[code], SAMPLE)
            for finding in chosen:
                verdict, reason = uniform.get(finding["key"][:4]) or before.get(finding["key"], ("", ""))
                missing += not verdict
                message = shorten(redact(" ".join(finding["message"].split())))
                cells = [*finding["key"][:4], verdict, reason, message]
                handle.write("\t".join(cells) + "\n")
    print(f"{missing} sampled findings have no verdict yet")
    counts = Counter(finding["code"] for finding in findings)
    print(
        f"{len(findings)} findings in {len(held_out(manifest))} held-out repositories; {len(artefacts)} on placeholders"
    )
    for code, count in sorted(counts.items()):
        print(f"{code}\t{count}")
    for finding in artefacts[:20]:
        print(f"placeholder: {finding['repo']}:{finding['path']}:{finding['line']} {finding['code']}", file=sys.stderr)
    return 0


def table(judgements: Path, findings: Path) -> int:
    counts = Counter(json.loads(line)["code"] for line in findings.read_text(encoding="utf-8").splitlines() if line)
    verdicts: dict[str, Counter] = defaultdict(Counter)
    for row in read_manifest(judgements):
        verdicts[row["code"]][row["verdict"]] += 1
    print("| rule | findings | read | true | false | debatable | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for code in sorted(counts):
        seen = verdicts[code]
        read = sum(seen.values())
        judged = seen["true"] + seen["false"]
        precision = f"{100 * seen['true'] / judged:.0f} %" if judged else "—"
        cells = [code, counts[code], read, seen["true"], seen["false"], seen["debatable"], precision]
        print("| " + " | ".join(str(cell) for cell in cells) + " |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("run", help="lint the held-out trees and draw the sample to read")
    measure.add_argument("--corpus", type=Path, required=True)
    measure.add_argument("--out", type=Path, required=True)
    measure.add_argument("--mnemolint", default=os.environ.get("MNEMOLINT", "mnemolint"))
    measure.add_argument("--judged", type=Path, help="verdicts given before, carried over to the findings they fit")
    measure.add_argument("--manifest", type=Path, default=TESTS / "manifest2.tsv", help="the corpus's manifest")
    measure.add_argument("extra", nargs="*", help="more `mnemolint check` arguments, after --")
    summary = commands.add_parser("table", help="print the per-rule table of a judged sample")
    summary.add_argument("--judgements", type=Path, required=True)
    summary.add_argument("--findings", type=Path, required=True)
    arguments = parser.parse_args(argv)
    if arguments.command == "run":
        return run(
            arguments.corpus, arguments.out, arguments.mnemolint, arguments.extra, arguments.judged, arguments.manifest
        )
    return table(arguments.judgements, arguments.findings)


if __name__ == "__main__":
    sys.exit(main())
