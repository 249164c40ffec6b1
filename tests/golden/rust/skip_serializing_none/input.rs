use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// serde_with's skip_serializing_none: every Option field is left out when None, and a
/// reader takes null as absent; serialize_always keeps one written.
#[skip_serializing_none]
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Update {
    pub title: Option<String>,
    pub line: Option<u32>,
    #[serialize_always]
    pub cursor: Option<u32>,
    pub count: u32,
}
