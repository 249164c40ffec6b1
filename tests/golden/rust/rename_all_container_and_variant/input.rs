use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Camel {
    pub tool_call_id: u64,
    pub is_authenticated: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub struct Kebab {
    pub root_command: String,
}

// The container's rename_all renames the variants, not the fields of struct variants.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Confirmation {
    #[serde(rename_all = "camelCase")]
    RunCommand { root_command: String },
    PlainVariant { root_command: String },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "PascalCase")]
pub enum AllFields {
    FirstOne { some_field: u8 },
}
