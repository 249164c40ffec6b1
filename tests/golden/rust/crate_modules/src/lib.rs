//! A crate: lib.rs declares the modules; `mod` finds their files as rustc does.
pub mod v1;
mod util;
pub use util::*;

#[cfg(test)]
mod tests;

/// Declarations outside types and method tables are skipped.
pub fn helper() -> u8 {
    1
}
