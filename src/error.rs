//! Typed errors with stable codes. `ErrorKind` is the code; `DpxError` carries a kind, the
//! message a person reads, and the error that caused it. Callers match kinds, never text;
//! every decision about a kind (its code, whether it is the caller's mistake, its MCP form, its
//! row in `docs/errors.md`) is an exhaustive match, so a new kind does not compile until each
//! is made. `docs/errors.md`'s table is generated from here (a test fails when it drifts).

use std::sync::Arc;

/// What went wrong, as a stable code. Never rename a code: clients match on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `DPX-MCP-INVALID-ARGUMENTS`
    InvalidArguments,
    /// `DPX-MCP-UNKNOWN-PROJECT`
    UnknownProject,
    /// `DPX-MCP-ROOT-VIOLATION`
    RootViolation,
    /// `DPX-MCP-PATH-NOT-FOUND`
    PathNotFound,
    /// `DPX-MCP-UNREADABLE`
    Unreadable,
    /// `DPX-MCP-NOT-A-REGULAR-FILE`
    NotRegularFile,
    /// `DPX-MCP-INVALID-RANGE`
    InvalidRange,
    /// `DPX-MCP-INVALID-PATTERN`
    InvalidPattern,
    /// `DPX-MCP-PAYLOAD-TRUNCATED`
    PayloadTruncated,
    /// `DPX-MCP-PROJECT-UNAVAILABLE`
    ProjectUnavailable,
    /// `DPX-MCP-CANCELLED`
    Cancelled,
    /// `DPX-MCP-UNSAFE-ROOT`
    UnsafeRoot,
    /// `DPX-MCP-NO-ROOTS`
    NoRoots,
    /// `DPX-MCP-PACK-EXPIRED`
    PackExpired,
    /// `DPX-MCP-PACK-TOO-LARGE`
    PackTooLarge,
    /// `DPX-MCP-PACK-STORE-UNSAFE`
    PackStoreUnsafe,
    /// `DPX-MCP-PACK-STORE-UNAVAILABLE`
    PackStoreUnavailable,
    /// `DPX-MCP-REMOTE-DISABLED`
    RemoteDisabled,
    /// `DPX-MCP-REMOTE-FAILED`
    RemoteFailed,
    /// `DPX-MCP-REMOTE-LIMIT`
    RemoteLimit,
    /// `DPX-PROFILE-INVALID`
    InvalidProfile,
    /// `DPX-CLI-OUTPUT-FAILED`
    OutputFailed,
    /// `DPX-GIT-NOT-A-REPOSITORY`
    GitNotARepository,
    /// `DPX-GIT-INVALID-SCOPE`
    GitInvalidScope,
    /// `DPX-GIT-INVALID-REF`
    GitInvalidRef,
    /// `DPX-GIT-STATE-UNAVAILABLE`
    GitStateUnavailable,
}

impl ErrorKind {
    /// Every kind, in the order of `docs/errors.md`.
    pub const ALL: [ErrorKind; 26] = [
        Self::InvalidArguments,
        Self::UnknownProject,
        Self::RootViolation,
        Self::PathNotFound,
        Self::Unreadable,
        Self::NotRegularFile,
        Self::InvalidRange,
        Self::InvalidPattern,
        Self::PayloadTruncated,
        Self::ProjectUnavailable,
        Self::Cancelled,
        Self::UnsafeRoot,
        Self::NoRoots,
        Self::PackExpired,
        Self::PackTooLarge,
        Self::PackStoreUnsafe,
        Self::PackStoreUnavailable,
        Self::RemoteDisabled,
        Self::RemoteFailed,
        Self::RemoteLimit,
        Self::InvalidProfile,
        Self::OutputFailed,
        Self::GitNotARepository,
        Self::GitInvalidScope,
        Self::GitInvalidRef,
        Self::GitStateUnavailable,
    ];

    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            Self::InvalidArguments => "DPX-MCP-INVALID-ARGUMENTS",
            Self::UnknownProject => "DPX-MCP-UNKNOWN-PROJECT",
            Self::RootViolation => "DPX-MCP-ROOT-VIOLATION",
            Self::PathNotFound => "DPX-MCP-PATH-NOT-FOUND",
            Self::Unreadable => "DPX-MCP-UNREADABLE",
            Self::NotRegularFile => "DPX-MCP-NOT-A-REGULAR-FILE",
            Self::InvalidRange => "DPX-MCP-INVALID-RANGE",
            Self::InvalidPattern => "DPX-MCP-INVALID-PATTERN",
            Self::PayloadTruncated => "DPX-MCP-PAYLOAD-TRUNCATED",
            Self::ProjectUnavailable => "DPX-MCP-PROJECT-UNAVAILABLE",
            Self::Cancelled => "DPX-MCP-CANCELLED",
            Self::UnsafeRoot => "DPX-MCP-UNSAFE-ROOT",
            Self::NoRoots => "DPX-MCP-NO-ROOTS",
            Self::PackExpired => "DPX-MCP-PACK-EXPIRED",
            Self::PackTooLarge => "DPX-MCP-PACK-TOO-LARGE",
            Self::PackStoreUnsafe => "DPX-MCP-PACK-STORE-UNSAFE",
            Self::PackStoreUnavailable => "DPX-MCP-PACK-STORE-UNAVAILABLE",
            Self::RemoteDisabled => "DPX-MCP-REMOTE-DISABLED",
            Self::RemoteFailed => "DPX-MCP-REMOTE-FAILED",
            Self::RemoteLimit => "DPX-MCP-REMOTE-LIMIT",
            Self::InvalidProfile => "DPX-PROFILE-INVALID",
            Self::OutputFailed => "DPX-CLI-OUTPUT-FAILED",
            Self::GitNotARepository => "DPX-GIT-NOT-A-REPOSITORY",
            Self::GitInvalidScope => "DPX-GIT-INVALID-SCOPE",
            Self::GitInvalidRef => "DPX-GIT-INVALID-REF",
            Self::GitStateUnavailable => "DPX-GIT-STATE-UNAVAILABLE",
        }
    }

    /// True when the error is the caller's input (CLI exit code 2).
    pub const fn is_usage(self) -> bool {
        match self {
            Self::InvalidArguments
            | Self::UnknownProject
            | Self::InvalidRange
            | Self::InvalidPattern
            | Self::InvalidProfile
            | Self::GitInvalidScope
            | Self::GitInvalidRef => true,
            Self::RootViolation
            | Self::PathNotFound
            | Self::Unreadable
            | Self::NotRegularFile
            | Self::PayloadTruncated
            | Self::ProjectUnavailable
            | Self::Cancelled
            | Self::UnsafeRoot
            | Self::NoRoots
            | Self::PackExpired
            | Self::PackTooLarge
            | Self::PackStoreUnsafe
            | Self::PackStoreUnavailable
            | Self::RemoteDisabled
            | Self::RemoteFailed
            | Self::RemoteLimit
            | Self::OutputFailed
            | Self::GitNotARepository
            | Self::GitStateUnavailable => false,
        }
    }

    /// The kind an MCP client sees: always a `DPX-MCP-*` code, as the spec says. The CLI's own
    /// codes (a bad profile, Git errors, a failed write) become the MCP code of their kind; the
    /// message keeps the detail.
    pub const fn mcp(self) -> ErrorKind {
        match self {
            Self::InvalidProfile
            | Self::GitNotARepository
            | Self::GitInvalidScope
            | Self::GitInvalidRef => Self::InvalidArguments,
            // Writing into the session's pack store failed (not a size limit): a server-side
            // problem, never the caller's.
            Self::GitStateUnavailable | Self::OutputFailed => Self::ProjectUnavailable,
            Self::InvalidArguments
            | Self::UnknownProject
            | Self::RootViolation
            | Self::PathNotFound
            | Self::Unreadable
            | Self::NotRegularFile
            | Self::InvalidRange
            | Self::InvalidPattern
            | Self::PayloadTruncated
            | Self::ProjectUnavailable
            | Self::Cancelled
            | Self::UnsafeRoot
            | Self::NoRoots
            | Self::PackExpired
            | Self::PackTooLarge
            | Self::PackStoreUnsafe
            | Self::PackStoreUnavailable
            | Self::RemoteDisabled
            | Self::RemoteFailed
            | Self::RemoteLimit => self,
        }
    }

    /// What the code means (the "meaning" column of `docs/errors.md`).
    pub const fn meaning(self) -> &'static str {
        match self {
            Self::InvalidArguments => {
                "an argument is unknown, has the wrong type, is out of range, or breaks a limit (256 paths or patterns, 512-character patterns, 4,096-character paths, `max_results` ≤ 200, `top_files` 1..1000, `find_symbol`'s `name` 1..256 characters and `kind`/`match` values, `related_files`' `depth` 1..3 and `direction` values), or `related_files` was given a folder; on Windows, a path with a name ending in a dot or a space (Windows drops them, so it would open another name); with `--tokenizer`, a `max_tokens` below the document without any file (tree, headings, report)"
            }
            Self::UnknownProject => {
                "`project` names no configured root, or is missing while the server has several. `project` is matched without the file system: a root's address, a spelling of its path (as configured or canonical, `/tmp` or `/private/tmp` on macOS, another case where the volume ignores case) or its folder name; a link to a root, or a network path (`\\\\host\\share`, `/net/host`), names none"
            }
            Self::RootViolation => {
                "a path leaves the project root (`..`, absolute elsewhere, drive/UNC forms, a symlink out of the root, a swapped path); a `file://` source outside the configured roots (one whose path is a network or device form, `file:////host/share` or `file:///net/host/…`, is refused before anything resolves it), or whose repository reaches outside them (`.git` file or link, `commondir`, alternates, worktree links, config includes, links in the Git directory, see `docs/git.md`); the message is the same whether or not the outside path exists"
            }
            Self::PathNotFound => {
                "the path does not exist, or is not part of the effective selection (ignored or excluded); for `related_files`, also a file that is not source code of a language with imports"
            }
            Self::Unreadable => {
                "the file exists but cannot be read: permission denied, an I/O error, a symbolic-link loop, a cloud placeholder whose content is not on this machine (never downloaded), or it was replaced while being read"
            }
            Self::NotRegularFile => {
                "the path is a FIFO, socket or device, or a link to one; on Windows also a path with a device name in any component (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, `CONIN$`, `CONOUT$`, with any extension), refused before anything is opened; such files are never opened for reading (so no call can block on one)"
            }
            Self::InvalidRange => "`start_line`/`end_line` outside the file or pack, or reversed",
            Self::InvalidPattern => {
                "an invalid glob or regular expression, or a regex over 4,096 characters / too large when compiled"
            }
            Self::PayloadTruncated => {
                "a JSON/XML tree over the line limit (never cut), or a file over the 16 MiB inspection boundary"
            }
            Self::ProjectUnavailable => {
                "a root does not exist or is not a directory (startup), an unexpanded `${workspaceFolder}`, an internal failure, or (exact budget) a selected file changed between measuring and writing the pack"
            }
            Self::Cancelled => {
                "the client cancelled the request (MCP `notifications/cancelled`) while it ran; nothing was returned"
            }
            Self::UnsafeRoot => {
                "a root that reached the server from `DEVPROJEX_ROOT`, `CLAUDE_PROJECT_DIR` (Claude Code started in `~`), the client's MCP roots or its working directory is a filesystem root, the home folder or a folder containing it; only `--root` on the command line serves one. Without client roots the server exits 1 at startup (as the `initialize` error when a client is connected); with client roots that are all refused, every tool call answers it"
            }
            Self::NoRoots => {
                "the client declared MCP roots but listed no local `file://` folder, and there is no safe working directory to fall back to"
            }
            Self::PackExpired => {
                "`pack_id` unknown in this server process (ids die with the process)"
            }
            Self::PackTooLarge => {
                "a stored pack would pass 200 MiB, or the session's packs 1 GiB (the message names the one it passed); nothing is evicted"
            }
            Self::PackStoreUnsafe => {
                "the pack store folder is not private to the user: another owner, not mode 0700 (on Windows, an access list that admits an account other than the user, LocalSystem and Administrators), a symbolic link or junction, not a folder, or inside a folder others could rename it in. At startup it refuses a `DEVPROJEX_PACK_DIR` that fails; the usual folder is then left alone, a fresh private folder is used for the session, and this code is logged as a warning"
            }
            Self::PackStoreUnavailable => {
                "the pack store folder, a session folder or a pack file cannot be created or written (disk full, read-only file system)"
            }
            Self::RemoteDisabled => {
                "a Git URL was passed to a server started without `--allow-remote`, or to a CLI command without it"
            }
            Self::RemoteFailed => {
                "cloning, fetching or checking out a remote failed, or a `file://` repository's Git directory holds a FIFO, socket or device"
            }
            Self::RemoteLimit => "the session already pins 16 remote sources",
            Self::InvalidProfile => {
                "a profile document is malformed, too large (1 MiB), or has an unknown key or bad value"
            }
            Self::OutputFailed => {
                "writing the output file or stdout failed (a reader that closes the pipe, as `pack \\| head` does, is not a failure: the command exits 0 on every OS)"
            }
            Self::GitNotARepository => {
                "`tracked_only`, git mode `tracked` or `git_scope` on a project with no Git repository"
            }
            Self::GitInvalidScope => {
                "`git_scope` is not `staged`, `changes` or `diff:<ref>..<ref>`, is over 4,096 characters, or a side is not a branch or tag name, a full or abbreviated commit id or `HEAD` with optional `~N` / `^N` (`:/text`, `REV:path`, `@{...}`, `^{...}` and ranges are refused)"
            }
            Self::GitInvalidRef => {
                "a `diff:` side names nothing here, walks past the root commit or a shallow clone's history, or asks for a missing parent (or `HEAD` is unborn)"
            }
            Self::GitStateUnavailable => {
                "the repository's state cannot be read (bare repository, corrupt index)"
            }
        }
    }

    /// What to do about it (the "what to do" column of `docs/errors.md`).
    pub const fn remedy(self) -> &'static str {
        match self {
            Self::InvalidArguments => {
                "fix the argument; the message names it and the valid range (the smallest exact budget that works)"
            }
            Self::UnknownProject => "pass one of the roots the message lists (path or folder name)",
            Self::RootViolation => {
                "pass a project-relative path with `/`; for `file://`, a repository whose Git data lies inside a root"
            }
            Self::PathNotFound => "list files with `get_tree` / `devprojex tree`",
            Self::Unreadable => {
                "the message says which; fix permissions, make the file available offline, or retry"
            }
            Self::NotRegularFile => "read regular files only",
            Self::InvalidRange => "use a range within the line count the message gives",
            Self::InvalidPattern => "fix or simplify the pattern",
            Self::PayloadTruncated => {
                "narrow the selection or use markdown/text; large files are never returned"
            }
            Self::ProjectUnavailable => "fix the root; restart the server; retry the pack",
            Self::Cancelled => {
                "nothing: the client asked for it; call the tool again if the answer is still wanted"
            }
            Self::UnsafeRoot => {
                "start the client in the project folder, or pass `--root /absolute/path/to/project` (`devprojex setup --root PATH` writes it)"
            }
            Self::NoRoots => "open a folder in the client, or start the server with `--root`",
            Self::PackExpired => "call `pack_context` again",
            Self::PackTooLarge => "narrow, set `max_tokens`, use `detail`, or restart the server",
            Self::PackStoreUnsafe => {
                "make `DEVPROJEX_PACK_DIR` a folder you own with mode 0700 (`chmod 700`), or unset it; remove the usual folder (the warning names it) to use it again"
            }
            Self::PackStoreUnavailable => {
                "free disk space, or set `DEVPROJEX_PACK_DIR` to a writable folder; then call `pack_context` again"
            }
            Self::RemoteDisabled => {
                "restart the server with `--allow-remote` / add `--allow-remote` to the command, or pass a local root"
            }
            Self::RemoteFailed => "check the URL and branch (shown without credentials)",
            Self::RemoteLimit => "reuse one or restart the server",
            Self::InvalidProfile => "fix the key the message names (see `docs/profiles.md`)",
            Self::OutputFailed => "check the destination",
            Self::GitNotARepository => "run on a Git checkout, or drop the Git option",
            Self::GitInvalidScope => "use one of the valid forms the message lists",
            Self::GitInvalidRef => {
                "use what the message says exists: a branch, tag, commit id or a smaller `~N`"
            }
            Self::GitStateUnavailable => "repair or use another checkout (see `docs/git.md`)",
        }
    }
}
/// A warning code (warnings never stop a command): deleted paths in a Git scope were omitted.
pub const GIT_STATE_DELETED: &str = "DPX-GIT-STATE-DELETED";

/// An error that reaches a user or an agent: a kind (the stable code), an actionable message,
/// and the error that caused it, when there is one.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}: {message}", kind.code())]
pub struct DpxError {
    pub kind: ErrorKind,
    pub message: String,
    #[source]
    source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

impl DpxError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            source: None,
        }
    }

    pub fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArguments, message)
    }

    /// The request was cancelled by the client.
    pub fn cancelled() -> Self {
        Self::new(ErrorKind::Cancelled, "the request was cancelled")
    }

    /// Keep the error this one reports (its text is usually in the message already).
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// True when the error is the caller's input (CLI exit code 2).
    pub fn is_usage(&self) -> bool {
        self.kind.is_usage()
    }
}

impl PartialEq for DpxError {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.message == other.message
    }
}

impl Eq for DpxError {}

pub type Result<T, E = DpxError> = std::result::Result<T, E>;

/// The table of `docs/errors.md`, generated from [`ErrorKind`] (between its `generated` markers).
pub fn errors_table() -> String {
    let mut out = String::from("| code | meaning | what to do |\n|---|---|---|\n");
    for kind in ErrorKind::ALL {
        let usage = if kind.is_usage() { " (usage)" } else { "" };
        let over_mcp = if kind.mcp() == kind {
            String::new()
        } else {
            format!("; over MCP `{}`", kind.mcp().code())
        };
        out.push_str(&format!(
            "| `{}`{usage} | {}{over_mcp} | {} |\n",
            kind.code(),
            kind.meaning(),
            kind.remedy()
        ));
    }
    out.push_str("| `DPX-SETUP-...` | client configuration errors (see `docs/setup.md`) | as the message says |\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEGIN: &str = "<!-- generated from src/error.rs (ErrorKind): do not edit -->\n";
    const END: &str = "<!-- end of generated table -->\n";

    /// `docs/errors.md` lists every kind as `ErrorKind` describes it. To update it after a
    /// change here: `DEVPROJEX_BLESS=1 cargo test --lib error::`.
    #[test]
    fn the_errors_doc_is_generated_from_the_kinds() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/errors.md");
        let doc = std::fs::read_to_string(&path).unwrap();
        let start = doc.find(BEGIN).expect("the begin marker") + BEGIN.len();
        let end = doc.find(END).expect("the end marker");
        let expected = format!("{}{}{}", &doc[..start], errors_table(), &doc[end..]);
        if std::env::var_os("DEVPROJEX_BLESS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        assert!(
            doc == expected,
            "docs/errors.md drifted from ErrorKind; run DEVPROJEX_BLESS=1 cargo test --lib error::"
        );
    }

    #[test]
    fn codes_are_unique_and_mcp_codes_are_mcp_codes() {
        let mut codes: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ErrorKind::ALL.len());
        for kind in ErrorKind::ALL {
            assert!(kind.mcp().code().starts_with("DPX-MCP-"), "{kind:?}");
            assert_eq!(kind.mcp().mcp(), kind.mcp(), "{kind:?}");
        }
    }

    #[test]
    fn the_source_is_kept() {
        use std::error::Error as _;
        let io = std::io::Error::other("disk on fire");
        let err = DpxError::new(ErrorKind::OutputFailed, "writing failed").with_source(io);
        assert_eq!(err.source().unwrap().to_string(), "disk on fire");
        assert_eq!(err.to_string(), "DPX-CLI-OUTPUT-FAILED: writing failed");
    }
}
