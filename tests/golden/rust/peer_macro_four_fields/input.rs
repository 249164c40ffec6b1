use serde::{Deserialize, Serialize};

macro_rules! acp_peer {
    ($handler:ident, $req:ident, $any_req:ident, $any_res:ident, $map:ident,
     $(($method:ident, $string:expr, $params:ident, $response:ident)),* $(,)?) => {};
}

#[derive(Serialize, Deserialize)]
pub struct InitializeParams {
    pub version: u16,
}

#[derive(Serialize, Deserialize)]
pub struct InitializeResponse {
    pub ok: bool,
}

/// The early form: (method_fn, "wireName", Params, Response), payloads always present.
acp_peer!(
    Agent,
    AgentRequest,
    AnyAgentRequest,
    AnyAgentResult,
    AGENT_METHODS,
    (initialize, "initialize", InitializeParams, InitializeResponse),
);
