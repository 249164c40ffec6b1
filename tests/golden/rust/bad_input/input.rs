use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "Title Case", frobnicate, deny_unknown_fields)]
pub struct Weird {
    #[serde(with = "my_module", alias = "other")]
    pub a: u8,
    pub b: SomeGeneric<u8, u16>,
    pub c: fn(u8) -> u8,
    pub d: other_crate::Thing,
    pub e: Undeclared,
    #[serde(skip)]
    pub hidden: u8,
}

#[derive(Serialize, Deserialize)]
#[serde(content = "c")]
pub enum BadEnum {
    A(u8, u8),
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum TupleInTagged {
    A(u8, u8),
}

#[derive(Serialize, Deserialize)]
pub struct Generic<T> {
    pub t: T,
}

impl Serialize for Weird {
    fn serialize() {}
}

lazy_static! { static ref X: u8 = 1; }

#[derive(Serialize, Deserialize)]
pub struct Weird {
    pub dup: u8,
}

pub struct Broken {
    a: u8,,
