use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Select {
    pub current_value: String,
}

/// A tagged enum with an untagged fallback, flattened into a struct: serde writes the
/// struct's fields with the enum's tag and fields in place, and reads the enum from the
/// keys the struct's own fields do not take.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    Select(Select),
    Boolean { value: bool },
    #[serde(untagged)]
    Free { text: String },
}

#[derive(Serialize, Deserialize)]
pub struct Option_ {
    pub id: String,
    #[serde(flatten)]
    pub kind: Kind,
    pub name: String,
}
