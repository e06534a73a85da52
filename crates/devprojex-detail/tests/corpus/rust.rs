#!/usr/bin/env rust
//! Crate doc.

/* block /* nested */ still comment */
use std::fmt; // trailing

/// Doc for Foo.
#[derive(Debug)]
pub struct Foo {
    /// field doc
    pub a: u32, // c


    b: String,
}

const S: &str = "// not a comment /* nor this */";
const R: &str = r#"raw "// here"

with blank line above"#;

impl Foo {
    /// New.
    pub fn new() -> Self {
        // body comment
        let x = 1;

        Self { a: x, b: String::new() }
    }
    fn one(&self) -> u32 { self.a }
}

fn main() {
	let v = a/* x */+b;
}

/** Outer block doc. */
pub trait T {
    /// Required.
    fn req(&self) -> u8;
    fn provided(&self) -> u8 {
        let s = "}"; // brace in string
        0
    }
}

macro_rules! m {
    ($x:expr) => {
        $x + 1 // inside macro
    };
}

fn chars() {
    let c = '"';
    let b = b'/';
    let s = "\"// still string";
}
