use serde::{Deserialize, Serialize};

/// Compiled only with the legacy feature: left out.
#[derive(Serialize, Deserialize)]
pub struct Legacy {
    pub x: u8,
}
