//! Typed errors with stable codes. Every code is listed in `docs/errors.md`.

use std::fmt;

/// Stable error codes. Callers match on these strings; never rename one.
pub mod codes {
    pub const INVALID_ARGUMENTS: &str = "DPX-MCP-INVALID-ARGUMENTS";
    pub const UNKNOWN_PROJECT: &str = "DPX-MCP-UNKNOWN-PROJECT";
    pub const ROOT_VIOLATION: &str = "DPX-MCP-ROOT-VIOLATION";
    pub const PATH_NOT_FOUND: &str = "DPX-MCP-PATH-NOT-FOUND";
    pub const INVALID_RANGE: &str = "DPX-MCP-INVALID-RANGE";
    pub const INVALID_PATTERN: &str = "DPX-MCP-INVALID-PATTERN";
    pub const PAYLOAD_TRUNCATED: &str = "DPX-MCP-PAYLOAD-TRUNCATED";
    pub const PROJECT_UNAVAILABLE: &str = "DPX-MCP-PROJECT-UNAVAILABLE";
    pub const PACK_EXPIRED: &str = "DPX-MCP-PACK-EXPIRED";
    pub const PACK_TOO_LARGE: &str = "DPX-MCP-PACK-TOO-LARGE";
    /// The pack store folder is not private to the current user (owner, mode, link, ACL).
    pub const PACK_STORE_UNSAFE: &str = "DPX-MCP-PACK-STORE-UNSAFE";
    /// The pack store folder or a session in it cannot be created or written.
    pub const PACK_STORE_UNAVAILABLE: &str = "DPX-MCP-PACK-STORE-UNAVAILABLE";
    pub const REMOTE_DISABLED: &str = "DPX-MCP-REMOTE-DISABLED";
    pub const REMOTE_FAILED: &str = "DPX-MCP-REMOTE-FAILED";
    pub const REMOTE_LIMIT: &str = "DPX-MCP-REMOTE-LIMIT";
    /// A file exists but cannot be read: permission denied, an I/O error, a symlink loop, a
    /// cloud placeholder, or it changed while being read.
    pub const UNREADABLE: &str = "DPX-MCP-UNREADABLE";
    /// A FIFO, socket or device (or a link to one): never opened for reading.
    pub const NOT_REGULAR_FILE: &str = "DPX-MCP-NOT-A-REGULAR-FILE";
    pub const GIT_STATE_DELETED: &str = "DPX-GIT-STATE-DELETED";
    /// Git errors as the CLI reports them; on the MCP surface they become `DPX-MCP-*` codes.
    pub const GIT_NOT_A_REPOSITORY: &str = "DPX-GIT-NOT-A-REPOSITORY";
    pub const GIT_INVALID_SCOPE: &str = "DPX-GIT-INVALID-SCOPE";
    pub const GIT_INVALID_REF: &str = "DPX-GIT-INVALID-REF";
    pub const GIT_STATE_UNAVAILABLE: &str = "DPX-GIT-STATE-UNAVAILABLE";
    /// Writing the requested output (a file or stdout) failed.
    pub const OUTPUT_FAILED: &str = "DPX-CLI-OUTPUT-FAILED";
    /// A profile document is malformed or invalid.
    pub const INVALID_PROFILE: &str = "DPX-PROFILE-INVALID";
}

/// An error that reaches a user or an agent: a stable code and an actionable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DpxError {
    pub code: &'static str,
    pub message: String,
}

impl DpxError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    pub fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_ARGUMENTS, message)
    }

    /// True when the error is the caller's input (CLI exit code 2).
    pub fn is_usage(&self) -> bool {
        matches!(
            self.code,
            codes::INVALID_ARGUMENTS
                | codes::INVALID_PATTERN
                | codes::INVALID_RANGE
                | codes::UNKNOWN_PROJECT
                | codes::INVALID_PROFILE
                | codes::GIT_INVALID_SCOPE
                | codes::GIT_INVALID_REF
        )
    }
}

impl fmt::Display for DpxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for DpxError {}

pub type Result<T, E = DpxError> = std::result::Result<T, E>;
