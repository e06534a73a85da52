//! Profiles: named selection settings. `standard` is built in; a portable profile is a JSON
//! document inside the project; `local` is the per-project profile in the user's config dir.
//! Schema: `docs/profiles.md`. Profiles can narrow and reduce, never re-enable what the
//! product exclusions remove or disable redaction.

use std::io::Read;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;
use crate::select::Exclusions;

pub const PROFILE_KIND: &str = "devprojex-profile";
pub const PROFILE_SCHEMA_VERSION: u32 = 1;
/// Profile documents larger than this are refused before parsing.
pub const MAX_PROFILE_BYTES: u64 = 1024 * 1024;

/// A profile document (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Profile {
    pub schema_version: u32,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub selection: ProfileSelection,
}

/// What a profile selects and how it reduces content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ProfileSelection {
    /// Top-level folders (or any project-relative folders) to keep; empty = whole project.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<String>,
    /// File extensions to keep, without the dot (`rs`, `md`); empty = all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    /// Selected project-relative files or folders, kept in addition to `roots`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// `none` (`off`), `gitignore`, or `tracked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_mode: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub include_patterns: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude_patterns: Vec<String>,
    #[serde(skip_serializing_if = "is_default_exclusions")]
    pub exclusions: Exclusions,
    /// `full`, `compact`, or `signatures`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Follow in-root symbolic links (off by default, like Git and ripgrep); each real file is
    /// then counted once.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub follow_symlinks: bool,
}

fn is_default_exclusions(value: &Exclusions) -> bool {
    *value == Exclusions::default()
}

impl Profile {
    /// The built-in `standard` profile: gitignore baseline, all product exclusions, full detail.
    pub fn standard() -> Self {
        Self {
            schema_version: PROFILE_SCHEMA_VERSION,
            kind: PROFILE_KIND.into(),
            name: Some("standard".into()),
            description: Some(
                "Built-in default: .gitignore baseline, all product exclusions, full detail."
                    .into(),
            ),
            selection: ProfileSelection::default(),
        }
    }

    /// Parse and validate a profile document; `source` names it in errors.
    ///
    /// Errors name the schema key, line and column only, never text from the document: a
    /// profile is project data, and an error message is trusted text outside the
    /// untrusted-data markers.
    pub fn parse(text: &str, source: &str) -> Result<Self> {
        if text.len() as u64 > MAX_PROFILE_BYTES {
            return Err(profile_error(format!(
                "{source} is larger than 1 MiB; profiles must be small JSON documents"
            )));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let profile: Profile = serde_path_to_error::deserialize(&mut deserializer)
            .map_err(|err| profile_error(describe_parse_error(source, &err)))?;
        profile.validate(source)?;
        Ok(profile)
    }

    fn validate(&self, source: &str) -> Result<()> {
        if self.kind != PROFILE_KIND {
            return Err(profile_error(format!(
                "{source}: key 'kind' must be \"{PROFILE_KIND}\""
            )));
        }
        if self.schema_version != PROFILE_SCHEMA_VERSION {
            return Err(profile_error(format!(
                "{source}: key 'schemaVersion' is {}; this devprojex reads schema version {PROFILE_SCHEMA_VERSION}",
                self.schema_version
            )));
        }
        if let Some(mode) = &self.selection.git_mode
            && crate::select::GitMode::parse(mode).is_none()
        {
            return Err(profile_error(format!(
                "{source}: key 'selection.gitMode' has an unknown value; valid values are none, off, gitignore, tracked"
            )));
        }
        if let Some(detail) = &self.selection.detail
            && devprojex_detail::Detail::parse(detail).is_none()
        {
            return Err(profile_error(format!(
                "{source}: key 'selection.detail' has an unknown value; valid values are full, compact, signatures"
            )));
        }
        for (index, ext) in self.selection.extensions.iter().enumerate() {
            if ext.is_empty() || ext.contains('/') || ext.contains('\\') {
                return Err(profile_error(format!(
                    "{source}: key 'selection.extensions' entry {} is not an extension; give extensions like \"rs\" or \".md\"",
                    index + 1
                )));
            }
        }
        for (field, patterns) in [
            (
                "selection.includePatterns",
                &self.selection.include_patterns,
            ),
            (
                "selection.excludePatterns",
                &self.selection.exclude_patterns,
            ),
        ] {
            if crate::select::globs::PatternSet::compile(field, patterns).is_err() {
                // Find the entry without echoing it.
                let index = patterns
                    .iter()
                    .position(|p| {
                        crate::select::globs::PatternSet::compile(field, std::slice::from_ref(p))
                            .is_err()
                    })
                    .map(|i| format!(" entry {}", i + 1))
                    .unwrap_or_else(|| format!(" ({} patterns; at most 256)", patterns.len()));
                return Err(profile_error(format!(
                    "{source}: key '{field}'{index} is not a valid glob; use project-relative globs with '/', '*', '**', '?', '[...]' and '{{a,b}}' of at most 512 characters"
                )));
            }
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("profiles always serialise");
        text.push('\n');
        text
    }
}

fn profile_error(message: String) -> DpxError {
    DpxError::new(ErrorKind::InvalidProfile, message)
}

/// Every key of the schema (camelCase): an error path is shown only through these names.
const SCHEMA_KEYS: &[&str] = &[
    "schemaVersion",
    "kind",
    "name",
    "description",
    "selection",
    "roots",
    "extensions",
    "paths",
    "gitMode",
    "includePatterns",
    "excludePatterns",
    "exclusions",
    "detail",
    "followSymlinks",
    "hiddenFolders",
    "hiddenFiles",
    "dotFolders",
    "dotFiles",
    "emptyFolders",
    "emptyFiles",
    "extensionlessFiles",
];

/// `profile 'p.json' is not a valid profile: line 3, column 14, key 'selection.gitMode': ...`
/// with what kind of problem it is, and no text of the document.
fn describe_parse_error(
    source: &str,
    err: &serde_path_to_error::Error<serde_json::Error>,
) -> String {
    use serde_json::error::Category;
    let inner = err.inner();
    let mut known: Vec<String> = Vec::new();
    let mut unknown_key = false;
    for segment in err.path().iter() {
        match segment {
            serde_path_to_error::Segment::Map { key }
            | serde_path_to_error::Segment::Enum { variant: key }
                if SCHEMA_KEYS.contains(&key.as_str()) =>
            {
                known.push(key.clone())
            }
            serde_path_to_error::Segment::Seq { index } => {
                if let Some(last) = known.last_mut() {
                    last.push_str(&format!("[{index}]"));
                }
            }
            _ => {
                unknown_key = true;
                break;
            }
        }
    }
    let problem = match inner.classify() {
        Category::Syntax => "the JSON syntax is invalid",
        Category::Eof => "the document ends early",
        Category::Io => "it cannot be read",
        Category::Data if unknown_key => "an unknown key",
        Category::Data => "a value has the wrong type, or a key is unknown or missing",
    };
    let place = if known.is_empty() {
        String::new()
    } else if unknown_key {
        format!(", inside key '{}'", known.join("."))
    } else {
        format!(", key '{}'", known.join("."))
    };
    format!(
        "{source} is not a valid profile: line {}, column {}{place}: {problem}; see docs/profiles.md for the schema (valid keys: {})",
        inner.line(),
        inner.column(),
        SCHEMA_KEYS.join(", ")
    )
}

/// Load the profile a request names: `None`/`standard`, `local`, or a JSON path inside the root.
pub fn load(root: &ProjectRoot, name: Option<&str>) -> Result<Profile> {
    match name {
        None | Some("standard") => Ok(Profile::standard()),
        Some("local") => match read_local(root)? {
            Some(profile) => Ok(profile),
            None => Err(profile_error(format!(
                "no local profile is saved for '{}'; run 'devprojex profile save' or use profile 'standard'",
                root.address
            ))),
        },
        Some(path) => {
            // A profile is a project file like any other: one the selection would show, never
            // a `.gitignore`d file, nothing under `.git/`, nothing a product rule excludes. One
            // answer for those and for a missing path, judged by the name before anything is
            // opened, so no answer tells whether something is there.
            let named = root.lexical(path)?;
            let named = named.as_str();
            let not_a_profile = || {
                profile_error(format!(
                    "profile '{}' is not a file of the project's selection: it does not exist, is a folder, or .gitignore or a product rule excludes it; pass 'standard', 'local', or the path of a profile JSON file that get_tree lists",
                    named.chars().take(200).collect::<String>()
                ))
            };
            let git_rules = crate::select::GitMode::Gitignore;
            let excluded = |relative: &str| {
                crate::select::effective::check_path(root, relative, git_rules, false).is_some()
            };
            if named.is_empty() || excluded(named) {
                return Err(not_a_profile());
            }
            let resolved = root.resolve(path).map_err(|err| match err.kind {
                ErrorKind::PathNotFound => not_a_profile(),
                _ => err,
            })?;
            if resolved.is_dir()
                || excluded(resolved.relative.as_str())
                || excluded(&resolved.real_relative)
            {
                return Err(not_a_profile());
            }
            let (file, _) = root.open_resolved(&resolved)?;
            let mut text = String::new();
            file.take(MAX_PROFILE_BYTES + 1)
                .read_to_string(&mut text)
                .map_err(|err| {
                    profile_error(format!(
                        "profile '{path}' cannot be read as UTF-8 text: {err}"
                    ))
                })?;
            Profile::parse(&text, &format!("profile '{path}'"))
        }
    }
}

/// Where local profiles live: `$DEVPROJEX_CONFIG_DIR/profiles` or the OS config dir.
pub fn local_profiles_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("DEVPROJEX_CONFIG_DIR").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir).join("profiles"));
    }
    directories::ProjectDirs::from("dev", "devprojex", "devprojex")
        .map(|dirs| dirs.config_dir().join("profiles"))
}

/// The local profile file of one project: `<name>-<fnv64 of the root path>.json`.
pub fn local_profile_path(root: &ProjectRoot) -> Option<PathBuf> {
    let safe_name: String = root
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    let hash = fnv1a64(root.address.as_bytes());
    local_profiles_dir().map(|dir| dir.join(format!("{safe_name}-{hash:016x}.json")))
}

/// A stable hash (unlike `DefaultHasher`, the same in every Rust version).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Read the local profile of a project, if one was saved.
pub fn read_local(root: &ProjectRoot) -> Result<Option<Profile>> {
    let Some(path) = local_profile_path(root) else {
        return Ok(None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => Profile::parse(&text, &format!("local profile '{}'", path.display())).map(Some),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(profile_error(format!(
            "local profile '{}' cannot be read: {err}",
            path.display()
        ))),
    }
}

/// The profile names available for a project (`standard`, plus `local` when saved).
pub fn available(root: &ProjectRoot) -> Vec<String> {
    let mut names = vec!["standard".to_string()];
    if local_profile_path(root).is_some_and(|p| p.is_file()) {
        names.push("local".into());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_bad_values_name_the_key() {
        let err = Profile::parse(
            r#"{"schemaVersion":1,"kind":"devprojex-profile","selection":{"rootz":[]}}"#,
            "p",
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidProfile);
        assert!(!err.message.contains("rootz"), "{}", err.message);
        assert!(
            err.message
                .contains("line 1, column 66, inside key 'selection': an unknown key"),
            "{}",
            err.message
        );
        // A wrong-typed value is never echoed (it may be a secret).
        let err = Profile::parse(
            r#"{"schemaVersion":1,"kind":"devprojex-profile","selection":{"roots":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}"#,
            "p",
        )
        .unwrap_err();
        assert!(!err.message.contains("ghp_"), "{}", err.message);
        assert!(
            err.message.contains("key 'selection.roots'"),
            "{}",
            err.message
        );
        let err =
            Profile::parse(r#"{"schemaVersion":1,"kind":"ghp_secretvalue"}"#, "p").unwrap_err();
        assert!(!err.message.contains("ghp_"), "{}", err.message);
        let err = Profile::parse(
            r#"{"schemaVersion":1,"kind":"devprojex-profile","selection":{"gitMode":"staged"}}"#,
            "p",
        )
        .unwrap_err();
        assert!(err.message.contains("selection.gitMode"), "{}", err.message);
        let err =
            Profile::parse(r#"{"schemaVersion":2,"kind":"devprojex-profile"}"#, "p").unwrap_err();
        assert!(err.message.contains("schemaVersion"));
        let err = Profile::parse(r#"{"schemaVersion":1,"kind":"other"}"#, "p").unwrap_err();
        assert!(err.message.contains("'kind'"));
        let huge = format!(
            "{{\"schemaVersion\":1,\"kind\":\"devprojex-profile\",\"description\":\"{}\"}}",
            "x".repeat(1024 * 1024)
        );
        assert!(
            Profile::parse(&huge, "p")
                .unwrap_err()
                .message
                .contains("1 MiB")
        );
    }

    #[test]
    fn every_schema_key_is_listed() {
        let full = Profile {
            name: Some("n".into()),
            description: Some("d".into()),
            selection: ProfileSelection {
                roots: vec!["a".into()],
                extensions: vec!["rs".into()],
                paths: vec!["b".into()],
                git_mode: Some("none".into()),
                include_patterns: vec!["*".into()],
                exclude_patterns: vec!["*".into()],
                exclusions: Exclusions {
                    hidden_folders: true,
                    hidden_files: true,
                    dot_folders: true,
                    dot_files: true,
                    empty_folders: true,
                    empty_files: true,
                    extensionless_files: true,
                },
                detail: Some("full".into()),
                follow_symlinks: true,
            },
            ..Profile::standard()
        };
        fn keys(value: &serde_json::Value, out: &mut Vec<String>) {
            if let Some(map) = value.as_object() {
                for (key, inner) in map {
                    out.push(key.clone());
                    keys(inner, out);
                }
            }
        }
        let mut found = Vec::new();
        keys(&serde_json::to_value(&full).unwrap(), &mut found);
        for key in found {
            assert!(
                SCHEMA_KEYS.contains(&key.as_str()),
                "{key} missing from SCHEMA_KEYS"
            );
        }
    }

    #[test]
    fn round_trip() {
        let text = r#"{"schemaVersion":1,"kind":"devprojex-profile","name":"api","selection":{"roots":["src"],"extensions":["rs"],"exclusions":{"dotFiles":true},"detail":"compact"}}"#;
        let profile = Profile::parse(text, "p").unwrap();
        assert_eq!(Profile::parse(&profile.to_json(), "p").unwrap(), profile);
        assert!(profile.selection.exclusions.dot_files);
    }
}
