/// Sent by the agent, handled by the client.
#[derive(Serialize, Deserialize)]
pub struct ShowParams {
    pub text: String,
}

#[derive(Serialize, Deserialize)]
pub struct ShowResponse;

/// Sent by the client, handled by the agent.
#[derive(Serialize, Deserialize)]
pub struct PingParams;

#[derive(Serialize, Deserialize)]
pub struct PingResponse {
    pub at: u64,
}

acp_peer!(
    Client,
    ClientRequest,
    AnyClientRequest,
    AnyClientResult,
    CLIENT_METHODS,
    (show, "show", ShowParams, true, ShowResponse, false)
);

acp_peer!(
    Agent,
    AgentRequest,
    AnyAgentRequest,
    AnyAgentResult,
    AGENT_METHODS,
    (ping, "ping", PingParams, false, PingResponse, true),
);
