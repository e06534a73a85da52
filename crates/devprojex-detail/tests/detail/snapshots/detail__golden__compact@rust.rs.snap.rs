#!/usr/bin/env rust
//! Crate doc.
//! # Example
//! A second block of the same doc, after a blank line.
use std::fmt;
/// Doc for Foo.
#[derive(Debug)]
pub struct Foo {
    /// field doc
    pub a: u32,
    b: String,
}
const S: &str = "// not a comment /* nor this */";
const R: &str = r#"raw "// here"

with blank line above"#;
impl Foo {
    /// New.
    pub fn new() -> Self {
        let x = 1;
        Self { a: x, b: String::new() }
    }
    fn one(&self) -> u32 { self.a }
}
fn main() {
	let v = a +b;
}
/** Outer block doc. */
pub trait T {
    /// Required.
    fn req(&self) -> u8;
    fn provided(&self) -> u8 {
        let s = "}";
        0
    }
}
macro_rules! m {
    ($x:expr) => {
        $x + 1
    };
}
fn chars() {
    let c = '"';
    let b = b'/';
    let s = "\"// still string";
}
/// Summary of `documented`, which
/// spans two lines.
///
/// ```
/// let x = 1;
///
/// assert_eq!(x, 1);
/// ```
///
/// Details after the example.
#[inline]
pub fn documented() -> u32 {
    1 + 1
}
///
/// Leading blank doc line, then the summary.
///
/// Details.
pub struct LeadingBlank;
/// ```
/// // A fence first: the example is the summary.
///
/// let y = 2;
/// ```
///
/// Details.
pub struct FenceFirst;
/**
 * Block doc summary.
 *
 * Block doc details.
 */
pub struct BlockDoc;
/** Block doc on one line, then
    details after a blank line:

    dropped. */
pub struct BlockDocInline;
pub mod inner {
    //! Inner doc summary.
    //!
    //! Inner doc details.
}
#[cfg(test)]
#[allow(unused)]
mod tests {
    use super::*;
    #[test]
    fn t() {
        assert_eq!(documented(), 2);
    }
}
#[cfg(not(test))]
mod not_tests {
    pub fn kept() -> u8 {
        1
    }
}
/// Fills `dest`.
///
/// # Errors
/// When it cannot.
pub fn fill(dest: &mut [u8]) -> Result<(), ()> {
    dest.fill(0);
    Ok(())
}
#[cfg(test)]
#[cfg(feature = "extra")]
mod more_tests {
    #[test]
    fn u() {
        assert_eq!(1, 1);
    }
}
