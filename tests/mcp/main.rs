//! The MCP server, driven over stdio as a client drives it.

#[path = "../common/mod.rs"]
mod common;

mod contract;
mod tool_results;
