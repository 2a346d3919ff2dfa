"""Collect the second real-world corpus: pick the memory files of a fetched repository, write
them to a manifest, and rebuild the corpus trees from the manifest.

The repositories come from the search tool's `fetch` (a bare git dir under
`/work/.mirror/<owner>+<name>/repo`), or from any clone: `--mirrors` is searched for
`<owner>+<name>/repo`, `<owner>+<name>/repo/.git`, `<owner>__<name>.git` and `<owner>__<name>/.git`.
Nothing of a repository is ever run: git is called with hooks and fsmonitor off, only to read
objects (`ls-tree`, `cat-file`), and the rebuilt tree is a new git repository made here.

    collect.py select --mirror GITDIR --repo OWNER/NAME >> manifest2.tsv
    collect.py build --manifest manifest2.tsv --mirrors /work/.mirror --out /work/corpus2

A rebuilt tree holds, at their paths in the repository and byte for byte, the files the manifest
lists (memory indexes and topics, rules dirs, `.ai-memory/`, instruction files and what they
`@import`, Cursor and Copilot rules, settings, every `.gitignore`); every other file of the
commit is a placeholder with the same number of lines, all empty, so a rule glob, a link, an
import or a cited `file.py:123` meets the tree the repository has without its code being copied;
symlinks are recreated as they were. The tree is then committed to a fresh git repository (one
commit, dated as the source commit), so git-aware rules see the same tracked files.

Each repository is put in the tuning half or the held-out half by `split(repo)`, fixed before any
finding is read.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

GIT = ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "safe.directory=*"]
COLUMNS = ("split", "kind", "repo", "path", "commit", "blob", "sha256", "bytes")
MAX_BYTES = 1 << 20  # a file over 1 MiB is left a placeholder: no memory file people write is that big
INSTRUCTION_NAMES = {"AGENTS.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"}
IMPORT = re.compile(r"(?:^|\s)@([A-Za-z0-9_./~-][^\s`'\")\]]*)")  # Claude Code's `@path` import


def split(repo: str) -> str:
    """`tuning` when the first byte of sha256(owner/name) is even, else `held-out`."""
    return "tuning" if hashlib.sha256(repo.encode()).digest()[0] % 2 == 0 else "held-out"


def git(gitdir: str, *arguments: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(
        [*GIT, f"--git-dir={gitdir}", *arguments], input=stdin, capture_output=True, check=True, timeout=600
    ).stdout


class Entry:
    """One entry of a commit's tree: mode, blob id, path."""

    __slots__ = ("mode", "blob", "path")

    def __init__(self, mode: str, blob: str, path: str) -> None:
        self.mode, self.blob, self.path = mode, blob, path


def tree(gitdir: str, commit: str) -> list[Entry]:
    entries = []
    for record in git(gitdir, "ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0"):
        if record:
            meta, _, path = record.partition(b"\t")
            mode, _, blob = meta.decode().split(" ")
            entries.append(Entry(mode, blob, path.decode("utf-8", "surrogateescape")))
    return entries


def blobs(gitdir: str, ids: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
    """(id, content) for each blob, None where the snapshot lacks it (over its size cap)."""
    wanted = list(ids)
    if not wanted:
        return
    process = subprocess.Popen(
        [*GIT, f"--git-dir={gitdir}", "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin and process.stdout
    try:
        for blob in wanted:
            process.stdin.write(blob.encode() + b"\n")
            process.stdin.flush()
            header = process.stdout.readline().split()
            if len(header) != 3:
                yield blob, None
                continue
            size = int(header[2])
            content = process.stdout.read(size)
            process.stdout.read(1)
            yield blob, content
    finally:
        process.stdin.close()
        process.wait(timeout=60)


def kind(path: str, indexes: set[str]) -> str | None:
    """What a file of the repository is to the corpus, or None when it is not collected."""
    parts = path.split("/")
    name = parts[-1]
    folder = "/".join(parts[:-1])
    if name == ".gitignore":
        return "gitignore"
    if name == "MEMORY.md":
        return "memory-index"
    if name in INSTRUCTION_NAMES:
        return "root-instructions" if len(parts) == 1 else "nested-instructions"
    if ".ai-memory" in parts[:-1]:
        return "ai-memory"
    if ".wave" in parts[:-1]:
        return "wave-rule" if "rules" in parts[:-1] else "wave-config"
    claude = parts.index(".claude") if ".claude" in parts[:-1] else -1
    if claude >= 0 and "rules" in parts[claude:-1]:
        return "claude-rule"
    if name.endswith(".md") and any(d == "" or folder == d or folder.startswith(d + "/") for d in indexes):
        return "memory-topic"
    if claude >= 0:
        return "claude-config" if name.endswith(".md") or name in ("settings.json", "settings.local.json") else None
    if len(parts) > 2 and parts[0] == ".cursor" and parts[1] == "rules" or name.endswith(".mdc"):
        return "cursor-rule"
    if path.startswith(".github/instructions/") or path == ".github/copilot-instructions.md":
        return "copilot-instructions"
    if parts[0] in ("memory-bank", ".clinerules") or name in (".mnemolint.toml", "mnemolint.toml"):
        return "other-memory"
    return None


def imports(text: bytes, folder: str, present: set[str]) -> set[str]:
    """The repository files an instruction file's `@path` imports name (relative ones only)."""
    found = set()
    for match in IMPORT.finditer(text.decode("utf-8", "replace")):
        target = match.group(1).rstrip(".,:;")
        if target.startswith(("~", "/")):
            continue
        path = os.path.normpath(os.path.join(folder, target)).replace(os.sep, "/")
        if path in present:
            found.add(path)
    return found


def select(gitdir: str, repo: str, commit: str) -> list[dict[str, str]]:
    entries = {entry.path: entry for entry in tree(gitdir, commit) if entry.mode.startswith("100")}
    indexes = {os.path.dirname(path) for path in entries if path.rpartition("/")[2] == "MEMORY.md"}
    chosen = {path: found for path in entries if (found := kind(path, indexes))}
    content = dict(blobs(gitdir, (entries[path].blob for path in chosen)))
    for path, what in list(chosen.items()):
        if what.endswith("instructions") or what == "claude-config" and path.endswith("CLAUDE.md"):
            for target in imports(content.get(entries[path].blob) or b"", os.path.dirname(path), set(entries)):
                chosen.setdefault(target, "import")
    content.update(blobs(gitdir, (entries[p].blob for p in chosen if entries[p].blob not in content)))
    rows = []
    for path in sorted(chosen):
        data = content.get(entries[path].blob)
        if data is None or len(data) > MAX_BYTES:
            continue
        rows.append(
            {
                "split": split(repo),
                "kind": chosen[path],
                "repo": repo,
                "path": path,
                "commit": commit,
                "blob": entries[path].blob,
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": str(len(data)),
            }
        )
    return rows


def find_mirror(mirrors: Path, repo: str) -> str | None:
    owner, name = repo.split("/")
    for candidate in (
        mirrors / f"{owner}+{name}" / "repo" / ".git",
        mirrors / f"{owner}+{name}" / "repo",
        mirrors / f"{owner}__{name}.git",
        mirrors / f"{owner}__{name}" / ".git",
    ):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return str(candidate)
    return None


def read_manifest(path: Path) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:] if line and not line.startswith("#")]


def safe_target(root: Path, path: str) -> Path:
    """Where `path` goes under `root`; refuses `..`, absolute paths and `.git` (attacker input)."""
    parts = path.split("/")
    if path.startswith("/") or any(part in ("", ".", "..", ".git") for part in parts):
        raise ValueError(f"unsafe path {path!r}")
    return root.joinpath(*parts)


def write(root: Path, path: str, data: bytes) -> None:
    target = safe_target(root, path)
    for parent in reversed(target.relative_to(root).parents):  # never through a link
        if (root / parent).is_symlink():
            raise ValueError(f"{path!r} is below a symlink")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def placeholder(data: bytes | None) -> bytes:
    """As many empty lines as the file has; nothing for a binary file or one the snapshot lacks."""
    if data is None or b"\0" in data[:8192]:
        return b""
    return b"\n" * data.count(b"\n")


def build(rows: list[dict[str, str]], repo: str, gitdir: str, out: Path) -> tuple[int, int]:
    """Rebuild one repository's tree under `out`; (files written byte for byte, placeholders)."""
    commit = rows[0]["commit"]
    root = out / repo.replace("/", "__")
    if root.exists():
        raise SystemExit(f"{root} exists: remove it first")
    listed = {row["path"]: row for row in rows}
    entries = tree(gitdir, commit)
    files = [entry for entry in entries if entry.mode.startswith("100")]
    wanted = {entry.blob for entry in files}
    content = dict(blobs(gitdir, wanted))
    real = 0
    for entry in files:
        data = content.get(entry.blob)
        row = listed.get(entry.path)
        try:
            if row is None:
                write(root, entry.path, placeholder(data))
                continue
            if data is None or hashlib.sha256(data).hexdigest() != row["sha256"]:
                raise SystemExit(f"{repo}:{entry.path}: content differs from the manifest")
            write(root, entry.path, data)
            real += 1
        except ValueError as error:
            print(f"{repo}: skipped: {error}", file=sys.stderr)
    for entry in entries:
        if entry.mode == "120000":
            try:
                target = safe_target(root, entry.path)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(os.fsdecode(git(gitdir, "cat-file", "blob", entry.blob)), target)
            except (ValueError, OSError) as error:
                print(f"{repo}: link skipped: {error}", file=sys.stderr)
    missing = set(listed) - {entry.path for entry in files}
    if missing:
        raise SystemExit(f"{repo}: the manifest lists files the commit lacks: {sorted(missing)[:5]}")
    date = git(gitdir, "show", "-s", "--format=%cI", commit).decode().strip()
    environment = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_AUTHOR_NAME": "corpus",
        "GIT_AUTHOR_EMAIL": "corpus@invalid",
        "GIT_COMMITTER_NAME": "corpus",
        "GIT_COMMITTER_EMAIL": "corpus@invalid",
    }
    for arguments in (["init", "-q"], ["add", "-A", "-f"], ["commit", "-q", "--no-verify", "-m", f"{repo}@{commit}"]):
        subprocess.run([*GIT, "-C", str(root), *arguments], check=True, env=environment, timeout=600)
    return real, len(files) - real


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pick = commands.add_parser("select", help="print the manifest rows of one fetched repository")
    pick.add_argument("--mirror", required=True, help="the repository's git dir")
    pick.add_argument("--repo", required=True, help="owner/name")
    pick.add_argument("--commit", default="HEAD")
    pick.add_argument("--header", action="store_true", help="print the column names first")
    make = commands.add_parser("build", help="rebuild the corpus trees a manifest lists")
    make.add_argument("--manifest", type=Path, required=True)
    make.add_argument("--mirrors", type=Path, required=True, help="the folder of fetched git dirs")
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--repo", action="append", help="only this repository (repeatable)")
    arguments = parser.parse_args(argv)
    if arguments.command == "select":
        commit = git(arguments.mirror, "rev-parse", f"{arguments.commit}^{{commit}}").decode().strip()
        rows = select(arguments.mirror, arguments.repo, commit)
        if arguments.header:
            print("\t".join(COLUMNS))
        for row in rows:
            print("\t".join(row[column] for column in COLUMNS))
        return 0 if rows else 1
    by_repo: dict[str, list[dict[str, str]]] = {}
    for row in read_manifest(arguments.manifest):
        by_repo.setdefault(row["repo"], []).append(row)
    failed = 0
    for repo, rows in sorted(by_repo.items()):
        if arguments.repo and repo not in arguments.repo:
            continue
        gitdir = find_mirror(arguments.mirrors, repo)
        if gitdir is None:
            print(f"{repo}: no git dir under {arguments.mirrors} (fetch it first)", file=sys.stderr)
            failed += 1
            continue
        real, placeholders = build(rows, repo, gitdir, arguments.out)
        print(f"{repo}: {real} files, {placeholders} placeholders")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
