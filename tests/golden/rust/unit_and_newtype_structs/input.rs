use semver::Version;
use std::path::PathBuf;

#[derive(Serialize, Deserialize)]
pub struct Unit;

#[derive(Serialize, Deserialize)]
pub struct Empty {}

#[derive(Serialize, Deserialize)]
pub struct ToolCallId(pub u64);

#[derive(Serialize, Deserialize)]
pub struct Pair(pub i32, pub String);

#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProtocolVersion(Version);

#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct Wrapper {
    inner: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
pub struct Library {
    pub path: PathBuf,
    pub version: semver::Version,
    pub value: serde_json::Value,
    pub raw: Box<serde_json::value::RawValue>,
    pub name: &'static str,
    pub bytes: [u8; 2],
    pub pair: (f32, f64),
    pub map: BTreeMap<String, i8>,
    pub set: HashSet<u16>,
}
