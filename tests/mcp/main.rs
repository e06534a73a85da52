//! The MCP server, driven over stdio as a client drives it: raw JSON-RPC lines and a real rmcp
//! client against the built binary.

#[path = "../common/mod.rs"]
mod common;

mod agent_output;
mod answer_bounds;
mod backpressure;
mod client;
mod contract;
mod diffs;
mod pack_store;
mod packs;
mod protocol;
mod relevance;
mod roots;
mod symbols;
mod tool_results;
mod warm_caches;
