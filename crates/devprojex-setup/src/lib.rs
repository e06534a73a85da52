//! `devprojex setup` and `devprojex doctor`: register the devprojex MCP server in each client's
//! config without ever damaging it.
//!
//! The main binary embeds [`SetupArgs`] and [`DoctorArgs`] in its clap enum and dispatches to
//! [`run_setup`] and [`run_doctor`]. Everything underneath takes a [`SetupEnv`] (home, app-data
//! folders, `PATH`, current directory, target OS as a value), so the whole crate is testable
//! without the clients and without touching the real home folder.
//!
//! Safety guarantees (see `docs/setup.md`): edits keep comments, key order, indentation, line
//! endings, a BOM and every other entry; writes are atomic (temporary file in the same folder,
//! fsync, rename), keep permissions, and happen only if the file is unchanged since setup read
//! it; the bytes replaced are kept in devprojex's data folder; a file that does not parse, is
//! read-only or belongs to someone else is left untouched; a symlinked config is edited at its
//! target; an entry changed by hand is replaced only with `--force`.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod carry;
pub mod cli;
pub mod client;
pub mod edit;
pub mod entry;
pub mod env;
pub mod error;
pub mod fsio;
mod line_endings;
pub mod links;
mod merge;
pub mod plan;
pub mod replace;
pub mod root_guard;

use std::io::IsTerminal;
use std::process::ExitCode;

pub use cli::{
    ClientArg, DoctorArgs, Io, SetupArgs, SetupCommand, run_doctor_with, run_setup_with,
};
pub use client::{ClientId, Format, Scope};
pub use entry::{CommandPath, GitMode};
pub use env::{Os, SetupEnv};
pub use error::SetupError;
pub use plan::{Commands, Options};

fn with_process_io(f: impl FnOnce(&SetupEnv, &mut Io<'_>) -> u8) -> ExitCode {
    let env = SetupEnv::from_process();
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let mut io = Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        interactive,
    };
    ExitCode::from(f(&env, &mut io))
}

/// Runs `devprojex setup [...]` (including `devprojex setup status`) in the real process
/// environment. Exit codes: 0 ok, 1 failure, 2 usage.
pub fn run_setup(args: SetupArgs) -> ExitCode {
    fsio::install_signal_cleanup();
    with_process_io(|env, io| run_setup_with(&args, env, io))
}

/// Runs `devprojex doctor` in the real process environment. Exit codes: 0 ok, 1 problems found,
/// 2 usage.
pub fn run_doctor(args: DoctorArgs) -> ExitCode {
    with_process_io(|env, io| run_doctor_with(&args, env, io))
}
