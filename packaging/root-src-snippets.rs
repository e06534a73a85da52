// Snippets for src/cli/mod.rs (owned by the lead), for issue 10: the `self-update` subcommand.
// Requires the `self-update` feature and the optional `devprojex-update` dependency from
// packaging/root-cargo-snippets.toml.

// 1. In `enum Command`, next to `Completion(..)`. `disable_version_flag` is required: the CLI
//    has `propagate_version = true`, and `self-update --version VERSION` picks a release (clap's
//    debug assertions panic on the duplicate `--version` otherwise).
    /// Update this standalone devprojex to the latest release (sha256-verified).
    #[cfg(feature = "self-update")]
    #[command(
        disable_version_flag = true,
        after_help = "Examples:\n  devprojex self-update --check\n  devprojex self-update --yes\n  devprojex self-update --version 0.4.1\n\nHomebrew, winget, .deb and cargo installs are updated by their package manager; self-update names the command.\nExit codes: 0 done or up to date, 1 update failed (binary unchanged), 2 refused."
    )]
    SelfUpdate(devprojex_update::SelfUpdateArgs),

// 2. In `pub fn main()`, in the `match cli.command`:
        #[cfg(feature = "self-update")]
        Command::SelfUpdate(args) => {
            return devprojex_update::run_self_update(args, env!("CARGO_PKG_VERSION"));
        }

// 3. After adding it, regenerate the completions and man page shipped in the packages:
//      cargo build && scripts/generate-packaging-assets.sh
