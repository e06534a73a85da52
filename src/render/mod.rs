//! Rendering: trees and pack documents in Markdown, text, JSON and XML.

pub mod escape;
pub mod pack;
pub mod tree;

use serde::Serialize;

/// Output format of a tree or pack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Markdown,
    Text,
    Json,
    Xml,
}

impl Format {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "markdown" | "md" => Some(Self::Markdown),
            "text" | "txt" => Some(Self::Text),
            "json" => Some(Self::Json),
            "xml" => Some(Self::Xml),
            _ => None,
        }
    }

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub enum View {
    #[default]
    #[serde(rename = "tree-content")]
    TreeContent,
    #[serde(rename = "content")]
    Content,
    #[serde(rename = "tree")]
    Tree,
}

impl View {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "tree-content" => Some(Self::TreeContent),
            "content" => Some(Self::Content),
            "tree" => Some(Self::Tree),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::TreeContent => "tree-content",
            Self::Content => "content",
            Self::Tree => "tree",
        }
    }
}
