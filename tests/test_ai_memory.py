"""AIM001–AIM010 on real `.ai-memory/` trees (seed 003), and TXT004 on every kind of memory file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import codes, git, only, preview_settings, run_cli, run_lint, write_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemolint.engine import lint as lint_all
from mnemolint.fix import fixer
from mnemolint.parse import jsonl

NOW = "2026-12-01"

# Every template of seed 003, complete and with valid values: nothing to report.
PROJECT_MEMORY = """# Project Memory

## Decision Record: 缓存层选型

**日期**: 2026-11-20
**问题**: 接口响应慢

### 选项分析

| 选项 | 优势 | 劣势 | 复杂度 |
| --- | --- | --- | --- |
| Redis | 成熟 | 多一个服务 | 中 |
| 进程内 | 简单 | 不共享 | 低 |

### 决策

**选择**: Redis
**理由**: 团队熟悉
**Trade-offs**: 多维护一个服务

### 影响范围

- `src/cache/`

### 撤销条件

QPS 降到 100 以下时改回进程内缓存。

## Project Convention: 错误码命名

**类型**: 命名规范
**适用范围**: `src/api/`

### 规范内容

错误码用大写蛇形。

### 示例

**正确**:
`E_NOT_FOUND`
**错误**:
`notFound`

### 发现来源

2026-11-20 会话

## Glossary Entry: 订单

**规范名称**: Order
**别名/变体**: 订单单据
**定义**: 一次购买
**适用范围**: `src/order/`
**禁止使用**: Bill
**来源**: 需求文档

## Lessons Learned

### Known Issue: 夏令时少一小时

**发现日期**: 2026-11-02
**问题类型**: 第三方依赖风险
**严重度**: 严重

#### 现象

切换日的报表少一小时。

#### 根因

本地时间做算术。

#### 规避方案

全程 UTC。

#### 相关文件

- `src/report/time.py:42`

#### 状态

未修复，外部阻塞。
"""
HANDOFF = """## Handoff Checkpoint

**更新时间**: 2026-11-30 18:05
**当前目标**: 完成注册流程
**当前阶段**: 实现
**完成度**: 60%

### 已完成

- 登录页: 单测通过 -> `src/login.ts`

### 未完成

- 注册页: 写表单 -> `src/register.ts`

### 关键决策

- 用 JWT: 无状态 / `src/auth/` / 需要吊销时

### 恢复入口

- **首读文件**: `src/register.ts`
- **关键命令**: `npm test`
- **验证路径**: `npm run e2e`

### 阻塞项

- 无
"""
TOPICS = "项目: shop\n当前阶段: 实现\n活跃任务: 注册流程\n上次会话: 2026-11-30\n交接状态: 存在 handoff.md 未完成项\n"
DAILY = "# 工作日志 - [2026-11-30]\nsession-id: 20261130-0900\n\n- [09:00] 修改 `src/a.py`：加重试。\n"
SESSION = '{"summary": "## Session Summary\\n**日期**: 2026-11-30"}\n'
USER_PROFILE = """## Session Summary

**日期**: 2026-11-30
**会话目标**: 整理偏好

### 已完成

- 偏好: 记录 -> `user_profile.md`

### 关键决策

- **决策**: 默认中文回复
- **上下文**: 团队都是中文
- **影响**: 所有会话

### 遗留问题 / Blockers

- 无

### 下一步计划

1. 无

### 规范更新

- 无
"""
GITIGNORE = ".ai-memory/*/\n!.ai-memory/project_memory.md\n!.ai-memory/handoff.md\n"
VALID = {
    ".gitignore": GITIGNORE,
    ".ai-memory/project_memory.md": PROJECT_MEMORY,
    ".ai-memory/handoff.md": HANDOFF,
    ".ai-memory/20261130/topics.md": TOPICS,
    ".ai-memory/20261130/daily.md": DAILY,
    ".ai-memory/20261130/session_memory_20261130-0900.jsonl": SESSION,
}


def lint(root: Path, select: list[str], **options: object):
    return run_lint(root, select=select, now=NOW, **options)


def test_a_complete_valid_tree_with_every_template_has_no_finding(tree) -> None:
    root = tree({**VALID, ".ai-memory/user_profile.md": USER_PROFILE})
    assert lint(root, ["AIM", "GIT", "TXT"]) == []


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({".ai-memory/handoff.md": "无未完成交接项\n"}, id="finished-handoff"),
        pytest.param({".ai-memory/handoff.md": ""}, id="emptied-handoff"),
        pytest.param(
            {".ai-memory/project_memory.md": "## Decision Record: 选型\n\n### 选项分析\n\n- Redis（待补充）\n"},
            id="decision-to-be-completed",
        ),
        pytest.param(
            {".ai-memory/project_memory.md": "## Project Convention: 命名\n\n### 规范内容\n\n大写蛇形。示例待补充\n"},
            id="convention-examples-to-come",
        ),
        pytest.param(
            {".ai-memory/user_profile.md": "## Session Summary\n\n**日期**: 2026-11-30（信息可能不全）\n"},
            id="summary-skeleton",
        ),
        pytest.param(
            {
                ".ai-memory/handoff.md": "## Handoff Checkpoint\n\n**当前目标**: 注册\n**当前阶段**: 待补充\n\n"
                "### 未完成\n\n- 表单\n\n- **首读文件**: `a.ts`\n\n### 阻塞项\n\n- 无\n"
            },
            id="handoff-fallback-keeps-four-parts",
        ),
        pytest.param(
            {".ai-memory/project_memory.md": PROJECT_MEMORY.replace("**严重度**: 严重", "**严重度**: 待补充")},
            id="value-to-be-completed",
        ),
    ],
)
def test_the_seeds_fallbacks_are_not_gaps(tree, files: dict[str, str]) -> None:
    """No gap: only a mark that asks for a later fill-in ("待补充") is reported, as info."""
    found = lint(tree({**VALID, **files}), ["AIM"])
    assert all((finding.code, finding.severity) == ("AIM002", "info") for finding in found)
    marked = [line for text in files.values() for line in text.split("\n") if "待补充" in line]
    assert len(found) == len(marked)


def test_aim001_names_the_template_the_instance_and_each_missing_part(tree) -> None:
    text = PROJECT_MEMORY.replace("**错误**:\n`notFound`\n", "").replace("#### 根因\n\n本地时间做算术。\n\n", "")
    text = text.replace("### 撤销条件\n\nQPS 降到 100 以下时改回进程内缓存。\n", "### 撤销条件\n\n")
    found = only(lint(tree({**VALID, ".ai-memory/project_memory.md": text}), ["AIM001"]), "AIM001")
    lines = text.split("\n")
    messages = {lines[finding.line - 1]: finding.message for finding in found}
    assert (
        "Decision Record 缓存层选型 lacks 1 mandatory part: `### 撤销条件` (empty)"
        in messages["## Decision Record: 缓存层选型"]
    )
    assert "lacks 1 mandatory part: `**错误**`" in messages["## Project Convention: 错误码命名"]
    assert "lacks 1 mandatory part: `### 根因`" in messages["### Known Issue: 夏令时少一小时"]


def test_aim001_a_fallback_still_needs_what_it_keeps(tree) -> None:
    handoff = "## Handoff Checkpoint\n\n**当前目标**: 待补充\n"
    [finding] = lint(tree({".ai-memory/handoff.md": handoff}), ["AIM001"])
    assert "`### 未完成`, `**首读文件**`, `### 阻塞项`" in finding.message


def test_aim001_handoff_without_checkpoint_and_topics_without_their_fields(tree) -> None:
    root = tree({".ai-memory/handoff.md": "# notes\n\nsome text\n", ".ai-memory/20261130/topics.md": "- 阶段：实现\n"})
    messages = sorted(finding.message for finding in lint(root, ["AIM001"]))
    assert messages[0].startswith("handoff.md holds no `## Handoff Checkpoint`")
    assert messages[1].startswith("topics.md lacks 5 fields of the 5-field summary: 项目, 当前阶段")


def test_aim001_headings_inside_code_are_not_instances(tree) -> None:
    text = "# Templates\n\n```markdown\n## Decision Record: 示例\n```\n"
    assert lint(tree({".ai-memory/project_memory.md": text}), ["AIM"]) == []


def test_aim002_placeholders_but_not_links_checkboxes_or_code(tree) -> None:
    text = (
        "# P\n\n- [x] done\n- [决策内容](notes.md)\n- `[YYYY-MM-DD]` is the format\n- [WIP] later\n"
        "- **决策**: [决策内容]\n- **日期**: YYYY-MM-DD\n| A | ... | x | 低/中/高 |\n"
    )
    found = lint(tree({".ai-memory/project_memory.md": text}), ["AIM002"])
    assert [finding.line for finding in found] == [7, 8, 9]


def test_aim002_and_aim009_on_the_daily_header(tree) -> None:
    root = tree({".ai-memory/20261130/daily.md": "# 工作日志 - [YYYY-MM-DD]\n"})
    assert codes(lint(root, ["AIM002", "AIM009"])) == ["AIM002"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("**发现日期**: 2026-11-02", "**发现日期**: 2026-02-30"),
        ("**问题类型**: 第三方依赖风险", "**问题类型**: 环境边界"),
        ("未修复，外部阻塞。", "待外部环境验证。"),
        ("| Redis | 成熟 | 多一个服务 | 中 |", "| Redis | 成熟 | 多一个服务 | 很高 |"),
        ("**类型**: 命名规范", "**类型**: 风格"),
        ("**来源**: 需求文档", "**来源**: 群聊"),
    ],
)
def test_aim003_values_outside_the_enumerations(tree, old: str, new: str) -> None:
    assert old in PROJECT_MEMORY
    text = PROJECT_MEMORY.replace(old, new)
    [finding] = lint(tree({**VALID, ".ai-memory/project_memory.md": text}), ["AIM003"])
    assert text.split("\n")[finding.line - 1] == new


@pytest.mark.parametrize(
    ("old", "new"),
    [("2026-11-30 18:05", "2026-11-30"), ("**当前阶段**: 实现", "**当前阶段**: Implementation"), ("60%", "六成")],
)
def test_aim003_handoff_formats(tree, old: str, new: str) -> None:
    root = tree({".ai-memory/handoff.md": HANDOFF.replace(old, new)})
    assert codes(lint(root, ["AIM003"])) == ["AIM003"]


def test_aim003_topics_handoff_state(tree) -> None:
    root = tree({".ai-memory/20261130/topics.md": TOPICS.replace("存在 handoff.md 未完成项", "有")})
    assert codes(lint(root, ["AIM003"])) == ["AIM003"]


def _daily(chars: int, eol: str = "\n") -> str:
    head = "# 工作日志 - [2026-11-30]" + eol
    line = "- [09:00] 修改 `src/a.py`：加重试。" + eol
    body = line * ((chars - len(head)) // (len(line) - len(eol) + 1) + 1)
    return head + body


def test_aim004_warns_past_8000_errs_past_12000_counting_a_crlf_as_one(tree) -> None:
    root = tree({".ai-memory/20261130/daily.md": _daily(8100)})
    [warning] = lint(root, ["AIM004"])
    assert warning.severity == "warning" and "the agent now reads only its last 120 lines" in warning.message
    root = tree({".ai-memory/20261130/daily.md": _daily(12100)})
    [error] = lint(root, ["AIM004"])
    assert error.severity == "error" and "keep the last 30 entries" in error.message
    assert lint(tree({".ai-memory/20261130/daily.md": _daily(7900, "\r\n")}), ["AIM004"]) == []


def test_aim004_severity_setting_overrides_both_levels(tree) -> None:
    root = tree({".ai-memory/20261130/daily.md": _daily(12100), "mnemolint.toml": '[severity]\nAIM004 = "info"\n'})
    [finding] = lint(root, ["AIM004"])
    assert finding.severity == "info"


def test_aim005_project_memory_over_8000(tree) -> None:
    assert codes(lint(tree({".ai-memory/project_memory.md": "- x\n" * 2100}), ["AIM005"])) == ["AIM005"]
    assert lint(tree({".ai-memory/project_memory.md": "- x\n" * 1900}), ["AIM005"]) == []


def test_aim006_by_the_folder_name_against_the_pinned_today(tree) -> None:
    root = tree({".ai-memory/20261101/daily.md": "x\n", ".ai-memory/20261031/daily.md": "x\n"})
    found = lint(root, ["AIM006"])
    assert [os.path.basename(finding.path) for finding in found] == ["20261031"]  # 31 days; 30 is fine
    assert lint(root, ["AIM006"], ai_memory_max_age_days=40) == []


def test_aim007_folder_names_session_files_and_session_id_lines(tree) -> None:
    root = tree(
        {
            ".ai-memory/20261340/daily.md": "x\n",
            ".ai-memory/20261120/session_memory_20261121-0900.jsonl": "{}\n",
            ".ai-memory/20261120/session_2026.jsonl": "{}\n",
            ".ai-memory/20261120/daily.md": "# 工作日志 - [2026-11-20]\nsession-id: 20261120-2500\n"
            "session-id: 20261121-0900\n",
            ".ai-memory/20261122/session_memory_20261122-0900.jsonl": "{}\n",
            ".ai-memory/20261122/daily.md": "# 工作日志 - [2026-11-22]\n",
            ".ai-memory/20261201/daily.md": "# 工作日志 - [2026-12-01]\nsession-id: 20261201-0900\n",  # today: running
        }
    )
    found = lint(root, ["AIM007"])
    shown = sorted((os.path.relpath(finding.path, root / ".ai-memory"), finding.line) for finding in found)
    assert shown == [
        ("20261120/daily.md", 2),
        ("20261120/daily.md", 3),
        ("20261120/session_2026.jsonl", None),
        ("20261120/session_memory_20261121-0900.jsonl", None),
        ("20261122/daily.md", 1),
        ("20261340", None),
    ]


def test_aim008_reports_bad_lines_and_stops_after_five(tree) -> None:
    root = tree({".ai-memory/20261130/session_memory_20261130-0900.jsonl": "{}\n" + "{bad\n" * 9 + "\n"})
    found = lint(root, ["AIM008"])
    assert [finding.line for finding in found] == [2, 3, 4, 5, 6, 6]
    assert "the scan stopped after the first 5" in found[-1].message


def test_aim008_a_hostile_jsonl_is_streamed_in_bounded_time_and_memory(tmp_path: Path) -> None:
    """200 MB, one 50 MB line, NUL bytes: far over max-file-bytes, so it is never read whole."""
    path = tmp_path / ".ai-memory" / "20261130" / "session_memory_20261130-0900.jsonl"
    path.parent.mkdir(parents=True)
    with open(path, "wb") as handle:
        handle.write(b'{"a": 1}\n' + b"x" * (50 * 1024 * 1024) + b"\n" + b'{"b": "\x00"}\n')
        block = b'{"summary": "ok"}\n' * 65536
        while handle.tell() < 200 * 1024 * 1024:
            handle.write(block)
        handle.write(b"not json\n")
    scan = jsonl.scan_file(str(path))
    assert scan is not None and [number for number, _ in scan.bad] == [3, scan.bad[-1][0]]
    assert scan.bad[0][1] == "it holds NUL bytes"
    # Time and peak memory of the scan alone, in a process of its own (its baseline subtracted).
    code = (
        "import resource, time; from mnemolint.parse import jsonl; t = time.monotonic(); {}; "
        "print(time.monotonic() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    baseline, scanned = (_child_run(code.format(call)) for call in ("None", f"jsonl.scan_file({str(path)!r})"))
    assert scanned[0] < 20, f"{scanned[0]:.1f} s"
    assert scanned[1] - baseline[1] < 16 * 1024, f"{scanned[1] - baseline[1]:,} KiB more than the baseline"
    found = lint(tmp_path, ["AIM008", "NST002"])
    assert sorted(codes(found)) == ["AIM008", "AIM008", "NST002"]


def _child_run(code: str) -> tuple[float, int]:
    """Run `code` in a fresh interpreter: the seconds and the peak RSS (KiB) it prints of itself."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    seconds, peak = done.stdout.split()
    return float(seconds), int(peak)


def test_aim009_header_forms(tree) -> None:
    for header in (
        "# 工作日志 - [2026-11-30]",
        "# 工作日志 - 2026-11-30",
        "# 工作日志 — 2026-11-30",
        "session-id: 20261130-0900\n# 工作日志 - [2026-11-30]",  # the id line 003 puts at the top
        "\ufeff\n",
        "session-id: 20261130-0900",
    ):
        assert lint(tree({".ai-memory/20261130/daily.md": header + "\n"}), ["AIM009"]) == []
    for header in ("# Daily log", "# 工作日志 - [2026-11-29]"):
        assert codes(lint(tree({".ai-memory/20261130/daily.md": header + "\n"}), ["AIM009"])) == ["AIM009"]


def test_aim010_below_the_git_top_level_but_not_at_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"pkg/.ai-memory/project_memory.md": "# P\n", ".ai-memory/project_memory.md": "# P\n"})
    git("init", "-q", cwd=root)
    found = lint(root / "pkg", ["AIM010"])  # linted from below: the git top level still decides
    assert [finding.path for finding in found] == [str(root / "pkg" / ".ai-memory")]
    assert lint(root, ["AIM010"])[0].path == str(root / "pkg" / ".ai-memory")


def test_user_memory_flag_lints_the_profile_in_home(tmp_path: Path) -> None:
    home = write_tree(tmp_path / "home", {".ai-memory/user_profile.md": "## Session Summary\n\n**日期**: 2026-11-30\n"})
    project = write_tree(tmp_path / "project", {".ai-memory/project_memory.md": "# P\n"})
    env = {"HOME": str(home)}
    plain = run_cli("check", "--select", "AIM", str(project), env=env)
    assert plain.returncode == 0, plain.stdout
    asked = run_cli("check", "--select", "AIM,GIT", "--user-memory", str(project), env=env)
    assert asked.returncode == 1
    assert "user_profile.md:1:1: AIM001 Session Summary lacks 9 mandatory parts" in asked.stdout
    assert "AIM010" not in asked.stdout and "GIT0" not in asked.stdout


# TXT004 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "see /home/kim/app/x.py",
        "at /Users/mchen/work",
        r"C:\Users\mchen\proj",
        r"root D:\my-project",
        r'"C:\\Users\\a"',
    ],
)
def test_txt004_fires_on_user_paths_in_every_kind(tree, line: str) -> None:
    root = tree(
        {
            "memory/MEMORY.md": "- [T](t.md) — t\n",
            "memory/t.md": f"---\nname: t\ndescription: t\ntype: user\n---\n{line}\n",
            ".ai-memory/project_memory.md": f"# P\n\n{line}\n",
        }
    )
    assert sorted(os.path.basename(finding.path) for finding in lint(root, ["TXT004"])) == [
        "project_memory.md",
        "t.md",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "~/notes and {PROJECT_ROOT}/src and src/app.py\n",
        "https://example.com/home/bob/page\n",
        "```\n/home/bob/app\n```\n",
        "    /Users/alice/indented-code\n",
        "<!-- /home/bob/ -->\n",
        "servers keep it in /home/ubuntu/app and CI in /home/runner/work\n",
        "never `C:\\Users\\...` nor /Users/.../repo nor D:\\projects\\... nor /home/$USER/x\n",
        "a rule like Read(/Users/alice/file)\n",
        "assume clones live under the profile (`C:\\Users\\<user>\\...`)\n",
        'refer to it generically (e.g. "the extension repo" not `D:\\projects\\bga\\assistant`)\n',
    ],
)
def test_txt004_stays_quiet_on_relative_paths_urls_and_code(tree, text: str) -> None:
    assert lint(tree({".ai-memory/project_memory.md": "# P\n\n" + text}), ["TXT004"]) == []


def test_aim001_a_section_written_as_a_field_is_there(tree) -> None:
    """`**撤销条件**: …` under `### 决策` (as real project memories write it) holds the revocation condition."""
    text = PROJECT_MEMORY.replace(
        "### 撤销条件\n\nQPS 降到 100 以下时改回进程内缓存。\n", "**撤销条件**: QPS 降到 100 以下时\n"
    )
    assert lint(tree({**VALID, ".ai-memory/project_memory.md": text}), ["AIM001"]) == []
    empty = PROJECT_MEMORY.replace("### 撤销条件\n\nQPS 降到 100 以下时改回进程内缓存。\n", "**撤销条件**:\n")
    assert codes(lint(tree({**VALID, ".ai-memory/project_memory.md": empty}), ["AIM001"])) == ["AIM001"]


PIECES = [
    "## Decision Record: x\n", "### 选项分析\n", "| 选项 | 复杂度 |\n", "|---|---|\n", "| a | 很高 |\n", "**日期**: ",
    "2026-13-45", "\n", "[YYYY-MM-DD]", "待补充", "```\n", "**", "：", ":", "# 工作日志 - [", "]", "session-id: ",
    "20261340-9999", "\r\n", "\ufeff", "\x00", "/home/u/", "C:\\Users\\", "## Handoff Checkpoint\n", "### 状态\n",
    "|", "[", "`", ".ai-memory/", "!", "*/", "**/", "[[", "\\",
]  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), min_size=7, max_size=7))
def test_no_input_makes_an_internal_error_and_the_fixes_settle(tmp_path_factory, texts: list[str]) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    names = [*VALID, ".ai-memory/.gitignore"]
    write_tree(root, dict(zip(names, texts, strict=True)))
    configured = preview_settings(root)
    configured.options["now"] = NOW
    assert lint_all([str(root)], configured).errors == []
    fixer.fix([str(root)], configured)
    assert fixer.fix([str(root)], configured).changes == {}


def test_aim010_outside_git_by_each_linted_directory(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "a/.ai-memory/project_memory.md": "# P\n",
            "b/.ai-memory/project_memory.md": "# P\n",
            "b/c/.ai-memory/x.md": "",
        },
    )
    assert lint(root / "a", ["AIM010"]) == [] and lint(root / "a" / ".ai-memory", ["AIM010"]) == []
    found = run_lint(root, [root / "a", root / "b"], select=["AIM010"])  # two projects linted at once
    assert [finding.path for finding in found] == [str(root / "b" / "c" / ".ai-memory")]
    assert len(lint(root, ["AIM010"])) == 3  # from above, the linted directory is their common top
