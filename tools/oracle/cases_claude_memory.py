"""Oracle cases for Claude Code's memory: the MEMORY.md warning, frontmatter reading, where auto
memory lives and what turns it off.

`write_cases(out)` writes one folder per case in the shared harness's layout (`project/`,
`client`, `automem/`, `home/`, `cwd`, `git`, `reads`, `claude_project.json`, `settings.json`) and
returns their names. Every loadable text carries a unique MARK-… marker. Stdlib only.

Cases whose topics are chosen by the model (`cl31*`) turn on Claude Code's relevant-memory
selection through the feature-flag override in `settings.json`'s `env`: the selection request
shows each topic's description as the client read it.
"""

from __future__ import annotations

import json
import os
import shutil

# Turns on the request that shows the model each topic's description (the memory selector).
RECALL_ON = {"CLAUDE_INTERNAL_FC_OVERRIDES": json.dumps({"tengu_moth_copse": True})}


def _write(path: str, text: str | bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(text, bytes):
        with open(path, "wb") as handle:
            handle.write(text)
    else:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


def _case(out: str, name: str, made: list[str], **files: str) -> str:
    folder = os.path.join(out, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "project"))
    _write(os.path.join(folder, "client"), "claude\n")
    for key, text in files.items():
        _write(os.path.join(folder, key.replace("_json", ".json")), text)
    made.append(name)
    return folder


def _entry(number: int, tail: str = "") -> str:
    return f"- [Topic {number:03d}](t{number:03d}.md) — note {number:03d} MARK-L{number:03d}{tail}\n"


def _topics(memdir: str, count: int) -> None:
    for number in range(1, count + 1):
        _write(
            f"{memdir}/t{number:03d}.md",
            f"---\nname: Topic {number:03d}\ndescription: note {number:03d}\ntype: project\n---\nBody {number:03d}.\n",
        )


def _index_cases(out: str, made: list[str]) -> None:
    """The warning: which line it quotes and how it shortens it, and a cut inside a line."""
    words = " and then some more words to pass the eighty character quote limit MARK-WORDS-TAIL"
    lines = [_entry(n, words if n == 201 else "") for n in range(1, 251)]
    folder = _case(out, "cl30a_mem_quote_words", made)
    _write(f"{folder}/automem/MEMORY.md", "".join(lines))
    _topics(f"{folder}/automem", 250)

    folder = _case(out, "cl30b_mem_quote_blank", made)
    _write(
        f"{folder}/automem/MEMORY.md",
        "".join(_entry(n) for n in range(1, 201)) + "\n" + "".join(_entry(n) for n in range(201, 221)),
    )
    _topics(f"{folder}/automem", 220)

    folder = _case(out, "cl30c_mem_one_line", made)
    _write(f"{folder}/automem/MEMORY.md", "- MARK-ONELINE " + "y" * 30_000 + " MARK-ONELINE-END\n")

    folder = _case(out, "cl30d_mem_quote_nospace", made)
    lines = [_entry(n) for n in range(1, 251)]
    lines[200] = "- MARK-NOSPACE-" + "z" * 150 + "\n"
    _write(f"{folder}/automem/MEMORY.md", "".join(lines))

    folder = _case(out, "cl30e_mem_second_line_long", made)
    _write(f"{folder}/automem/MEMORY.md", "- MARK-FIRST short\n- MARK-SECOND " + "w " * 15_000 + "\n- MARK-THIRD\n")

    folder = _case(out, "cl30f_mem_quote_emoji", made)
    lines = [_entry(n) for n in range(1, 251)]
    lines[200] = "- MARK-EMOJI " + "e" * 64 + "\U0001f600" * 8 + "\n"
    _write(f"{folder}/automem/MEMORY.md", "".join(lines))


# (file name, frontmatter text) of topics whose frontmatter plain YAML refuses, each with its own marker.
_TOPICS = {
    "d01.md": "name: D01\ndescription: Build: use pnpm MARK-D01\ntype: project\n",
    "d02.md": "name: D02\ndescription: Use `pnpm` MARK-D02\ntype: user\n",
    "d03.md": "name: D03\ndescription: *star MARK-D03*\ntype: reference\n",
    "d04.md": "name: D04\ndescription: a: b MARK-D04\ntype: feedback # a note\n",
    "d05.md": "name: D05\ndescription: first MARK-D05A\ndescription: second MARK-D05B\ntype: project\n",
    "d06.md": 'name: D06\ndescription: "unclosed MARK-D06\ntype: project\n',
    "d07.md": "name: D07\ndescription: fine MARK-D07\ntype: project\ntags:\n  - **/x\n",
    "d08.md": "\tdescription: tabbed MARK-D08\n",
    "d09.md": "name: D09\r\ndescription: Build: crlf MARK-D09\r\ntype: project\r\n",
    "d10.md": "name: D10\ndescription: MARK-D10 a---b\ntype: project\n",
    "d11.md": "name: D11\ndescription: Build: spaces MARK-D11   \ntype: project\n",
    "d12.md": "name: D12\nx.y: a: b\ndescription: dotted key MARK-D12\ntype: project\n",
    "d13.md": "name: D13\ndescription: plain MARK-D13\ntype: project\n",
}


def _frontmatter_cases(out: str, made: list[str]) -> None:
    settings = json.dumps({"autoMemoryEnabled": True, "env": RECALL_ON})
    folder = _case(out, "cl31a_topic_fm_retry", made, settings_json=settings)
    memdir = f"{folder}/automem"
    index = []
    for name, front in _TOPICS.items():
        eol = "\r\n" if "\r\n" in front else "\n"
        _write(f"{memdir}/{name}", f"---{eol}{front}---{eol}Body of {name}.{eol}")
        index.append(f"- [{name}]({name}) — index line MARK-I{name[1:3]}\n")
    _write(f"{memdir}/MEMORY.md", "".join(index))

    folder = _case(out, "cl31c_topic_fm_past_30_lines", made, settings_json=settings)
    memdir = f"{folder}/automem"
    filler = "".join(f"k{n:02d}: v{n:02d}\n" for n in range(1, 31))
    _write(f"{memdir}/late.md", f"---\n{filler}description: late MARK-LATE\n---\nBody.\n")
    _write(f"{memdir}/early.md", "---\ndescription: early MARK-EARLY\n---\nBody.\n")
    _write(f"{memdir}/MEMORY.md", "- [late](late.md) — MARK-ILATE\n- [early](early.md) — MARK-IEARLY\n")

    # A rule's `paths`: a top-level value is quoted on the second try (conditional), an indented
    # list item is not (the rule then has no `paths` and loads at start), a CRLF file neither.
    folder = _case(out, "cl32a_rule_paths_retry", made, reads="src/x.ts\n")
    rules = f"{folder}/project/.claude/rules"
    _write(f"{rules}/item.md", "---\npaths:\n  - **/*.ts\n---\nMARK-RULE-ITEM\n")
    _write(f"{rules}/top.md", "---\npaths: **/*.ts\n---\nMARK-RULE-TOP\n")
    _write(f"{rules}/crlf.md", "---\r\npaths: **/*.ts\r\n---\r\nMARK-RULE-CRLF\r\n")
    _write(f"{rules}/plain.md", '---\npaths: "**/*.md"\n---\nMARK-RULE-PLAIN\n')
    # Of a key given twice the last one counts: this rule loads when the `.ts` file is read.
    _write(f"{rules}/twice.md", '---\npaths: "**/*.md"\npaths: "**/*.ts"\n---\nMARK-RULE-TWICE\n')
    _write(f"{folder}/project/src/x.ts", "export const x = 1; // MARK-SRC\n")
    _write(f"{folder}/project/CLAUDE.md", "MARK-PROJECT\n")

    # MEMORY.md's frontmatter ends at the first `---`, even one inside a value.
    folder = _case(out, "cl32c_mem_fm_dashes", made)
    _write(
        f"{folder}/automem/MEMORY.md",
        "---\ntitle: a---b MARK-FMDASH\n---\n" + "".join(_entry(n) for n in range(1, 4)),
    )


def _location_cases(out: str, made: list[str]) -> None:
    """Where auto memory lives, and what turns it off."""
    folder = _case(out, "cl33a_slug_git_root", made, git="", cwd="sub_dir/x.y\n")
    _write(f"{folder}/project/sub_dir/x.y/notes.txt", "MARK-NOTES\n")
    _write(f"{folder}/automem/MEMORY.md", "- [A](a.md) — MARK-SLUG-GIT\n")

    deep = "/".join(["deep_folder_with_a_long_name_" + str(n) for n in range(8)])
    folder = _case(out, "cl33b_slug_over_200", made, cwd=deep + "\n")
    _write(f"{folder}/project/{deep}/notes.txt", "MARK-DEEP\n")
    _write(f"{folder}/automem/MEMORY.md", "- [A](a.md) — MARK-SLUG-LONG\n")

    off = {
        "cl34a_env_disables_auto_memory": {"autoMemoryEnabled": True, "env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}},
        "cl34b_setting_disables_auto_memory": {"autoMemoryEnabled": False},
        "cl34c_env_false_forces_on": {"autoMemoryEnabled": False, "env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}},
    }
    for name, settings in off.items():
        folder = _case(out, name, made, settings_json=json.dumps(settings))
        _write(f"{folder}/automem/MEMORY.md", f"- [A](a.md) — MARK-{name[:5].upper()}\n")
    folder = _case(out, "cl34d_project_setting_off", made)
    _write(f"{folder}/project/.claude/settings.json", json.dumps({"autoMemoryEnabled": False}))
    _write(f"{folder}/automem/MEMORY.md", "- [A](a.md) — MARK-CL34D\n")


def write_cases(out: str) -> list[str]:
    """Write every case under `out`; their names, in order."""
    made: list[str] = []
    _index_cases(out, made)
    _frontmatter_cases(out, made)
    _location_cases(out, made)
    return made


if __name__ == "__main__":
    import sys

    print("\n".join(write_cases(sys.argv[1] if len(sys.argv) > 1 else "cases")))
