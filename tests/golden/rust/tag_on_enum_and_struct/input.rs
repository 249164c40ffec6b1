#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Content {
    Markdown { markdown: String },
    Image(ImageData),
    Empty,
}

#[derive(Serialize, Deserialize)]
pub struct ImageData {
    pub uri: String,
}

/// serde writes {"type": "PushResponse", "id": ...} and ignores "type" when reading.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub struct PushResponse {
    pub id: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename = "renamed-struct")]
pub struct Renamed {
    pub a: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Num(i32),
    Unit,
}

#[derive(Serialize, Deserialize)]
pub enum External {
    Num(i32),
    Pair(u8, u8),
    Named { x: f64 },
    Unit,
}
