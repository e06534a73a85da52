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
    pub fn new() -> Self { /* ... */ }
    fn one(&self) -> u32 { self.a }
}
fn main() { /* ... */ }
/** Outer block doc. */
pub trait T {
    /// Required.
    fn req(&self) -> u8;
    fn provided(&self) -> u8 { /* ... */ }
}
macro_rules! m {
    ($x:expr) => { /* ... */ };
}
fn chars() { /* ... */ }
/// Summary of `documented`, which
/// spans two lines.
#[inline]
pub fn documented() -> u32 { /* ... */ }
///
/// Leading blank doc line, then the summary.
pub struct LeadingBlank;
/// ```
/// // A fence first: the example is the summary.
///
/// let y = 2;
/// ```
pub struct FenceFirst;
/**
 * Block doc summary.
 */
pub struct BlockDoc;
/** Block doc on one line, then
    details after a blank line: */
pub struct BlockDocInline;
pub mod inner {
    //! Inner doc summary.
}
#[cfg(test)]
#[allow(unused)]
mod tests { /* ... */ }
#[cfg(not(test))]
mod not_tests {
    pub fn kept() -> u8 { /* ... */ }
}
/// Fills `dest`.
pub fn fill(dest: &mut [u8]) -> Result<(), ()> { /* ... */ }
#[cfg(test)]
#[cfg(feature = "extra")]
mod more_tests { /* ... */ }
