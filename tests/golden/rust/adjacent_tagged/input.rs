use serde::{Deserialize, Serialize};

/// Adjacently tagged: serde steps over keys besides the tag and the content, and reads
/// a unit variant's content as `()` (absent or null).
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", content = "mode", rename_all = "kebab-case")]
pub enum Adj {
    Any,
    Data(u8),
    Pair(u8, u8),
    S { a: u8 },
}

/// With deny_unknown_fields another key is an error.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", content = "mode", deny_unknown_fields)]
pub enum AdjDeny {
    Any,
    Data(u8),
}
