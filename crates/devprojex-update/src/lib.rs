//! `devprojex self-update`: replace a standalone devprojex binary with a newer GitHub release.
//!
//! CONTRACT with the main binary: [`SelfUpdateArgs`] (clap `Args`) and [`run_self_update`]. The
//! main crate compiles this in behind its `self-update` cargo feature (default on), so packagers
//! can build without it.
//!
//! What an update does, in order:
//! 1. refuses when a package manager owns the binary ([`detect_install_method`]), naming the
//!    command that updates it instead (`brew upgrade devprojex`, `winget upgrade`, `apt`,
//!    `cargo install`);
//! 2. asks the releases API (`DEVPROJEX_UPDATE_API_BASE`, default GitHub's) for the latest
//!    release, or the one given with `--version`;
//! 3. asks for confirmation on a terminal, unless `--yes`; when stdin is not a terminal it never
//!    reads it and refuses without `--yes`;
//! 4. downloads the release archive for this build's target (`devprojex-TARGET.tar.gz`, or `.zip`
//!    on Windows, the cargo-dist names), verifies its sha256 against the release's
//!    `devprojex-TARGET.tar.gz.sha256` asset, and only then extracts it;
//! 5. stages the new binary beside the installed one and renames it into place (over the old
//!    file on Unix; on Windows the running image is renamed aside first and renamed back if the
//!    new one cannot take its place, see [`replace`]). A failure at any step leaves a working
//!    binary at the install path.
//!
//! The install path is the end of the running executable's link chain, each relative link
//! resolved against its own folder; paths are shown without Windows' `\\?\` prefix.
//!
//! Exit codes: 0 done (updated, already up to date, or `--check` answered); 1 the update failed
//! (network, missing asset, checksum mismatch, I/O); 2 refused (a package manager owns the
//! binary, or confirmation was needed and not given).

#![deny(unsafe_code)]

mod install_method;
pub mod replace;

pub use install_method::{
    DEB_BINARY, DPKG_LISTS, InstallMethod, detect_install_method, display_path,
};

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use self_update::backends::github;

/// GitHub repository that publishes the releases.
pub const REPO_OWNER: &str = "devprojex";
/// GitHub repository that publishes the releases.
pub const REPO_NAME: &str = "devprojex";
/// Environment variable that points the updater at another releases API (a mirror, a test server).
pub const API_BASE_ENV: &str = "DEVPROJEX_UPDATE_API_BASE";
/// GitHub's releases API.
pub const DEFAULT_API_BASE: &str = "https://api.github.com";

/// Arguments of `devprojex self-update`.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct SelfUpdateArgs {
    /// Only check whether a newer release exists; change nothing.
    #[arg(long)]
    pub check: bool,

    /// Update without asking for confirmation (required when stdin is not a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Install this release (for example 0.4.1 or v0.4.1) instead of the latest; may downgrade.
    #[arg(long = "version", id = "target_version", value_name = "VERSION")]
    pub version: Option<String>,
}

/// The cargo-dist archive name for a target triple: `devprojex-TARGET.tar.gz`, or `.zip` for
/// Windows targets.
pub fn archive_name(target: &str) -> String {
    if target.contains("windows") {
        format!("devprojex-{target}.zip")
    } else {
        format!("devprojex-{target}.tar.gz")
    }
}

/// Path of the executable inside [`archive_name`]: cargo-dist puts tarball contents under a
/// `devprojex-TARGET/` directory and zip contents at the root.
pub fn bin_path_in_archive(target: &str) -> String {
    if target.contains("windows") {
        "devprojex.exe".to_string()
    } else {
        format!("devprojex-{target}/devprojex")
    }
}

/// The release tag for a version the user typed: cargo-dist tags are `vX.Y.Z`.
fn tag_for(version: &str) -> String {
    let v = version.trim();
    let v = v.strip_prefix('v').unwrap_or(v);
    format!("v{v}")
}

/// Everything [`run_self_update`] takes from the process, made explicit so tests can drive the
/// whole flow against a loopback server and a scratch binary.
#[derive(Debug, Clone)]
pub struct UpdateContext {
    /// The binary to replace (the canonical path of the running executable).
    pub exe: PathBuf,
    /// Releases API base URL, without a trailing slash.
    pub api_base: String,
    /// Target triple whose archive is installed.
    pub target: String,
    /// How the binary was installed.
    pub method: InstallMethod,
    /// Whether stdin is a terminal (only then is it read, for the confirmation).
    pub interactive: bool,
}

impl UpdateContext {
    /// The context of the running process.
    pub fn from_process() -> std::io::Result<Self> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let exe = replace::install_target(&std::env::current_exe()?, &cwd, &|path: &Path| {
            std::fs::read_link(path).ok()
        });
        // Windows hands out `\\?\C:\...` for some launches; compare and show `C:\...`.
        let exe = PathBuf::from(display_path(&exe));
        let env = |name: &str| std::env::var_os(name);
        let method = detect_install_method(&exe, &env, &|p: &Path| p.exists());
        let api_base = std::env::var(API_BASE_ENV)
            .ok()
            .map(|s| s.trim().trim_end_matches('/').to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| DEFAULT_API_BASE.to_string());
        Ok(Self {
            exe,
            api_base,
            target: self_update::get_target().to_string(),
            method,
            interactive: std::io::stdin().is_terminal(),
        })
    }
}

/// What happened, for the exit code and for tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `--check`: the newest release, and whether it is newer than the running one.
    Checked { latest: String, newer: bool },
    /// Nothing to do.
    UpToDate { latest: String },
    /// The binary was replaced by this version.
    Updated { version: String },
    /// Not done; the message says why and what to run instead.
    Refused(String),
}

/// Errors of an update attempt. Each message says what to do.
#[derive(Debug)]
pub struct UpdateError(String);

impl std::fmt::Display for UpdateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UpdateError {}

fn describe(err: self_update::errors::Error) -> UpdateError {
    use self_update::errors::Error;
    let text = err.to_string();
    UpdateError(match err {
        Error::ChecksumMismatch { .. } => format!(
            "the downloaded archive does not match the release's published sha256; \
             nothing was installed ({text})"
        ),
        Error::ChecksumSourceInvalid { .. } => format!(
            "the release publishes no usable sha256 for this archive, so it cannot be verified; \
             nothing was installed ({text})"
        ),
        _ => format!("self-update failed; the installed binary is unchanged ({text})"),
    })
}

/// Run `devprojex self-update` for the running binary. `current_version` is the running
/// binary's version (`env!("CARGO_PKG_VERSION")` of the main crate).
pub fn run_self_update(args: SelfUpdateArgs, current_version: &str) -> ExitCode {
    let ctx = match UpdateContext::from_process() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("error: cannot locate the running devprojex binary: {e}");
            return ExitCode::from(1);
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_with(&args, current_version, &ctx, &mut input, &mut out) {
        Ok(Outcome::Refused(msg)) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The whole self-update flow over an explicit context. `input` is read only when
/// `ctx.interactive` and not `args.yes`; messages go to `out`.
pub fn run_with(
    args: &SelfUpdateArgs,
    current_version: &str,
    ctx: &UpdateContext,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Outcome, UpdateError> {
    let io_err = |e: std::io::Error| UpdateError(format!("cannot write output: {e}"));

    // A package manager's binary is never replaced, and is not even looked up unless asked.
    if let Some(command) = ctx.method.update_command()
        && !args.check
    {
        return Ok(Outcome::Refused(format!(
            "devprojex at {} was installed by {}; self-update leaves it alone. Update it with:\n    {command}",
            display_path(&ctx.exe),
            ctx.method
        )));
    }

    let latest = fetch_release(ctx, args.version.as_deref())?;
    let newer = is_newer(&latest, current_version);

    if args.check {
        if newer {
            writeln!(
                out,
                "devprojex {latest} is available (this is {current_version})."
            )
            .map_err(io_err)?;
            match ctx.method.update_command() {
                Some(command) => writeln!(out, "Update it with: {command}").map_err(io_err)?,
                None => writeln!(out, "Update it with: devprojex self-update").map_err(io_err)?,
            }
        } else {
            writeln!(
                out,
                "devprojex {current_version} is up to date (latest release: {latest})."
            )
            .map_err(io_err)?;
        }
        return Ok(Outcome::Checked { latest, newer });
    }

    // Without `--version`, only move forward; with it, install exactly what was asked.
    if args.version.is_none() && !newer {
        writeln!(
            out,
            "devprojex {current_version} is up to date (latest release: {latest})."
        )
        .map_err(io_err)?;
        return Ok(Outcome::UpToDate { latest });
    }
    if args.version.is_some() && latest == current_version.trim_start_matches('v') {
        writeln!(out, "devprojex {current_version} is already installed.").map_err(io_err)?;
        return Ok(Outcome::UpToDate { latest });
    }

    if !args.yes {
        if !ctx.interactive {
            return Ok(Outcome::Refused(format!(
                "devprojex {latest} is available, but stdin is not a terminal so I cannot ask \
                 before replacing {}. Run `devprojex self-update --yes` to update without asking.",
                display_path(&ctx.exe)
            )));
        }
        write!(
            out,
            "Replace {} ({current_version}) with devprojex {latest}? [y/N] ",
            display_path(&ctx.exe)
        )
        .map_err(io_err)?;
        out.flush().map_err(io_err)?;
        let mut answer = String::new();
        input
            .read_line(&mut answer)
            .map_err(|e| UpdateError(format!("cannot read the answer: {e}")))?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            return Ok(Outcome::Refused(
                "Update cancelled; nothing was changed.".to_string(),
            ));
        }
    }

    writeln!(
        out,
        "Downloading {} for devprojex {latest}...",
        archive_name(&ctx.target)
    )
    .map_err(io_err)?;
    install_release(ctx, &tag_for(&latest), current_version)?;
    writeln!(
        out,
        "Updated {} to devprojex {latest}.",
        display_path(&ctx.exe)
    )
    .map_err(io_err)?;
    Ok(Outcome::Updated { version: latest })
}

fn is_newer(latest: &str, current: &str) -> bool {
    match (
        semver::Version::parse(latest.trim_start_matches('v')),
        semver::Version::parse(current.trim_start_matches('v')),
    ) {
        (Ok(l), Ok(c)) => l > c,
        _ => latest.trim_start_matches('v') != current.trim_start_matches('v'),
    }
}

fn builder(
    ctx: &UpdateContext,
    current_version: &str,
    install_path: &Path,
) -> github::UpdateBuilder {
    let mut b = github::Update::configure();
    b.repo_owner(REPO_OWNER)
        .repo_name(REPO_NAME)
        .api_base_url(ctx.api_base.clone())
        .bin_name("devprojex")
        .target(ctx.target.clone())
        .current_version(current_version)
        .bin_install_path(install_path)
        .bin_path_in_archive(bin_path_in_archive(&ctx.target))
        // We asked (or were told `--yes`) already: the crate must never read stdin.
        .no_confirm(true)
        .show_output(false)
        .show_download_progress(false)
        .timeout(std::time::Duration::from_secs(120));
    b
}

/// The version of the latest release, or of the release tagged for `version`.
fn fetch_release(ctx: &UpdateContext, version: Option<&str>) -> Result<String, UpdateError> {
    let updater = builder(ctx, "0.0.0", &ctx.exe).build().map_err(describe)?;
    let release = match version {
        Some(v) => updater.get_release_version(&tag_for(v)).map_err(describe)?,
        None => {
            let releases = updater.get_latest_release().map_err(describe)?;
            releases
                .latest()
                .cloned()
                .ok_or_else(|| UpdateError("the releases API lists no release".to_string()))?
        }
    };
    Ok(release.version().trim_start_matches('v').to_string())
}

/// Download, verify and install the release tagged `tag`.
fn install_release(
    ctx: &UpdateContext,
    tag: &str,
    current_version: &str,
) -> Result<(), UpdateError> {
    let asset = archive_name(&ctx.target);
    let wanted = asset.clone();
    // self_update downloads, verifies and extracts into a staging file beside the binary (never
    // the running executable itself: its replace would not survive a failure midway on Windows);
    // `replace` then puts it in place.
    let staged = replace::staging_path(&ctx.exe);
    let mut b = builder(ctx, current_version, &staged);
    b.release_tag(tag)
        // Exactly our archive: the `.sha256` sidecar also contains the target in its name.
        .asset_matcher(move |assets| assets.iter().find(|a| a.name() == wanted).cloned())
        // cargo-dist publishes `<archive>.sha256` next to each archive.
        .checksum_from_asset(format!("{asset}.sha256"));
    let updater = b.build().map_err(describe)?;
    let status = updater.update().map_err(|err| {
        let _ = std::fs::remove_file(&staged);
        describe(err)
    })?;
    if !status.is_updated() || !staged.exists() {
        let _ = std::fs::remove_file(&staged);
        return Err(UpdateError(format!(
            "the release archive was not installed; {} is unchanged",
            display_path(&ctx.exe)
        )));
    }
    let unique = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    replace::replace_executable(
        &ctx.exe,
        &staged,
        replace::Strategy::for_this_platform(),
        unique,
        &replace::RealFs,
    )
    .map_err(|err| UpdateError(format!("self-update failed: {err}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser, Subcommand};

    // The main CLI propagates its version to subcommands; `self-update` must opt out of the
    // propagated `--version` flag because its own `--version VERSION` picks the release.
    #[derive(Parser)]
    #[command(name = "devprojex", version, propagate_version = true)]
    struct Cli {
        #[command(subcommand)]
        command: Cmd,
    }

    #[derive(Subcommand)]
    enum Cmd {
        #[command(disable_version_flag = true)]
        SelfUpdate(SelfUpdateArgs),
    }

    #[test]
    fn args_fit_a_versioned_parent_command() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "devprojex",
            "self-update",
            "--check",
            "--version",
            "v1.2.3",
            "-y",
        ])
        .unwrap();
        let Cmd::SelfUpdate(args) = cli.command;
        assert_eq!(
            args,
            SelfUpdateArgs {
                check: true,
                yes: true,
                version: Some("v1.2.3".into())
            }
        );
    }

    #[test]
    fn archive_names_follow_cargo_dist() {
        assert_eq!(
            archive_name("x86_64-unknown-linux-gnu"),
            "devprojex-x86_64-unknown-linux-gnu.tar.gz"
        );
        assert_eq!(
            archive_name("aarch64-apple-darwin"),
            "devprojex-aarch64-apple-darwin.tar.gz"
        );
        assert_eq!(
            archive_name("x86_64-pc-windows-msvc"),
            "devprojex-x86_64-pc-windows-msvc.zip"
        );
        assert_eq!(
            bin_path_in_archive("x86_64-unknown-linux-musl"),
            "devprojex-x86_64-unknown-linux-musl/devprojex"
        );
        assert_eq!(
            bin_path_in_archive("aarch64-pc-windows-msvc"),
            "devprojex.exe"
        );
    }

    #[test]
    fn tags_and_versions() {
        assert_eq!(tag_for("1.2.3"), "v1.2.3");
        assert_eq!(tag_for("v1.2.3"), "v1.2.3");
        assert!(is_newer("0.2.0", "0.1.9"));
        assert!(!is_newer("0.1.0", "0.1.0"));
        assert!(!is_newer("0.1.0", "0.2.0"));
        assert!(is_newer("v1.0.0", "0.9.0"));
    }

    #[test]
    fn managed_installs_are_refused_before_any_request() {
        let ctx = UpdateContext {
            exe: PathBuf::from("/opt/homebrew/Cellar/devprojex/0.1.0/bin/devprojex"),
            // Nothing listens here: a request would fail, so a refusal proves none was made.
            api_base: "http://127.0.0.1:9".into(),
            target: "aarch64-apple-darwin".into(),
            method: InstallMethod::Homebrew,
            interactive: false,
        };
        let mut out = Vec::new();
        let outcome = run_with(
            &SelfUpdateArgs::default(),
            "0.1.0",
            &ctx,
            &mut &b""[..],
            &mut out,
        )
        .unwrap();
        match outcome {
            Outcome::Refused(msg) => {
                assert!(msg.contains("brew upgrade devprojex"), "{msg}");
                assert!(msg.contains("Homebrew"), "{msg}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}
