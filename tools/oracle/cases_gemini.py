"""Oracle cases for Gemini CLI: which `GEMINI.md` files (or the names `context.fileName` sets) a
session sends, from which folders and in which order, what its `@import` processor makes of each
import, what `.geminiignore` changes, and the private project memory. Case names start `gm`.

Gemini-only files of a case (cases_base.py documents the rest): `gemini_settings.json`, keys merged
into the throwaway `~/.gemini/settings.json` (tools/oracle/gemini.py); the global files live under
`home/.gemini/`; `reads` are the files the fake model reads with `read_file`, one per turn.
"""

from __future__ import annotations

from pathlib import Path

from cases_base import CaseWriter, write_tree

CLIENT = "gemini-cli"


def _case(
    cases: CaseWriter, name: str, project: dict[str, str], home: dict[str, str] | None = None, **flags: str
) -> None:
    case = cases.new(name, CLIENT, **flags)
    write_tree(case / "project", project)
    write_tree(case / "home", home or {})


def _loading(cases: CaseWriter) -> None:
    _case(
        cases,
        "gm01_global_and_project",
        {
            "GEMINI.md": "# Project\nMARK-PROJECT\n",
            "AGENTS.md": "MARK-AGENTS not a name it loads unless told\n",
            "src/GEMINI.md": "MARK-SRC not loaded at start\n",
        },
        {".gemini/GEMINI.md": "# Mine\nMARK-GLOBAL\n"},
        git="",
    )
    _case(  # the walk from the session folder up to the git root, sent sorted by path
        cases,
        "gm02_walk_sorted",
        {
            "GEMINI.md": "MARK-ROOT\n",
            "A/GEMINI.md": "MARK-A\n",
            "A/b/GEMINI.md": "MARK-A-B\n",
            "Z/GEMINI.md": "MARK-Z beside the walk\n",
        },
        git="",
        cwd="A/b",
    )
    _case(  # no git: the session folder only, and imports stay below the importing file
        cases,
        "gm03_no_git",
        {
            "GEMINI.md": "MARK-ABOVE\n",
            "A/GEMINI.md": "MARK-A\n@../up.md\n@x.md\n",
            "up.md": "MARK-UP\n",
            "A/x.md": "MARK-X\n",
        },
        cwd="A",
    )
    _case(
        cases,
        "gm04_big_file",
        {
            "GEMINI.md": "MARK-BIG-START\n"
            + "keep the build green and the tests fast, always.\n" * 6000
            + "MARK-BIG-END\n"
        },
        git="",
    )
    _case(  # empty and blank files are left out, the others are sent trimmed
        cases,
        "gm05_blank_and_trimmed",
        {"GEMINI.md": "\n\n   MARK-TRIMMED   \n\n\n", "A/GEMINI.md": " \n\t\n"},
        {".gemini/GEMINI.md": ""},
        git="",
        cwd="A",
    )


def _imports(cases: CaseWriter) -> None:
    chain = {f"d/d{i}.md": f"MARK-D{i}\n@d{i + 1}.md\n" for i in range(1, 8)}
    _case(
        cases,
        "gm10_imports",
        {
            "GEMINI.md": (
                "MARK-ROOT\n@d/d1.md\n@a.md\n@self.md\n@missing.md\n"
                "see @notes for more, and mail me@example.com\n"
                "`@inline.md` in a code span\n```\n@fenced.md\n```\n"
                "@../outside.md\n@d/d1.md.\n@c1.md\n@c2.md\n@d\n"
            ),
            **chain,
            "a.md": "MARK-A\n@b.md\n",
            "b.md": "MARK-B\n@a.md\n",
            "self.md": "MARK-SELF\n@self.md\n",
            "notes": "MARK-NOTES\n",
            "inline.md": "MARK-INLINE\n",
            "fenced.md": "MARK-FENCED\n",
            "c1.md": "MARK-C1\n@shared.md\n",
            "c2.md": "MARK-C2\n@shared.md\n",
            "shared.md": "MARK-SHARED\n",
            "d/readme.txt": "a folder\n",
        },
        git="",
    )
    _case(cases, "gm12_root_imports_itself", {"GEMINI.md": "MARK-ROOT\n@GEMINI.md\n"}, git="")
    _case(
        cases,
        "gm11_global_imports",
        {"GEMINI.md": "MARK-PROJECT\n"},
        {
            ".gemini/GEMINI.md": "MARK-GLOBAL\n@style.md\n@../outside.md\n",
            ".gemini/style.md": "MARK-STYLE\n",
            "outside.md": "MARK-HOME-OUTSIDE\n",
        },
        git="",
    )


def _settings(cases: CaseWriter) -> None:
    files = {"AGENTS.md": "MARK-AGENTS\n", "ZED.md": "MARK-ZED\n", "GEMINI.md": "MARK-GEMINI\n"}
    _case(  # a list in the project's settings: every name, GEMINI.md still among them
        cases,
        "gm20_filename_list",
        {**files, ".gemini/settings.json": '{"context": {"fileName": ["ZED.md", "AGENTS.md", "NOPE.md"]}}\n'},
        {
            ".gemini/ZED.md": "MARK-G-ZED\n",
            ".gemini/AGENTS.md": "MARK-G-AGENTS\n",
            ".gemini/GEMINI.md": "MARK-G-GEMINI\n",
        },
        git="",
    )
    _case(  # one name in the user's settings
        cases,
        "gm21_filename_user_setting",
        {"AGENTS.md": "MARK-AGENTS\n", "sub/AGENTS.md": "MARK-SUB-AGENTS\n", "sub/GEMINI.md": "MARK-SUB-GEMINI\n"},
        git="",
        cwd="sub",
        gemini_settings_json='{"context": {"fileName": "AGENTS.md"}}\n',
    )

    _case(  # the settings of the session folder count, not those of the git root above it
        cases,
        "gm22_settings_of_session_folder",
        {
            ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}\n',
            "AGENTS.md": "MARK-AGENTS\n",
            "sub/AGENTS.md": "MARK-SUB-AGENTS\n",
            "sub/GEMINI.md": "MARK-SUB-GEMINI\n",
        },
        git="",
        cwd="sub",
    )
    _case(  # the project's setting over the user's
        cases,
        "gm23_project_setting_wins",
        {**files, ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md"]}}\n'},
        git="",
        gemini_settings_json='{"context": {"fileName": ["ZED.md"]}}\n',
    )
    case = cases.new("gm24_same_file_twice", CLIENT, git="")  # GEMINI.md a link to AGENTS.md: sent once
    write_tree(
        case / "project",
        {"AGENTS.md": "MARK-AGENTS\n", ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}\n'},
    )
    (case / "project" / "GEMINI.md").symlink_to("AGENTS.md")


def _touch(cases: CaseWriter) -> None:
    _case(  # a read below the session folder sends the files between it and the read file
        cases,
        "gm30_read_loads_nested",
        {
            "GEMINI.md": "MARK-ROOT\n",
            "sub/GEMINI.md": "MARK-SUB\n@sub-imp.md\n",
            "sub/sub-imp.md": "MARK-SUB-IMP\n",
            "sub/deep/GEMINI.md": "MARK-DEEP\n",
            "sub/deep/code.txt": "MARK-CODE\n",
            "other/GEMINI.md": "MARK-OTHER\n",
        },
        git="",
        reads="sub/deep/code.txt\n",
    )
    _case(  # .geminiignore hides files from the tools, not GEMINI.md from the loader
        cases,
        "gm31_geminiignore",
        {
            ".geminiignore": "GEMINI.md\nsub/\n",
            "GEMINI.md": "MARK-ROOT\n@ignored.md\n",
            "ignored.md": "MARK-IGNORED-IMPORT\n",
            ".gitignore": "ignored.md\n",
            "sub/GEMINI.md": "MARK-SUB\n",
            "sub/code.txt": "MARK-CODE\n",
        },
        git="",
        reads="sub/code.txt\n",
    )


def _memory(cases: CaseWriter) -> None:
    _case(  # the private project memory: MEMORY.md in the project's folder under ~/.gemini/tmp/
        cases,
        "gm40_private_memory",
        {"GEMINI.md": "MARK-PROJECT\n"},
        {
            ".gemini/GEMINI.md": "MARK-GLOBAL\n",
            ".gemini/tmp/project/memory/MEMORY.md": "# Memory\n- [Setup](setup.md) MARK-PRIVATE-INDEX\n",
            ".gemini/tmp/project/memory/setup.md": "MARK-PRIVATE-TOPIC\n",
            ".gemini/tmp/project/memory/GEMINI.md": "MARK-PRIVATE-LEGACY\n",
        },
        git="",
    )
    _case(  # no MEMORY.md there: the legacy GEMINI.md of that folder
        cases,
        "gm41_private_memory_legacy",
        {"GEMINI.md": "MARK-PROJECT\n"},
        {".gemini/tmp/project/memory/GEMINI.md": "MARK-PRIVATE-LEGACY\n"},
        git="",
    )


def write_cases(out: Path | str) -> list[str]:
    """Write every Gemini CLI case under `out`; return their names."""
    cases = CaseWriter(out)
    for group in (_loading, _imports, _settings, _touch, _memory):
        group(cases)
    return cases.names
