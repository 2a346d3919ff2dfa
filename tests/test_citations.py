"""CIT001-CIT003: `file:line` citations in memory, against real project files in tmp_path and
real git repositories (commit dates pinned with GIT_COMMITTER_DATE)."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import git, only, run_cli, run_lint, write_tree

from mnemolint import project as project_module
from mnemolint.parse.citations import find, may_cite

TOPIC = "---\nname: Auth\ndescription: where auth lives\ntype: project\n---\n"
INDEX = "- [Auth](auth.md) — where auth lives\n"
CODE = "".join(f"line {n}\n" for n in range(1, 11))  # a 10-line file


def memory(root: Path, body: str, **files: str) -> Path:
    """A project with a memory dir whose topic `auth.md` says `body`, and `files` beside it."""
    return write_tree(root, {".claude/memory/MEMORY.md": INDEX, ".claude/memory/auth.md": TOPIC + body, **files})


def cit(root: Path, code: str, **options: object) -> list[str]:
    return [d.message for d in only(run_lint(root, select=["CIT"], **options), code)]


def written(citations: list) -> list[tuple[str, int | None, int | None]]:
    return [(c.path, c.line, c.end) for c in citations]


# --- what a citation is


def test_the_forms_of_a_citation() -> None:
    text = (
        "see `src/a.py:12` and api/main.py:117-152, ./b/c.md:4, tools/x.lean#L88, d/e.fs#L1-L9, AGENTS.md:1:9\n"
        "问题在src/z.py:7。 [lib/k.ts:44]\n"
    )
    assert written(find(text.split("\n"))) == [
        ("src/a.py", 12, None),
        ("api/main.py", 117, 152),
        ("b/c.md", 4, None),
        ("tools/x.lean", 88, None),
        ("d/e.fs", 1, 9),
        ("AGENTS.md", 1, None),
        ("src/z.py", 7, None),
        ("lib/k.ts", 44, None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/src/gone.py:3",  # a URL
        "ws://127.0.0.1:18789 and 127.0.0.1:3000",  # host:port
        "`db.pooler.supabase.com:6543`",  # a host that ends like a name
        "db.*.supabase.co:5432",  # a pattern
        "at 12:30 the build ran",  # a time
        r"C:\proj\a.py:3",  # a Windows path
        "/home/u/proj/a.py:3 and ~/a.py:3",  # absolute
        "../sibling/a.py:3",  # out of the project
        "grep printed tools/x.lean:0",  # line 0 is no line
        "model llama3.2:3b",  # a tag
        "```\nsrc/in_fence.py:3\n```",  # a fenced block
    ],
)
def test_what_is_no_citation(text: str) -> None:
    assert find(text.split("\n")) == []


def test_a_related_files_section_lists_paths_without_lines() -> None:
    """Seed 003's Known Issue: `### 相关文件` then `- [文件路径:行号]`; real ones leave the line out."""
    text = "### 相关文件\n- `app/llm.py`\n- [src/k.py:44]\n- [文件路径:行号]\n### 状态\n- other/x.py\n"
    assert written(find(text.split("\n"))) == [("app/llm.py", None, None), ("src/k.py", 44, None)]


def test_a_text_without_citations_is_never_searched() -> None:
    assert not may_cite("---\nname: a\n---\nplain prose: no line number, no section of related files\n" * 50)
    assert may_cite("see src/a.py:12")


# --- CIT001


def test_a_cited_file_that_is_gone_is_reported_once_per_memory(tmp_path: Path) -> None:
    root = memory(
        tmp_path, "Checked in `api/middleware.py:2`, and again at api/middleware.py:9.\n", **{"api/auth.py": CODE}
    )
    [message] = cit(root, "CIT001")
    assert message.startswith("`api/middleware.py:2` cites `api/middleware.py`, which is not in the project")


def test_a_related_files_item_of_a_known_issue(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            ".ai-memory/project_memory.md": "## Known Issue: x\n\n### 相关文件\n- `src/old_client.py`\n",
            "src/client.py": CODE,
        },
    )
    [finding] = only(run_lint(root, select=["CIT"]), "CIT001")
    assert (finding.line, finding.column) == (4, 1)


@pytest.mark.parametrize(
    ("body", "files"),
    [
        ("Checked in `services/billing/api.py:2`.\n", {"api/auth.py": CODE}),  # a folder the project lacks
        ("The ledger is `memory/ledger.jsonl:5`.\n", {}),  # a folder with no file of that type
        ("Checked in `middleware.py:2`.\n", {"api/auth.py": CODE}),  # a bare name matching nothing
        ("Checked in `api/auth.py:2`.\n", {"api/auth.py": CODE}),  # there
    ],
)
def test_cit001_is_silent_where_the_project_cannot_tell(tmp_path: Path, body: str, files: dict) -> None:
    """A memory copied without its code, or citing another repository, is not reported."""
    assert cit(memory(tmp_path, body, **files), "CIT001") == []


def test_an_ignored_file_that_is_there_is_there(tmp_path: Path) -> None:
    root = memory(
        tmp_path, "Settings come from `config/local.yml:3`.\n", **{"config/base.yml": CODE, "config/local.yml": CODE}
    )
    (root / ".gitignore").write_text("config/local.yml\n", encoding="utf-8")
    git("init", "-q", cwd=root)
    assert cit(root, "CIT001") == []


def test_a_nested_agents_md_cites_its_own_subtree(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {"packages/web/AGENTS.md": "Routes live in `src/routes.ts:3`; the old `src/pages.ts:3` is gone.\n"},
    )
    write_tree(root, {"packages/web/src/routes.ts": CODE})
    assert [m.split(" ", 1)[0] for m in cit(root, "CIT001")] == ["`src/pages.ts:3`"]


def test_dated_logs_are_records_not_claims(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {".ai-memory/20261130/daily.md": "- edited `src/gone.py:3`\n", "src/a.py": CODE})
    assert cit(root, "CIT001") == []


def test_a_bare_name_is_the_projects_only_file_of_that_name(tmp_path: Path) -> None:
    root = memory(
        tmp_path, "See `auth.py:40` and `util.py:40`.\n", **{"api/auth.py": CODE, "a/util.py": CODE, "b/util.py": CODE}
    )
    assert [m.split(" ", 1)[0] for m in cit(root, "CIT002")] == ["`auth.py:40`"]


def test_a_bare_name_beside_the_memory(tmp_path: Path) -> None:
    """A nested `AGENTS.md` naming `routes.ts` means its own, though the project has two."""
    root = write_tree(
        tmp_path,
        {
            "packages/web/AGENTS.md": "See `routes.ts:40`.\n",
            "packages/web/routes.ts": CODE,
            "packages/api/routes.ts": CODE,
        },
    )
    assert [m.split("`")[3] for m in cit(root, "CIT002")] == ["packages/web/routes.ts"]


# --- CIT002


def test_a_line_or_range_past_the_end(tmp_path: Path) -> None:
    root = memory(tmp_path, "At `api/auth.py:11`, `api/auth.py:8-12`, api/auth.py#L9-L14.\n", **{"api/auth.py": CODE})
    assert cit(root, "CIT002") == [
        "`api/auth.py:11` cites line 11, but `api/auth.py` has 10 lines: the code moved since this was written, "
        "and the agent reads the wrong lines. Cite where the code is now (a function or heading name outlives a "
        "line number).",
        "`api/auth.py:8-12` cites lines 8-12, but `api/auth.py` has 10 lines: the code moved since this was "
        "written, and the agent reads the wrong lines. Cite where the code is now (a function or heading name "
        "outlives a line number).",
        "`api/auth.py#L9-L14` cites lines 9-14, but `api/auth.py` has 10 lines: the code moved since this was "
        "written, and the agent reads the wrong lines. Cite where the code is now (a function or heading name "
        "outlives a line number).",
    ]


def test_the_last_line_is_in_range_with_or_without_a_final_newline(tmp_path: Path) -> None:
    root = memory(
        tmp_path, "At `api/a.py:10` and `api/b.py:10`.\n", **{"api/a.py": CODE, "api/b.py": CODE.rstrip("\n")}
    )
    assert cit(root, "CIT002") == []


def test_a_file_too_large_or_behind_a_link_is_not_read(tmp_path: Path) -> None:
    root = memory(
        tmp_path, "At `api/big.py:150` and `api/linked.py:99`.\n", **{"api/big.py": CODE * 10, "api/real.py": CODE}
    )
    os.symlink("real.py", root / "api" / "linked.py")
    assert cit(root, "CIT002", max_file_bytes=100) == []
    assert len(cit(root, "CIT002")) == 1  # the large one, read within the default limit; never the link


def test_a_secret_in_a_cited_path_is_never_printed(tmp_path: Path) -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    root = memory(tmp_path, f"See `keys/{token}.txt:40`.\n", **{f"keys/{token}.txt": "one\n"})
    result = run_cli("check", "--select", "CIT", "--output-format", "json", ".", cwd=root)
    assert token not in result.stdout and "CIT002" in result.stdout


# --- CIT003


def commit(root: Path, day: str, monkeypatch: pytest.MonkeyPatch, *paths: str) -> None:
    monkeypatch.setenv("GIT_COMMITTER_DATE", f"{day}T12:00:00+00:00")
    git("add", "--", *paths, cwd=root)
    git("commit", "-q", "-m", day, "--date", f"{day}T12:00:00+00:00", cwd=root)


def stamp(path: Path, day: str) -> None:
    moment = datetime.fromisoformat(day).replace(tzinfo=timezone.utc).timestamp()
    os.utime(path, (moment, moment))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository: the memory committed on 2026-01-01, the cited file changed on 2026-06-01."""
    root = memory(tmp_path, "Rounding is in `src/billing.py:2`.\n", **{"src/billing.py": CODE})
    git("init", "-q", cwd=root)
    commit(root, "2026-01-01", monkeypatch, ".")
    (root / "src" / "billing.py").write_text(CODE + "more\n", encoding="utf-8")
    commit(root, "2026-06-01", monkeypatch, "src/billing.py")
    return root


def test_a_file_changed_long_after_the_memory_in_git(repo: Path) -> None:
    # The files' modification times are today's: the dates come from git, not the clock.
    assert cit(repo, "CIT003") == [
        "`src/billing.py:2`: `src/billing.py` last changed on 2026-06-01, 151 days after this memory was last "
        "written (2026-01-01; `citation-max-age-days`: 30): what it says about that code may no longer hold. "
        "Check the citation against the code and update the memory (saving it again clears this)."
    ]
    assert cit(repo, "CIT003", citation_max_age_days=200) == []


def test_a_memory_saved_again_but_not_yet_committed_is_new(repo: Path) -> None:
    """The pre-commit case: the memory was just corrected; its commit is still to come."""
    topic = repo / ".claude" / "memory" / "auth.md"
    topic.write_text(topic.read_text(encoding="utf-8") + "Checked again.\n", encoding="utf-8")
    assert cit(repo, "CIT003") == []


def test_outside_git_the_modification_times_judge(tmp_path: Path) -> None:
    root = memory(tmp_path, "Rounding is in `src/billing.py:2`.\n", **{"src/billing.py": CODE})
    stamp(root / ".claude" / "memory" / "auth.md", "2026-01-01")
    stamp(root / "src" / "billing.py", "2026-01-20")
    assert cit(root, "CIT003") == []
    stamp(root / "src" / "billing.py", "2026-03-01")
    [message] = cit(root, "CIT003")
    assert "last changed on 2026-03-01, 59 days after" in message


def test_git_runs_once_and_only_when_a_citation_is_found(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, ...]] = []
    real = project_module.git

    def counting(path: str, *arguments: str, **kwargs: object) -> bytes | None:
        calls.append(arguments)
        return real(path, *arguments, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(project_module, "git", counting)
    assert len(cit(repo, "CIT003")) == 1
    assert [call[0] for call in calls].count("log") == 1
    plain = memory(tmp_path_factory.mktemp("plain"), "No citation here, only 9:30 meetings.\n")
    git("init", "-q", cwd=plain)
    calls.clear()
    assert cit(plain, "CIT003") == []
    assert calls == []


def test_the_json_output_of_the_family(repo: Path) -> None:
    (repo / ".claude" / "memory" / "auth.md").write_text(TOPIC + "Gone: `src/old.py:1`.\n", encoding="utf-8")
    result = run_cli("check", "--select", "CIT", "--output-format", "json", "--exit-zero", ".", cwd=repo)
    [finding] = json.loads(result.stdout)
    assert (finding["code"], finding["path"], finding["line"], finding["column"]) == (
        "CIT001",
        ".claude/memory/auth.md",
        6,
        8,
    )
