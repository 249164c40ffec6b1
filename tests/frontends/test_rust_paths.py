"""Names in a Rust crate as rustc resolves them (``rust.paths``): every item has its module
path, ``use``/``pub use``/globs/``self``/``super``/``crate`` resolve where they are written, a
local item shadows a glob import, ``#[cfg]`` chooses items and modules, the same name in two
modules is two types with unique deterministic IR names, and the method table is resolved by
path — so a crate that keeps two protocol versions side by side generates with zero edits,
the version chosen by a feature.  Each accepting case has a rejecting twin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest import MonkeyPatch

from codegen import ir
from codegen.frontends.rust.paths import CRATE, Resolver
from codegen.pipeline import load_protocol

CARGO = """[package]
name = "vers"
version = "0.1.0"
[features]
default = []
unstable_v2 = []
"""

MOD_RS = """mod agent;
pub use agent::*;
use serde::{{Deserialize, Serialize}};

#[derive(Serialize, Deserialize)]
pub struct Meta {{ pub version{v}: u32 }}
"""

AGENT_RS = """use serde::{{Deserialize, Serialize}};
use {meta};

pub const INITIALIZE_METHOD_NAME: &str = "initialize";

#[derive(Serialize, Deserialize)]
#[schemars(extend("x-side" = "agent", "x-method" = INITIALIZE_METHOD_NAME))]
pub struct InitializeRequest {{ pub meta: Meta, pub v{v}: bool }}

#[derive(Serialize, Deserialize)]
#[schemars(extend("x-side" = "agent", "x-method" = INITIALIZE_METHOD_NAME))]
pub struct InitializeResponse {{ pub ok{v}: Box<Meta> }}
"""


def _spec(tmp_path: Path, files: dict[str, str], features: tuple[str, ...]) -> Path:
    spec = tmp_path / "spec"
    spec.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (spec / name).parent.mkdir(parents=True, exist_ok=True)
        (spec / name).write_text(text, encoding="utf-8")
    sources = ", ".join(f'"{name}"' for name in files)
    feature_list = ", ".join(f'"{f}"' for f in features)
    (spec / "spec.toml").write_text(
        f'[spec]\nid = "vers"\nlanguage = "rust"\nsources = [{sources}]\n'
        f'roles = ["client", "agent"]\n[rust]\nfeatures = [{feature_list}]\n',
        encoding="utf-8",
    )
    return spec


def _load(
    tmp_path: Path, files: dict[str, str], features: tuple[str, ...] = ()
) -> tuple[ir.Protocol, list[str], list[str]]:
    spec = _spec(tmp_path, files, features)
    outcome = load_protocol(spec, spec)
    assert outcome.protocol is not None
    errors = [d.headline() for d in outcome.diags.errors()]
    every = [d.headline() for d in outcome.diags.items]
    return outcome.protocol, errors, every


def _versioned(v2_meta: str = "super::Meta") -> dict[str, str]:
    files = {
        "Cargo.toml": CARGO,
        "src/lib.rs": 'pub mod v1;\n#[cfg(feature = "unstable_v2")]\npub mod v2;\n',
    }
    for v, meta in ((1, "super::Meta"), (2, v2_meta)):
        files[f"src/v{v}/mod.rs"] = MOD_RS.format(v=v)
        files[f"src/v{v}/agent.rs"] = AGENT_RS.format(v=v, meta=meta)
    return files


def _struct(protocol: ir.Protocol, name: str) -> ir.StructDecl:
    decl = next(d for d in protocol.decls if d.name == name)
    assert isinstance(decl, ir.StructDecl)
    return decl


def _field_ref(protocol: ir.Protocol, struct: str, fld: str) -> str:
    found = next(f for f in _struct(protocol, struct).fields if f.name == fld)
    assert isinstance(found.type, ir.Ref)
    return found.type.name


def test_versioned_modules_choose_by_feature(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path / "stable", _versioned())
    assert not errors, errors
    assert {d.name for d in protocol.decls} == {
        "InitializeRequest",
        "InitializeResponse",
        "Meta",
    }
    (method,) = protocol.methods
    assert method.params is not None and method.params.name == "InitializeRequest"
    assert [f.name for f in _struct(protocol, "InitializeRequest").fields] == [
        "meta",
        "v1",
    ]
    protocol, errors, every = _load(tmp_path / "v2", _versioned(), ("unstable_v2",))
    assert not errors, errors
    assert not [h for h in every if "REF003" in h], every
    names = {d.name for d in protocol.decls}
    assert {"V1InitializeRequest", "V2InitializeRequest", "V1Meta", "V2Meta"} <= names
    (method,) = protocol.methods
    assert method.params is not None and method.result is not None
    assert (method.params.name, method.result.name) == (
        "V2InitializeRequest",
        "V2InitializeResponse",
    )
    # each module's `Meta` is its own: `use super::Meta` resolves where it is written
    assert _field_ref(protocol, "V2InitializeRequest", "meta") == "V2Meta"
    assert _field_ref(protocol, "V1InitializeRequest", "meta") == "V1Meta"
    # Box<T> is transparent in fields
    assert _field_ref(protocol, "V2InitializeResponse", "ok2") == "V2Meta"


def test_a_path_names_the_other_modules_type(tmp_path: Path) -> None:
    """Rejecting twin: v2 imports v1's Meta, so v2's request holds V1Meta, by path."""
    protocol, errors, _ = _load(
        tmp_path, _versioned("crate::v1::Meta"), ("unstable_v2",)
    )
    assert not errors, errors
    assert _field_ref(protocol, "V2InitializeRequest", "meta") == "V1Meta"


GLOB_LIB = """use serde::{Deserialize, Serialize};
mod inner;
pub use inner::*;

#[derive(Serialize, Deserialize)]
pub struct Shared { pub outer: bool }

#[derive(Serialize, Deserialize)]
pub struct Holder { pub here: Shared, pub there: inner::Shared, pub only: OnlyInner }
"""

GLOB_INNER = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Shared { pub inner: bool }

#[derive(Serialize, Deserialize)]
pub struct OnlyInner { pub x: u8 }

#[derive(Serialize, Deserialize)]
pub struct Back { pub up: super::Shared, pub root: crate::Holder, pub me: self::OnlyInner }
"""


def test_local_item_shadows_a_glob_import(tmp_path: Path) -> None:
    protocol, errors, every = _load(
        tmp_path, {"src/lib.rs": GLOB_LIB, "src/inner.rs": GLOB_INNER}
    )
    assert not errors, errors
    assert not [h for h in every if "REF003" in h], every
    # the root's own Shared keeps the name (it is the crate root's); inner's is InnerShared
    assert [f.name for f in _struct(protocol, "Shared").fields] == ["outer"]
    assert [f.name for f in _struct(protocol, "InnerShared").fields] == ["inner"]
    assert _field_ref(protocol, "Holder", "here") == "Shared"
    assert _field_ref(protocol, "Holder", "there") == "InnerShared"
    assert _field_ref(protocol, "Holder", "only") == "OnlyInner"  # through the glob
    assert _field_ref(protocol, "Back", "up") == "Shared"
    assert _field_ref(protocol, "Back", "root") == "Holder"
    assert _field_ref(protocol, "Back", "me") == "OnlyInner"


def test_a_private_item_is_not_glob_imported(tmp_path: Path) -> None:
    """Rejecting twin: a glob brings only what is visible, so a private item of ``inner``
    is not a name in the crate root."""
    inner = GLOB_INNER.replace("pub struct OnlyInner", "struct OnlyInner")
    _, errors, _ = _load(tmp_path, {"src/lib.rs": GLOB_LIB, "src/inner.rs": inner})
    assert any("OnlyInner" in e and "REF001" in e for e in errors), errors


CFG_ITEMS = """use serde::{Deserialize, Serialize};

#[cfg(feature = "unstable_v2")]
#[derive(Serialize, Deserialize)]
pub struct Item { pub new: u8 }

#[cfg(not(feature = "unstable_v2"))]
#[derive(Serialize, Deserialize)]
pub struct Item { pub old: u8 }

#[derive(Serialize, Deserialize)]
pub struct Holder { pub item: Item }
"""


def test_cfg_chooses_between_items_of_one_name(tmp_path: Path) -> None:
    files = {"Cargo.toml": CARGO, "src/lib.rs": CFG_ITEMS}
    for features, field_name in (((), "old"), (("unstable_v2",), "new")):
        protocol, errors, _ = _load(tmp_path / field_name, files, features)
        assert not errors, errors
        assert [f.name for f in _struct(protocol, "Item").fields] == [field_name]


def test_one_name_declared_twice_in_one_module_is_reported(tmp_path: Path) -> None:
    """Rejecting twin: without the cfg both are compiled, which rustc rejects (E0428)."""
    files = {"src/lib.rs": CFG_ITEMS.replace("#[cfg(not(feature = ", "// #[cfg(x = ")}
    files["src/lib.rs"] = files["src/lib.rs"].replace(
        '#[cfg(feature = "unstable_v2")]', ""
    )
    _, errors, _ = _load(tmp_path, files)
    assert any("REF003" in e and "Item" in e for e in errors), errors


NAMES_LIB = """pub mod a;
pub mod b;
pub mod c { pub mod a; }
"""
ITEM = "#[derive(serde::Serialize)]\npub struct Thing { pub x: u8 }\n"


def test_output_names_follow_the_documented_rule(tmp_path: Path) -> None:
    files = {
        "src/lib.rs": NAMES_LIB,
        "src/a.rs": ITEM,
        "src/b.rs": ITEM,
        "src/c/a.rs": ITEM,
    }
    protocol, errors, _ = _load(tmp_path / "one", files)
    assert not errors, errors
    # crate::a and crate::c::a share the trailing segment `a`: two segments for all
    assert {d.name for d in protocol.decls} == {"AThing", "BThing", "CAThing"}
    # deterministic: the same crate gives the same names
    again, _, _ = _load(tmp_path / "two", files)
    assert [d.name for d in again.decls] == [d.name for d in protocol.decls]


def test_a_root_reexport_keeps_the_plain_name(tmp_path: Path) -> None:
    """Twin: the crate root re-exports b's Thing, so that one is `Thing`."""
    files = {
        "src/lib.rs": "pub mod a;\npub mod b;\npub use b::Thing;\n",
        "src/a.rs": ITEM,
        "src/b.rs": ITEM,
    }
    protocol, errors, _ = _load(tmp_path, files)
    assert not errors, errors
    assert {d.name for d in protocol.decls} == {"AThing", "Thing"}
    thing = next(d for d in protocol.decls if d.name == "Thing")
    assert thing.span.file == "src/b.rs"


ROUTES = """use serde::{{Deserialize, Serialize}};

#[derive(Serialize, Deserialize)]
pub struct PingRequest {{ pub v{v}: u8 }}

#[derive(Serialize, Deserialize)]
pub struct PingResponse {{ pub r{v}: u8 }}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClientRequest {{ PingRequest(Box<PingRequest>) }}

impl ClientRequest {{
    pub fn method(&self) -> &str {{
        match self {{ Self::PingRequest(_) => "ping" }}
    }}
}}
"""


def test_routing_enums_resolve_by_path(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": CARGO,
        "src/lib.rs": 'pub mod v1;\n#[cfg(feature = "unstable_v2")]\npub mod v2;\n',
        "src/v1.rs": ROUTES.format(v=1),
        "src/v2.rs": ROUTES.format(v=2),
    }
    protocol, errors, _ = _load(tmp_path / "v1", files)
    assert not errors, errors
    (method,) = protocol.methods
    assert method.params is not None and method.params.name == "PingRequest"
    assert method.result is not None and method.result.name == "PingResponse"
    protocol, errors, _ = _load(tmp_path / "v2", files, ("unstable_v2",))
    assert not errors, errors
    (method,) = protocol.methods
    assert method.params is not None and method.params.name == "V2PingRequest"
    assert method.result is not None and method.result.name == "V2PingResponse"
    # the routing enums are the method table, not messages (Box<T> payloads included)
    assert not {"V1ClientRequest", "V2ClientRequest"} & {d.name for d in protocol.decls}


def test_a_type_without_a_serde_derive_is_named_where_it_is(tmp_path: Path) -> None:
    lib = (
        "use serde::{Deserialize, Serialize};\n"
        "pub struct Uri(String);\n"
        "#[derive(Serialize, Deserialize)]\n"
        "pub struct Link { pub target: Uri }\n"
    )
    _, errors, _ = _load(tmp_path / "bad", {"src/lib.rs": lib})
    assert any(
        "`Uri` is defined at src/lib.rs:2" in e and "[rust.wrappers]" in e
        for e in errors
    ), errors
    derived = lib.replace("pub struct Uri", "#[derive(Serialize)]\npub struct Uri")
    _, errors, _ = _load(tmp_path / "good", {"src/lib.rs": derived})
    assert not errors, errors


def _dense_glob_resolver(modules: int) -> Resolver:
    """``modules`` sibling modules, each ``pub use`` of every other's ``*`` (a mutated
    ``mod.rs`` can make one): every path through the glob graph is a different walk."""
    resolver = Resolver()
    names = [f"m{n}" for n in range(modules)]
    root = resolver.scope(CRATE)
    for name in names:
        root.modules[name] = True
        scope = resolver.scope(f"{CRATE}::{name}")
        scope.globs = [(f"super::{other}", True) for other in names if other != name]
    resolver.scope(f"{CRATE}::m{modules - 1}").items["Found"] = True
    return resolver


def test_a_dense_glob_graph_is_walked_once_per_step(monkeypatch: MonkeyPatch) -> None:
    # Found by make fuzz (a hang): a lookup walked every path through the globs, which is
    # factorial in the modules; one resolve now follows each (module, glob, name) once.
    resolver = _dense_glob_resolver(12)
    steps = 0
    walk = Resolver._glob_lookup

    def counted(self: Resolver, *args: Any) -> str | None:
        nonlocal steps
        steps += 1
        return walk(self, *args)

    monkeypatch.setattr(Resolver, "_glob_lookup", counted)
    assert resolver.resolve(f"{CRATE}::m0", "Missing") == "Missing"  # not in the crate
    assert steps <= 12 * 12
    steps = 0
    assert resolver.resolve(f"{CRATE}::m0", "Found") == f"{CRATE}::m11::Found"
    assert resolver.resolve(f"{CRATE}::m3", "m11::Found") == f"{CRATE}::m11::Found"
    assert steps <= 2 * 12 * 12


def test_a_glob_cycle_does_not_hide_a_name_another_glob_gives() -> None:
    resolver = _dense_glob_resolver(4)
    # m0 → m1 → m0 is cut, m0 → m1 → m3 finds it: the cut step is not a lasting "no".
    assert resolver.resolve(f"{CRATE}::m1", "Found") == f"{CRATE}::m3::Found"
    assert resolver.resolve(f"{CRATE}::m0", "Nope") == "Nope"
