#[derive(Serialize, Deserialize)]
pub struct A {
    pub name: String,
    pub size: u32,
}

#[derive(Serialize, Deserialize)]
pub struct B {
    pub name: String,
    pub size: String,
}

#[derive(Serialize, Deserialize)]
pub struct Both {
    #[serde(flatten)]
    pub a: A,
    #[serde(flatten)]
    pub b: B,
}
