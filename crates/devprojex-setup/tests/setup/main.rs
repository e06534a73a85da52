//! devprojex-setup on client configurations in temp homes: behaviour, the CLI, the expected
//! edits, install links, layouts, line endings, paths, round trips, signals and snippets.

#[path = "../common/mod.rs"]
mod common;

mod behaviour;
mod cli;
mod concurrent;
mod golden;
mod install_links;
mod layouts;
mod line_endings;
mod paths;
mod roundtrip;
mod safety;
mod signals;
mod snippets;
mod uninstall;
