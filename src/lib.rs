//! devprojex: read-only project inspection and context packing for coding agents.
//!
//! The library is the engine shared by the CLI (`cli`) and the MCP server (`mcp`); see
//! `ARCHITECTURE.md` for the pipeline and where to change what.
#![deny(unsafe_code)]

pub mod args;
pub mod caches;
pub mod cli;
pub mod content;
pub mod coverage;
pub mod engine;
pub mod error;
pub mod facts;
pub mod gitstate;
pub mod grep;
pub mod limits;
pub mod mcp;
pub mod ordered;
pub mod prefilter;
pub mod profile;
#[allow(unsafe_code)]
pub mod project;
pub mod render;
pub mod select;
pub mod symbols;
pub mod tokens;
pub mod update_hint;
