use serde::{Deserialize, Serialize};

/// serde_json also reads a struct from an array of its fields' values, in order; a
/// trailing value may be missing only where the field has its own default.
#[derive(Serialize, Deserialize)]
pub struct Point {
    pub x: i32,
    #[serde(default)]
    pub y: i32,
    pub label: Option<String>,
}
