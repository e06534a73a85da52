//! Detail levels (`full`, `compact`, `signatures`) for devprojex, with tree-sitter.
//!
//! CONTRACT (the main crate codes against exactly this API; keep it stable):
//! - `Detail` enum, ordered `Full < Compact < Signatures`; `Detail::parse("full"|"compact"|"signatures")`.
//! - `transform(path: &str, text: &str, detail: Detail) -> Cow<str>`: `path` is the project-relative
//!   path with `/` (language chosen from the file name/extension). Unsupported languages and files
//!   whose parse has too many errors come back unchanged (borrowed).
//! - `language_name(path) -> Option<&'static str>`.

use std::borrow::Cow;

/// How much code reduction to apply. Ordered: a larger value reduces more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Detail {
    #[default]
    Full,
    Compact,
    Signatures,
}

impl Detail {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "full" => Some(Self::Full),
            "compact" => Some(Self::Compact),
            "signatures" => Some(Self::Signatures),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Compact => "compact",
            Self::Signatures => "signatures",
        }
    }
}

/// PLACEHOLDER until the detail issue lands: returns the text unchanged.
pub fn transform<'a>(_path: &str, text: &'a str, _detail: Detail) -> Cow<'a, str> {
    Cow::Borrowed(text)
}

/// The language devprojex would use for this path, if supported.
pub fn language_name(_path: &str) -> Option<&'static str> {
    None
}
