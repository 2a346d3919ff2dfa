"""Oracle cases for Claude Code's instruction files: which `CLAUDE.md`, `AGENTS.md` and imports a
session really gets, from which folders, and where the size limits cut.

`write_cases(out)` writes one folder per case in the layout of the shared oracle harness
(`make_cases.py`): `project/` (the tree), `client`, and where a case needs them `cwd` (the session
folder, relative to `project/`), `git`, `reads` (files the fake model reads, one per turn, which
makes the client load nested instruction files), `home/`, `claude_project.json`, `settings.json`.
Every text that may load carries a unique `MARK-…` marker, so a capture shows at a glance which
files reached the model. Case names start `cl2`.
"""

from __future__ import annotations

import os
import shutil
import subprocess

MIB4 = 4 * 1024 * 1024  # the size over which Claude Code skips an instruction file whole


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def _case(out: str, name: str, files: dict[str, str], **flags: str) -> str:
    folder = os.path.join(out, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "project"))
    _write(os.path.join(folder, "client"), "claude\n")
    for flag, value in flags.items():
        _write(os.path.join(folder, flag), value)
    for rel, text in files.items():
        _write(os.path.join(folder, "project", rel), text)
    return name


def _marked(*names: str) -> dict[str, str]:
    """Files that hold only their own marker: `sub/x_y.md` holds `MARK-SUB-X-Y`."""
    return {name: f"MARK-{os.path.splitext(name)[0].upper().replace('/', '-').replace('_', '-')}\n" for name in names}


def _lines(tag: str, count: int) -> str:
    """`count` numbered lines of 80 characters, each with its own marker (`MARK-TAG-00001`)."""
    return "".join(f"MARK-{tag}-{number:05d} ".ljust(79, ".") + "\n" for number in range(1, count + 1))


def _sized(tag: str, size: int) -> str:
    """A text of exactly `size` bytes (ASCII), starting `MARK-TAG-START` and ending `MARK-TAG-END`."""
    head, tail = f"MARK-{tag}-START\n", f"MARK-{tag}-END\n"
    body = ("keep the build green and the tests fast, always, every day.\n" * (size // 60 + 1))[
        : size - len(head) - len(tail)
    ]
    text = head + body + tail
    assert len(text.encode()) == size
    return text


def _imports_by_token(out: str) -> list[str]:
    """Which Markdown tokens an `@path` loads from: list items (an HTML comment or a code span in
    one included), a blockquote, a table cell, a heading, after emphasis, escaped, a non-text
    extension, an HTML block."""
    claude = "\n".join(
        [
            "# Imports by token",
            "MARK-CL2A-ROOT",
            "",
            "- item <!-- @li_comment.md -->",
            "",
            "6. note: <!-- @ol_comment.md -->",
            "",
            "* loose one",
            "",
            "  loose para <!-- @loose_comment.md -->",
            "",
            "+ code in item `see @li_code.md now`",
            "+ nested",
            "  + deeper <!-- @nested_comment.md -->",
            "",
            "> quote <!-- @quote_comment.md -->",
            "",
            "A paragraph `see @para_code.md now` here.",
            "",
            "| a | b |",
            "|---|---|",
            "| @table_cell.md | x |",
            "",
            "## Heading @heading.md",
            "",
            r"Para *em*@after_em.md and \@escaped.md",
            "",
            "Picture @pic.png here.",
            "",
            "<div>",
            "@div_block.md",
            "</div>",
            "",
        ]
    )
    files = _marked(
        "li_comment.md",
        "ol_comment.md",
        "loose_comment.md",
        "li_code.md",
        "nested_comment.md",
        "quote_comment.md",
        "para_code.md",
        "table_cell.md",
        "heading.md",
        "after_em.md",
        "escaped.md",
        "div_block.md",
    )
    files["pic.png"] = "MARK-PIC-PNG\n"
    files["CLAUDE.md"] = claude
    return [_case(out, "cl2a_imports_by_token", files)]


def _agents_fallback(out: str) -> list[str]:
    """When `AGENTS.md` loads: only where no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md`
    with content loads in the session folder or above it; on a file touch below the session folder
    too, for folders without a `CLAUDE.md` of their own."""
    names = []
    agents = {"AGENTS.md": "MARK-AGENTS-ROOT\n"}
    names.append(_case(out, "cl2b_blank_claude_agents", {"CLAUDE.md": "\n   \n\n", **agents}))
    names.append(_case(out, "cl2c_local_claude_agents", {"CLAUDE.local.md": "MARK-CLAUDE-LOCAL\n", **agents}))
    names.append(_case(out, "cl2d_agents_and_dot_agents", {**agents, ".claude/AGENTS.md": "MARK-DOT-AGENTS\n"}))
    names.append(
        _case(
            out,
            "cl2e_agents_imports_rules",
            {
                "AGENTS.md": "MARK-AGENTS-ROOT\nSee @agents_imp.md for more.\n",
                "agents_imp.md": "MARK-AGENTS-IMP\n",
                ".claude/rules/always.md": "MARK-RULE-ALWAYS\n",
            },
        )
    )
    names.append(_case(out, "cl2f_huge_claude_agents", {"CLAUDE.md": _sized("HUGE", MIB4 + 1), **agents}))
    names.append(
        _case(
            out,
            "cl2g_agents_nested_read",
            {**agents, "sub/AGENTS.md": "MARK-AGENTS-SUB\n", "sub/x.ts": "export const x = 1; // MARK-FILE-X\n"},
            reads="sub/x.ts\n",
        )
    )
    names.append(
        _case(
            out,
            "cl2h_claude_nested_agents_read",
            {
                "CLAUDE.md": "MARK-CLAUDE-ROOT\n",
                "sub/AGENTS.md": "MARK-AGENTS-SUB\n",
                "sub/x.ts": "export const x = 1; // MARK-FILE-X\n",
            },
            reads="sub/x.ts\n",
        )
    )
    names.append(
        _case(
            out,
            "cl2i_agents_nested_claude_read",
            {
                **agents,
                "sub/CLAUDE.md": "MARK-CLAUDE-SUB\n",
                "sub/AGENTS.md": "MARK-AGENTS-SUB\n",
                "sub/deep/AGENTS.md": "MARK-AGENTS-SUB-DEEP\n",
                "sub/deep/x.ts": "export const x = 1; // MARK-FILE-X\n",
            },
            reads="sub/deep/x.ts\n",
        )
    )
    return names


def _walk(out: str) -> list[str]:
    """The folders a session gets instruction files from: every folder from the session folder up
    to the file system root (a git root is no limit), imports outside the session folder only when
    approved, nested folders only below the session folder and only on a file touch."""
    names = []
    name = _case(
        out,
        "cl2k_above_git_root",
        {"CLAUDE.md": "MARK-ABOVE-GIT-ROOT\n", "app/CLAUDE.md": "MARK-APP-CLAUDE\n", "app/x.txt": "x\n"},
        cwd="app\n",
    )
    app = os.path.join(out, name, "project", "app")
    subprocess.run(["git", "init", "-q", app], check=True, stdin=subprocess.DEVNULL)
    names.append(name)
    parent_imports = {
        "CLAUDE.md": "MARK-PARENT-CLAUDE\nParent import: @p_imp.md\n",
        "p_imp.md": "MARK-P-IMP\n",
        "q_imp.md": "MARK-Q-IMP\n",
        "app/CLAUDE.md": "MARK-APP-CLAUDE\nUp: @../q_imp.md\nHere: @r_imp.md\n",
        "app/r_imp.md": "MARK-R-IMP\n",
    }
    names.append(_case(out, "cl2l_parent_imports", parent_imports, cwd="app\n"))
    approved = '{"hasClaudeMdExternalIncludesApproved": true, "hasClaudeMdExternalIncludesWarningShown": true}'
    names.append(
        _case(out, "cl2m_parent_imports_approved", parent_imports, cwd="app\n", **{"claude_project.json": approved})
    )
    names.append(
        _case(
            out,
            "cl2n_nested_read_deep",
            {
                "CLAUDE.md": "MARK-ROOT-CLAUDE\n",
                "a/CLAUDE.md": "MARK-A-CLAUDE\nNested import: @a_imp.md\n",
                "a/a_imp.md": "MARK-A-IMP\n",
                "a/AGENTS.md": "MARK-A-AGENTS\n",
                "a/b/.claude/CLAUDE.md": "MARK-B-DOT-CLAUDE\n",
                "a/b/CLAUDE.local.md": "MARK-B-CLAUDE-LOCAL\n",
                "a/b/.claude/rules/always.md": "MARK-B-RULE-ALWAYS\n",
                "a/b/.claude/rules/ts.md": '---\npaths: "**/*.ts"\n---\nMARK-B-RULE-TS\n',
                "a/b/.claude/rules/py.md": '---\npaths: "**/*.py"\n---\nMARK-B-RULE-PY\n',
                "a/b/c/x.ts": "export const x = 1; // MARK-FILE-X\n",
                "a/side/CLAUDE.md": "MARK-SIDE-CLAUDE\n",
            },
            reads="a/b/c/x.ts\n",
        )
    )
    names.append(
        _case(
            out,
            "cl2o_read_outside_cwd",
            {
                "app/CLAUDE.md": "MARK-APP-CLAUDE\n",
                "other/CLAUDE.md": "MARK-OTHER-CLAUDE\n",
                "other/x.ts": "export const x = 1; // MARK-FILE-X\n",
            },
            cwd="app\n",
            reads="other/x.ts\n",
        )
    )
    return names


def _sizes(out: str) -> list[str]:
    """Where the size limits act: a 4 MiB file loads, one byte more does not; a file loaded at
    the start is sent whole however long; a nested file over the per-file limit is cut."""
    names = [_case(out, "cl2p_size_4mib_exact", {"CLAUDE.md": _sized("EXACT", MIB4)})]
    names.append(
        _case(
            out,
            "cl2q_nested_big",
            {
                "CLAUDE.md": _lines("ROOT-BIG", 2500),  # 200,000 characters, loaded at the start
                "sub/CLAUDE.md": _lines("SUB-BIG", 2500),  # 200,000 characters, loaded on a touch
                "sub/x.ts": "export const x = 1; // MARK-FILE-X\n",
            },
            reads="sub/x.ts\n",
        )
    )
    return names


def write_cases(out: str) -> list[str]:
    """Write every case under `out`; return their names."""
    os.makedirs(out, exist_ok=True)
    return [*_imports_by_token(out), *_agents_fallback(out), *_walk(out), *_sizes(out)]


if __name__ == "__main__":
    import sys

    print("\n".join(write_cases(sys.argv[1])))
