use serde::{Deserialize, Serialize};

/// Method names as constants, gathered in tables named after the role that handles them.
pub struct AgentMethodNames {
    pub initialize: &'static str,
    pub cancel: &'static str,
    pub echo: &'static str,
}

pub const AGENT_METHOD_NAMES: AgentMethodNames = AgentMethodNames {
    initialize: INITIALIZE_METHOD_NAME,
    cancel: CANCEL_METHOD_NAME,
    echo: "echo",
};

pub const CLIENT_METHOD_NAMES: ClientMethodNames = ClientMethodNames {
    update: UPDATE_NOTIFICATION,
};

pub struct ClientMethodNames {
    pub update: &'static str,
}

pub(crate) const INITIALIZE_METHOD_NAME: &str = "initialize";
pub(crate) const CANCEL_METHOD_NAME: &str = "session/cancel";
pub(crate) const UPDATE_NOTIFICATION: &str = "session/update";

/// schemars annotations name the method and the side that handles it.
#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", schemars(extend("x-side" = "agent", "x-method" = INITIALIZE_METHOD_NAME)))]
pub struct InitializeRequest {
    pub version: u16,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", schemars(extend("x-side" = "agent", "x-method" = INITIALIZE_METHOD_NAME)))]
pub struct InitializeResponse {
    pub version: u16,
}

#[derive(Serialize, Deserialize)]
pub struct CancelNotification {
    pub session: String,
}

#[derive(Serialize, Deserialize)]
pub struct EchoRequest {
    pub text: String,
}

#[derive(Serialize, Deserialize)]
pub struct EchoResponse {
    pub text: String,
}

#[derive(Serialize, Deserialize)]
pub struct UpdateNotification {
    pub line: String,
}

/// Routing enums: the kind of each method (a request or a notification) and its params.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClientRequest {
    InitializeRequest(InitializeRequest),
    EchoRequest(EchoRequest),
}

impl ClientRequest {
    pub fn method(&self) -> &str {
        match self {
            Self::InitializeRequest(_) => AGENT_METHOD_NAMES.initialize,
            Self::EchoRequest(_) => AGENT_METHOD_NAMES.echo,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClientNotification {
    CancelNotification(CancelNotification),
}

impl ClientNotification {
    pub fn method(&self) -> &str {
        match self {
            Self::CancelNotification(_) => AGENT_METHOD_NAMES.cancel,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum AgentNotification {
    UpdateNotification(UpdateNotification),
}

impl AgentNotification {
    pub fn method(&self) -> &str {
        match self {
            Self::UpdateNotification(_) => CLIENT_METHOD_NAMES.update,
        }
    }
}
