"""What the topic rules share of a topic, found once per document (`Document.derived`): its
trimmed size and its judged frontmatter. What depends on the options (the caps) is applied by each
rule on every run, so a document taken over by a later run with other options (`mnemolint
server` after a config change) is judged by the new ones.
"""

from __future__ import annotations

from mnemolint.config import Settings
from mnemolint.kinds.memory import TOPIC
from mnemolint.options import defaults
from mnemolint.parse.document import Document
from mnemolint.rules import topic

TEXT = "---\nname: n\ndescription: d\ntype: user\n---\n" + "body line\n" * 30


def hits(rule, document: Document, **options: object) -> list[str]:
    return [hit.message for hit in rule.check(document, {**Settings("/work").options, **options})]


def test_the_size_is_found_once_and_judged_by_each_run_s_caps() -> None:
    document = Document("/work/memory/t.md", TOPIC, defaults())
    document.preset(TEXT)
    size = len(TEXT.strip().encode())
    assert hits(topic.topic_over_limit, document) == []
    (over,) = hits(topic.topic_over_limit, document, **{"topic-max-bytes": size - 1})
    assert f"{size:,} of {size - 1:,} bytes" in over
    (near,) = hits(topic.topic_near_limit, document, **{"topic-max-bytes": size})
    assert "at 100% of its cap" in near
    assert hits(topic.topic_near_limit, document) == []
    assert document.derived("memory size", lambda _: None) == (size, 35)


def test_the_judged_frontmatter_is_shared_and_none_for_broken_yaml() -> None:
    good = Document("/work/memory/a.md", TOPIC, defaults())
    good.preset(TEXT)
    assert topic._readable_frontmatter(good) is good.frontmatter
    assert topic._readable_frontmatter(good) is topic._readable_frontmatter(good)
    broken = Document("/work/memory/b.md", TOPIC, defaults())
    broken.preset("---\n- a list, not a mapping\n---\nbody\n")
    assert topic._readable_frontmatter(broken) is None
    assert hits(topic.topic_missing_description, broken) == []
