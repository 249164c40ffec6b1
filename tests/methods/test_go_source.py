"""Go methods read from code: piglet's Go source gives the same table as its doc page.

specs/piglet reads the pkg.go.dev page (no function bodies) with 26 [methods] entries;
tests/methods/specs/piglet-go reads the package's .go files, where the host's dispatch
switches and the SDK's sends state what the page leaves to those entries, so three
entries remain. Both tables must be equal, method for method.
"""

from __future__ import annotations

from pathlib import Path

from codegen.methods.report import method_table_text
from codegen.pipeline import load_protocol

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO.parent / "shared" / "corpus"


def test_piglet_from_go_source_equals_piglet_from_its_page() -> None:
    assert CORPUS.is_dir(), "../shared/corpus must stand beside the checkout"
    page = load_protocol(REPO / "specs" / "piglet", REPO)
    code = load_protocol(HERE / "specs" / "piglet-go", REPO)
    assert code.protocol is not None and page.protocol is not None
    assert not code.diags.has_errors(), [str(d) for d in code.diags.errors()]
    assert len(code.protocol.methods) == 88
    strip = lambda text: text.split("\n", 1)[1]
    assert strip(method_table_text(code.protocol)) == strip(
        method_table_text(page.protocol)
    )
