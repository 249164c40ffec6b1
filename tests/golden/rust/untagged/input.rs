#[derive(Serialize, Deserialize)]
#[serde(untagged, rename_all = "camelCase")]
pub enum Chunk {
    Text { text: String },
    Path { path: PathBuf },
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Number(i64),
    Text(String),
    Nothing,
}
