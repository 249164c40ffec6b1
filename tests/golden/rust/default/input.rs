#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Defaults {
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub enabled: bool,
    #[serde(default)]
    pub names: Vec<String>,
    #[serde(default)]
    pub id: ToolCallId,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub no_default: Vec<String>,
}

#[derive(Serialize, Deserialize, Default)]
pub struct ToolCallId(pub u64);

#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
pub struct AllDefault {
    pub a: String,
}
