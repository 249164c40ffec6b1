use chrono::{DateTime, Utc};
use semver::Version;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Library types with string wire forms: semver's grammar is checked, chrono's
/// DateTime<Utc> is RFC 3339, PathBuf a string, f64 a binary float.
#[derive(Serialize, Deserialize)]
pub struct Release {
    pub version: Version,
    pub at: DateTime<Utc>,
    pub path: PathBuf,
    pub score: f64,
}
