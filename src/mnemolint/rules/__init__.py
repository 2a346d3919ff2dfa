"""The rule registry: one explicit, ordered list. A rule's code is its public, stable name."""

from __future__ import annotations

from mnemolint.rules import files, frontmatter, index, text, topic
from mnemolint.rules.base import Rule

RULES: tuple[Rule, ...] = (
    index.index_over_load_limit,
    index.index_near_limit,
    index.index_line_too_long,
    index.index_broken_link,
    index.index_orphan_topic,
    index.index_missing,
    index.index_duplicate_entry,
    index.index_not_pointer,
    index.index_description_drift,
    topic.topic_over_limit,
    topic.topic_near_limit,
    topic.topic_missing_description,
    topic.topic_description_too_long,
    topic.topic_missing_field,
    topic.topic_invalid_type,
    topic.topic_unindexable_name,
    frontmatter.invalid_yaml,
    frontmatter.not_a_mapping,
    frontmatter.unclosed_frontmatter,
    frontmatter.yaml_ambiguous_scalar,
    frontmatter.yaml_too_complex,
    text.utf8_bom,
    text.invalid_utf8,
    text.mixed_line_endings,
    files.memory_file_unreadable,
    files.symlink_cycle,
)

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
