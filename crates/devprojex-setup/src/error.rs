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
    /// An entry of the same name exists and differs from what setup writes; `--force` replaces it.
    #[error(
        "{path}: the entry \"{name}\" differs from what setup writes (changed by hand, written with other flags, or another server); it was left untouched (pass --force to replace it)"
    )]
    Conflict {
        /// The config file.
        path: PathBuf,
        /// The entry name.
        name: String,
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
        }
    }

    /// The process exit code for this error: 2 for usage errors, 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            SetupError::Usage(_) | SetupError::NotATerminal => 2,
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
