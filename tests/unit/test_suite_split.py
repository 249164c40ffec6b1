"""The split of the suite (tests/conftest.py LONG): every suite left out of ``make test``
exists and is run by the CI target its entry names, so leaving it out of the 10-minute
budget never leaves it out of CI.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import LONG, REPO


def _variables() -> dict[str, str]:
    text = (REPO / "Makefile").read_text()
    return dict(
        re.findall(r"^([A-Z_]+) :?= ((?:.*\\\n)*.*)$", text, flags=re.MULTILINE)
    )


def _recipe(target: str) -> str:
    """The recipe lines of ``target`` in the Makefile, variables spelled out."""
    text = (REPO / "Makefile").read_text()
    variables = _variables()
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert match, f"no target {target}"
    recipe = match.group(1)
    for name, value in variables.items():
        recipe = recipe.replace(f"$({name})", value)
    return recipe


def _runs(target: str, path: str) -> bool:
    """Whether ``make target`` runs the tests of ``path``."""
    recipe = _recipe(target)
    if target == "test-long":
        return "-m long" in recipe and path not in _variables()["FUZZ_COVERED"]
    return path in recipe or (
        "-k fuzz" in recipe
        and "fuzz" in Path(path).name
        and str(Path(path).parent) in recipe
    )


def test_every_long_suite_exists_and_its_target_runs_it() -> None:
    for path, reason in LONG.items():
        assert (REPO / path).is_file(), path
        target = reason.split()[1]
        assert _runs(target, path), (path, reason)
    for path in _variables()["FUZZ_COVERED"].replace("\\\n", " ").split():
        assert LONG[path].startswith("make fuzz"), path  # deselected from test-long


def test_make_test_leaves_out_exactly_the_long_suites() -> None:
    assert '-m "not long"' in _recipe("test")
    assert "test-long" in (REPO / ".ci" / "run").read_text()


def test_a_suite_no_target_runs_is_caught() -> None:
    # The twin: a long suite named for make fuzz that make fuzz does not run.
    assert not _runs("fuzz", "tests/unit/test_cli.py")
    assert not _runs("test-long", "tests/server/test_fuzz.py")


def _marked_long(path: Path) -> bool:
    """Whether a test file marks some of its tests ``long`` itself (not through LONG)."""
    return "pytest.mark.long" in path.read_text(encoding="utf-8")


def test_tests_marked_long_one_by_one_are_run_by_make_test_long() -> None:
    marked = [
        p.relative_to(REPO).as_posix()
        for p in sorted((REPO / "tests").rglob("test_*.py"))
        if _marked_long(p) and p.relative_to(REPO).as_posix() not in LONG
    ]
    assert marked  # the vendor install, the spec fuzz, the older MCP revisions' lint
    for path in marked:
        assert _runs("test-long", path), path


def test_a_test_marked_long_in_a_file_test_long_skips_is_caught(
    tmp_path: Path,
) -> None:
    # The twin: test-long deselects make fuzz's suites, so a long mark there runs nowhere.
    fuzz_suite = tmp_path / "test_fuzz.py"
    fuzz_suite.write_text("@pytest.mark.long\ndef test_x(): ...\n", encoding="utf-8")
    assert _marked_long(fuzz_suite)
    assert not _runs("test-long", "tests/server/test_fuzz.py")
