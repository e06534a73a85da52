//! Rendering: trees and pack documents in Markdown, text, JSON and XML.

pub mod escape;
pub mod pack;
pub mod search;
pub mod tree;

use serde::{Deserialize, Serialize};

/// Output format of a tree or pack.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Markdown,
    Text,
    Json,
    Xml,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Text => "text",
            Self::Json => "json",
            Self::Xml => "xml",
        }
    }
}

/// What a pack contains.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum View {
    #[default]
    TreeContent,
    Content,
    Tree,
    // The unified diff of `git_scope` (an extension; needs a scope). A plain comment: a doc
    // comment would make the schema a `oneOf`.
    Diff,
}

impl View {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TreeContent => "tree-content",
            Self::Content => "content",
            Self::Tree => "tree",
            Self::Diff => "diff",
        }
    }
}

/// `text` with each line prefixed by its number (from `first`), right-aligned in six places, and
/// a tab: `cat -n`'s form, the one agents' own read tools show, so their edit tools take the
/// text after the tab as the line.
pub fn numbered_lines(text: &str, first: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (index, line) in text.split_inclusive('\n').enumerate() {
        out.push_str(&format!("{:>6}\t{line}", first + index));
    }
    out
}
