"""The base oracle cases: trees on which the real Claude Code and Codex clients are run.

`write_cases(out)` writes one folder per case under `out` and returns their names. The recorder
(record.py) and the replay test (tests/test_oracle_replay.py) find every `cases_*.py` module beside
this one and call its `write_cases`, so a new module of cases needs no other change.

A case folder holds:
  client               "claude" or "codex"
  project/             the tree; the session runs in project/<cwd> (default project/)
  cwd                  optional: the session folder, relative to project/
  git                  optional: if present, project/ is made a git repository first
  automem/             optional, Claude: copied to ~/.claude/projects/<slug>/memory/
  home/                optional: copied into the throwaway $HOME
  reads                optional, Claude: project-relative files the fake model Reads, one per turn
  claude_project.json  optional, Claude: extra keys for the project's entry in ~/.claude.json
  settings.json        optional, Claude: replaces the default ~/.claude/settings.json
  codex.toml           optional, Codex: lines appended to $CODEX_HOME/config.toml
Text under project/ may hold HOME_TOKEN; it is replaced by the session's $HOME when the case is
laid out (an absolute path into the throwaway home). Every text that may be loaded carries a
unique `MARK-…` marker, so a capture shows which files reached the model.

The helpers below (`write`, `write_tree`, `CaseWriter`, `topics`, `entry`, `filler`) are for other case modules too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HOME_TOKEN = "@@HOME@@"


def write(path: Path, text: str | bytes) -> None:
    """Write `text` exactly (UTF-8, no newline translation), creating the folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Write each `relative path: text` of `files` under `root`."""
    for rel, text in files.items():
        write(root / rel, text)


class CaseWriter:
    """Writes case folders under `out` and remembers their names (what `write_cases` returns)."""

    def __init__(self, out: Path | str) -> None:
        self.out = Path(out)
        self.names: list[str] = []

    def new(self, name: str, client: str, **flags: str) -> Path:
        """A fresh case folder `name` for `client`; each flag is a file of the case (`cwd`, `reads`,
        …); `settings_json`, `claude_project_json` and `codex_toml` name the files with a dot."""
        if name in self.names:
            raise ValueError(f"oracle case {name} is defined twice")
        case = self.out / name
        shutil.rmtree(case, ignore_errors=True)
        (case / "project").mkdir(parents=True)
        write(case / "client", client + "\n")
        for key, value in flags.items():
            write(case / key.replace("_json", ".json").replace("_toml", ".toml"), value)
        self.names.append(name)
        return case


def topics(memdir: Path, count: int) -> None:
    """`count` topic files t001.md … with frontmatter, as Claude Code's auto memory writes them."""
    for i in range(1, count + 1):
        write(
            memdir / f"t{i:03d}.md",
            f"---\nname: Topic {i:03d}\ndescription: note {i:03d}\ntype: project\n---\nBody of topic {i:03d}.\n",
        )


def entry(i: int, pad: str = "") -> str:
    """Index line number `i` of MEMORY.md, linking t<i>.md, with its marker."""
    return f"- [Topic {i:03d}](t{i:03d}.md) — note {i:03d} MARK-L{i:03d}{pad}\n"


def filler(tag: str, nbytes: int) -> str:
    """Exactly `nbytes` of text: `TAG-START`, numbered 64-byte lines, padding, `TAG-END`."""
    head, tail = f"{tag}-START\n", f"{tag}-END\n"
    lines, size, i = [head], len(head) + len(tail), 0
    while size + 64 <= nbytes:
        i += 1
        lines.append(f"{tag} line {i:05d} ".ljust(63, ".") + "\n")
        size += 64
    if nbytes - size > 0:
        lines.append("." * (nbytes - size - 1) + "\n")
    lines.append(tail)
    text = "".join(lines)
    assert len(text.encode()) == nbytes, (len(text.encode()), nbytes)
    return text


# ------------------------------------------------------------------ Claude Code: MEMORY.md
LONG_PAD = " " + "x" * 230


def _memory_cases(cases: CaseWriter) -> None:
    mem = cases.new("cl01a_mem250", "claude") / "automem"  # 250 short lines
    write(mem / "MEMORY.md", "".join(entry(i) for i in range(1, 251)))
    topics(mem, 250)
    mem = cases.new("cl01b_mem150_40kb", "claude") / "automem"  # 150 lines of ~270 chars
    write(mem / "MEMORY.md", "".join(entry(i, LONG_PAD) for i in range(1, 151)))
    topics(mem, 150)
    mem = cases.new("cl01c_mem250_40kb", "claude") / "automem"  # 250 lines, over 25 KB in 200
    write(mem / "MEMORY.md", "".join(entry(i, LONG_PAD) for i in range(1, 251)))
    topics(mem, 250)
    mem = cases.new("cl01d_mem_cjk", "claude") / "automem"  # UTF-16 units or bytes?
    cjk = "记忆条目内容说明" * 12  # 96 CJK characters, 288 UTF-8 bytes
    write(mem / "MEMORY.md", "".join(f"- [主题 {i:03d}](t{i:03d}.md) — {cjk} MARK-L{i:03d}\n" for i in range(1, 151)))
    topics(mem, 150)
    # no autoMemoryEnabled setting at all: auto memory is on by default
    write(cases.new("cl01e_automem_default_on", "claude", settings_json="{}") / "automem/MEMORY.md", entry(1))

    # frontmatter + a 60-line block HTML comment + 180 entries (one with an inline comment)
    comment = "<!--\n" + "".join(f"MARK-COMMENT line {i:02d}\n" for i in range(1, 59)) + "-->\n"
    mem = cases.new("cl02a_mem_fm_comment", "claude") / "automem"
    body = "".join(entry(i) for i in range(1, 181)).replace("MARK-L005\n", "MARK-L005 <!-- MARK-INLINE-COMMENT -->\n")
    write(mem / "MEMORY.md", "---\ntitle: MARK-FRONTMATTER index\nowner: me\n---\n" + comment + body)
    topics(mem, 180)
    mem = cases.new("cl02b_mem_comment_only", "claude") / "automem"
    head, tail = "".join(entry(i) for i in range(1, 151)), "".join(entry(i) for i in range(151, 181))
    write(mem / "MEMORY.md", head + comment + tail)
    topics(mem, 180)


# ------------------------------------------------------------------ Claude Code: CLAUDE.md
IMPORTS_CLAUDE_MD = """# Imports test
MARK-ROOT-CLAUDE
1. missing: @missing.md
2. trailing comma: see @comma.md, then more
3. trailing colon: @colon.md: details
4. code span: `@codespan.md`
5. fenced:

```
@fenced.md
```

6. html comment: <!-- @htmlc.md -->
7. depth chain: @d1.md
8. cycle: @cyc1.md
9. home: @~/homeimp.md
10. wrong folder: @sub/s.md
11. dot-slash: @./dot.md
12. fragment: @frag.md#section
"""

COMMENTS_CLAUDE_MD = """# Comments
MARK-ROOT-CLAUDE

- list item <!-- @list_comment.md -->

A paragraph <!-- @para_comment.md --> line.

<!-- @block_oneline.md -->

<!--
@block_multiline.md
-->
"""


def _import_cases(cases: CaseWriter) -> None:
    case = cases.new("cl03_imports", "claude")
    p = case / "project"
    write(p / "CLAUDE.md", IMPORTS_CLAUDE_MD)
    for name in ["comma", "colon", "codespan", "fenced", "htmlc", "dot", "frag"]:
        write(p / f"{name}.md", f"MARK-{name.upper()}\n")
    for i in range(1, 8):  # an import chain seven deep
        write(p / f"d{i}.md", f"MARK-D{i}\n@d{i + 1}.md\n" if i < 7 else f"MARK-D{i}\n")
    # a cycle; and sub/s.md imports @t.md (only at the project root), @sub/u.md (is sub/u.md), @v.md (is sub/v.md)
    write_tree(
        p,
        {
            "cyc1.md": "MARK-CYC1\n@cyc2.md\n",
            "cyc2.md": "MARK-CYC2\n@cyc1.md\n",
            "sub/s.md": "MARK-SUB-S\n@t.md\n@sub/u.md\n@v.md\n",
            "t.md": "MARK-T-AT-ROOT\n",
            "sub/u.md": "MARK-U-IN-SUB\n",
            "sub/v.md": "MARK-V-IN-SUB\n",
        },
    )
    write(case / "home/homeimp.md", "MARK-HOME-IMPORT\n")

    # where an HTML comment holds the import: a list item, a paragraph, a block of its own
    p = cases.new("cl03b_imports_comments", "claude") / "project"
    write(p / "CLAUDE.md", COMMENTS_CLAUDE_MD)
    for name in ["list_comment", "para_comment", "block_oneline", "block_multiline"]:
        write(p / f"{name}.md", f"MARK-{name.upper().replace('_', '-')}\n")

    # @~/ and absolute imports, with external includes approved in ~/.claude.json
    approved = '{"hasClaudeMdExternalIncludesApproved": true, "hasClaudeMdExternalIncludesWarningShown": true}'
    case = cases.new("cl03c_home_import_approved", "claude", claude_project_json=approved)
    write(case / "project/CLAUDE.md", f"MARK-ROOT-CLAUDE\nhome: @~/homeimp.md\nabs: @{HOME_TOKEN}/absimp.md\n")
    write(case / "home/homeimp.md", "MARK-HOME-IMPORT\n")
    write(case / "home/absimp.md", "MARK-ABS-IMPORT\n")


RULE_LINE = "Rule %05d: keep the build green and the tests fast, always, every day.\n"  # 72 characters


def _size_cases(cases: CaseWriter) -> None:
    lines, size, i = ["MARK-BIG-START\n"], len("MARK-BIG-START\n"), 0  # a 45,000-character CLAUDE.md
    while size + len(RULE_LINE % (i + 1)) + 14 <= 45000:
        i += 1
        lines.append(RULE_LINE % i)
        size += len(RULE_LINE % i)
    text = "".join(lines)
    text += "x" * (45000 - len(text) - len("MARK-BIG-END\n")) + "MARK-BIG-END\n"
    assert len(text) == 45000, len(text)
    write(cases.new("cl04_big_claude_md", "claude") / "project/CLAUDE.md", text)
    # over the 4 MiB read limit
    p = cases.new("cl04b_huge_claude_md", "claude") / "project"
    write(p / "CLAUDE.md", ("MARK-HUGE-START\n" + RULE_LINE % 0 * 60000)[: 4 * 1024 * 1024 + 1000])
    write(p / ".claude/CLAUDE.md", "MARK-DOT-CLAUDE-CLAUDE-MD\n")


RULES = {
    "always.md": "# Always\nMARK-RULE-ALWAYS\n",
    "ts.md": '---\npaths: "*.ts"\n---\nMARK-RULE-TS\n',
    "comma.md": "---\npaths: src/**/*.ts, lib/*.js\n---\nMARK-RULE-COMMA\n",
    "README.md": "# Rules README\nMARK-RULE-README\n",
}
SOURCES = {
    "a.ts": "export const a = 1; // MARK-FILE-A\n",
    "src/x/y.ts": "export const y = 2; // MARK-FILE-Y\n",
    "lib/z.js": "exports.z = 3; // MARK-FILE-Z\n",
    "lib/deep/w.js": "exports.w = 4; // MARK-FILE-W\n",
}


def _rules_cases(cases: CaseWriter) -> None:
    for name, reads in [
        ("cl05a_rules_start", ""),
        ("cl05b_rules_read_root_ts", "a.ts\n"),
        ("cl05c_rules_read_src_ts", "src/x/y.ts\n"),
        ("cl05d_rules_read_lib_js", "lib/z.js\n"),
        ("cl05e_rules_read_lib_deep_js", "lib/deep/w.js\n"),
    ]:
        p = (cases.new(name, "claude", reads=reads) if reads else cases.new(name, "claude")) / "project"
        write_tree(p / ".claude/rules", RULES)
        write_tree(p, {**SOURCES, "CLAUDE.md": "MARK-ROOT-CLAUDE\n"})


def _folder_cases(cases: CaseWriter) -> None:
    # parents and nested folders: the session in app/, the model reads app/lib/x.ts
    nested = {
        "CLAUDE.md": "MARK-PARENT-CLAUDE\n",
        "app/CLAUDE.md": "MARK-APP-CLAUDE\n",
        "app/.claude/CLAUDE.md": "MARK-APP-DOT-CLAUDE\n",
        "app/lib/CLAUDE.md": "MARK-APP-LIB-CLAUDE\n",
        "app/lib/x.ts": "export const x = 1; // MARK-FILE-X\n",
        "other/CLAUDE.md": "MARK-OTHER-CLAUDE\n",
    }
    write_tree(cases.new("cl08_nested", "claude", cwd="app\n", reads="app/lib/x.ts\n") / "project", nested)

    # AGENTS.md beside, instead of, or above CLAUDE.md
    layouts: dict[str, tuple[str, dict[str, str]]] = {
        "cl07a_claude_and_agents": ("", {"CLAUDE.md": "MARK-CLAUDE-MD\n", "AGENTS.md": "MARK-AGENTS-MD\n"}),
        "cl07b_agents_only": ("", {"AGENTS.md": "MARK-AGENTS-MD\n"}),
        "cl07c_agents_and_dot_claude_md": (
            "",
            {"AGENTS.md": "MARK-AGENTS-MD\n", ".claude/CLAUDE.md": "MARK-DOT-CLAUDE-MD\n"},
        ),
        "cl07d_dot_agents_only": ("", {".claude/AGENTS.md": "MARK-DOT-AGENTS-MD\n"}),
        "cl07e_claude_and_dot_agents": (
            "",
            {"CLAUDE.md": "MARK-CLAUDE-MD\n", ".claude/AGENTS.md": "MARK-DOT-AGENTS-MD\n"},
        ),
        "cl07f_agents_in_parent": (
            "app\n",
            {"AGENTS.md": "MARK-PARENT-AGENTS-MD\n", "app/CLAUDE.md": "MARK-APP-CLAUDE-MD\n"},
        ),
        "cl07g_agents_in_parent_only": ("app\n", {"AGENTS.md": "MARK-PARENT-AGENTS-MD\n", "app/x.txt": "x\n"}),
        "cl07h_claude_parent_agents_cwd": (
            "app\n",
            {"CLAUDE.md": "MARK-PARENT-CLAUDE-MD\n", "app/AGENTS.md": "MARK-APP-AGENTS-MD\n"},
        ),
    }
    for name, (cwd, files) in layouts.items():
        case = cases.new(name, "claude", cwd=cwd) if cwd else cases.new(name, "claude")
        write_tree(case / "project", files)


# ------------------------------------------------------------------ Codex: the AGENTS.md chain
def _codex_cases(cases: CaseWriter) -> None:
    layouts: dict[str, tuple[bool, str, dict[str, str]]] = {
        "cx06a_chain_40k": (True, "sub\n", {"AGENTS.md": filler("ROOT", 20480), "sub/AGENTS.md": filler("SUB", 20480)}),
        "cx06b_override": (True, "", {"AGENTS.md": "MARK-AGENTS-MD\n", "AGENTS.override.md": "MARK-AGENTS-OVERRIDE\n"}),
        "cx06c_empty_root": (True, "sub\n", {"AGENTS.md": "", "sub/AGENTS.md": "MARK-SUB-AGENTS\n"}),
        "cx06d_empty_override": (True, "", {"AGENTS.md": "MARK-AGENTS-MD\n", "AGENTS.override.md": ""}),
        "cx06e_nogit": (False, "sub\n", {"AGENTS.md": "MARK-PARENT-AGENTS\n", "sub/AGENTS.md": "MARK-SUB-AGENTS\n"}),
        "cx06f_root_over_budget": (
            True,
            "sub\n",
            {"AGENTS.md": filler("ROOT", 40000), "sub/AGENTS.md": "MARK-SUB-AGENTS\n"},
        ),
        "cx06g_blank_root": (True, "sub\n", {"AGENTS.md": "\n   \n\n", "sub/AGENTS.md": "MARK-SUB-AGENTS\n"}),
    }
    for name, (git, cwd, files) in layouts.items():
        flags = {"git": ""} if git else {}
        if cwd:
            flags["cwd"] = cwd
        write_tree(cases.new(name, "codex", **flags) / "project", files)


def write_cases(out: Path | str) -> list[str]:
    """Write the base cases under `out`; return their names."""
    cases = CaseWriter(out)
    for group in (_memory_cases, _import_cases, _size_cases, _rules_cases, _folder_cases, _codex_cases):
        group(cases)
    return cases.names
