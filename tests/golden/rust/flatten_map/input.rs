use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A flattened BTreeMap in the middle: its entries (every key the struct does not declare)
/// are written where it stands, in key order.
#[derive(Serialize, Deserialize)]
pub struct Extra {
    pub kind: String,
    #[serde(flatten)]
    pub fields: BTreeMap<String, serde_json::Value>,
    pub last: u8,
}

/// A BTreeMap field writes its keys in order; a HashMap keeps them as read here.
#[derive(Serialize, Deserialize)]
pub struct Maps {
    pub sorted: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "HashMap::is_empty")]
    pub env: HashMap<String, String>,
}
