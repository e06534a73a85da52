//! `devprojex profile ...`: the per-project `local` profile and portable profile files.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::error::{DpxError, ErrorKind, Result};
use crate::profile::{self, MAX_PROFILE_BYTES, Profile};
use crate::project::ProjectRoot;

#[derive(Debug, Subcommand)]
pub enum ProfileCommand {
    /// Print the project's local profile (or the built-in standard one when none is saved).
    #[command(after_help = "Example:\n  devprojex profile show .")]
    Show(ProjectArg),
    /// Save selection settings as the project's local profile.
    #[command(
        after_help = "Example:\n  devprojex profile save . --extensions rs toml --exclude-patterns 'tests/**' --detail compact"
    )]
    Save(SaveArgs),
    /// Write the local profile to a portable profile file.
    #[command(after_help = "Example:\n  devprojex profile export . -o .devprojex/profile.json")]
    Export(ExportArgs),
    /// Store a portable profile file as the project's local profile.
    #[command(after_help = "Example:\n  devprojex profile import team-profile.json .")]
    Import(ImportArgs),
    /// Check a profile file against the schema.
    #[command(after_help = "Example:\n  devprojex profile validate .devprojex/profile.json")]
    Validate(ValidateArgs),
    /// Delete the project's local profile.
    #[command(after_help = "Example:\n  devprojex profile reset .")]
    Reset(ProjectArg),
}

#[derive(Debug, Args)]
pub struct ProjectArg {
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub project: PathBuf,
}

#[derive(Debug, Args)]
pub struct SaveArgs {
    #[arg(default_value = ".")]
    pub project: PathBuf,
    /// Folders to keep.
    #[arg(long, num_args = 1..)]
    pub roots: Vec<String>,
    /// Extensions to keep (without the dot).
    #[arg(long, num_args = 1..)]
    pub extensions: Vec<String>,
    /// Files or folders to keep in addition to --roots.
    #[arg(long, num_args = 1..)]
    pub paths: Vec<String>,
    #[arg(long = "include-patterns", num_args = 1..)]
    pub include_patterns: Vec<String>,
    #[arg(long = "exclude-patterns", num_args = 1..)]
    pub exclude_patterns: Vec<String>,
    /// none (off), gitignore, tracked.
    #[arg(long = "git-mode")]
    pub git_mode: Option<String>,
    /// full, compact, signatures.
    #[arg(long)]
    pub detail: Option<String>,
    #[arg(long = "exclude-hidden-folders")]
    pub hidden_folders: bool,
    #[arg(long = "exclude-hidden-files")]
    pub hidden_files: bool,
    #[arg(long = "exclude-dot-folders")]
    pub dot_folders: bool,
    #[arg(long = "exclude-dot-files")]
    pub dot_files: bool,
    #[arg(long = "exclude-empty-folders")]
    pub empty_folders: bool,
    #[arg(long = "exclude-empty-files")]
    pub empty_files: bool,
    #[arg(long = "exclude-extensionless-files")]
    pub extensionless_files: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[arg(default_value = ".")]
    pub project: PathBuf,
    /// Destination file (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The portable profile file.
    pub file: PathBuf,
    #[arg(default_value = ".")]
    pub project: PathBuf,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    pub file: PathBuf,
}

fn open(project: &std::path::Path) -> Result<ProjectRoot> {
    ProjectRoot::open(project).map_err(|err| DpxError::invalid_arguments(err.message))
}

fn read_profile_file(file: &PathBuf) -> Result<Profile> {
    let meta = std::fs::metadata(file).map_err(|err| {
        DpxError::invalid_arguments(format!("cannot read '{}': {err}", file.display()))
    })?;
    if meta.len() > MAX_PROFILE_BYTES {
        return Err(DpxError::new(
            ErrorKind::InvalidProfile,
            format!(
                "'{}' is larger than 1 MiB; profiles must be small JSON documents",
                file.display()
            ),
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|err| {
        DpxError::invalid_arguments(format!("cannot read '{}': {err}", file.display()))
    })?;
    Profile::parse(&text, &format!("'{}'", file.display()))
}

fn write_local(root: &ProjectRoot, profile: &Profile) -> Result<PathBuf> {
    let path = profile::local_profile_path(root).ok_or_else(|| {
        DpxError::new(
            ErrorKind::OutputFailed,
            "no user configuration folder is available; set DEVPROJEX_CONFIG_DIR",
        )
    })?;
    let dir = path.parent().expect("profile paths have a folder");
    std::fs::create_dir_all(dir).map_err(|err| {
        DpxError::new(
            ErrorKind::OutputFailed,
            format!("cannot create '{}': {err}", dir.display()),
        )
    })?;
    let temp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|err| DpxError::new(ErrorKind::OutputFailed, err.to_string()))?;
    std::fs::write(temp.path(), profile.to_json())
        .map_err(|err| DpxError::new(ErrorKind::OutputFailed, err.to_string()))?;
    temp.persist(&path)
        .map_err(|err| DpxError::new(ErrorKind::OutputFailed, err.error.to_string()))?;
    Ok(path)
}

pub fn run(command: ProfileCommand) -> Result<ExitCode> {
    match command {
        ProfileCommand::Show(args) => {
            let root = open(&args.project)?;
            match profile::read_local(&root)? {
                Some(profile) => print!("{}", profile.to_json()),
                None => {
                    eprintln!(
                        "No local profile for '{}'; showing the built-in standard profile.",
                        root.address
                    );
                    print!("{}", Profile::standard().to_json());
                }
            }
        }
        ProfileCommand::Save(args) => {
            let root = open(&args.project)?;
            let mut profile = Profile::standard();
            profile.name = Some("local".into());
            profile.description = None;
            let s = &mut profile.selection;
            s.roots = args.roots;
            s.extensions = args.extensions;
            s.paths = args.paths;
            s.include_patterns = args.include_patterns;
            s.exclude_patterns = args.exclude_patterns;
            s.git_mode = args.git_mode;
            s.detail = args.detail;
            s.exclusions = crate::select::Exclusions {
                hidden_folders: args.hidden_folders,
                hidden_files: args.hidden_files,
                dot_folders: args.dot_folders,
                dot_files: args.dot_files,
                empty_folders: args.empty_folders,
                empty_files: args.empty_files,
                extensionless_files: args.extensionless_files,
            };
            // Validate through the same parser every reader uses.
            let profile = Profile::parse(&profile.to_json(), "the new local profile")?;
            let path = write_local(&root, &profile)?;
            eprintln!(
                "Saved the local profile of '{}' to {}.",
                root.address,
                path.display()
            );
        }
        ProfileCommand::Export(args) => {
            let root = open(&args.project)?;
            let profile = profile::read_local(&root)?.ok_or_else(|| {
                DpxError::new(
                    ErrorKind::InvalidProfile,
                    format!(
                        "no local profile is saved for '{}'; run 'devprojex profile save' first",
                        root.address
                    ),
                )
            })?;
            match args.output {
                Some(path) => {
                    std::fs::write(&path, profile.to_json()).map_err(|err| {
                        DpxError::new(
                            ErrorKind::OutputFailed,
                            format!("cannot write '{}': {err}", path.display()),
                        )
                    })?;
                    eprintln!("Exported the local profile to {}.", path.display());
                }
                None => print!("{}", profile.to_json()),
            }
        }
        ProfileCommand::Import(args) => {
            let root = open(&args.project)?;
            let profile = read_profile_file(&args.file)?;
            let path = write_local(&root, &profile)?;
            eprintln!(
                "Imported '{}' as the local profile of '{}' ({}).",
                args.file.display(),
                root.address,
                path.display()
            );
        }
        ProfileCommand::Validate(args) => {
            read_profile_file(&args.file)?;
            println!(
                "'{}' is a valid devprojex profile (schema version {}).",
                args.file.display(),
                profile::PROFILE_SCHEMA_VERSION
            );
        }
        ProfileCommand::Reset(args) => {
            let root = open(&args.project)?;
            match profile::local_profile_path(&root) {
                Some(path) if path.is_file() => {
                    std::fs::remove_file(&path).map_err(|err| {
                        DpxError::new(
                            ErrorKind::OutputFailed,
                            format!("cannot remove '{}': {err}", path.display()),
                        )
                    })?;
                    eprintln!("Removed the local profile of '{}'.", root.address);
                }
                _ => eprintln!("'{}' has no local profile; nothing to reset.", root.address),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
