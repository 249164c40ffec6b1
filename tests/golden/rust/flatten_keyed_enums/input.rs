// Enums of every representation flattened into a struct (issue 31; schemars'
// enums_flattened and enums_option_flattened suites): an externally tagged enum's variant
// name becomes a key of the struct, an adjacently tagged enum's tag and content keys join
// the struct's, a Value payload is every key left, an untagged unit adds no key, and an
// Option<Enum> is None when the enum does not read.  wire.json leaves out what Debian's serde
// 1.0.152 cannot write (a flattened unit or tuple variant of an externally tagged enum: "can
// only flatten structs and maps"); newer serde writes `"Unit1": null`, as we do.
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize, Deserialize)]
pub struct Empty {}

#[derive(Serialize, Deserialize)]
pub enum External {
    Unit1,
    Int(u32),
    Pair(u8, bool),
    Named { foo: i32 },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Unit2,
    Text(String),
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum Loose {
    Shaped { bar: bool },
    Rest(Value),
}

#[derive(Serialize, Deserialize)]
pub struct Container {
    pub f: u8,
    #[serde(flatten)]
    pub e: External,
    #[serde(flatten)]
    pub a: Adjacent,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Closed {
    pub f: u8,
    #[serde(flatten)]
    pub e: External,
}

#[derive(Serialize, Deserialize)]
pub struct Maybe {
    pub f: u8,
    #[serde(flatten)]
    pub e: Option<External>,
}

#[derive(Serialize, Deserialize)]
pub struct Open {
    pub f: u8,
    #[serde(flatten)]
    pub l: Loose,
}
