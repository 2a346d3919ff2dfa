"""Benchmark: `python tests/benchmark.py [--topics N] [--runs N]` (not collected by pytest).

Measures what the issue sets as targets, against the installed `mnemolint` command:
1. a 3-file memory repo (the pre-commit case): median wall time of `mnemolint check`;
2. an N-topic tree (default 10,000 files of ~2 KB): `mnemolint check` wall time, against a
   one-process floor that only reads, splits and ruamel-safe(C)-loads the same files.
Run it from a non-editable install (`pip install .`), whose modules pip compiles to bytecode.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The fastest ruamel safe load there is: libyaml's C parser with ruamel's YAML 1.2 resolver
# (`YAML(typ="safe").load` builds a new loader class per call and is about three times slower).
FLOOR = r"""
import os, sys
from ruamel.yaml.cyaml import CSafeLoader
for directory, _, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".md"):
            with open(os.path.join(directory, name), "rb") as handle:
                text = handle.read().decode("utf-8")
            lines = text.split("\n")
            if lines[0] == "---":
                end = lines.index("---", 1)
                loader = CSafeLoader("\n".join(lines[1:end]))
                loader.get_single_data()
                loader.dispose()
"""

BODY = (
    "The build runs through `make ci`; the slow integration suite is opt-in with `-m slow`.\n"
    "Caches live under `.cache/` and are safe to delete. Flaky test: test_sync_retry (network).\n"
) * 9


def topic(number: int) -> str:
    kind = ("user", "feedback", "project", "reference")[number % 4]
    return (
        f"---\nname: topic-{number}\n"
        f"description: What was learned about subsystem {number} and how to apply it next time\n"
        f"type: {kind}\n---\n\n# Topic {number}\n\n{BODY}"
    )


def make_tree(root: str, topics: int) -> None:
    memory = os.path.join(root, "memory")
    os.makedirs(memory)
    index = []
    for number in range(topics):
        name = f"topic_{number:05d}.md"
        with open(os.path.join(memory, name), "w", encoding="utf-8") as handle:
            handle.write(topic(number))
        if number < 120:
            index.append(f"- [Topic {number}]({name}) — What was learned about subsystem {number}")
    with open(os.path.join(memory, "MEMORY.md"), "w", encoding="utf-8") as handle:
        handle.write("# Memory\n\n" + "\n".join(index) + "\n")


def wall(command: list[str], runs: int) -> tuple[float, float]:
    """Median and minimum wall time in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    command = shutil.which("mnemolint") or sys.exit("mnemolint is not installed")
    with tempfile.TemporaryDirectory() as small, tempfile.TemporaryDirectory() as large:
        make_tree(small, 2)
        median, best = wall([command, "check", small, "--exit-zero"], max(args.runs * 4, 20))
        print(f"3-file repo: mnemolint check  median {median:.1f} ms  min {best:.1f} ms")
        floor, _ = wall([sys.executable, "-c", "pass"], 20)
        print(f"             python -c pass   median {floor:.1f} ms (interpreter start-up)")
        floor, _ = wall([sys.executable, "-c", "import re; from ruamel.yaml.cyaml import CSafeLoader"], 20)
        print(f"             + import ruamel  median {floor:.1f} ms (what any run that reads YAML pays)")
        make_tree(large, args.topics)
        median, best = wall([command, "check", large, "--exit-zero", "--quiet"], args.runs)
        base, base_best = wall([sys.executable, "-c", FLOOR, large], args.runs)
        print(f"{args.topics:,}-topic tree: mnemolint check  median {median:.0f} ms  min {best:.0f} ms")
        print(f"{'':>{len(f'{args.topics:,}') + 12}}floor script     median {base:.0f} ms  min {base_best:.0f} ms")
        print(f"ratio (median): {median / base:.2f}x")


if __name__ == "__main__":
    main()
