use serde::{Deserialize, Serialize};
use serde_with::{serde_as, skip_serializing_none, DefaultOnError, VecSkipError};

#[derive(Serialize, Deserialize, Default)]
pub struct Caps {
    #[serde(default)]
    pub fs: bool,
}

#[derive(Serialize, Deserialize)]
pub struct Item {
    pub id: u8,
}

/// serde_with's DefaultOnError and VecSkipError: a value that does not read becomes the
/// default, list items that do not read are dropped.
#[serde_as]
#[skip_serializing_none]
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lenient {
    #[serde_as(deserialize_as = "DefaultOnError")]
    #[serde(default)]
    pub caps: Caps,
    #[serde_as(deserialize_as = "DefaultOnError")]
    #[serde(default)]
    pub title: Option<String>,
    #[serde_as(deserialize_as = "DefaultOnError<VecSkipError<_, SkipListener>>")]
    #[serde(default)]
    pub items: Vec<Item>,
    #[serde_as(deserialize_as = "DefaultOnError<VecSkipError<_, SkipListener>>")]
    pub required_items: Vec<Item>,
}

type SkipListener = ();
