"""Check that `mnemolint check --fix` loses no human-written line on the rebuilt corpus.

    fixcheck.py --corpus COPY [--mnemolint BIN] [--unsafe-fixes]

COPY is a writable copy of the trees collect.py builds (each one a git repository with the
collected files committed), so git holds the text as people wrote it. The fix runs twice in each
tree. After the first run every changed file is compared with its committed text, line by line:
a line that is gone and comes back elsewhere unchanged is *moved*; one that differs only in its
line ending, a byte-order mark or trailing blanks is *re-encoded*; a frontmatter `key: value` line
that comes back as `key: "value"` (the same words quoted) is *quoted*; a blank line is *blank*; any
other line that is gone is *lost* (removed or rewritten). The second run must change nothing.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from collect import GIT


def git(root: Path, *arguments: str) -> bytes:
    return subprocess.run([*GIT, "-C", str(root), *arguments], capture_output=True, check=True, timeout=600).stdout


def normal(line: bytes) -> bytes:
    return line.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n \t")


QUOTED = re.compile(rb"""([ \t]*[^\s:#][^:]*:[ \t]+)(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)')""")


def unquoted(line: bytes) -> bytes:
    """A frontmatter `key: "value"` line as it reads unquoted (`key: value`), else the line."""
    match = QUOTED.fullmatch(normal(line))
    if not match:
        return normal(line)
    if match.group(2) is not None:
        return match.group(1) + re.sub(rb"\\(.)", rb"\1", match.group(2))
    return match.group(1) + match.group(3).replace(b"''", b"'")


def compare(before: bytes, after: bytes) -> Counter:
    """What happened to the lines of `before` in `after`: moved, re-encoded, blank or lost (a
    line left in place is not counted), and how many lines were added."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    gone, came = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            gone += old[i1:i2]
            came += new[j1:j2]
    exact, loose = Counter(came), Counter(normal(line) for line in came)
    quoted = Counter(unquoted(line) for line in came)
    fates: Counter = Counter()
    for line in gone:
        if exact[line]:
            fate = "moved"
            exact[line] -= 1
            loose[normal(line)] -= 1
        elif loose[normal(line)]:
            fate = "re-encoded"
            loose[normal(line)] -= 1
        elif quoted[normal(line)]:
            fate = "quoted"  # the same words, now a quoted YAML scalar
            quoted[normal(line)] -= 1
            loose[next(normal(c) for c in came if unquoted(c) == normal(line))] -= 1
        elif not line.strip():
            fate = "blank"
        else:
            fate = "lost"
        fates[fate] += 1
    fates["added"] += sum(loose.values())
    return fates


def changed(root: Path) -> list[str]:
    listed = git(root, "status", "--porcelain", "-z", "--untracked-files=all").split(b"\0")
    return [os.fsdecode(entry[3:]) for entry in listed if entry]


def run(root: Path, mnemolint: str, unsafe: bool) -> subprocess.CompletedProcess:
    # every rule's fix, in preview or not: a fix must keep human words whichever tier its rule is in
    command = [
        mnemolint,
        "check",
        "--no-cache",
        "--now",
        "2026-12-01",
        "--preview",
        "--fix",
        "--exit-zero",
        "--quiet",
        ".",
    ]
    if unsafe:
        command.insert(-1, "--unsafe-fixes")
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=900)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a writable copy of the rebuilt trees")
    parser.add_argument("--mnemolint", default=os.environ.get("MNEMOLINT", "mnemolint"))
    parser.add_argument("--unsafe-fixes", action="store_true")
    arguments = parser.parse_args(argv)
    totals: Counter = Counter()
    unstable, errors = [], []
    for root in sorted(path for path in arguments.corpus.iterdir() if (path / ".git").is_dir()):
        first = run(root, arguments.mnemolint, arguments.unsafe_fixes)
        if first.returncode not in (0, 1) or "Traceback" in first.stderr:
            errors.append(f"{root.name}: exit {first.returncode}: {first.stderr[:300]}")
        files = changed(root)
        snapshot = {name: (root / name).read_bytes() for name in files if (root / name).is_file()}
        for name in files:
            tracked = (
                subprocess.run(
                    [*GIT, "-C", str(root), "cat-file", "-e", f"HEAD:{name}"], capture_output=True
                ).returncode
                == 0
            )
            before = git(root, "show", f"HEAD:{name}") if tracked else b""
            after = snapshot.get(name, b"")
            fates = compare(before, after)
            fates["files changed" if tracked else "files created"] += 1
            totals.update(fates)
            if fates["lost"]:
                print(f"LOST {fates['lost']} line(s): {root.name}/{name}")
        run(root, arguments.mnemolint, arguments.unsafe_fixes)
        again = changed(root)
        if set(again) != set(files) or any((root / name).read_bytes() != snapshot.get(name) for name in snapshot):
            unstable.append(root.name)
    mode = "--fix --unsafe-fixes" if arguments.unsafe_fixes else "--fix"
    print(f"{mode}: " + ", ".join(f"{key} {value}" for key, value in sorted(totals.items())))
    print(f"second run changed something in {len(unstable)} tree(s): {', '.join(unstable) or '-'}")
    for error in errors:
        print(error, file=sys.stderr)
    return 1 if totals["lost"] or unstable or errors else 0


if __name__ == "__main__":
    sys.exit(main())
