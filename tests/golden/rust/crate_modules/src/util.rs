pub type Meta = serde_json::Map<String, serde_json::Value>;
