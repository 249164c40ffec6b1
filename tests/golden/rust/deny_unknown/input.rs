use serde::{Deserialize, Serialize};

/// deny_unknown_fields: a key the struct does not declare is an error.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Closed {
    pub a: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<u8>,
}
