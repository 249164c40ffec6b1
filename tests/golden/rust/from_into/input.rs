use serde::{Deserialize, Serialize};

/// #[serde(from, into)]: the wire form is the named type's (an i32), whatever the enum.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(from = "i32", into = "i32")]
pub enum ErrorCode {
    ParseError,
    Other(i32),
}

impl From<i32> for ErrorCode {
    fn from(value: i32) -> Self {
        match value {
            -32700 => ErrorCode::ParseError,
            other => ErrorCode::Other(other),
        }
    }
}

impl From<ErrorCode> for i32 {
    fn from(value: ErrorCode) -> Self {
        match value {
            ErrorCode::ParseError => -32700,
            ErrorCode::Other(other) => other,
        }
    }
}

#[derive(Serialize, Deserialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}
