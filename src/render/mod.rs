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
}

impl View {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TreeContent => "tree-content",
            Self::Content => "content",
            Self::Tree => "tree",
        }
    }
}
