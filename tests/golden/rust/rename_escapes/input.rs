use serde::{Deserialize, Serialize};

/// rename values are Rust string literals: escapes are decoded, "" is a name.
#[derive(Serialize, Deserialize)]
pub struct Names {
    #[serde(rename = "a\"b\u{e9}\x41")]
    pub quoted: u8,
    #[serde(rename = "")]
    pub empty: u8,
    #[serde(rename = r#"raw"name"#)]
    pub raw: u8,
}
