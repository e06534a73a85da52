//! The `devprojex` command line, driven as a user drives it: the built binary on fixture
//! projects in temp folders.

#[path = "../common/mod.rs"]
mod common;

mod commands;
mod exact_tokens;
mod get;
mod git_options;
mod outputs;
mod references;
mod relevance;
mod symbols;
