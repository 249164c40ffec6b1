use serde::{Deserialize, Serialize};

use super::SessionId;
use crate::Meta;

/// A path through `super::`, a crate-root re-export through `crate::`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub session_id: SessionId,
    pub meta: Meta,
    pub other: crate::v1::agent::Other,
}

#[derive(Serialize, Deserialize)]
pub struct Other {
    pub x: u8,
}

impl Prompt {
    pub fn new(session_id: SessionId) -> Self {
        let Prompt { session_id, .. } = todo!();
    }
}
