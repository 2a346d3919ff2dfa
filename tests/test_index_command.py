"""`mnemolint index DIR [--write [--force] | --check]`, run as a user would, on real memory dirs.

Seed 000 ("自动记忆容量治理" 8–10): generation writes an index only where there is none, never
replaces one (unless `--force` says so, and then the replaced one is kept beside it and what it
drops is shown), and creates nothing when there are no topic files. `DIR` is a memory dir or a
usage error; `--check` fails whenever `--write --force` would change MEMORY.md.
"""

from __future__ import annotations

import json

from conftest import git, run_cli

DIR = "notes/memory"  # no MEMORY.md and no agent location: a memory dir because the configuration says so
CONFIG = {"mnemolint.toml": f'memory-dirs = ["{DIR}"]\n'}


def topic(name: str, description: str, type_: str = "project") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\nBody.\n"


TOPICS = {
    **CONFIG,
    f"{DIR}/build.md": topic("Build", "how to build"),
    f"{DIR}/prefs.md": topic("Prefs", "the user's preferences", "user"),
    f"{DIR}/a[1].md": topic("Skipped", "brackets in the file name"),
}
GENERATED = "- [Prefs](prefs.md) — the user's preferences\n- [Build](build.md) — how to build\n"


def test_index_prints_the_generated_index_and_reports_skips_on_stderr(tree) -> None:
    root = tree(TOPICS)
    result = run_cli("index", DIR, cwd=root)
    assert result.returncode == 0
    assert result.stdout == GENERATED
    assert result.stderr == (
        f"{DIR}/a[1].md: MEM207 Index generation skips this topic: its name contains `[`, `]`, which would break "
        "the `[Title](file.md)` link. Rename the file.\n"
    )
    assert not (root / DIR / "MEMORY.md").exists()


def test_index_write_creates_the_index_once_and_never_replaces_it(tree) -> None:
    root = tree(TOPICS)
    assert run_cli("index", DIR, "--write", cwd=root).returncode == 0
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8") == GENERATED
    (root / DIR / "MEMORY.md").write_text("# Mine\n- [Build](build.md) — my words\n", encoding="utf-8")
    again = run_cli("index", DIR, "--write", cwd=root)
    assert again.returncode == 1
    assert "MEMORY.md exists, and generation never replaces an index (use --force to replace it)" in again.stderr
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8") == "# Mine\n- [Build](build.md) — my words\n"
    assert sorted(path.name for path in (root / DIR).iterdir()) == ["MEMORY.md", "a[1].md", "build.md", "prefs.md"]


def test_index_write_force_replaces_and_keeps_crlf(tree) -> None:
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": "# Mine\r\n- [Build](build.md) — my words\r\n"})
    result = run_cli("index", DIR, "--write", "--force", cwd=root)
    assert result.returncode == 0, result.stderr
    assert (root / DIR / "MEMORY.md").read_bytes() == GENERATED.replace("\n", "\r\n").encode()
    assert (root / DIR / "MEMORY.md.bak").read_bytes() == b"# Mine\r\n- [Build](build.md) \xe2\x80\x94 my words\r\n"


def test_index_write_force_shows_what_it_drops_and_keeps_every_replaced_index(tree) -> None:
    """`repro2.sh` (issue 20): `--force` replaced 190 human lines with no diff and no copy."""
    human = "".join(f"- [Note {n}](build.md) — what I learned on day {n}\n" for n in range(190))
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": "# Mine\n" + human, f"{DIR}/MEMORY.md.bak": "an earlier copy\n"})
    result = run_cli("index", DIR, "--write", "--force", cwd=root)
    assert result.returncode == 0, result.stderr
    removed = [line for line in result.stdout.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert len(removed) == 191 and "-- [Note 189](build.md) — what I learned on day 189" in removed
    assert f"mnemolint: {DIR}/MEMORY.md replaced; the index it replaced is kept as {DIR}/MEMORY.md.bak.1" in (
        result.stderr
    )
    assert (root / DIR / "MEMORY.md.bak").read_text(encoding="utf-8") == "an earlier copy\n"  # never overwritten
    assert (root / DIR / "MEMORY.md.bak.1").read_text(encoding="utf-8") == "# Mine\n" + human
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8") == GENERATED
    unchanged = run_cli("index", DIR, "--write", "--force", cwd=root)  # nothing to replace: no copy, no diff
    assert (unchanged.returncode, unchanged.stdout) == (0, "")
    assert not (root / DIR / "MEMORY.md.bak.2").exists()
    assert run_cli("check", DIR, "--select", "MEM", cwd=root).stdout.count("MEMORY.md.bak") == 0  # not a topic


def test_index_with_no_topic_files_creates_nothing(tree) -> None:
    root = tree(CONFIG)
    (root / DIR).mkdir(parents=True)
    printed = run_cli("index", DIR, cwd=root)
    assert (printed.returncode, printed.stdout) == (0, "")
    written = run_cli("index", DIR, "--write", cwd=root)
    assert written.returncode == 0 and "no topic file to index" in written.stderr
    assert list((root / DIR).iterdir()) == []
    assert run_cli("index", DIR, "--check", cwd=root).returncode == 0


def test_index_check_fails_whenever_write_force_would_change_the_index(tree) -> None:
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": "# Mine\n- [Build](build.md) — my words\n- [gone](gone.md)\n"})
    stale = run_cli("index", DIR, "--check", cwd=root)
    assert stale.returncode == 1
    assert stale.stdout == (
        f"--- a/{DIR}/MEMORY.md\n+++ b/{DIR}/MEMORY.md\n@@ -1,3 +1,2 @@\n-# Mine\n"
        "-- [Build](build.md) — my words\n-- [gone](gone.md)\n+- [Prefs](prefs.md) — the user's preferences\n"
        "+- [Build](build.md) — how to build\n"
    )
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8").endswith("- [gone](gone.md)\n")  # untouched
    assert run_cli("index", DIR, "--write", "--force", cwd=root).returncode == 0
    assert run_cli("index", DIR, "--check", cwd=root).returncode == 0


def test_index_check_fails_on_an_index_over_its_cap(tree) -> None:
    """Issue 22: `index --check` exited 0 on a 249-line index that no safe fix shortens."""
    lines = "".join(f"- [Build](build.md) — step {n}\n" for n in range(249))
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": lines})
    assert run_cli("index", DIR, "--check", cwd=root).returncode == 1


def test_index_check_flags_a_missing_index_only_when_there_are_topics(tree) -> None:
    root = tree(TOPICS)
    missing = run_cli("index", DIR, "--check", cwd=root)
    assert missing.returncode == 1 and missing.stdout.startswith(f"--- /dev/null\n+++ b/{DIR}/MEMORY.md\n")


def test_index_write_refuses_a_symlinked_index(tree) -> None:
    root = tree({**TOPICS, "elsewhere/index.txt": "theirs\n"})
    (root / DIR / "MEMORY.md").symlink_to(root / "elsewhere/index.txt")
    result = run_cli("index", DIR, "--write", "--force", cwd=root)
    assert result.returncode == 1
    assert "MEMORY.md is a symlink, and mnemolint never writes through one" in result.stderr
    assert (root / "elsewhere/index.txt").read_text() == "theirs\n"


def test_index_usage_errors(tree) -> None:
    root = tree({**TOPICS, "plain/notes.md": "# not memory\n", "plain/deep/more.md": "x\n"})
    (root / "linked").symlink_to(root / DIR, target_is_directory=True)
    for args, message in [
        (["index", "linked", "--write"], "linked is a symlink: give the memory dir it points to"),
        (["index", DIR, "--force"], "--force only goes with --write"),
        (["index", "nowhere"], "not a directory: nowhere"),
        (["index", DIR, "--write", "--check"], "not allowed with argument"),
        (["index", "plain"], "plain is not a memory dir: it holds no MEMORY.md written as an index"),
        (["preview", "plain"], "and matches no `memory-dirs` entry of the configuration"),
    ]:
        result = run_cli(*args, cwd=root)
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert result.stdout == ""


def test_a_memory_dir_is_one_by_its_index_or_its_location(tree) -> None:
    root = tree(
        {
            "kept/MEMORY.md": "- [A](a.md) — a\n",
            "kept/a.md": "---\nname: A\ndescription: a\ntype: user\n---\n",
            "home/.claude/projects/p/memory/b.md": "---\nname: B\ndescription: b\ntype: user\n---\n",
        }
    )
    assert run_cli("index", "kept", cwd=root).stdout == "- [A](a.md) — a\n"
    assert run_cli("preview", "kept", cwd=root).returncode == 0
    assert run_cli("index", "home/.claude/projects/p/memory", cwd=root).stdout == "- [B](b.md) — b\n"


SESSION_LOG = "# Project memory log\n\n" + "".join(
    f"## Session {n}\n- Fixed the build on day {n}; see `DEPLOY.md` for the steps.\n- Lesson: keep the cache warm.\n\n"
    for n in range(1, 6)
)


def test_a_memory_md_of_prose_outside_an_agent_layout_is_no_memory_dir(tree) -> None:
    """A workspace's long-term memory written as a session log (`MEMORY.md` at a project's root,
    beside its docs) is no index: its neighbours are not topics, and `index` will not rewrite it."""
    root = tree({"MEMORY.md": SESSION_LOG, "DEPLOY.md": "# Deploy\n", "notes/MEMORY.md": "- [A](a.md) — a\n"})
    result = run_cli("check", "--preview", "--output-format", "json", ".", cwd=root)
    paths = {finding["path"] for finding in json.loads(result.stdout)}
    assert not paths & {"MEMORY.md", "DEPLOY.md"}, result.stdout
    assert "notes/MEMORY.md" in paths  # a short index elsewhere is still one: its missing a.md is reported
    refused = run_cli("index", ".", "--write", "--force", cwd=root)
    assert refused.returncode == 2 and "written as an index" in refused.stderr
    assert (root / "MEMORY.md").read_text() == SESSION_LOG


def test_a_memory_md_of_prose_in_an_agent_layout_stays_an_index(tree) -> None:
    """Where an agent keeps its memory (`memory/`, under `.claude/`), the index is judged by its
    place: prose in it is what MEM108 reports, not a reason to stop reading the dir."""
    root = tree(
        {
            ".claude/memory/MEMORY.md": SESSION_LOG,
            ".claude/memory/a.md": "---\nname: A\ndescription: a\ntype: user\n---\n",
        }
    )
    result = run_cli("check", "--preview", "--select", "MEM105,MEM108", "--output-format", "json", ".", cwd=root)
    codes = {finding["code"] for finding in json.loads(result.stdout)}
    assert codes == {"MEM105", "MEM108"}, result.stdout


def test_a_whole_file_memory_of_another_agent_is_no_index_even_in_a_memory_folder(tree) -> None:
    """Hermes Agent keeps its memory whole in `MEMORY.md` (and `USER.md`), entries separated by
    lines of `§`: neither is an index or a topic, even in a folder called `memory/`."""
    hermes = "Prefers short answers.\n§\nThe NAS runs fnOS.\n§\nDeploys go through the staging box first.\n"
    root = tree({"memory/MEMORY.md": hermes, "memory/USER.md": "Name: Sam. Timezone: CET.\n"})
    result = run_cli("check", "--output-format", "json", ".", cwd=root)
    assert json.loads(result.stdout) == [], result.stdout
    indexed = tree({"notes/memory/MEMORY.md": "- [A](a.md) — a\n§\n", "notes/memory/a.md": "# A\n"})
    assert run_cli("index", "notes/memory", cwd=indexed).returncode == 0  # an entry line: an index still


def test_a_checkout_inside_an_agent_folder_still_judges_its_root_memory_md_by_content(tree) -> None:
    """Agents run sessions in checkouts under `.claude/worktrees/` or `.wave/worktrees/`: the
    folder names above the linted tree do not make its prose `MEMORY.md` an index."""
    root = tree({".claude/worktrees/fix-1/MEMORY.md": SESSION_LOG, ".claude/worktrees/fix-1/DEPLOY.md": "# Deploy\n"})
    checkout = root / ".claude/worktrees/fix-1"
    git("init", "-q", cwd=checkout)
    result = run_cli("check", "--output-format", "json", ".", cwd=checkout)
    assert json.loads(result.stdout) == [], result.stdout


def test_a_linked_memory_md_makes_its_folder_a_memory_dir_by_its_name(tree) -> None:
    """A `MEMORY.md` that is a symlink is judged by its name, never by what it points at: the
    folder stays a memory dir, so the link in it is reported (LNK001), whatever the target holds."""
    root = tree({"notes/log.md": SESSION_LOG, "memory/a.md": "---\nname: A\ndescription: a\ntype: user\n---\n"})
    (root / "memory" / "MEMORY.md").symlink_to("../notes/log.md")
    result = run_cli("check", "--output-format", "json", "--select", "LNK001", ".", cwd=root)
    assert [(f["code"], f["path"]) for f in json.loads(result.stdout)] == [("LNK001", "memory/MEMORY.md")]
