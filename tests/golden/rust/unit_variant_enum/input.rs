/// How a tool call ended.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Allow this one call
    Allow,
    AlwaysAllowMcpServer,
    #[serde(skip)]
    Internal,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Loud {
    LightBulb,
}
