use serde::{Deserialize, Serialize};

/// A document color.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Color {
    Red,
    Green,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TextPart {
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ImagePart {
    pub data: String,
}

/// A part of a document, tagged by `type`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Part {
    Text(TextPart),
    Image(ImagePart),
}

/// Opens a document.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenParams {
    pub uri: String,
    pub display_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    pub part: Part,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OpenResult {
    pub ok: bool,
}

/// Asks the user a question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AskParams {
    pub question: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AskResult {
    pub color: Color,
}

acp_peer!(
    Server,
    ServerRequest,
    AnyServerRequest,
    AnyServerResult,
    SERVER_METHODS,
    (open, "open", OpenParams, true, OpenResult, true)
);

acp_peer!(
    Client,
    ClientRequest,
    AnyClientRequest,
    AnyClientResult,
    CLIENT_METHODS,
    (ask, "ask", AskParams, true, AskResult, true)
);
