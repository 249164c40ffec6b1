"""Mutation strategy shared by the frontend fuzz tests: edits of a real spec's text.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import os

from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("CODEGEN_FUZZ_EXAMPLES", "60"))


def mutations(base: str, tokens: list[str]) -> st.SearchStrategy[str]:
    """Up to six deletions, random insertions, duplications and language tokens."""

    @st.composite
    def mutated(draw: st.DrawFn) -> str:
        text = base
        for _ in range(draw(st.integers(1, 6))):
            position = draw(st.integers(0, len(text)))
            action = draw(st.sampled_from(["delete", "insert", "duplicate", "token"]))
            if action == "delete":
                text = text[:position] + text[position + draw(st.integers(1, 200)) :]
            elif action == "insert":
                text = text[:position] + draw(st.text(max_size=20)) + text[position:]
            elif action == "duplicate":
                end = position + draw(st.integers(1, 300))
                text = text[:position] + text[position:end] + text[position:]
            else:
                text = text[:position] + draw(st.sampled_from(tokens)) + text[position:]
        return text

    return mutated()
