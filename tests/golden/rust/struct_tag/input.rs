use serde::{Deserialize, Serialize};

/// serde writes the struct's name under the tag and never reads that key's value.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type")]
pub struct Ping {
    pub n: u8,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename = "pong")]
pub struct Pong {
    pub n: u8,
}
