"""AIM0xx: the `.ai-memory/` project memory of the `.ai-memory` skill — templates, logs, dated folders, place.

The `.ai-memory` skill gives six templates whose mandatory parts are "缺一不可" (none may be missing), their
enumerations, the size thresholds of `daily.md` and `project_memory.md`, the 30-day distillation
of dated folders, the session-id convention that ties `daily.md` to its session files, and the
failure table whose fallbacks ("信息可能不全", "待补充", "示例待补充") are accepted states, not gaps.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from mnemolint import clock
from mnemolint.kinds import ai_memory
from mnemolint.kinds.ai_memory import (
    AI_MEMORY_DIR,
    DAILY,
    HANDOFF,
    PROJECT_MEMORY,
    SESSION,
    TEMPLATED,
    TOPICS,
    AiMemoryDir,
    folder_date,
    project_dirs,
)
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.options import INT, NOW, Option
from mnemolint.parse import template
from mnemolint.parse.document import Document
from mnemolint.parse.textutil import plural, quote
from mnemolint.paths import inside
from mnemolint.patterns import Lazy
from mnemolint.rules.base import ON_CONTAINER, TREE, Family, rule

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import datetime

    from mnemolint.discover.tree import Tree
    from mnemolint.kinds.base import Kind

DAILY_MAX_CHARS = Option(
    "daily-log-max-chars", INT, 8000, "characters of a `daily.md` past which the agent reads only its last 120 lines"
)
DAILY_HARD_MAX_CHARS = Option(
    "daily-log-hard-max-chars", INT, 12000, "characters of a `daily.md` past which it must be condensed"
)
PROJECT_MEMORY_MAX_CHARS = Option(
    "project-memory-max-chars",
    INT,
    8000,
    "characters of `project_memory.md` past which only its headers and Decision Records load",
)
MAX_AGE_DAYS = Option(
    "ai-memory-max-age-days", INT, 30, "days after which a dated `.ai-memory` folder must be distilled and removed"
)

# The failure table's marks (003 失败回退机制): "示例待补充" holds "待补充".
FALLBACK_MARKS = ("信息可能不全", "待补充")
FILL_IN_LATER = "待补充"  # the marks that ask for a later fill-in ("待补充", "示例待补充"), unlike "信息可能不全"
FINISHED_HANDOFF = "无未完成交接项"  # 003 handoff sync rules: the state once the task is done


class Template:
    """One of the `.ai-memory` skill's templates: the heading that starts an instance, its mandatory parts
    (`**field**` or `### section`), the parts its failure-table fallback keeps (None: it has
    none, so every part stays mandatory), and the values its fields may take."""

    __slots__ = ("title", "parts", "keeps", "values", "table")

    def __init__(
        self,
        title: str,
        *,
        parts: tuple[str, ...],
        keeps: tuple[str, ...] | None,
        values: dict[str, tuple[str, ...] | str],
        table: tuple[str, str, tuple[str, ...]] | None = None,
    ) -> None:
        self.title = title
        self.parts = parts
        self.keeps = keeps
        self.values = values
        self.table = table  # (section, column, values) of a table whose column is an enumeration


DATE, DATETIME, PERCENT = "YYYY-MM-DD", "YYYY-MM-DD HH:mm", "a percentage"
TEMPLATES = (
    Template(
        "Session Summary",
        parts=(
            "**日期**",
            "**会话目标**",
            "### 已完成",
            "### 关键决策",
            "**决策**",
            "**上下文**",
            "**影响**",
            "### 遗留问题 / Blockers",
            "### 下一步计划",
            "### 规范更新",
        ),
        keeps=(),  # "基于已有信息生成骨架": a skeleton of what is known
        values={"**日期**": DATE},
    ),
    Template(
        "Decision Record",
        parts=(
            "**日期**",
            "**问题**",
            "### 选项分析",
            "### 决策",
            "**选择**",
            "**理由**",
            "**Trade-offs**",
            "### 影响范围",
            "### 撤销条件",
        ),
        keeps=("### 选项分析",),  # "记录已知选项"
        values={"**日期**": DATE},
        table=("### 选项分析", "复杂度", ("低", "中", "高")),
    ),
    Template(
        "Project Convention",
        parts=("**类型**", "**适用范围**", "### 规范内容", "### 示例", "**正确**", "**错误**", "### 发现来源"),
        keeps=("### 规范内容",),  # "仅记录规范内容"
        values={"**类型**": ("编码规范", "命名规范", "架构约束", "工具配置")},
    ),
    Template(
        "Glossary Entry",
        parts=("**规范名称**", "**别名/变体**", "**定义**", "**适用范围**", "**禁止使用**", "**来源**"),
        keeps=None,
        values={"**来源**": ("需求文档", "用户口头约定", "行业标准")},
    ),
    Template(
        "Known Issue",
        parts=(
            "**发现日期**",
            "**问题类型**",
            "**严重度**",
            "### 现象",
            "### 根因",
            "### 规避方案",
            "### 相关文件",
            "### 状态",
        ),
        keeps=None,
        values={
            "**发现日期**": DATE,
            "**问题类型**": ("Bug模式", "兼容性陷阱", "依赖风险", "性能反模式", "安全漏洞"),
            "**严重度**": ("致命", "严重", "一般", "提示"),
            "### 状态": ("未修复", "已修复", "已规避", "待验证"),
        },
    ),
    Template(
        "Handoff Checkpoint",
        parts=(
            "**更新时间**",
            "**当前目标**",
            "**当前阶段**",
            "**完成度**",
            "### 已完成",
            "### 未完成",
            "### 关键决策",
            "### 恢复入口",
            "**首读文件**",
            "**关键命令**",
            "**验证路径**",
            "### 阻塞项",
        ),
        keeps=("**当前目标**", "### 未完成", "**首读文件**", "### 阻塞项"),  # 003 failure table, step 4
        values={
            "**更新时间**": DATETIME,
            "**当前阶段**": ("需求", "设计", "实现", "验证", "交付"),
            "**完成度**": PERCENT,
        },
    ),
)
# topics.md: the 5-field summary of Layer 1 (003 step 5), `name: value` lines.
TOPIC_FIELDS = ("项目", "当前阶段", "活跃任务", "上次会话", "交接状态")
TOPIC_VALUES: dict[str, tuple[str, ...] | str] = {"交接状态": ("无", "存在 handoff.md 未完成项")}

# Every bracketed placeholder of the seed's templates (spaces dropped), and the bare date formats.
PLACEHOLDERS = frozenset(
    re.sub(r"\s+", "", text)
    for text in """YYYY-MM-DD|YYYY-MM-DD HH:mm|本次会话原计划完成什么|任务1|任务2|简要说明|相关文件|决策内容|
    为什么做这个决策|影响哪些后续工作|问题1|描述|下一步行动|下一步任务|新发现的项目规范|决策名称|需要解决什么问题|
    选项A|选项B|最终选项|为什么选这个|接受了什么代价|影响的模块/文件|需要同步更新的文档|什么情况下可以重新考虑这个决策|
    规范名称|编码规范/命名规范/架构约束/工具配置|哪些模块/文件适用|具体规则|代码示例|哪次会话/哪个任务中发现|术语名称|
    唯一推荐名称|同义但不推荐的名称列表|一句话定义|哪些模块/文件使用此术语|明确不应使用的名称|需求文档/用户口头约定/行业标准|
    问题名称|Bug模式/兼容性陷阱/依赖风险/性能反模式/安全漏洞|致命/严重/一般/提示|具体表现，含错误信息或日志片段|
    根本原因分析|具体的代码层面规避措施|文件路径:行号|未修复/已修复/已规避/待验证|用户原始需求的核心交付物|
    需求/设计/实现/验证/交付|按已验证主线数计算的百分比|已完成项|验证证据|未完成项|下一步动作|决策|
    理由/影响范围/撤销条件|恢复时优先读取的文件|lint/test/build/启动命令|继续前必须跑的验证|阻塞原因|角色|具体输入|
    名称|阶段|任务名|日期|无/存在handoff.md未完成项""".split("|")
)
_BRACKETED = Lazy(r"\[([^\[\]\n]{1,60})\](?!\()")  # `[text](url)` is a link, not a placeholder
_BARE_PLACEHOLDERS = ("YYYY-MM-DD HH:mm", "YYYY-MM-DD", "低/中/高", "...")  # a whole value or table cell
_SEPARATORS = " \t（(—–-,，;；:：。.、/"


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold().rstrip(":：")


def _aliases(part: str) -> set[str]:
    """The names a part may be written as: itself, and each side of a ` / ` in it."""
    name = part.lstrip("#* ").rstrip("* ")
    return {_norm(name), *(_norm(side) for side in name.split(" / "))} if " / " in name else {_norm(name)}


def _named_as(written: str, part: str) -> bool:
    """Whether a heading or field name written as `written` is the template's `part`: the same
    name, or that name and then an aside (`状态（当前）`)."""
    found = _norm(written)
    return any(
        found == alias or (found.startswith(alias) and found[len(alias)] in _SEPARATORS) for alias in _aliases(part)
    )


def _value(text: str) -> str:
    """A field's value as written, less emphasis and code marks around it."""
    return text.strip().strip("*`_ ").strip()


def _has_mark(text: str) -> bool:
    return any(mark in text for mark in FALLBACK_MARKS)


# An instance's heading: a template's title, then its name after a colon (`Decision Record: 选型`).
_INSTANCE = Lazy(
    "(?P<title>" + "|".join(re.escape(known.title) for known in TEMPLATES) + r")\b\s*(?:[:：]\s*(?P<name>.*))?",
    re.IGNORECASE,
)
_BY_TITLE = {template_.title.casefold(): template_ for template_ in TEMPLATES}


class Instance:
    """A template instance in a file: its heading, its template, and what it holds."""

    __slots__ = ("heading", "template", "name", "outline", "fields", "sections", "marked")

    def __init__(self, heading: template.Heading, found: Template, name: str, outline: template.Outline) -> None:
        self.heading = heading
        self.template = found
        self.name = name
        self.outline = outline
        self.fields = outline.fields(heading.line + 1, heading.end)
        self.sections = outline.below(heading)
        self.marked = any(_has_mark(line) for _, line in outline.text_lines(heading.line, heading.end))

    @property
    def label(self) -> str:
        return f"{self.template.title} {quote(self.name, 60)}" if self.name else self.template.title

    def field(self, part: str) -> template.Field | None:
        return next((field for field in self.fields if _named_as(field.name, part)), None)

    def section(self, part: str) -> template.Heading | None:
        return next((section for section in self.sections if _named_as(section.title, part)), None)

    def missing(self, part: str) -> str | None:
        """Why `part` is a gap (absent, or a section with nothing in it), None when it is there.
        A part may be written either way: `**撤销条件**: …` holds the `### 撤销条件` section's content
        just as well, and a `### 日期` section the `**日期**` field."""
        field, section = self.field(part), self.section(part)
        if field is not None and (part.startswith("**") or field.value):
            return None
        if section is None:
            return "missing"
        return None if any(line.strip() for _, line in self.outline.body(section)) else "empty"

    def value(self, part: str) -> tuple[int, str] | None:
        """A field's value, or a section's first line, with its line number."""
        if part.startswith("**"):
            field = self.field(part)
            return (field.line, field.value) if field else None
        section = self.section(part)
        if section is None:
            return None
        return next(
            ((number, line.strip().lstrip("-*+ ")) for number, line in self.outline.body(section) if line.strip()), None
        )


def instances(document: Document) -> list[Instance]:
    """The template instances of a file, in order (none when it is unreadable or too large)."""
    text = document.text
    found = template.outline(text) if text else None
    if found is None:
        return []
    result = []
    for heading in found.headings:
        match = _INSTANCE.match(heading.title)
        if match:
            known = _BY_TITLE[match.group("title").casefold()]
            result.append(Instance(heading, known, (match.group("name") or "").strip(), found))
    return result


class Shape:
    """What a whole file of a kind holds beside its template instances (the `.ai-memory` skill): `name: value`
    fields (`topics.md`'s 5-field summary, Layer 1 of the recovery) and the values some of them
    take, or the instance it must hold unless it reads as finished (`handoff.md`)."""

    __slots__ = ("name", "fields", "values", "holds", "finished")

    def __init__(
        self,
        name: str,
        *,
        fields: tuple[str, ...] = (),
        values: dict[str, tuple[str, ...] | str] | None = None,
        holds: str = "",
        finished: str = "",
    ) -> None:
        self.name = name
        self.fields = fields
        self.values = values or {}
        self.holds = holds
        self.finished = finished

    def written(self, document: Document) -> list[template.Field]:
        """Its `name: value` lines (code blocks included: the summary is often fenced)."""
        text = document.text or ""
        lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
        return template.Outline(lines, [], set()).fields(1, len(lines), plain=True) if self.fields else []

    def gaps(self, document: Document, found: list[Instance]) -> Iterator[Hit]:
        text = document.text or ""
        if not text.strip():
            return  # emptied: the finished state too (003 handoff sync rules)
        written = self.written(document)
        missing = [name for name in self.fields if not any(_named_as(field.name, name) for field in written)]
        if missing:
            yield Hit(
                f"{self.name} lacks {plural(len(missing), 'field')} of the {len(self.fields)}-field summary: "
                f"{', '.join(missing)}. A new session restores from these ({' / '.join(self.fields)}).",
                line=1,
            )
        if self.holds and self.finished not in text and not any(i.template.title == self.holds for i in found):
            yield Hit(
                f'{self.name} holds no `## {self.holds}` (nor "{self.finished}"): a new machine or IDE cannot '
                "resume from it. Write the checkpoint with its mandatory parts (the `.ai-memory` skill).",
                line=1,
            )


SHAPES: dict[Kind | None, Shape] = {
    TOPICS: Shape("topics.md", fields=TOPIC_FIELDS, values=TOPIC_VALUES),
    HANDOFF: Shape("handoff.md", holds="Handoff Checkpoint", finished=FINISHED_HANDOFF),
}
_NO_SHAPE = Shape("")


@rule(
    "AIM001",
    "template-missing-field",
    ERROR,
    reads=TEMPLATED,
    summary="A template instance of the `.ai-memory` skill lacks one of its mandatory fields or sections.",
)
def template_missing_field(document: Document, options: dict) -> Iterator[Hit]:
    found = instances(document)
    yield from SHAPES.get(document.kind, _NO_SHAPE).gaps(document, found)
    for instance in found:
        parts = instance.template.parts
        if instance.marked and instance.template.keeps is not None:
            parts = instance.template.keeps  # the failure table's fallback: what it keeps is still due
        gaps = [(part, why) for part in parts if (why := instance.missing(part))]
        if not gaps:
            continue
        listed = ", ".join(f"`{part}`" + (" (empty)" if why == "empty" else "") for part, why in gaps)
        yield Hit(
            f"{instance.label} lacks {plural(len(gaps), 'mandatory part')}: {listed}. The `.ai-memory` skill: "
            "every mandatory "
            'part of the template must be there (模板必填项缺一不可); write "待补充" where it is not known yet.',
            line=instance.heading.line,
        )


@rule(
    "AIM002",
    "template-placeholder",
    WARNING,
    reads=(*TEMPLATED, DAILY),
    summary="A template field or section still holds the template's placeholder.",
)
def template_placeholder(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if not text:
        return
    # A text too large for the Markdown layer (a long daily log) is read line by line, code and all.
    outline = template.outline(text) or template.Outline([line.rstrip("\r") for line in text.split("\n")], [], set())
    for number, line in outline.text_lines(1, len(outline.lines)):
        left = _placeholder_in(line)
        if left:
            yield Hit(
                f'`{quote(left, 60)}` is the template\'s placeholder, not a value: fill it in, or write "待补充" '
                "until it is known.",
                line=number,
            )
        elif FILL_IN_LATER in line:
            yield Hit(
                f'"{FILL_IN_LATER}" marks a part to fill in later (the `.ai-memory` skill\'s fallback, accepted '
                "as it is): fill it "
                "in once it is known.",
                line=number,
                severity=INFO,
            )


def _placeholder_in(line: str) -> str | None:
    """The first template placeholder a line still holds: `[决策内容]`, or a whole value or table
    cell that is the template's literal (`YYYY-MM-DD`, `低/中/高`)."""
    for match in _BRACKETED.finditer(line):
        if re.sub(r"\s+", "", match.group(1)) in PLACEHOLDERS:
            return match.group()
    field = template.Outline([line], [], set()).fields(1, 1)
    pieces = [field[0].value] if field else []
    if line.lstrip().startswith("|"):
        pieces += line.strip().strip("|").split("|")
    header = re.fullmatch(r"#\s*工作日志\s*[-–—]\s*(.*)", line.strip())
    if header:
        pieces.append(header.group(1))
    return next((piece.strip() for piece in pieces if _value(piece) in _BARE_PLACEHOLDERS), None)


@rule(
    "AIM003",
    "template-invalid-value",
    WARNING,
    reads=TEMPLATED,
    summary="A template field holds a value outside the seed's enumeration or format.",
)
def template_invalid_value(document: Document, options: dict) -> Iterator[Hit]:
    shape = SHAPES.get(document.kind, _NO_SHAPE)
    for field in shape.written(document):
        for name, allowed in shape.values.items():
            if _named_as(field.name, name):
                yield from _check_value(f"{shape.name} `{name}`", field.line, field.value, allowed)
    for instance in instances(document):
        for part, allowed in instance.template.values.items():
            found = instance.value(part)
            if found:
                yield from _check_value(f"{instance.label} `{part}`", found[0], found[1], allowed)
        if instance.template.table is not None:
            yield from _table_column(instance, *instance.template.table)


def _check_value(where: str, line: int, written: str, allowed: tuple[str, ...] | str) -> Iterator[Hit]:
    value = _value(written)
    if not value or _has_mark(value) or _placeholder_in(written) or _placeholder_in(f"[{value}]"):
        return  # missing is AIM001's, a placeholder AIM002's, a fallback mark accepted
    if isinstance(allowed, tuple):
        if not any(_is_member(value, member) for member in allowed):
            yield Hit(
                f"{where} is {quote(value, 60)}, not one of the template's values: {' / '.join(allowed)}.",
                line=line,
            )
    elif not _FORMATS[allowed](value.strip("[]")):
        yield Hit(f"{where} is {quote(value, 60)}, not {allowed} as the template writes it.", line=line)


def _is_member(value: str, member: str) -> bool:
    """Whether `value` says `member`: it is, or starts with it before an aside (`未修复，外部阻塞`);
    a member of two characters or more may also stand inside a longer name (`第三方依赖风险`)."""
    written, name = _norm(value), _norm(member)
    if written == name or (written.startswith(name) and written[len(name)] in _SEPARATORS):
        return True
    return len(name) > 1 and name in written


def _is_date(value: str, with_time: bool = False) -> bool:
    pattern = r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})" if with_time else r"(\d{4}-\d{2}-\d{2})"
    match = re.match(pattern + r"(?=$|[\s(（,，;；])", value)
    if not match:
        return False
    import datetime  # only for a template's date field: its import costs 1 ms of every start

    try:
        datetime.datetime.strptime(" ".join(match.groups()), "%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d")
    except ValueError:
        return False
    return True


def _is_percent(value: str) -> bool:
    match = re.match(r"(\d{1,3}(?:\.\d+)?)\s*%", value)
    return match is not None and float(match.group(1)) <= 100


_FORMATS = {DATE: _is_date, DATETIME: lambda value: _is_date(value, True), PERCENT: _is_percent}


def _table_column(instance: Instance, part: str, name: str, allowed: tuple[str, ...]) -> Iterator[Hit]:
    """The `name` column of the table in the section `part` (a Decision Record's 复杂度: 低, 中, 高)."""
    section = instance.section(part)
    if section is None:
        return
    column = None
    for number, line in instance.outline.body(section):
        if not line.lstrip().startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if column is None:
            column = next((index for index, cell in enumerate(cells) if _norm(cell) == _norm(name)), -1)
        elif 0 <= column < len(cells) and not set(cells[column]) <= set("-: "):
            yield from _check_value(f"{instance.label} `{name}`", number, cells[column], allowed)


def _size(document: Document) -> tuple[float, str] | None:
    """A file's characters as the seed counts them: code points, a line ending one character
    whether it is written `\\n` or `\\r\\n` (003 asks for CRLF on Windows; the same log counts the
    same), and how the message says it. A file too large to read is over any limit (infinity, by
    its size in bytes); an unreadable one is None."""
    if document.too_large:
        return float("inf"), f"{document.size:,} bytes (not read)"
    if document.text is None:
        return None
    count = len(document.text) - document.text.count("\r\n")
    return count, f"{count:,} characters"


@rule(
    "AIM004",
    "daily-log-too-long",
    WARNING,
    reads=(DAILY,),
    summary="A `daily.md` over {daily-log-max-chars} characters (an error over {daily-log-hard-max-chars}).",
    options=(DAILY_MAX_CHARS, DAILY_HARD_MAX_CHARS),
)
def daily_log_too_long(document: Document, options: dict) -> Iterator[Hit]:
    soft, hard = options["daily-log-max-chars"], options["daily-log-hard-max-chars"]
    size = _size(document)
    if size is None or size[0] <= soft:
        return
    count, shown = size
    if count > hard:
        entries = sum(1 for line in document.lines if line.strip() and not line.lstrip().startswith("#"))
        held = f", {entries:,} entries" if document.text is not None else ""
        yield Hit(
            f"daily.md holds {shown}{held}, over {hard:,}: the `.ai-memory` skill requires condensing it now: "
            "keep the last 30 "
            "entries (one entry = one line), distil the rest into project_memory.md.",
            severity=ERROR,
        )
        return
    yield Hit(
        f"daily.md holds {shown}, over {soft:,}: the agent now reads only its last 120 lines. Distil the older "
        "records into project_memory.md (the `.ai-memory` skill).",
    )


@rule(
    "AIM005",
    "project-memory-too-long",
    WARNING,
    reads=(PROJECT_MEMORY,),
    summary="`project_memory.md` over {project-memory-max-chars} characters: only headers and Decision Records load.",
    options=(PROJECT_MEMORY_MAX_CHARS,),
)
def project_memory_too_long(document: Document, options: dict) -> Iterator[Hit]:
    limit = options["project-memory-max-chars"]
    size = _size(document)
    if size is None or size[0] <= limit:
        return
    shown = size[1]
    yield Hit(
        f"project_memory.md holds {shown}, over {limit:,}: the agent first reads only its headings and Decision "
        "Record sections, the rest on demand. Slim it: drop expired rules, merge duplicates (the `.ai-memory` skill).",
    )


def _today(options: dict) -> datetime.date:
    return clock.now(options["now"]).date()


@rule(
    "AIM006",
    "date-dir-undistilled",
    WARNING,
    reads=AI_MEMORY_DIR,
    summary="A dated `.ai-memory` folder older than {ai-memory-max-age-days} days that was not distilled and removed.",
    options=(MAX_AGE_DAYS, NOW),
    reports_on=ON_CONTAINER,
)
def date_dir_undistilled(container: AiMemoryDir, options: dict) -> Iterator[Hit]:
    today, limit = _today(options), options["ai-memory-max-age-days"]
    for name in container.dated:
        day = folder_date(name)
        if day is None or (today - day).days <= limit:
            continue
        yield Hit(
            f"`{name}/` is more than {limit:,} days old ({day:%Y-%m-%d}): distil its daily.md into "
            "project_memory.md (decisions, known issues, conventions) and remove the folder (the `.ai-memory` "
            "skill's 30-day cycle).",
            path=os.path.join(container.path, name),
        )


_SESSION_ID_LINE = Lazy(r"\s*(?:[-*+]\s+)?(?:\*\*)?session-id(?:\*\*)?\s*[:：]\s*(?P<id>.*?)\s*")
_SESSION_ID = Lazy(r"([0-9]{8})-([0-9]{2})([0-9]{2})")


def _valid_id(date: str, hour: str, minute: str) -> bool:
    return folder_date(date) is not None and int(hour) < 24 and int(minute) < 60


@rule(
    "AIM007",
    "session-id-invalid",
    ERROR,
    reads=AI_MEMORY_DIR,
    summary="A dated folder, session file or `session-id:` line that breaks the `YYYYMMDD-HHmm` session-id convention.",
    options=(NOW,),
    reports_on=ON_CONTAINER,
)
def session_id_invalid(container: AiMemoryDir, options: dict) -> Iterator[Hit]:
    today = _today(options)
    for name in container.dated:
        if folder_date(name) is None:
            yield Hit(
                f"`{name}/` is no date: a dated folder is named YYYYMMDD after a real day (the `.ai-memory` skill).",
                path=os.path.join(container.path, name),
            )
            continue
        documents = container.in_folder(name)
        sessions = {document.rel.rpartition("/")[2]: document for document in documents if document.kind is SESSION}
        for file_name, document in sessions.items():
            match = ai_memory.SESSION_FILE.fullmatch(file_name)
            if match is None or not _valid_id(*match.groups()):
                yield Hit(
                    f"`{file_name}` is not named session_memory_<YYYYMMDD-HHmm>.jsonl: the next session finds its "
                    "file by the id in daily.md.",
                    path=document.path,
                )
            elif match.group(1) != name:
                yield Hit(
                    f"`{file_name}` is dated {match.group(1)} but lies in `{name}/`: a session file lives in the "
                    "folder of its own day.",
                    path=document.path,
                )
        daily = next((document for document in documents if document.kind is DAILY), None)
        if daily is not None and daily.text is not None:
            yield from _daily_session_ids(daily, name, sessions, folder_date(name) >= today)  # type: ignore[operator]


def _daily_session_ids(daily: Document, folder: str, sessions: dict, may_run: bool) -> Iterator[Hit]:
    """The `session-id:` lines of a daily.md (003: the source of truth for the session file)."""
    named = []
    for number, line in enumerate(daily.lines, 1):
        match = _SESSION_ID_LINE.fullmatch(line.rstrip("\r"))
        if not match:
            continue
        written = match.group("id").strip("`*[] ")
        named.append(written)
        id_match = _SESSION_ID.fullmatch(written)
        if id_match is None or not _valid_id(*id_match.groups()):
            yield Hit(f"session-id {quote(written, 40)} is not YYYYMMDD-HHmm.", path=daily.path, line=number)
        elif id_match.group(1) != folder:
            yield Hit(
                f"session-id {written} is not of this folder's day ({folder}).",
                path=daily.path,
                line=number,
            )
        elif f"session_memory_{written}.jsonl" not in sessions and not may_run:
            yield Hit(
                f"session-id {written} names `session_memory_{written}.jsonl`, which is not in `{folder}/`: "
                "the next session cannot find the session it continues.",
                path=daily.path,
                line=number,
            )
    if not named and sessions:
        yield Hit(
            f"daily.md has no `session-id:` line, though `{folder}/` holds {plural(len(sessions), 'session file')}: "
            "the next session cannot tell which is current (the `.ai-memory` skill: write `session-id: "
            "YYYYMMDD-HHmm` at the top).",
            path=daily.path,
            line=1,
        )


@rule(
    "AIM008",
    "session-jsonl-invalid",
    ERROR,
    reads=(SESSION,),
    summary="A line of a session `.jsonl` file that is not one JSON value.",
)
def session_jsonl_invalid(document: Document, options: dict) -> Iterator[Hit]:
    from mnemolint.parse import jsonl

    scan = jsonl.scan_text(document.text) if document.text is not None else jsonl.scan_file(document.path)
    if scan is None:
        return  # unreadable: NST002 says so
    for number, reason in scan.bad:
        yield Hit(
            f"Line {number:,} is not one JSON value ({reason}): a JSON-lines reader stops or skips it.", line=number
        )
    if scan.more:
        yield Hit(
            f"…and more lines that are not JSON: the scan stopped after the first {len(scan.bad)}.",
            line=scan.bad[-1][0],
        )
    if scan.unread:
        yield Hit(
            f"Only the first {jsonl.MAX_STREAM >> 20} MB of this file were checked: the {scan.unread:,} bytes "
            "after them were not read (a session log this large is a runaway; start a new one).",
            severity=INFO,
        )


_DAILY_HEADER = Lazy(r"#\s*工作日志\s*[-–—]\s*\[?(?P<date>[^\]\s]*)\]?\s*")


@rule(
    "AIM009",
    "daily-header-invalid",
    WARNING,
    reads=(DAILY,),
    summary="A `daily.md` that does not start with `# 工作日志 - [YYYY-MM-DD]` for its folder's day.",
)
def daily_header_invalid(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if not text or not text.strip():
        return
    folder = document.rel.partition("/")[0]
    day = folder_date(folder)
    # The first line that is neither blank nor the `session-id:` line 003 writes at the top.
    heading = next(
        (
            (number, line.rstrip("\r").lstrip("\ufeff"))
            for number, line in enumerate(document.lines, 1)
            if line.strip("\ufeff \t\r") and not _SESSION_ID_LINE.fullmatch(line.rstrip("\r"))
        ),
        None,
    )
    if heading is None:
        return
    number, first = heading
    match = _DAILY_HEADER.fullmatch(first)
    expected = f"# 工作日志 - [{day:%Y-%m-%d}]" if day else "# 工作日志 - [YYYY-MM-DD]"
    if match is None:
        yield Hit(
            f"daily.md starts with {quote(first.strip(), 60)}, not `{expected}`: the `.ai-memory` skill creates "
            "every daily log "
            "with that header.",
            line=number,
        )
        return
    written = match.group("date")
    if written == "YYYY-MM-DD" or day is None:
        return  # a placeholder (AIM002), or a folder that is no date (AIM007)
    if written != f"{day:%Y-%m-%d}":
        yield Hit(f"The header's date {quote(written, 20)} is not the folder's day: `{expected}`.", line=number)


@rule(
    "AIM010",
    "ai-memory-misplaced",
    WARNING,
    reads=TREE,
    needs=(ai_memory.AI_MEMORY_DIR,),  # `project_dirs`
    reads_members=False,
    summary="An `.ai-memory/` that is not at the repository's top level: the skill reads only that one.",
)
def ai_memory_misplaced(tree: Tree, options: dict) -> Iterator[Hit]:
    roots = [os.path.realpath(root) for root in tree.roots or [tree.root]]
    for container in project_dirs(tree.containers):
        project = os.path.realpath(container.project)
        if container.git_top:
            misplaced, where = project != container.git_top, "its git work tree"
        else:  # below a linted directory; one inside `.ai-memory/` itself says nothing of the project
            misplaced, where = any(inside(project, root) and project != root for root in roots), "the linted directory"
        if misplaced:
            yield Hit(
                f"This `.ai-memory/` is not at the top of {where}: the skill reads {{PROJECT_ROOT}}/.ai-memory only "
                "(PROJECT_ROOT = the git top level, else the workspace root), so nothing here loads.",
                path=container.path,
            )


FAMILY = Family(
    "AIM",
    "`.ai-memory` project memory",
    "ai-memory",
    (
        template_missing_field,
        template_placeholder,
        template_invalid_value,
        daily_log_too_long,
        project_memory_too_long,
        date_dir_undistilled,
        session_id_invalid,
        session_jsonl_invalid,
        daily_header_invalid,
        ai_memory_misplaced,
    ),
)
