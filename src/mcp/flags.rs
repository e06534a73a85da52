//! The server's startup flags (`devprojex mcp ...`): what the process serves and how.

use std::path::PathBuf;

use clap::Args;

use crate::args::{parse_encoding, parse_git_mode};
use crate::select::GitMode;
use crate::tokens::Encoding;

#[derive(Debug, Args)]
pub struct McpArgs {
    /// A project root to expose (repeatable).
    #[arg(long = "root", value_name = "PATH")]
    pub roots: Vec<PathBuf>,
    /// Also redact private data (e-mails, IPs, user and host names) in everything returned.
    #[arg(long = "hide-private-data")]
    pub hide_private_data: bool,
    /// Allow Git URLs as `project` (network is used only to clone).
    #[arg(long = "allow-remote")]
    pub allow_remote: bool,
    /// Baseline Git mode when a tool names no profile: none (alias off), gitignore, tracked.
    #[arg(long = "git-mode", value_name = "MODE", value_parser = parse_git_mode, default_value = "gitignore")]
    pub git_mode: GitMode,
    /// Exact tokens of this encoding in analyze (beside the estimate) and in pack_context's
    /// max_tokens (the complete document): o200k (GPT-4o and later) or cl100k (GPT-4).
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
}
