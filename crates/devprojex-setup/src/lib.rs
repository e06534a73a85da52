//! `devprojex setup`: register the MCP server in each client's config without damaging it.
#![allow(missing_docs)]
pub mod client;
pub mod edit;
pub mod entry;
pub mod env;
pub mod error;
