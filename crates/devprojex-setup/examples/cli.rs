//! Try the setup front end without the main binary:
//! `HOME=$(mktemp -d) cargo run -p devprojex-setup --example cli -- setup --client all --dry-run`.
//! It acts on the real environment (HOME, APPDATA, ...), so point HOME somewhere harmless.

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(name = "devprojex")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    Setup(devprojex_setup::SetupArgs),
    Doctor(devprojex_setup::DoctorArgs),
}

fn main() -> ExitCode {
    match Cli::parse().cmd {
        Cmd::Setup(a) => devprojex_setup::run_setup(a),
        Cmd::Doctor(a) => devprojex_setup::run_doctor(a),
    }
}
