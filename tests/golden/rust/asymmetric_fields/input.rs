// Fields serde reads otherwise than it writes (issue 31; schemars' contract suite):
// rename per direction (rename_all too), alias, skip_serializing (read, never written),
// skip_deserializing (written, never read: an unknown key, refused by
// deny_unknown_fields), skip_serializing_if without a default (may be left out, but a
// reader requires it).
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all(serialize = "SCREAMING-KEBAB-CASE"))]
pub struct Open {
    #[serde(skip_deserializing)]
    pub read_only: bool,
    #[serde(skip_serializing)]
    pub write_only: bool,
    #[serde(rename(serialize = "ser_renamed", deserialize = "de_renamed"))]
    pub renamed: bool,
    #[serde(alias = "other", alias = "third")]
    pub aliased: u8,
    #[serde(skip_serializing_if = "is_false")]
    pub flag: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Closed {
    #[serde(skip_deserializing)]
    pub read_only: bool,
    #[serde(rename(deserialize = "inName"))]
    pub name: String,
}

fn is_false(value: &bool) -> bool {
    !*value
}
