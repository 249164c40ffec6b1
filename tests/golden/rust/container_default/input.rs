use serde::{Deserialize, Serialize};

/// #[serde(default)] on the container: a missing field takes its value from the
/// container's Default, here a hand-written one.
#[derive(Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Settings {
    pub retries: u8,
    pub mode: Mode,
    pub label: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            retries: 3,
            mode: Mode::Fast,
            label: "x".into(),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Slow,
    Fast,
}

fn default_limit() -> u32 {
    10
}

#[derive(Serialize, Deserialize)]
pub struct Limits {
    #[serde(default = "default_limit")]
    pub limit: u32,
}
