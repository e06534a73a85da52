//! The security invariants tried as an attacker would, through the built binary and the engine:
//! the root jail and special files, paths in every platform's spelling, remote sources and Git
//! scopes, credential shapes, and a search prefilter that changes no result.

#[path = "../common/mod.rs"]
mod common;

mod jail;
mod oracles;
mod platform_paths;
mod redaction_layers;
mod redaction_shapes;
mod remote_jail;
mod search_prefilter;
mod symbol_oracle;
