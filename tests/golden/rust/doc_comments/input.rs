/// First line of the struct docs.
///
/// Second paragraph, with `code`.
#[derive(Serialize, Deserialize)]
// an ordinary comment between attributes and the item is not a doc
#[serde(rename_all = "camelCase")]
pub struct Documented {
    /// The field's docs
    /// span two lines.
    pub field_one: String,
    #[doc = "Docs from an attribute."]
    pub field_two: String,
    #[deprecated(note = "use field_one")]
    pub old_field: String,
}

// Not a wire type: serde never sees it.
pub struct NotSerialized {
    pub x: u8,
}
