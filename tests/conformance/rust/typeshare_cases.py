"""typeshare's snapshot tests as conformance cases (``../shared/conformance/typeshare``).

Phase: verification (``make conformance-rust``).
Inputs: per case ``input.rs`` (types marked ``#[typeshare]``) and ``output.py`` (the
pydantic v2 models typeshare generates for them).
Outputs: ``cases()`` and ``run_case``: every non-generic ``#[typeshare]`` type of
``input.rs`` is a root (``[spec] types``); the peer's side is its pydantic model (found by
the serde name, which typeshare uses as the Python name), whose JSON Schema gives the
instances drawn from the peer and whose ``validate_json`` says what the peer accepts.
Each ``#[typeshare]`` item is given ``#[derive(Serialize, Deserialize)]`` in the copy
read (typeshare exports serde types; its inputs leave the derive out), and top-level items
are made ``pub`` (the serde oracle names them from outside the module).
Guarantees: ``output.py`` is imported as a module of its own (under a name no other case
uses) and never written; a root the peer generated no model for is left out of the case
(typeshare leaves out what it cannot express) and named in the verdict.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import TypeAdapter

from tests.conformance.rust.harness import (
    DRAWS,
    SUITES,
    Expected,
    Ours,
    judge,
    public_items,
    read_ours,
    temporary,
)
from tests.conformance.verdict import Verdict

FOLDER = SUITES / "typeshare"
# `#[typeshare...]`, then any attributes, then the item (group 3: its name; 4: its
# generic parameters; `alias`: a type alias)
_ITEM = re.compile(
    r"#\[typeshare[^\]]*\]\s*((?:#\[(?:[^\[\]]|\[[^\]]*\])*\]\s*|///[^\n]*\n\s*)*)"
    r"(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|(?P<alias>type))\s+(\w+)\s*(?:<([^>]*)>)?"
)
_RENAME = re.compile(r'#\[serde\([^\]]*?\brename\s*=\s*"([^"]+)"')


def cases() -> list[str]:
    return sorted(p.name for p in FOLDER.iterdir() if (p / "input.rs").is_file())


def roots(case: str) -> list[tuple[str, str]]:
    """(Rust name, serde name) of each non-generic ``#[typeshare]`` type."""
    text = (FOLDER / case / "input.rs").read_text(encoding="utf-8")
    out = []
    for match in _ITEM.finditer(text):
        params = [p.strip() for p in (match.group(4) or "").split(",") if p.strip()]
        if any(not p.startswith("'") for p in params):
            continue  # a type parameter: no single wire form (lifetimes are none)
        renamed = _RENAME.search(match.group(1) or "")
        out.append((match.group(3), renamed.group(1) if renamed else match.group(3)))
    return out


def peer_module(case: str) -> ModuleType:
    name = f"_typeshare_peer_{case}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, FOLDER / case / "output.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_case(case: str, draws: int = DRAWS, serde: bool = True) -> Verdict:
    if not (FOLDER / case / "output.py").is_file():
        return Verdict(case, False, "the peer expects no Python output for this case")
    try:
        module = peer_module(case)
    except Exception as exc:  # noqa: BLE001 - the peer's output does not import
        return Verdict(case, False, f"the peer's output.py does not import: {exc!r}")
    named = [(rust, wire) for rust, wire in roots(case) if hasattr(module, wire)]
    if not named:
        return Verdict(case, False, "no non-generic #[typeshare] type has a model")
    with temporary() as tmp:
        ours = read_ours(
            FOLDER / case, ["input.rs"], [r for r, _ in named], Path(tmp), _derived
        )
        if not isinstance(ours, Ours):
            return Verdict(case, False, ours, [r for r, _ in named])
        expected = []
        for rust, wire in named:
            found = _expected(rust, wire, module)
            if isinstance(found, str):
                return Verdict(case, False, found, [r for r, _ in named])
            expected.append(found)
        return judge(case, ours, expected, draws, serde)


def _derived(text: str) -> str:
    """Each ``#[typeshare]`` item given serde's derives: typeshare's contract is that the
    types it exports are serde's (it reads their ``#[serde]`` attributes), and its test
    inputs leave the derive out (a derive already written is kept, not repeated)."""
    out, last = [], 0
    for match in _ITEM.finditer(text):
        # the item's attributes: those after #[typeshare] and those before it
        before = max(
            text.rfind("}", 0, match.start()), text.rfind(";", 0, match.start())
        )
        head = text[before + 1 : match.end()]
        wanted = ["Serialize", "Deserialize"]
        if re.search(r"#\[serde\([^\]]*\bdefault\b", head):
            wanted.append("Default")  # serde's container `default` requires it
        missing = [d for d in wanted if not re.search(rf"\b{d}\b", head)]
        out.append(text[last : match.start()])
        if missing and not match.group("alias"):  # an alias takes no derive
            out.append(f"#[derive({', '.join(missing)})]\n")
        last = match.start()
    out.append(text[last:])
    return public_items("".join(out))


def _expected(rust: str, wire: str, module: ModuleType) -> Expected | str:
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(getattr(module, wire))
        schema = adapter.json_schema()
    except Exception as exc:  # noqa: BLE001 - a model pydantic cannot build
        return f"the peer's model {wire} does not build: {exc!r}"
    body = {k: v for k, v in schema.items() if k != "$defs"}
    bundle = {"$defs": {**schema.get("$defs", {}), "__peer_root": body}}

    def accepts(value: Any) -> bool:
        try:
            adapter.validate_json(json.dumps(value))
        except Exception:  # noqa: BLE001 - any refusal is a rejection
            return False
        return True

    return Expected(rust, bundle, "__peer_root", accepts)
