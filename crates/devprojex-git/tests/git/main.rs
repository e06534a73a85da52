//! devprojex-git against real repositories made in temp folders: local state, remote sources
//! over a loopback HTTP server, and the `file://` jail.

#[path = "../common/mod.rs"]
mod common;

mod file_jail;
mod local;
mod remote;
