#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Presence {
    /// May be absent; serde never writes null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_be_absent: Option<String>,
    /// Always written, null for None; a missing key reads as None.
    pub always_written: Option<String>,
    pub nested: Option<Option<u8>>,
    pub list_of_options: Vec<Option<u8>>,
}
