use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Terminal {
    pub id: String,
}

#[derive(Serialize, Deserialize)]
pub struct Agent {
    pub id: String,
    pub name: String,
}

/// Tagged variants first; a value no tagged variant reads goes to the untagged ones, in
/// order (serde's #[serde(untagged)] on a variant).
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Auth {
    Terminal(Terminal),
    Boolean { value: bool },
    #[serde(untagged)]
    Agent(Agent),
}

/// Unit variants and one untagged Other(String): an open string enum.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Mode,
    ModelConfig,
    #[serde(untagged)]
    Other(String),
}
