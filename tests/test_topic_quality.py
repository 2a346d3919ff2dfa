"""MEM208-MEM212: duplicate and close titles, imperative descriptions, broken topic links.

Seed 001 ("什么时候更新，什么时候新建"): within one scope and one `when`, an identical title is one
memory and titles overlapping by 0.3 or more (「两字重合 ≥ 0.3」) are close, yet 「前端 API 地址」 and
「后端 API 地址」 are two memories; ("新会话为什么不会乱") a summary is a noun phrase, never an order.
Real memory dirs in tmp_path, linted through the engine.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import codes, only, run_cli, run_lint, write_tree

from mnemolint.rules.topic import _grams, _normal, close_pairs


def topic(name: str | None = None, description: str = "a note", **fields: str) -> str:
    head = "".join(f"{key}: {value}\n" for key, value in fields.items())
    named = f"name: {name}\n" if name is not None else ""
    return f"---\n{named}description: {description}\ntype: project\n{head}---\nBody.\n"


def memdir(tmp_path, topics: dict[str, str], *extra: tuple[str, str]) -> list:
    """A memory dir of `topics` (file → text) under tmp_path; returns the four rules' findings."""
    files = {f"memory/{rel}": text for rel, text in topics.items()}
    files["memory/MEMORY.md"] = "".join(f"- [{rel}]({rel})\n" for rel in topics)
    files.update(dict(extra))
    write_tree(tmp_path, files)
    return run_lint(tmp_path, select=["MEM208", "MEM209", "MEM210", "MEM212"], preview=True)


def where(found: list, code: str) -> list[tuple[str, int | None]]:
    return [(os.path.basename(d.path), d.line) for d in only(found, code)]


# --- MEM208 topic-duplicate-title ------------------------------------------------------------


@pytest.mark.parametrize(
    "second",
    ["Deploy steps", "deploy  steps", "DEPLOY STEPS", "Ｄｅｐｌｏｙ　ｓｔｅｐｓ", "'Deploy steps '"],
    ids=["same", "whitespace", "case", "full-width", "quoted-trailing-space"],
)
def test_the_same_title_is_one_memory(tmp_path, second: str) -> None:
    found = memdir(tmp_path, {"a.md": topic("Deploy steps"), "b.md": topic(second)})
    assert where(found, "MEM208") == [("b.md", 2)]
    assert "`a.md`" in only(found, "MEM208")[0].message
    assert not only(found, "MEM209"), "an identical title is MEM208's, not also MEM209's"


def test_each_later_duplicate_is_reported_once_naming_the_first(tmp_path) -> None:
    found = memdir(tmp_path, {name: topic("Ports") for name in ("a.md", "b.md", "sub/c.md")})
    assert where(found, "MEM208") == [("b.md", 2), ("c.md", 2)]
    assert all("`a.md`" in d.message for d in only(found, "MEM208"))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"when": "CI container"}, {}),  # one side has a `when`, the other none: two memories
        ({"when": "CI container"}, {"when": "laptop"}),
        ({"scope": "global"}, {}),  # absent scope is the project layer
    ],
    ids=["when-vs-none", "when-differs", "scope-differs"],
)
def test_another_condition_or_layer_is_another_memory(tmp_path, one: dict, other: dict) -> None:
    found = memdir(tmp_path, {"a.md": topic("Build time", **one), "b.md": topic("Build time", **other)})
    assert not found


def test_same_condition_spelled_alike_is_the_same_memory(tmp_path) -> None:
    found = memdir(
        tmp_path,
        {
            "a.md": topic("Build time", when="CI  container", scope="project"),
            "b.md": topic("Build time", when="ci container"),
        },
    )
    assert where(found, "MEM208") == [("b.md", 2)]


def test_untitled_and_broken_topics_are_not_compared(tmp_path) -> None:
    found = memdir(
        tmp_path,
        {"a.md": topic(None), "b.md": topic(None), "c.md": "---\nname: [unclosed\n---\n", "d.md": "no frontmatter"},
    )
    assert not found


# --- MEM209 topic-similar-title --------------------------------------------------------------


def test_the_seeds_example_is_close_at_its_own_figure(tmp_path) -> None:
    a, b = _grams(_normal("前端 API 地址"))[0], _grams(_normal("后端 API 地址"))[0]
    assert len(a & b) / len(a | b) == 0.5  # 「字面 0.5 像」
    found = memdir(tmp_path, {"back.md": topic("后端 API 地址"), "front.md": topic("前端 API 地址")})
    assert where(found, "MEM209") == [("front.md", 2)]
    assert "overlap 0.50" in only(found, "MEM209")[0].message
    assert only(found, "MEM209")[0].fix is None


@pytest.mark.parametrize(
    ("one", "other", "close"),
    [
        ("User GitHub account", "GitHub identity", False),  # one shared word only: a head noun, not a subject
        ("feedback_pixi_init", "project-pixi-init-flags", True),  # type words are not the subject
        ("Deploy steps", "Release checklist", False),
        ("Testing strategy", "Settings layout", False),  # shared letter pairs are no shared subject
        ("note-12", "note-13", False),  # a numbered series
        ("Incident 4 postmortem", "Incident 5 postmortem", False),
        ("the build", "a build", True),  # the same words, yet not the same title: MEM208 does not see it
        ("构建耗时长", "构建耗时", True),
    ],
)
def test_close_means_shared_words_or_cjk_bigrams(tmp_path, one: str, other: str, close: bool) -> None:
    found = memdir(tmp_path, {"a.md": topic(one), "b.md": topic(other)})
    assert bool(only(found, "MEM209")) is close, found


def test_the_ratio_is_an_option(tmp_path) -> None:
    memdir(tmp_path, {"a.md": topic("前端 API 地址"), "b.md": topic("后端 API 地址")})
    assert only(run_lint(tmp_path, select=["MEM209"], preview=True, similar_title_ratio=0.6), "MEM209") == []
    assert only(run_lint(tmp_path, select=["MEM209"], preview=True, similar_title_ratio=0.5), "MEM209")


def test_another_when_is_not_compared(tmp_path) -> None:
    found = memdir(tmp_path, {"a.md": topic("前端 API 地址", when="staging"), "b.md": topic("后端 API 地址")})
    assert not found


def test_the_join_finds_exactly_the_pairs_all_pairs_finds() -> None:
    import random

    rng = random.Random(7)
    vocabulary = [f"w{n}" for n in range(60)] + ["地址", "前端", "后端", "接口"]
    titles = [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 5))) for _ in range(400)]
    for ratio in (0.3, 0.5, 1.0):
        grams = [_grams(title)[0] for title in titles]
        expected = {
            (i, j)
            for i in range(len(titles))
            for j in range(i + 1, len(titles))
            if grams[i] and grams[j] and len(grams[i] & grams[j]) / len(grams[i] | grams[j]) >= ratio - 1e-9
        }
        assert {(i, j) for i, j, _ in close_pairs(grams, ratio)} == expected


def test_ten_thousand_titles_are_not_fifty_million_comparisons() -> None:
    def word(n: int) -> str:  # a word of its own for each number: `sprint8` would be `sprint` and 8
        return "".join(chr(ord("a") + int(digit)) for digit in str(n))

    titles = [f"subject{word(n)} area{word(n * 7)} notes" for n in range(10_000)]  # `notes` in every title
    start = time.perf_counter()
    pairs = list(close_pairs([_grams(title)[0] for title in titles], 0.3))
    assert time.perf_counter() - start < 2  # all 50 million pairs take minutes in Python
    assert not pairs  # one shared word of three is 0.2


# --- MEM210 description-imperative -----------------------------------------------------------


@pytest.mark.parametrize(
    "description",
    [
        "Always run the tests first",
        "never push to main",
        "You must rebase before merging",
        "You should ask first",
        "Do not touch the servers",
        "Don't add fallbacks",
        "Make sure CI is green",
        "Please, keep answers short",
        "**Never** log tokens",
        "你要先跑测试",
        "请在发布前检查文案",
        "不要直接推送到主分支",
        "务必先备份",
    ],
)
def test_an_order_is_reported(tmp_path, description: str) -> None:
    found = memdir(tmp_path, {"a.md": topic("A", description=f'"{description}"')})
    assert where(found, "MEM210") == [("a.md", 3)]


@pytest.mark.parametrize(
    "description",
    [
        "Always-on build cache",
        "Never-expire tokens policy",
        "Please-cache design notes",
        "Test policy: always run the tests first",
        "Alwaysday release train",
        "请求超时配置",
        "请假流程",
        "Pytest cache plugin off on CI",
        "",
    ],
)
def test_a_noun_phrase_is_not(tmp_path, description: str) -> None:
    found = memdir(tmp_path, {"a.md": topic("A", description=f'"{description}"')})
    assert not only(found, "MEM210")


# --- MEM212 topic-broken-link ----------------------------------------------------------------


def test_a_link_to_a_missing_topic_is_reported_with_its_line(tmp_path) -> None:
    text = topic("A") + "See [b](b.md), [gone](gone.md#part)\nand [also](gone%20too.md).\n"
    found = memdir(tmp_path, {"a.md": text, "b.md": topic("B")})
    assert where(found, "MEM212") == [("a.md", 7), ("a.md", 8)]
    assert "`gone.md#part`" in only(found, "MEM212")[0].message


def test_links_resolve_from_the_topics_own_folder(tmp_path) -> None:
    found = memdir(
        tmp_path,
        {
            "a.md": topic("A"),
            "sub/b.md": topic("B") + "[up](../a.md) [side](c.md) [gone](../zzz.md) [self](./b.md)\n",
            "sub/c.md": topic("C") + "[top](sub/b.md)\n",  # no `sub/sub/`: a path from the top, not judged
        },
    )
    assert [(d.path.rsplit("memory/", 1)[1], d.message.split("`")[1]) for d in only(found, "MEM212")] == [
        ("sub/b.md", "../zzz.md"),
    ]


def test_what_is_not_a_memory_path_is_not_judged(tmp_path) -> None:
    text = topic("A") + (
        "[web](https://example.com) [mail](mailto:a@b.c) [anchor](#part) [abs](/etc/hosts) [empty]()\n"
        "[project](docs/guide.md) [out](../src/missing.py) [there](../README.md)\n"
        "`[code](gone.md)`\n\n```\n[fence](gone.md)\n```\n<!-- [comment](gone.md) -->\n"
    )
    found = memdir(tmp_path, {"a.md": text}, ("README.md", "readme\n"))
    assert not found


def test_reference_links_are_links(tmp_path) -> None:
    found = memdir(tmp_path, {"a.md": topic("A") + "See [the notes][n].\n\n[n]: notes.md\n"})
    assert where(found, "MEM212") == [("a.md", 7)]


@pytest.mark.parametrize(
    ("fields", "broken"),
    [
        ({"relates_to": "b.md"}, []),
        ({"relates_to": "[b.md, gone.md]"}, ["gone.md"]),
        ({"supersedes": "B title"}, []),  # a topic's title
        ({"supersedes": "b"}, []),  # a file stem
        ({"superseded_by": "[nobody]"}, ["nobody"]),
        ({"relates_to": "[]", "supersedes": "''"}, []),
        ({"relates_to": "{a: b}"}, []),  # not a string or a list of strings: nothing to follow
        ({"relates_to": "docs/adr-1.md"}, []),  # a project path
    ],
)
def test_relation_entries_name_a_topic(tmp_path, fields: dict, broken: list[str]) -> None:
    found = memdir(tmp_path, {"a.md": topic("A", **fields), "b.md": topic("B title")})
    assert [d.message.split("`")[3] for d in only(found, "MEM212")] == broken
    assert all(d.line == 5 for d in only(found, "MEM212"))


def test_a_topic_without_links_never_loads_the_markdown_layer(tmp_path) -> None:
    write_tree(tmp_path, {"memory/MEMORY.md": "- [A](a.md)\n", "memory/a.md": topic("A") + "Plain text.\n"})
    result = run_cli("check", "--exit-zero", cwd=tmp_path, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert "markdown_it" not in result.stderr


def test_a_pre_commit_run_on_one_topic_reports_that_topic_only(tmp_path) -> None:
    memdir(tmp_path, {"a.md": topic("Ports") + "[x](gone.md)\n", "b.md": topic("Ports") + "[y](gone.md)\n"})
    found = run_lint(tmp_path, paths=[tmp_path / "memory" / "b.md"], select=["MEM208", "MEM212"])
    assert sorted(set(codes(found))) == ["MEM208", "MEM212"]
    assert {os.path.basename(d.path) for d in found} == {"b.md"}


def test_a_target_is_shown_as_written_not_percent_encoded(tmp_path) -> None:
    found = memdir(tmp_path, {"a.md": topic("A") + "[x](前端.md) [y](<a b.md>)\n"})
    assert [d.message.split("`")[1] for d in only(found, "MEM212")] == ["前端.md", "a b.md"]


def test_a_dir_of_two_thousand_numbered_titles_is_no_pair_and_takes_no_time(tmp_path: Path) -> None:
    """`Topic 0` … `Topic 1999` share every word: a series, and not two million comparisons."""
    start = time.perf_counter()
    found = memdir(tmp_path, {f"t{n}.md": topic(f"Topic {n}") for n in range(2000)})
    assert [f for f in found if f.code == "MEM209"] == [] and time.perf_counter() - start < 10


def test_titles_with_other_numbers_are_a_series_even_with_other_words(tmp_path: Path) -> None:
    found = memdir(tmp_path / "a", {"a.md": topic("Incident 12"), "b.md": topic("Incident 13 notes")})
    assert [f.code for f in found] == []
    found = memdir(tmp_path / "b", {"a.md": topic("Incident 12"), "b.md": topic("Incident 12 notes")})
    assert [f.code for f in found] == ["MEM209"]


def test_one_shared_head_word_is_not_a_close_pair(tmp_path: Path) -> None:
    found = memdir(tmp_path / "a", {"a.md": topic("macro_system"), "b.md": topic("compendium_system")})
    assert [f.code for f in found] == []
    found = memdir(tmp_path / "b", {"a.md": topic("data_inventory"), "b.md": topic("Detailed Data Inventory")})
    assert [f.code for f in found] == ["MEM209"]


@pytest.mark.parametrize("entry", ['"[[b]]"', '"[B](b.md)"', '"b.md#intro"', '"[[b|the b note]]"'])
def test_mem212_reads_a_relation_entry_as_people_write_it(tmp_path: Path, entry: str) -> None:
    found = memdir(tmp_path, {"a.md": topic("a", relates_to=entry), "b.md": topic("b")})
    assert [f.code for f in found if f.code == "MEM212"] == []


@pytest.mark.parametrize(
    ("description", "fires"),
    [("请款流程说明", False), ("请示流程", False), ("请愿书模板", False), ("Don’t push to main", True)],
)
def test_mem210_nouns_with_qing_and_curly_apostrophes(tmp_path: Path, description: str, fires: bool) -> None:
    found = memdir(tmp_path, {"a.md": topic("a", description)})
    assert bool([f for f in found if f.code == "MEM210"]) is fires


def test_mem212_counts_lines_through_a_code_span_that_wraps(tmp_path: Path) -> None:
    body = "Intro.\n\nsee `code\nspan` then\n[l1](n1.md)\n"
    found = memdir(tmp_path, {"a.md": topic("a") + body})
    [broken] = [f for f in found if f.code == "MEM212"]
    lines = (tmp_path / "memory/a.md").read_text(encoding="utf-8").splitlines()
    assert lines[broken.line - 1] == "[l1](n1.md)"


SERIES_DIRS = {
    # A product name in four titles of one dir (a real memory dir's shape): what each is about differs.
    "product": [
        "AI Bible Gospels contact email",
        "AI Bible Gospels Telegram channel",
        "Daniel voice ID for AI Bible Gospels",
        "AI Bible Gospels positioning — faith-tech tools brand",
    ],
    # A project name and a sprint number, written onto the word or apart.
    "sprint": ["mnemolint sprint8 design", "mnemolint sprint8 closed", "mnemolint-sprint-7 retro", "mnemolint ports"],
    # One series word per finding pair: `operational-resonance instance` in every member.
    "instances": [
        "Melchizedek — operational-resonance instance",
        "εἰμί (eimi) — operational-resonance instance",
        "Logos — operational-resonance instance",
    ],
}


@pytest.mark.parametrize("titles", list(SERIES_DIRS.values()), ids=list(SERIES_DIRS))
def test_titles_sharing_only_a_name_common_to_the_dir_are_a_series(tmp_path: Path, titles: list[str]) -> None:
    found = memdir(tmp_path, {f"t{n}.md": topic(title) for n, title in enumerate(titles)})
    assert only(found, "MEM209") == []


def test_a_series_pair_close_in_what_sets_it_apart_is_still_close(tmp_path: Path) -> None:
    titles = ["Acme deploy checklist", "Acme deploy checklist for staging", "Acme billing notes", "Acme roadmap"]
    found = memdir(tmp_path, {f"t{n}.md": topic(title) for n, title in enumerate(titles)})
    assert where(found, "MEM209") == [("t1.md", 2)]
    assert "`Acme deploy checklist`" in only(found, "MEM209")[0].message


def test_two_titles_sharing_a_name_are_compared_in_full(tmp_path: Path) -> None:
    """Only a name at least three titles hold is a series: the pair itself is no series."""
    found = memdir(tmp_path, {"a.md": topic("Acme deploy steps"), "b.md": topic("Acme deploy notes")})
    assert where(found, "MEM209") == [("b.md", 2)]


def test_a_number_written_onto_a_word_tells_series_members_apart(tmp_path: Path) -> None:
    found = memdir(tmp_path, {"a.md": topic("sprint8 design review"), "b.md": topic("sprint9 design review")})
    assert only(found, "MEM209") == []
