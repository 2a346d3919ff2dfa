"""The cache dir against a hostile repository (cache_dir.py; issue 20's `cleanrm` and `cachedir`).

A repository's config may put the cache only inside the project, reached without a link and in no
folder an agent reads; `clean` removes only what mnemolint made, never through a link, never the
project or a folder holding it; outside a project the cache goes to the user's cache dir, never
into an agent's memory dir; a version folder keeps its newest few files. Every case is a real run
of the CLI on real folders and symlinks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint import __version__, cache_dir

SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55\n"  # any tool's CACHEDIR.TAG starts so
MEMORY = {
    "mem/MEMORY.md": "# Memory\n\n- [A](a.md) — a\n",
    "mem/a.md": "---\nname: A\ndescription: a\ntype: user\n---\n",
}


def files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def foreign_cache(folder: Path) -> Path:
    """Another tool's cache (uv's, cargo's `target/`): a CACHEDIR.TAG and precious files."""
    write_tree(folder, {"CACHEDIR.TAG": SIGNATURE, "wheels/w": "precious\n"})
    return folder


def project(root: Path, setting: str | None = None) -> Path:
    write_tree(root, MEMORY)
    write_tree(root, {"pyproject.toml": "[tool.mnemolint]\n" + (f"cache-dir = {setting!r}\n" if setting else "")})
    return root


# --- cleanrm: what `clean` removes ------------------------------------------------------------------


def test_cleanrm_another_tools_cache_named_by_absolute_path_is_kept(tmp_path: Path) -> None:
    uv = foreign_cache(tmp_path / "uvcache")
    repo = project(tmp_path / "r1", str(uv))
    process = run_cli("clean", cwd=repo)
    assert process.returncode == 2 and "must name a folder inside the project" in process.stderr
    assert len(process.stderr.splitlines()) == 1
    assert files_under(uv) == ["CACHEDIR.TAG", "wheels", "wheels/w"]


def test_cleanrm_a_users_config_naming_another_tools_cache_removes_nothing(tmp_path: Path) -> None:
    uv = foreign_cache(tmp_path / "uvcache")
    user = write_tree(tmp_path / "home", {"mnemolint.toml": f"cache-dir = {str(uv)!r}\n"}) / "mnemolint.toml"
    process = run_cli("clean", "--config", str(user), cwd=project(tmp_path / "r"))
    assert process.returncode == 0 and "holds no CACHEDIR.TAG of mnemolint's" in process.stderr
    assert files_under(uv) == ["CACHEDIR.TAG", "wheels", "wheels/w"]


@pytest.mark.parametrize("setting", ["lnk/", "lnk", "lnk/sub/.."])
def test_cleanrm_a_link_in_the_setting_is_a_config_error(tmp_path: Path, setting: str) -> None:
    target = write_tree(tmp_path / "target", {"CACHEDIR.TAG": cache_dir.TAG, "sub/file": "keep\n"})
    repo = project(tmp_path / "r2", setting)
    (repo / "lnk").symlink_to(target, target_is_directory=True)
    process = run_cli("clean", cwd=repo)
    assert process.returncode == 2 and "through a symlink (lnk)" in process.stderr
    assert files_under(target) == ["CACHEDIR.TAG", "sub", "sub/file"]


def test_cleanrm_a_linked_cache_dir_is_never_entered(tmp_path: Path) -> None:
    """Even mnemolint's own tag behind the default name, or the env var, through a link: nothing goes."""
    target = write_tree(tmp_path / "target", {"CACHEDIR.TAG": cache_dir.TAG, f"{__version__}/x.cache": "x"})
    repo = project(tmp_path / "r")
    (repo / cache_dir.DIR_NAME).symlink_to(target, target_is_directory=True)
    for env in ({}, {cache_dir.ENV_VAR: str(repo / cache_dir.DIR_NAME) + "/"}):
        process = run_cli("clean", cwd=repo, env=env)
        assert process.returncode == 0 and "is not removed" in process.stderr, process.stderr
    assert files_under(target) == sorted(["CACHEDIR.TAG", __version__, f"{__version__}/x.cache"])


def test_cleanrm_the_project_itself_is_never_removed(tmp_path: Path) -> None:
    repo = project(tmp_path / "r3", ".")
    write_tree(repo, {".git/HEAD": "ref: refs/heads/main\n", "mem/notes.md": "my uncommitted work\n"})
    (repo / "CACHEDIR.TAG").write_text(cache_dir.TAG)
    before = files_under(repo)
    process = run_cli("clean", cwd=repo)
    assert process.returncode == 2 and "must name a folder inside the project" in process.stderr
    (repo / "pyproject.toml").write_text("[tool.mnemolint]\n")
    before = files_under(repo)
    user = write_tree(tmp_path / "home", {"mnemolint.toml": f"cache-dir = {str(repo)!r}\n"}) / "mnemolint.toml"
    for args, env in (
        (("--config", str(user)), {}),
        ((), {cache_dir.ENV_VAR: str(repo)}),
        ((), {cache_dir.ENV_VAR: str(tmp_path)}),  # a folder above the project
    ):
        process = run_cli("clean", *args, cwd=repo / "mem", env=env)
        assert process.returncode == 0 and "holds the project" in process.stderr, process.stderr
        assert "Traceback" not in process.stderr
    assert files_under(repo) == before


def test_clean_removes_its_own_files_and_keeps_the_folder_with_anything_else(tmp_path: Path) -> None:
    repo = project(tmp_path / "r")
    assert run_cli("check", ".", cwd=repo).returncode in (0, 1)
    top = repo / cache_dir.DIR_NAME
    assert (top / "CACHEDIR.TAG").read_text() == cache_dir.TAG and list(top.glob("*/*.cache"))
    write_tree(top, {"notes.txt": "mine\n", f"{__version__}/mine.txt": "mine too\n"})
    process = run_cli("clean", cwd=repo)
    assert process.returncode == 0 and "they stay" in process.stderr
    assert files_under(top) == sorted(["CACHEDIR.TAG", __version__, f"{__version__}/mine.txt", "notes.txt"])
    (top / "notes.txt").unlink()
    (top / __version__ / "mine.txt").unlink()
    process = run_cli("clean", cwd=repo)
    assert process.returncode == 0 and process.stderr.startswith("Removed ") and not top.exists()


def test_check_never_writes_into_a_folder_of_other_files(tmp_path: Path) -> None:
    repo = project(tmp_path / "r", "src")
    write_tree(repo, {"src/code.py": "print()\n"})
    assert run_cli("check", ".", cwd=repo).returncode in (0, 1)
    assert files_under(repo / "src") == ["code.py"]


# --- cachedir: where a repository may put it -------------------------------------------------------


@pytest.mark.parametrize("setting", ["{outside}/deep", "../../../../../../../../..{outside}/dotdot", "~/c", ".."])
def test_cachedir_a_repository_cannot_place_the_cache_outside(tmp_path: Path, setting: str) -> None:
    outside = tmp_path / "outside"
    repo = project(tmp_path / "repo", setting.format(outside=outside))
    process = run_cli("check", str(repo), cwd="/", env={"HOME": str(outside / "home")})
    assert process.returncode == 2 and "`cache-dir` must name a folder inside the project" in process.stderr
    assert not outside.exists()


def test_cachedir_a_symlinked_component_is_refused(tmp_path: Path) -> None:
    destination = (tmp_path / "lnkdest").resolve()
    destination.mkdir()
    repo = project(tmp_path / "repo", "lnk/c")
    (repo / "lnk").symlink_to(destination, target_is_directory=True)
    process = run_cli("check", "repo", cwd=tmp_path)
    assert process.returncode == 2 and "through a symlink" in process.stderr
    assert list(destination.iterdir()) == []


def test_cachedir_the_user_may_place_it_anywhere(tmp_path: Path) -> None:
    repo = project(tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere" / "c"
    user = write_tree(tmp_path / "home", {"mnemolint.toml": f"cache-dir = {str(elsewhere)!r}\n"}) / "mnemolint.toml"
    assert run_cli("check", "--config", str(user), ".", cwd=repo).returncode in (0, 1)
    assert list(elsewhere.glob(f"{__version__}/*.cache"))
    assert not (repo / cache_dir.DIR_NAME).exists()


def test_cachedir_a_setting_inside_the_project_is_used(tmp_path: Path) -> None:
    repo = project(tmp_path / "repo", "build/../build/lint-cache")
    assert run_cli("check", ".", cwd=repo).returncode in (0, 1)
    assert list((repo / "build" / "lint-cache").glob(f"{__version__}/*.cache"))


@pytest.mark.parametrize("setting", ["mem/cache", ".claude/rules/cache"])
def test_cachedir_never_in_a_memory_or_rules_dir(tmp_path: Path, setting: str) -> None:
    repo = project(tmp_path / "repo", setting)
    write_tree(repo, {".claude/rules/r.md": "rule\n"})
    process = run_cli("check", ".", cwd=repo)
    assert process.returncode == 2 and "which an agent reads" in process.stderr
    assert not (repo / setting).exists()


@pytest.mark.parametrize("versioned", [False, True], ids=["plain", "a git repository"])
def test_a_run_in_an_agents_memory_dir_leaves_no_cache_there(tmp_path: Path, versioned: bool) -> None:
    """A new user ran `check` inside `~/.claude/projects/<slug>/memory` and got `.mnemolint_cache/` there."""
    home = tmp_path / "home"
    memory = write_tree(home / ".claude" / "projects" / "-work-app" / "memory", {"MEMORY.md": "# M\n", "a.md": "x\n"})
    if versioned:
        (memory / ".git").mkdir()
    user_cache = tmp_path / "user-cache"
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(user_cache)}
    assert run_cli("check", ".", cwd=memory, env=env).returncode in (0, 1)
    assert sorted(path.name for path in memory.iterdir()) == sorted(["MEMORY.md", "a.md"] + [".git"] * versioned)
    caches = list(user_cache.glob(f"mnemolint/memory-*/{__version__}/*.cache"))
    assert len(caches) == 1
    process = run_cli("clean", cwd=memory, env=env)
    assert process.returncode == 0 and not caches[0].exists()


def test_outside_a_project_the_cache_is_the_users(tmp_path: Path) -> None:
    folder = write_tree(tmp_path / "loose", MEMORY)
    user_cache = tmp_path / "user-cache"
    assert run_cli("check", ".", cwd=folder, env={"XDG_CACHE_HOME": str(user_cache)}).returncode in (0, 1)
    assert not (folder / cache_dir.DIR_NAME).exists()
    assert list(user_cache.glob(f"mnemolint/loose-*/{__version__}/*.cache"))


def test_a_repository_without_a_config_keeps_it_at_its_top(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {**MEMORY, ".git/HEAD": "ref: refs/heads/main\n"})
    assert run_cli("check", "mem", cwd=repo / "mem" / "..").returncode in (0, 1)
    assert list((repo / cache_dir.DIR_NAME).glob(f"{__version__}/*.cache"))


# --- pruning ---------------------------------------------------------------------------------------


def test_a_save_keeps_the_newest_few_files_and_no_other_version(tmp_path: Path) -> None:
    repo = project(tmp_path / "r")
    top = repo / cache_dir.DIR_NAME
    old = {"0.0.1/old.cache": "x", "0.0.2/old.cache": "x", "0.0.2/mine.txt": "k"}
    write_tree(top, {"CACHEDIR.TAG": cache_dir.TAG, **old})
    selections = ["MEM", "FM", "LNK", "SEC", "TXT", "MEM1", "MEM2"]
    for index, selection in enumerate(selections):  # each selection is its own configuration: its own file
        assert run_cli("check", "--select", selection, ".", cwd=repo).returncode in (0, 1)
        kept = list((top / __version__).glob("*.cache"))
        assert len(kept) == min(index + 1, cache_dir.KEEP)
    assert not (top / "0.0.1").exists()
    assert files_under(top / "0.0.2") == ["mine.txt"]  # a folder holding anything else is left with it
    newest = max((top / __version__).glob("*.cache"), key=os.path.getmtime)
    warm = run_cli("check", "--select", selections[-1], ".", cwd=repo)
    assert warm.returncode in (0, 1) and newest.exists()


def test_a_save_never_counts_the_hooks_index_facts_among_the_files_it_keeps(tmp_path: Path) -> None:
    """The hook's own file (`cache_dir.HOOK_FACTS`) is not a check cache: a save keeps it and its
    `KEEP` newest check caches beside it; `clean` still removes it."""
    repo = project(tmp_path / "r")
    top = repo / cache_dir.DIR_NAME
    write_tree(top, {"CACHEDIR.TAG": cache_dir.TAG, f"{__version__}/{cache_dir.HOOK_FACTS}": "x"})
    folder = top / __version__
    os.utime(folder / cache_dir.HOOK_FACTS, ns=(0, 0))  # the oldest: the first a miscount would prune
    for selection in ["MEM", "FM", "LNK", "SEC", "TXT"]:
        assert run_cli("check", "--select", selection, ".", cwd=repo).returncode in (0, 1)
    assert (folder / cache_dir.HOOK_FACTS).exists()
    assert len([each for each in folder.glob("*.cache") if each.name != cache_dir.HOOK_FACTS]) == cache_dir.KEEP
    assert run_cli("clean", cwd=repo).returncode == 0
    assert not (folder / cache_dir.HOOK_FACTS).exists()


def test_the_cache_holds_no_secret_of_a_file_it_read(tmp_path: Path) -> None:
    """A file whose kept facts (its frontmatter's values and lines, its findings' messages) hold
    credential-shaped text gets no cache entry: the secret is never copied into the cache file,
    and a warm run still says what a run without the cache says."""
    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"  # a GitHub token's shape
    repo = project(tmp_path / "r")
    topic = "---\nname: {name}\ndescription: deploy with {value}\ntype: reference\n---\nBody.\n"
    write_tree(
        repo,
        {
            "memory/MEMORY.md": "- [Keys](keys.md) — deploy keys\n- [Plain](plain.md) — plain notes\n",
            "memory/keys.md": topic.format(name="keys", value=token),
            "memory/plain.md": topic.format(name="plain", value="the staging cluster"),
        },
    )
    plain = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=repo).stdout
    for _ in range(2):  # cold, then warm
        assert run_cli("check", "--output-format", "json", ".", cwd=repo).stdout == plain
    held = b"".join(path.read_bytes() for path in (repo / cache_dir.DIR_NAME).rglob("*.cache"))
    assert b"the staging cluster" in held  # a file without a secret is kept, its frontmatter with it
    assert token.encode() not in held and token[4:20].encode() not in held


def test_the_cache_holds_no_secret_a_container_finding_quotes(tmp_path: Path) -> None:
    """A memory dir's findings quote its index (MEM104 names the missing target): when what they
    quote is credential-shaped, the dir's results are not kept, and a warm run says the same."""
    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"
    repo = project(tmp_path / "r")
    write_tree(repo, {"mem/MEMORY.md": f"# Memory\n\n- [A](a.md) — a\n- [Gone]({token}.md) — gone\n"})
    plain = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=repo).stdout
    assert "MEM104" in plain and token not in plain
    for _ in range(2):  # cold, then warm
        assert run_cli("check", "--output-format", "json", ".", cwd=repo).stdout == plain
    held = b"".join(path.read_bytes() for path in (repo / cache_dir.DIR_NAME).rglob("*.cache"))
    assert held and token.encode() not in held and token[4:20].encode() not in held


def test_the_entries_a_forked_worker_makes_are_screened_as_the_parents_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `parallel.MIN_DOCUMENTS` each process makes the cache entries of the files it checks:
    the worker's are screened as the parent's are (a topic holding a token gets none), a racy file
    keeps its digest, and a warm run says what a run without the cache says."""
    from conftest import preview_settings
    from test_document_release import findings

    from mnemolint import parallel
    from mnemolint.engine import lint

    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"
    repo = project(tmp_path / "r")
    topic = "---\nname: {name}\ndescription: {value}\ntype: reference\n---\nBody.\n"
    files = {f"mem/t{n:02d}.md": topic.format(name=f"t{n}", value=f"the staging cluster {n}") for n in range(24)}
    files["mem/t05.md"] = topic.format(name="keys", value=f"deploy with {token}")  # the worker's first part
    files["mem/t22.md"] = topic.format(name="more", value=f"rotate {token}")  # the parent's last part
    write_tree(repo, files)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)
    settings = preview_settings(repo)
    plain = findings(lint([str(repo)], settings).diagnostics)
    for _ in range(2):  # cold, then warm
        assert findings(lint([str(repo)], settings, cache=True).diagnostics) == plain
    held = b"".join(path.read_bytes() for path in (repo / cache_dir.DIR_NAME).rglob("*.cache"))
    assert b"the staging cluster 3" in held and b"the staging cluster 20" in held  # both processes' entries
    assert token.encode() not in held and token[4:20].encode() not in held
