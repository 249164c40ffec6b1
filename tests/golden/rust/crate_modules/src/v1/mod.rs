mod agent;
#[cfg(feature = "legacy")]
mod old;
pub use agent::*;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct SessionId(pub String);
