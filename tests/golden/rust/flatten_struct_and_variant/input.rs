#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Inner {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_note: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outer {
    pub first: u8,
    #[serde(flatten)]
    pub inner: Inner,
    pub last: u8,
    #[serde(flatten)]
    pub rest: HashMap<String, serde_json::Value>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Wrapped {
    #[serde(rename_all = "camelCase")]
    Diff {
        #[serde(flatten)]
        diff: Inner,
    },
}
