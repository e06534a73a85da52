//! Typed errors with stable codes (`DPX-SETUP-...`), listed in `docs/setup.md`.

use std::path::PathBuf;

/// Everything that can go wrong in `devprojex setup` and `devprojex doctor`.
///
/// Each variant has a stable code (see [`SetupError::code`]) that scripts and the docs refer to.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The command line was inconsistent (for example a client that has no project scope).
    #[error("{0}")]
    Usage(String),
    /// Standard input is not a terminal and neither `--yes` nor `--dry-run` was given.
    #[error(
        "standard input is not a terminal, so setup cannot ask for confirmation: pass --yes to apply the changes or --dry-run to preview them"
    )]
    NotATerminal,
    /// No client was detected and none was named with `--client`.
    #[error(
        "no MCP client was detected (no config folder or executable found); name one with --client NAME (or --client all)"
    )]
    NoClients,
    /// A config file does not parse; it is left untouched.
    #[error(
        "{path}:{line}:{column}: cannot parse this {format} file: {message}; the file was left untouched, fix it and run setup again"
    )]
    Parse {
        /// The file that failed to parse.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// "JSON", "JSONC" or "TOML".
        format: &'static str,
        /// What the parser said.
        message: String,
    },
    /// The file parses but does not have the expected shape (e.g. the top level is an array).
    #[error("{path}: {message}; the file was left untouched")]
    Shape {
        /// The file with the unexpected shape.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The file is not valid UTF-8.
    #[error("{path}: the file is not valid UTF-8; the file was left untouched")]
    Encoding {
        /// The file that is not UTF-8.
        path: PathBuf,
    },
    /// An entry of the same name exists and differs from what setup writes; `--force` replaces
    /// (or, when removing, removes) it.
    #[error(
        "{path}: the entry \"{name}\" differs from what setup writes (changed by hand, written with other flags, or another server); it was left untouched (pass --force to {})",
        if *removing { "remove it anyway" } else { "replace it" }
    )]
    Conflict {
        /// The config file.
        path: PathBuf,
        /// The entry name.
        name: String,
        /// Whether setup was removing.
        removing: bool,
    },
    /// The config path is a symlink whose target does not exist.
    #[error(
        "{path}: the config is a symlink to {target}, which does not exist; the link was left untouched"
    )]
    DanglingSymlink {
        /// The symlink.
        path: PathBuf,
        /// Where it points.
        target: PathBuf,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {action} failed: {source}")]
    Io {
        /// The file involved.
        path: PathBuf,
        /// What was being done ("read", "write", ...).
        action: &'static str,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A required folder (home, app data) could not be determined from the environment.
    #[error("cannot locate the {what}: {hint}")]
    NoLocation {
        /// What could not be located.
        what: &'static str,
        /// Which variable to set.
        hint: &'static str,
    },
    /// The user answered "no" at the confirmation prompt.
    #[error("aborted: nothing was changed")]
    Aborted,
    /// A key on the way to the entry appears twice in a JSON object.
    #[error(
        "{path}: the key {key} appears more than once; JSON readers use only the last copy, so setup will not guess which one to edit: merge them into one and run setup again (the file was left untouched)"
    )]
    DuplicateKey {
        /// The config file.
        path: PathBuf,
        /// The duplicated key, quoted (`"mcpServers"`, `"projects"."/src/app"`).
        key: String,
    },
    /// The file changed between the plan and the write, and setup cannot ask again.
    #[error(
        "{path}: the file changed while setup was running (another program wrote it); it was left as that program wrote it: run setup again"
    )]
    Changed {
        /// The config file.
        path: PathBuf,
    },
    /// A client that starts servers outside the project needs `--root`.
    #[error(
        "{client} starts its MCP servers outside any project, so the entry needs the project folder: pass --root PATH (repeatable), or run setup in a terminal to be asked"
    )]
    NeedsRoot {
        /// The client's name.
        client: &'static str,
    },
    /// The running binary is a development build under a Cargo `target/` folder.
    #[error(
        "this devprojex is a development build ({exe}); entries pointing into target/ break on the next `cargo clean`: install devprojex, or pass --allow-dev-build to write it anyway"
    )]
    DevBuild {
        /// The running executable.
        exe: PathBuf,
    },
    /// Setup runs as root for another user (sudo), or the file belongs to someone else.
    #[error("{message}")]
    Ownership {
        /// What is wrong and what to do.
        message: String,
    },
    /// The config is read-only or locked; setup does not replace such a file.
    #[error("{path}: the file is {why}; setup does not replace it: {hint}")]
    ReadOnly {
        /// The config file.
        path: PathBuf,
        /// "read-only", "owned by another user", "locked by another program".
        why: String,
        /// What to do.
        hint: String,
    },
}

impl SetupError {
    /// The stable error code, e.g. `DPX-SETUP-PARSE`.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::Usage(_) => "DPX-SETUP-USAGE",
            SetupError::NotATerminal => "DPX-SETUP-NOT-A-TERMINAL",
            SetupError::NoClients => "DPX-SETUP-NO-CLIENTS",
            SetupError::Parse { .. } => "DPX-SETUP-PARSE",
            SetupError::Shape { .. } => "DPX-SETUP-SHAPE",
            SetupError::Encoding { .. } => "DPX-SETUP-ENCODING",
            SetupError::Conflict { .. } => "DPX-SETUP-CONFLICT",
            SetupError::DanglingSymlink { .. } => "DPX-SETUP-SYMLINK",
            SetupError::Io { .. } => "DPX-SETUP-IO",
            SetupError::NoLocation { .. } => "DPX-SETUP-NO-LOCATION",
            SetupError::Aborted => "DPX-SETUP-ABORTED",
            SetupError::DuplicateKey { .. } => "DPX-SETUP-DUPLICATE-KEY",
            SetupError::Changed { .. } => "DPX-SETUP-CHANGED",
            SetupError::NeedsRoot { .. } => "DPX-SETUP-NEEDS-ROOT",
            SetupError::DevBuild { .. } => "DPX-SETUP-DEV-BUILD",
            SetupError::Ownership { .. } => "DPX-SETUP-OWNERSHIP",
            SetupError::ReadOnly { .. } => "DPX-SETUP-READ-ONLY",
        }
    }

    /// The process exit code for this error: 2 for usage errors, 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            SetupError::Usage(_) | SetupError::NotATerminal | SetupError::NeedsRoot { .. } => 2,
            _ => 1,
        }
    }

    pub(crate) fn io(
        path: impl Into<PathBuf>,
        action: &'static str,
        source: std::io::Error,
    ) -> Self {
        SetupError::Io {
            path: path.into(),
            action,
            source,
        }
    }
}

/// Convenience alias.
pub type Result<T, E = SetupError> = std::result::Result<T, E>;

/// 1-based line and column of a byte offset in `text` (columns count characters).
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut line = 1;
    let mut col = 1;
    for (i, c) in text.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else if c != '\r' {
            col += 1;
        }
    }
    (line, col)
}
