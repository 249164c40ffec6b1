use serde::{Deserialize, Serialize};

/// #[serde(other)]: any other string reads as the catch-all, written as its own name.
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Read,
    SwitchMode,
    #[default]
    #[serde(other)]
    Other,
}

/// In an internally tagged enum: any other tag reads as the catch-all unit variant.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Started { at: u32 },
    #[serde(other)]
    Unknown,
}

#[derive(Serialize, Deserialize)]
pub struct Tool {
    #[serde(default, skip_serializing_if = "Kind::is_default")]
    pub kind: Kind,
}

impl Kind {
    fn is_default(&self) -> bool {
        matches!(self, Kind::Other)
    }
}
