//! Lexical resolution of caller paths: pure functions, tested with per-OS fixtures. Nothing here
//! touches the file system, so no caller string can make the process open an SMB session, mount
//! an automounted share or open a device before it has been judged.
//!
//! Rules (identical on every OS except where [`Platform`] says otherwise):
//! - `/` and `\` are both separators, so Windows-style relative paths work everywhere (on Unix,
//!   where `\` is also a name character, [`literal_unix_reading`] gives the reading with `/`
//!   alone separating; `ProjectRoot::lexical` prefers it when it names an existing path);
//! - `.` and empty components are dropped, `..` removes the previous component, and a `..`
//!   that would climb above the root is a root violation;
//! - drive forms (`C:\x`, `C:x`), UNC and device forms (`\\server\share`, `//server/share`,
//!   `\\?\`, `\\.\`) are rejected on every OS, except that on Windows an absolute drive or UNC
//!   path inside the root is accepted and made relative (`\\?\` and `\\.\` never are);
//! - a POSIX absolute path is accepted only on Unix and only inside the root;
//! - "inside the root" compares the path with every spelling of the root ([`RootSpellings`]):
//!   its canonical path, the path as configured, and on macOS the `/tmp`, `/var` and `/etc`
//!   forms of `/private/...`; names compare as the root's volume compares them ([`NameRules`]:
//!   ignoring case on Windows and case-insensitive macOS volumes, Unicode-normalised on macOS);
//! - on Windows, a component that names a device (`CON`, `NUL`, `COM1`, ... with any extension)
//!   or ends with a dot or a space (which Windows drops, so it aliases another name) is refused.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::is_nfc_quick;

use crate::error::{DpxError, ErrorKind, Result};

/// Which OS's absolute-path rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostStyle {
    Unix,
    Windows,
}

impl HostStyle {
    pub fn current() -> Self {
        Platform::current().style()
    }
}

/// The platform whose path rules apply: absolute forms, name comparison, aliases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and the other Unixes: case-sensitive, byte-exact names.
    Linux,
    /// `/private` aliases; case-insensitive and normalisation-insensitive by default.
    MacOs,
    Windows,
}

impl Platform {
    pub fn current() -> Self {
        if cfg!(windows) {
            Self::Windows
        } else if cfg!(target_os = "macos") {
            Self::MacOs
        } else {
            Self::Linux
        }
    }

    pub fn style(self) -> HostStyle {
        match self {
            Self::Windows => HostStyle::Windows,
            Self::Linux | Self::MacOs => HostStyle::Unix,
        }
    }

    /// How the platform's default volumes compare names: NTFS ignores case, APFS and HFS+
    /// (default format) ignore case and Unicode normalisation, Linux file systems neither.
    pub fn default_names(self) -> NameRules {
        match self {
            Self::Linux => NameRules::EXACT,
            Self::MacOs => NameRules {
                case_insensitive: true,
                unicode_normalized: true,
            },
            Self::Windows => NameRules {
                case_insensitive: true,
                unicode_normalized: false,
            },
        }
    }
}

/// How two names are compared: as bytes, or ignoring case and/or Unicode normalisation (NFC
/// and NFD spellings of `é` are one name on macOS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NameRules {
    pub case_insensitive: bool,
    pub unicode_normalized: bool,
}

impl NameRules {
    pub const EXACT: Self = Self {
        case_insensitive: false,
        unicode_normalized: false,
    };

    pub fn is_exact(self) -> bool {
        self == Self::EXACT
    }

    /// The comparison key of a name or a `/`-separated path: lower-cased and/or NFC.
    pub fn key(self, text: &str) -> Cow<'_, str> {
        let mut key = Cow::Borrowed(text);
        if self.case_insensitive
            && (!text.is_ascii() || text.bytes().any(|b| b.is_ascii_uppercase()))
        {
            key = Cow::Owned(key.to_lowercase());
        }
        if self.unicode_normalized
            && !text.is_ascii()
            && is_nfc_quick(key.chars()) != unicode_normalization::IsNormalized::Yes
        {
            key = Cow::Owned(key.nfc().collect());
        }
        key
    }

    /// True when `a` and `b` name the same thing under these rules.
    pub fn same(self, a: &str, b: &str) -> bool {
        a == b || (!self.is_exact() && self.key(a) == self.key(b))
    }
}

/// A normalised project-relative path using `/`; empty for the root itself.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LexicalPath(String);

impl LexicalPath {
    /// A path of listed names (already clean: `/`-separated, no `.`, `..` or empty parts).
    pub(crate) fn from_listed(relative: String) -> Self {
        Self(relative)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn join_onto(&self, root: &Path) -> PathBuf {
        let mut path = root.to_path_buf();
        for part in self.0.split('/').filter(|p| !p.is_empty()) {
            path.push(part);
        }
        path
    }
}

/// Where an absolute path starts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Head {
    /// `/` (Unix).
    Posix,
    /// `c:\` (lower-cased letter).
    Drive(char),
    /// `\\server\share\` (the server and share are the first two parts).
    Unc,
}

/// An absolute path split into its head and its normal components (`.`, `..` resolved).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Absolute {
    head: Head,
    parts: Vec<String>,
}

fn is_separator(c: char) -> bool {
    c == '/' || c == '\\'
}

/// True for the forms that reach another machine or a device namespace: `\\server\share`,
/// `//server/share` (any mix of separators), `\\?\`, `\\.\`, and the automounter's `/net/...`
/// (and macOS's `/Network/...`). Such a caller string is never given to the file system unless
/// it lies lexically inside a configured root.
pub fn is_network_or_device_form(text: &str) -> bool {
    let mut chars = text.chars();
    if matches!((chars.next(), chars.next()), (Some(a), Some(b)) if is_separator(a) && is_separator(b))
    {
        return true;
    }
    let unified = text.replace('\\', "/");
    ["/net", "/Network"].iter().any(|mount| {
        unified
            .strip_prefix(mount)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The device a Windows path component names, if any: `CON`, `PRN`, `AUX`, `NUL`, `CONIN$`,
/// `CONOUT$`, `COM0`-`COM9`, `LPT0`-`LPT9` (and the superscript digits ¹²³), in any case, with
/// any extension, and with trailing dots or spaces (`nul.txt`, `Com1.tar.gz`, `CON .`).
pub fn windows_device_name(component: &str) -> Option<String> {
    let trimmed = component.trim_end_matches(['.', ' ']);
    let stem = trimmed
        .split('.')
        .next()
        .unwrap_or("")
        .trim_end_matches(' ');
    let upper = stem.to_uppercase();
    let is_device = match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        _ => {
            let mut chars = upper.chars();
            let prefix: String = chars.by_ref().take(3).collect();
            let digit: Vec<char> = chars.collect();
            (prefix == "COM" || prefix == "LPT")
                && matches!(digit.as_slice(), [d] if d.is_ascii_digit() || matches!(d, '¹' | '²' | '³'))
        }
    };
    is_device.then_some(upper)
}

/// Parse `text` as an absolute path under `style`; `None` when it is not one this platform can
/// name without the file system (relative, drive-relative, `\\?\`, `\\.\`, a bare `\x`).
fn parse_absolute(text: &str, style: HostStyle) -> Option<Absolute> {
    let bytes = text.as_bytes();
    let (head, rest) = match style {
        HostStyle::Windows => {
            if bytes.len() >= 3
                && bytes[0].is_ascii_alphabetic()
                && bytes[1] == b':'
                && is_separator(bytes[2] as char)
            {
                (
                    Head::Drive(bytes[0].to_ascii_lowercase() as char),
                    &text[3..],
                )
            } else if text.len() >= 2
                && text.chars().take(2).all(is_separator)
                && !text[2..].starts_with(is_separator)
            {
                let rest = &text[2..];
                let server = rest.split(is_separator).next().unwrap_or("");
                if server.is_empty() || server == "?" || server == "." {
                    return None;
                }
                (Head::Unc, rest)
            } else {
                return None;
            }
        }
        HostStyle::Unix => {
            if text.starts_with('/') && !text[1..].starts_with(is_separator) {
                (Head::Posix, &text[1..])
            } else {
                return None;
            }
        }
    };
    let mut parts: Vec<String> = Vec::new();
    for part in rest.split(is_separator) {
        match part {
            "" | "." => {}
            ".." => {
                // `..` at the top stays at the top, as every OS resolves it; a UNC path never
                // climbs above its share.
                if head != Head::Unc || parts.len() > 2 {
                    parts.pop();
                }
            }
            other => parts.push(other.to_string()),
        }
    }
    if head == Head::Unc && parts.len() < 2 {
        return None;
    }
    Some(Absolute { head, parts })
}

/// The absolute spellings under which callers may name one root, and how its names compare.
#[derive(Debug, Clone)]
pub struct RootSpellings {
    platform: Platform,
    names: NameRules,
    forms: Vec<Absolute>,
    display: String,
}

impl RootSpellings {
    /// `canonical` is the root as opened (links resolved); `configured` the paths it was given
    /// as (made absolute by the caller), which stay valid spellings of the same folder.
    pub fn new(
        canonical: &Path,
        configured: &[&Path],
        platform: Platform,
        names: NameRules,
    ) -> Self {
        let style = platform.style();
        let mut forms: Vec<Absolute> = Vec::new();
        let mut add = |form: Absolute| {
            if !forms.iter().any(|known| same_absolute(known, &form, names)) {
                forms.push(form);
            }
        };
        for path in std::iter::once(canonical).chain(configured.iter().copied()) {
            let text = path.to_string_lossy();
            if let Some(form) = parse_absolute(&without_verbatim_prefix(&text), style) {
                if platform == Platform::MacOs {
                    for alias in private_aliases(&form) {
                        add(alias);
                    }
                }
                add(form);
            }
        }
        Self {
            platform,
            names,
            forms,
            display: canonical.to_string_lossy().into_owned(),
        }
    }

    pub fn platform(&self) -> Platform {
        self.platform
    }

    pub fn names(&self) -> NameRules {
        self.names
    }

    /// The components of `absolute` below the root, when it names the root or lies inside it
    /// under one of the root's spellings; `None` when it is outside, or not an absolute path.
    fn strip(&self, absolute: &str) -> Option<Vec<String>> {
        let input = parse_absolute(absolute, self.platform.style())?;
        let input_forms: Vec<Absolute> = if self.platform == Platform::MacOs {
            let mut all = private_aliases(&input);
            all.push(input);
            all
        } else {
            vec![input]
        };
        for input in &input_forms {
            for form in &self.forms {
                if form.head == input.head
                    && input.parts.len() >= form.parts.len()
                    && form
                        .parts
                        .iter()
                        .zip(&input.parts)
                        .enumerate()
                        .all(|(i, (a, b))| self.part_same(&form.head, i, a, b))
                {
                    return Some(input.parts[form.parts.len()..].to_vec());
                }
            }
        }
        None
    }

    fn part_same(&self, head: &Head, index: usize, a: &str, b: &str) -> bool {
        // Server and share names ignore case whatever the volume does.
        if *head == Head::Unc && index < 2 {
            return a.eq_ignore_ascii_case(b);
        }
        self.names.same(a, b)
    }

    /// True when `value` names the root itself (absolute, or relative to `cwd`; a leading `~`
    /// is `home`). Purely lexical: nothing is looked up.
    pub fn names_root(&self, value: &str, cwd: Option<&Path>, home: Option<&Path>) -> bool {
        // `\\?\C:\x` is read as `C:\x` (as `\\?\UNC\host\share` is `\\host\share`): lexically,
        // like any other spelling; `\\.\` device paths never name a root.
        let value = if self.platform == Platform::Windows {
            without_verbatim_prefix(value)
        } else {
            Cow::Borrowed(value)
        };
        let value = value.as_ref();
        if value.contains('\0') || is_device_namespace(value) {
            return false;
        }
        let absolute: Cow<'_, str> = if let Some(rest) = value
            .strip_prefix('~')
            .filter(|rest| rest.is_empty() || rest.starts_with(is_separator))
        {
            match home {
                Some(home) => Cow::Owned(format!("{}{rest}", home.to_string_lossy())),
                None => return false,
            }
        } else if parse_absolute(value, self.platform.style()).is_some() {
            Cow::Borrowed(value)
        } else if looks_absolute_elsewhere(value) {
            return false;
        } else {
            match cwd {
                Some(cwd) => Cow::Owned(format!("{}/{value}", cwd.to_string_lossy())),
                None => return false,
            }
        };
        self.strip(&absolute).is_some_and(|rest| rest.is_empty())
    }
}

/// `\\?\` and `\\.\` (any separators): the Win32 namespaces that skip normalisation.
pub(crate) fn is_device_namespace(text: &str) -> bool {
    let chars: Vec<char> = text.chars().take(4).collect();
    matches!(chars.as_slice(), [a, b, c, d, ..] if is_separator(*a) && is_separator(*b) && (*c == '?' || *c == '.') && is_separator(*d))
}

/// A drive, UNC or rooted form that is not absolute for this platform.
fn looks_absolute_elsewhere(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.starts_with(is_separator)
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

fn same_absolute(a: &Absolute, b: &Absolute, names: NameRules) -> bool {
    a.head == b.head
        && a.parts.len() == b.parts.len()
        && a.parts.iter().zip(&b.parts).all(|(x, y)| names.same(x, y))
}

/// macOS links `/tmp`, `/var` and `/etc` to `/private/...`: the other spelling of `form`, if it
/// has one.
fn private_aliases(form: &Absolute) -> Vec<Absolute> {
    const LINKED: [&str; 3] = ["tmp", "var", "etc"];
    if form.head != Head::Posix {
        return Vec::new();
    }
    match form.parts.as_slice() {
        [first, second, ..] if first == "private" && LINKED.contains(&second.as_str()) => {
            vec![Absolute {
                head: Head::Posix,
                parts: form.parts[1..].to_vec(),
            }]
        }
        [first, ..] if LINKED.contains(&first.as_str()) => {
            let mut parts = vec!["private".to_string()];
            parts.extend(form.parts.iter().cloned());
            vec![Absolute {
                head: Head::Posix,
                parts,
            }]
        }
        _ => Vec::new(),
    }
}

/// Resolve `input` relative to the root spelled by `root` without touching the file system.
pub fn resolve_lexically(input: &str, root: &RootSpellings) -> Result<LexicalPath> {
    if input.contains('\0') {
        return Err(DpxError::invalid_arguments(
            "path contains a NUL character; pass a project-relative path such as 'src/main.rs'",
        ));
    }
    let shown: String = input.chars().take(200).collect();
    let violation = || {
        DpxError::new(
            ErrorKind::RootViolation,
            format!(
                "path '{shown}' is outside project root '{}'; pass a path relative to the root, using '/' and no '..'",
                root.display
            ),
        )
    };
    let style = root.platform.style();
    let bytes = input.as_bytes();
    let is_unc = input.chars().take(2).filter(|c| is_separator(*c)).count() == 2;
    let has_drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    let relative: Vec<String> = if is_unc || has_drive {
        if style != HostStyle::Windows {
            return Err(violation());
        }
        root.strip(input).ok_or_else(violation)?
    } else if input.starts_with(is_separator) {
        if style != HostStyle::Unix || input.starts_with('\\') {
            return Err(violation());
        }
        root.strip(input).ok_or_else(violation)?
    } else {
        let mut parts: Vec<String> = Vec::new();
        for part in input.split(is_separator) {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(violation());
                    }
                }
                other => parts.push(other.to_string()),
            }
        }
        parts
    };
    if style == HostStyle::Windows {
        for part in &relative {
            check_windows_component(part, &shown).map_err(|err| err.unwrap_or_else(violation))?;
        }
    }
    Ok(LexicalPath(relative.join("/")))
}

/// The path `input` names when `\` is an ordinary name character, as it is on Unix (Git and
/// the walk list `a\b.txt` as one name): `/` alone separates, `.` and empty parts drop, `..`
/// removes the previous part. `None` on Windows (where `\` only separates), for input without a
/// `\`, for absolute input and for input that climbs above the root, so this reading never
/// names anything outside it. [`resolve_lexically`] reads `\` as a separator instead (the
/// Windows-style spelling of a relative path); the caller chooses this reading only when it
/// names an existing file or folder of the project.
pub fn literal_unix_reading(input: &str, root: &RootSpellings) -> Option<LexicalPath> {
    if root.platform.style() != HostStyle::Unix
        || !input.contains('\\')
        || input.contains('\0')
        || input.starts_with('/')
    {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in input.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(LexicalPath(parts.join("/")))
}

/// A component Windows would not open as the file it names. `Err(None)` is a root violation.
fn check_windows_component(part: &str, shown: &str) -> std::result::Result<(), Option<DpxError>> {
    if part.contains(':') {
        // Alternate data streams and drive-relative tricks.
        return Err(None);
    }
    if let Some(device) = windows_device_name(part) {
        return Err(Some(DpxError::new(
            ErrorKind::NotRegularFile,
            format!(
                "'{shown}' names the Windows device {device} (CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are devices whatever their extension); devices are never opened, pass a regular file"
            ),
        )));
    }
    if part.ends_with(['.', ' ']) {
        return Err(Some(DpxError::invalid_arguments(format!(
            "'{shown}' has a name ending with a dot or a space, which Windows drops (so it would open another name); pass the name without them"
        ))));
    }
    Ok(())
}

/// `text` without the `\\?\` prefix Windows APIs return: `\\?\C:\x` is `C:\x` and
/// `\\?\UNC\server\share\x` is `\\server\share\x`. Anything else (a volume GUID path,
/// `\\.\` device paths) is returned as it is. For comparisons and for messages: users never
/// see the prefix.
pub fn without_verbatim_prefix(text: &str) -> Cow<'_, str> {
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return Cow::Owned(format!(r"\\{rest}"));
    }
    if let Some(rest) = text.strip_prefix(r"\\?\") {
        let bytes = rest.as_bytes();
        if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
            return Cow::Borrowed(rest);
        }
    }
    Cow::Borrowed(text)
}

/// The components of an absolute link target below the root, when it lies inside it under one
/// of the root's spellings.
pub fn strip_root(absolute: &str, root: &RootSpellings) -> Option<Vec<String>> {
    root.strip(absolute)
}

/// True when the absolute `path` (a `file://` URL's path: `/C:/x` and `/\\host\x` name
/// `C:/x` and `\\host\x` on Windows) lies lexically inside the root.
pub fn lexical_inside(path: &str, root: &RootSpellings) -> bool {
    let on_host = match root.platform.style() {
        HostStyle::Windows => {
            let rest = path.strip_prefix('/').unwrap_or(path);
            let bytes = rest.as_bytes();
            let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
            if drive || rest.starts_with('\\') {
                rest
            } else {
                path
            }
        }
        HostStyle::Unix => path,
    };
    root.strip(on_host).is_some()
}

/// The name in `listing` that `requested` opens on a volume comparing names by `rules`: the
/// exact name if listed, else the one listed name equal to it under the rules. `None` when no
/// listed name, or several, match: the name then reached the file through another alias (an
/// 8.3 short name, a dropped trailing dot) and is not followed.
pub fn listed_name<'a>(
    requested: &str,
    listing: impl IntoIterator<Item = &'a str> + Clone,
    rules: NameRules,
) -> Option<&'a str> {
    if let Some(exact) = listing.clone().into_iter().find(|name| *name == requested) {
        return Some(exact);
    }
    if rules.is_exact() {
        return None;
    }
    let wanted = rules.key(requested);
    let mut matches = listing.into_iter().filter(|name| rules.key(name) == wanted);
    let first = matches.next()?;
    matches.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spellings(platform: Platform, root: &str, configured: &[&str]) -> RootSpellings {
        let configured: Vec<&Path> = configured.iter().map(Path::new).collect();
        RootSpellings::new(
            Path::new(root),
            &configured,
            platform,
            platform.default_names(),
        )
    }

    fn linux(input: &str) -> Result<String> {
        resolve_lexically(input, &spellings(Platform::Linux, "/srv/project", &[])).map(|p| p.0)
    }

    fn macos(input: &str) -> Result<String> {
        resolve_lexically(
            input,
            &spellings(Platform::MacOs, "/private/tmp/Projekt", &[]),
        )
        .map(|p| p.0)
    }

    fn windows(input: &str) -> Result<String> {
        resolve_lexically(
            input,
            &spellings(Platform::Windows, r"C:\Users\dev\project", &[]),
        )
        .map(|p| p.0)
    }

    #[test]
    fn a_backslash_is_a_name_character_in_the_literal_unix_reading_only() {
        let linux_root = spellings(Platform::Linux, "/srv/project", &[]);
        let literal = |input: &str| literal_unix_reading(input, &linux_root).map(|p| p.0);
        assert_eq!(
            literal(r"\backslash.txt").as_deref(),
            Some(r"\backslash.txt")
        );
        assert_eq!(literal(r"dir/a\b.txt").as_deref(), Some(r"dir/a\b.txt"));
        // `..\x` is one name here: no climb; `..` as a part still climbs, never above the root
        assert_eq!(literal(r"..\x").as_deref(), Some(r"..\x"));
        assert_eq!(literal(r"a/../..\x").as_deref(), Some(r"..\x"));
        assert_eq!(literal(r"../a\b"), None);
        assert_eq!(literal(r"/srv/project/a\b"), None);
        assert_eq!(literal("plain/name.txt"), None);
        // the separator reading is unchanged: a leading `\` is still refused there
        assert!(linux(r"\backslash.txt").is_err());
        assert_eq!(linux(r"src\main.rs").unwrap(), "src/main.rs");
        // Windows names cannot hold a `\`: no literal reading
        let windows_root = spellings(Platform::Windows, r"C:\Users\dev\project", &[]);
        assert_eq!(literal_unix_reading(r"\backslash.txt", &windows_root), None);
        assert_eq!(literal_unix_reading(r"a\b.txt", &windows_root), None);
    }

    #[test]
    fn relative_paths_normalise() {
        assert_eq!(linux("src/main.rs").unwrap(), "src/main.rs");
        assert_eq!(linux("./src//main.rs").unwrap(), "src/main.rs");
        assert_eq!(linux("src/../README.md").unwrap(), "README.md");
        assert_eq!(linux(".").unwrap(), "");
        assert_eq!(linux("").unwrap(), "");
        assert_eq!(linux(r"src\main.rs").unwrap(), "src/main.rs");
        assert_eq!(windows(r"src\main.rs").unwrap(), "src/main.rs");
        assert_eq!(macos("src/main.rs").unwrap(), "src/main.rs");
    }

    #[test]
    fn escapes_are_rejected_on_every_os() {
        for input in [
            "..",
            "../x",
            "src/../../x",
            r"..\x",
            r"src\..\..\x",
            r"C:\Windows\system32",
            "C:relative",
            "c:/x",
            r"\\server\share\x",
            "//server/share/x",
            r"\/server/share/x",
            r"/\server\share\x",
            r"\\?\C:\x",
            r"\\?\C:\Users\dev\project\x",
            r"\\?\UNC\server\share\x",
            r"\\.\pipe\x",
            r"\\.\C:\Users\dev\project\x",
            "//?/C:/Users/dev/project/x",
            r"\Users\dev\project\x",
        ] {
            for (os, result) in [
                ("linux", linux(input)),
                ("macos", macos(input)),
                ("windows", windows(input)),
            ] {
                assert_eq!(
                    result.unwrap_err().kind,
                    ErrorKind::RootViolation,
                    "{os}: {input}"
                );
            }
        }
    }

    #[test]
    fn absolute_paths_inside_the_root_are_accepted_per_os() {
        assert_eq!(linux("/srv/project/src/a.rs").unwrap(), "src/a.rs");
        assert_eq!(linux("/srv/project").unwrap(), "");
        assert_eq!(linux("/srv/project/").unwrap(), "");
        assert_eq!(linux("/srv/other/../project/a").unwrap(), "a");
        assert_eq!(
            linux("/srv/project/../x").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        assert_eq!(
            linux("/srv/project-other/a").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        // Linux names are bytes: another case is another folder.
        assert_eq!(
            linux("/srv/Project/a").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        assert_eq!(
            linux("/etc/passwd").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        assert_eq!(
            windows(r"C:\Users\dev\project\src\a.rs").unwrap(),
            "src/a.rs"
        );
        assert_eq!(
            windows(r"c:\users\DEV\project\src\a.rs").unwrap(),
            "src/a.rs"
        );
        assert_eq!(
            windows("C:/Users/dev/project/src/a.rs").unwrap(),
            "src/a.rs"
        );
        assert_eq!(
            windows("/etc/passwd").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        assert_eq!(
            windows("src/a.rs:stream").unwrap_err().kind,
            ErrorKind::RootViolation
        );
    }

    #[test]
    fn macos_private_aliases_and_name_forms_match_both_ways() {
        // The root was given as /tmp/Projekt and stored as /private/tmp/Projekt.
        assert_eq!(macos("/tmp/Projekt/src/a.rs").unwrap(), "src/a.rs");
        assert_eq!(macos("/private/tmp/Projekt/src/a.rs").unwrap(), "src/a.rs");
        // Case-insensitive volume.
        assert_eq!(macos("/TMP/projekt/src/a.rs").unwrap(), "src/a.rs");
        let var_root = spellings(Platform::MacOs, "/private/var/folders/x/T/p", &[]);
        assert_eq!(
            resolve_lexically("/var/folders/x/T/p/a", &var_root)
                .unwrap()
                .0,
            "a"
        );
        // Unicode: a root stored as NFD (HFS+), typed as NFC, and the other way round.
        let nfd_root = spellings(Platform::MacOs, "/Users/ana/Cafe\u{301}", &[]);
        assert_eq!(
            resolve_lexically("/Users/ana/Caf\u{e9}/x", &nfd_root)
                .unwrap()
                .0,
            "x"
        );
        let nfc_root = spellings(Platform::MacOs, "/Users/ana/Caf\u{e9}", &[]);
        assert_eq!(
            resolve_lexically("/Users/ana/Cafe\u{301}/x", &nfc_root)
                .unwrap()
                .0,
            "x"
        );
        // Other folders under /private are not aliased, and Linux has no aliases.
        assert_eq!(
            macos("/private/Projekt/a").unwrap_err().kind,
            ErrorKind::RootViolation
        );
        let linux_tmp = spellings(Platform::Linux, "/private/tmp/p", &[]);
        assert!(resolve_lexically("/tmp/p/a", &linux_tmp).is_err());
        // A case-sensitive macOS volume compares names exactly (but keeps the aliases).
        let sensitive = RootSpellings::new(
            Path::new("/private/tmp/Projekt"),
            &[],
            Platform::MacOs,
            NameRules {
                case_insensitive: false,
                unicode_normalized: true,
            },
        );
        assert!(resolve_lexically("/tmp/projekt/a", &sensitive).is_err());
        assert_eq!(
            resolve_lexically("/tmp/Projekt/a", &sensitive).unwrap().0,
            "a"
        );
    }

    #[test]
    fn configured_spellings_are_accepted() {
        // The root was configured through a link; its canonical path is elsewhere.
        let root = spellings(
            Platform::Linux,
            "/data/real/project",
            &["/home/ana/project"],
        );
        assert_eq!(
            resolve_lexically("/home/ana/project/src/a.rs", &root)
                .unwrap()
                .0,
            "src/a.rs"
        );
        assert_eq!(
            resolve_lexically("/data/real/project/src/a.rs", &root)
                .unwrap()
                .0,
            "src/a.rs"
        );
    }

    #[test]
    fn windows_unc_roots_accept_their_own_unc_paths_only() {
        let root = spellings(Platform::Windows, r"\\fileserver\team\project", &[]);
        assert_eq!(
            resolve_lexically(r"\\FileServer\TEAM\project\src\a.rs", &root)
                .unwrap()
                .0,
            "src/a.rs"
        );
        assert_eq!(
            resolve_lexically("//fileserver/team/project/a", &root)
                .unwrap()
                .0,
            "a"
        );
        for outside in [
            r"\\attacker.example\x",
            r"\\fileserver\other\project\a",
            r"\\fileserver\team\project\..\..\other\a",
            r"\\?\UNC\fileserver\team\project\a",
        ] {
            assert_eq!(
                resolve_lexically(outside, &root).unwrap_err().kind,
                ErrorKind::RootViolation,
                "{outside}"
            );
        }
    }

    #[test]
    fn windows_devices_and_aliasing_names_are_refused() {
        for input in [
            "CON",
            "nul",
            "NUL.txt",
            "src/aux.c",
            "Com1",
            "com1.tar.gz",
            "LPT9.log",
            "lpt0",
            "COM\u{b9}",
            "CONIN$",
            "conout$.x",
            "CON .txt",
            "nul.",
            "src/PRN/x.rs",
            r"C:\Users\dev\project\nul",
        ] {
            assert_eq!(
                windows(input).unwrap_err().kind,
                ErrorKind::NotRegularFile,
                "{input}"
            );
        }
        for input in ["secret.", "secret ", "src./a", ".git./config"] {
            assert_eq!(
                windows(input).unwrap_err().kind,
                ErrorKind::InvalidArguments,
                "{input}"
            );
        }
        // Ordinary names that merely contain a device name.
        for input in [
            "CONSOLE.md",
            "com10",
            "nul_",
            "xcon/aux_.c",
            "console/lpt.rs",
        ] {
            assert!(windows(input).is_ok(), "{input}");
        }
        // On Unix these are ordinary file names.
        for input in ["CON", "nul.txt", "src/aux.c", "secret."] {
            assert!(linux(input).is_ok(), "{input}");
            assert!(macos(input).is_ok(), "{input}");
        }
    }

    #[test]
    fn device_names_per_component() {
        assert_eq!(windows_device_name("nul").as_deref(), Some("NUL"));
        assert_eq!(windows_device_name("Aux.tar.gz").as_deref(), Some("AUX"));
        assert_eq!(windows_device_name("com3  ..").as_deref(), Some("COM3"));
        assert_eq!(
            windows_device_name("lpt\u{b3}").as_deref(),
            Some("LPT\u{b3}")
        );
        assert_eq!(windows_device_name("COM"), None);
        assert_eq!(windows_device_name("COM12"), None);
        assert_eq!(windows_device_name("conx"), None);
        assert_eq!(windows_device_name(".nul"), None);
    }

    #[test]
    fn network_and_device_forms_are_recognised() {
        for text in [
            r"\\attacker.example\x",
            "//attacker.example/x",
            r"\/attacker\x",
            r"/\attacker\x",
            r"\\?\C:\x",
            r"\\.\pipe\x",
            "/net/host/export",
            "/net",
            r"\net\host",
            "/Network/Servers/host",
        ] {
            assert!(is_network_or_device_form(text), "{text}");
        }
        for text in [
            "/srv/project",
            "/network-drive/x",
            "/netbox",
            r"C:\x",
            "src/a",
            "/",
        ] {
            assert!(!is_network_or_device_form(text), "{text}");
        }
    }

    #[test]
    fn a_project_value_names_its_root_lexically() {
        let root = spellings(Platform::Linux, "/srv/project", &[]);
        let cwd = Some(Path::new("/srv"));
        let home = Some(Path::new("/srv"));
        for value in [
            "/srv/project",
            "/srv/project/",
            "/srv/./project",
            "/srv/x/../project",
            "project",
            "./project",
            "~/project",
        ] {
            assert!(root.names_root(value, cwd, home), "{value}");
        }
        for value in [
            "/srv/project/src",
            "/srv",
            "other",
            "~other/project",
            "//srv/project",
            r"\\srv\project",
            "/net/srv/project",
        ] {
            assert!(!root.names_root(value, cwd, home), "{value}");
        }
        assert!(!root.names_root("project", None, None));

        let mac = spellings(Platform::MacOs, "/private/tmp/Projekt", &[]);
        assert!(mac.names_root("/tmp/projekt", None, None));
        assert!(mac.names_root("/private/tmp/Projekt", None, None));

        let win = spellings(Platform::Windows, r"C:\Users\dev\project", &[]);
        for value in [
            r"c:\users\dev\PROJECT",
            "C:/Users/dev/project/",
            r"C:\Users\dev\project\.",
        ] {
            assert!(win.names_root(value, None, None), "{value}");
        }
        assert!(win.names_root(r"\\?\C:\Users\dev\project", None, None));
        for value in [
            r"\\?\C:\Users\dev\other",
            r"\\?\UNC\attacker.example\share",
            r"\\.\C:\Users\dev\project",
            r"\\attacker.example\x",
            r"\Users\dev\project",
            "C:project",
        ] {
            assert!(
                !win.names_root(value, Some(Path::new(r"C:\")), None),
                "{value}"
            );
        }
    }

    #[test]
    fn names_compare_per_platform() {
        let linux = Platform::Linux.default_names();
        let mac = Platform::MacOs.default_names();
        let win = Platform::Windows.default_names();
        assert!(!linux.same("README.md", "readme.md"));
        assert!(mac.same("README.md", "readme.md"));
        assert!(win.same("README.md", "readme.md"));
        assert!(mac.same("Cafe\u{301}.txt", "caf\u{e9}.TXT"));
        assert!(!win.same("Cafe\u{301}.txt", "caf\u{e9}.txt"));
        assert!(!linux.same("Cafe\u{301}.txt", "caf\u{e9}.txt"));
        assert!(win.same("ÄRGER.txt", "ärger.txt"));
        assert_eq!(mac.key("Src/Main.RS"), "src/main.rs");
    }

    #[test]
    fn listed_names_resolve_aliases_or_refuse_them() {
        let listing = [".git", "src", "README.md", "Cafe\u{301}"];
        let names = || listing.iter().copied();
        let win = Platform::Windows.default_names();
        let mac = Platform::MacOs.default_names();
        assert_eq!(listed_name("src", names(), NameRules::EXACT), Some("src"));
        assert_eq!(listed_name(".GIT", names(), NameRules::EXACT), None);
        assert_eq!(listed_name(".GIT", names(), win), Some(".git"));
        assert_eq!(listed_name("readme.MD", names(), mac), Some("README.md"));
        assert_eq!(listed_name("caf\u{e9}", names(), mac), Some("Cafe\u{301}"));
        assert_eq!(listed_name("caf\u{e9}", names(), win), None);
        // An 8.3 short name is no listed name: refused.
        assert_eq!(listed_name("GIT~1", names(), win), None);
        // Two names equal under the rules (created on a case-sensitive volume): ambiguous.
        let both = ["Makefile", "makefile"];
        assert_eq!(listed_name("MAKEFILE", both.iter().copied(), win), None);
        assert_eq!(
            listed_name("makefile", both.iter().copied(), win),
            Some("makefile")
        );
    }

    #[test]
    fn verbatim_prefixes_are_stripped_for_comparison_and_display() {
        assert_eq!(
            without_verbatim_prefix(r"\\?\C:\Users\dev"),
            r"C:\Users\dev"
        );
        assert_eq!(
            without_verbatim_prefix(r"\\?\UNC\server\share\x"),
            r"\\server\share\x"
        );
        assert_eq!(without_verbatim_prefix(r"C:\Users"), r"C:\Users");
        assert_eq!(
            without_verbatim_prefix(r"\\?\Volume{1234}\x"),
            r"\\?\Volume{1234}\x"
        );
        assert_eq!(without_verbatim_prefix(r"\\.\pipe\x"), r"\\.\pipe\x");
        assert_eq!(without_verbatim_prefix("/home/ana"), "/home/ana");
    }

    #[test]
    fn nul_is_an_argument_error() {
        assert_eq!(linux("a\0b").unwrap_err().kind, ErrorKind::InvalidArguments);
    }
}
