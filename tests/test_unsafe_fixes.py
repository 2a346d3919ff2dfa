"""Even an unsafe fix keeps what a person wrote (issue 22).

`--unsafe-fixes` once regenerated 113 of 117 lines of a curated MEMORY.md (titles became slugs,
105 summaries were cut with "…") and deleted the archive lines that were the only record of their
memory. An unsafe fix may reorder, drop a true duplicate or add; it never rewrites words a person
wrote. The index below is curated the way real ones are: human titles and summaries, many over
150 characters, summaries that drift from the descriptions, archive lines whose topics are gone,
repeats that say something new.
"""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_tree


def topic(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\nBody.\n"


def curated(tmp_path: Path) -> tuple[Path, list[str]]:
    files: dict[str, str] = {}
    lines = ["# Project memory", ""]
    for n in range(76):
        files[f"mem/t{n}.md"] = topic(f"t{n}", f"notes on area {n}")
        extra = " with the reasons we chose it, the benchmarks we ran and who signed off" * (1 + n % 3)
        lines.append(f"- [How area {n} really works](t{n}.md) — what I learned about area {n}{extra}")
    for n in range(4):  # drifted: the summary says 9 where the description now says 5 (MEM109)
        files[f"mem/d{n}.md"] = topic(f"D{n}", f"the build of service {n} takes 5 minutes")
        lines.append(f"- [D{n}](d{n}.md) — the build of service {n} takes 9 minutes")
    lines += ["", "## Archive", ""]
    lines += [
        f"- [Old plan {n}](old{n}.md) — the plan we dropped in sprint {n}, kept for the record" for n in range(20)
    ]
    lines += ["- [The abandoned idea](https://example.com/idea) — see the write-up", "- [Abs](/etc/x.md) — mine"]
    lines += ["", "## Repeats", ""]
    lines += [f"- [Area {n} again](t{n}.md) — also: the staging quirk of area {n}" for n in range(6)]
    lines += ["- [t0](t0.md)"]  # derived from its topic: regenerated, nothing of a person's lost
    assert len(lines) == 117
    files["mem/MEMORY.md"] = "\n".join(lines) + "\n"
    return write_tree(tmp_path, files), lines


def test_unsafe_fixes_keep_every_human_word_and_settle(tmp_path: Path) -> None:
    root, lines = curated(tmp_path)
    index = root / "mem/MEMORY.md"
    first = run_cli("check", "--preview", "--fix", "--unsafe-fixes", "mem", cwd=root)
    assert first.returncode == 1, first.stdout  # MEM101, MEM103, MEM104, MEM107, MEM109 remain
    kept = index.read_text(encoding="utf-8").splitlines()
    human = [line for line in lines if line != "- [t0](t0.md)"]
    assert [line for line in kept if line in human] == human  # every one, in its place, word for word
    assert "…" not in index.read_text(encoding="utf-8")
    for code in ("MEM103", "MEM104", "MEM107", "MEM109"):
        assert code in first.stdout
    again = run_cli("check", "--preview", "--diff", "--unsafe-fixes", "mem", cwd=root)
    assert (again.returncode, again.stdout) == (0, ""), again.stdout
    before = index.read_bytes()
    run_cli("check", "--preview", "--fix", "--unsafe-fixes", "mem", cwd=root)
    assert index.read_bytes() == before


def test_a_long_line_that_only_copies_its_topic_is_regenerated(tmp_path: Path) -> None:
    description = "the whole description, " * 8
    root = write_tree(
        tmp_path,
        {
            "mem/a.md": topic("Alpha", description.strip()),
            "mem/MEMORY.md": f"- [Alpha](a.md) — {description.strip()}\n- [b](b.md)\n",
        },
    )
    assert run_cli("check", "--fix", "--unsafe-fixes", "--select", "MEM103,MEM104", "mem", cwd=root).returncode == 0
    written = (root / "mem/MEMORY.md").read_text(encoding="utf-8")
    assert written.startswith("- [Alpha](a.md) — the whole description,") and written.endswith("…\n")
    assert "[b](b.md)" not in written  # a bare generated-looking line to a missing topic: safe to drop


def test_a_true_duplicate_goes_and_one_that_says_more_stays(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "mem/a.md": topic("A", "a"),
            "mem/MEMORY.md": "- [A](a.md) — the build\n- [A](a.md) — the build\n- [My own title](a.md)\n"
            "- [A](a.md) — and the deploy\n",
        },
    )
    run_cli("check", "--fix", "--unsafe-fixes", "--select", "MEM107", "mem", cwd=root)
    assert (root / "mem/MEMORY.md").read_text(encoding="utf-8") == (
        "- [A](a.md) — the build\n- [My own title](a.md)\n- [A](a.md) — and the deploy\n"
    )
