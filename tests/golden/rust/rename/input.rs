#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    #[serde(rename = "ID")]
    pub id: u32,
    pub r#type: String,
    #[serde(rename(serialize = "outName", deserialize = "inName"))]
    pub asymmetric: bool,
}

#[derive(Serialize, Deserialize)]
pub enum Mode {
    #[serde(rename = "read-only")]
    ReadOnly,
    ReadWrite,
}
