use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "extra", serde(rename_all = "camelCase"))]
pub struct Request {
    pub session_id: String,
    #[cfg(feature = "unstable_a")]
    pub preview: bool,
    #[cfg(feature = "unstable_b")]
    pub beta: bool,
    #[cfg(not(feature = "unstable_a"))]
    pub stable_only: bool,
    #[cfg(all(feature = "unstable_a", any(feature = "unstable_b", feature = "extra")))]
    pub both: bool,
}

#[cfg(feature = "unstable_b")]
#[derive(Serialize, Deserialize)]
pub struct Beta {
    pub x: u8,
}

#[derive(Serialize, Deserialize)]
pub enum Mode {
    Fast,
    #[cfg(feature = "unstable_b")]
    Beta,
    #[cfg(test)]
    Test,
}
