"""`patterns.Lazy` behaves as the compiled pattern, compiling only when first used."""

from __future__ import annotations

import re

from mnemolint.patterns import Lazy


def test_compiles_on_first_use_and_answers_as_re() -> None:
    lazy = Lazy(r"(?P<word>[a-z]+)-(\d)", re.IGNORECASE)
    assert lazy._compiled is None
    compiled = re.compile(r"(?P<word>[a-z]+)-(\d)", re.IGNORECASE)
    text = "Ab-1 cd-2 x-"
    assert lazy.search(text).group("word") == compiled.search(text).group("word")
    assert lazy._compiled is not None
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.sub("_", text) == compiled.sub("_", text)
    assert lazy.fullmatch("ab-1") and not lazy.match("-1")
    assert lazy.groupindex == compiled.groupindex  # any other attribute of the pattern
