//! Profile parsing (`Profile::parse`: size limit, BOM, serde schema, validation with glob
//! compilation), and the lexical resolution its `roots` and `paths` go through next
//! (`resolve_lexically`, under the Linux, macOS and Windows rules, which are pure functions).
//!
//! Input: a profile document (any bytes; profiles are read as UTF-8).
//!
//! Invariants: parsing never panics and refuses only with a profile, argument or pattern code;
//! an accepted profile is valid (kind, schema version, Git mode, detail, extensions) and
//! survives `to_json` and parsing again unchanged; a resolved path is a clean relative path
//! (no empty, `.` or `..` component, no `\`, no leading `/`, no `:` under Windows rules) that
//! resolves to itself again; anything else is refused with DPX-MCP-ROOT-VIOLATION or
//! DPX-MCP-INVALID-ARGUMENTS, or under Windows rules a device name with
//! DPX-MCP-NOT-A-REGULAR-FILE.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use devprojex::error::ErrorKind;
use devprojex::profile::{PROFILE_KIND, PROFILE_SCHEMA_VERSION, Profile};
use devprojex::project::{HostStyle, Platform, RootSpellings, resolve_lexically};
use libfuzzer_sys::fuzz_target;

/// A root per platform, with that platform's default name rules.
fn roots() -> &'static [(RootSpellings, HostStyle)] {
    static ROOTS: OnceLock<Vec<(RootSpellings, HostStyle)>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        [
            ("/home/dev/work/project", Platform::Linux),
            ("/Users/dev/work/project", Platform::MacOs),
            (r"C:\Users\dev\work\project", Platform::Windows),
        ]
        .into_iter()
        .map(|(root, platform)| {
            let root = Path::new(root);
            let spellings = RootSpellings::new(root, &[root], platform, platform.default_names());
            (spellings, platform.style())
        })
        .collect()
    })
}

fn check_path(input: &str) {
    for (root, style) in roots() {
        let style = *style;
        match resolve_lexically(input, root) {
            Ok(resolved) => {
                let text = resolved.as_str();
                assert!(!text.starts_with('/') && !text.contains('\\'), "{text:?}");
                for part in text.split('/').filter(|_| !text.is_empty()) {
                    assert!(!matches!(part, "" | "." | ".."), "{input:?} -> {text:?}");
                    assert!(!(style == HostStyle::Windows && part.contains(':')));
                }
                // The drive check reads the caller's text as written, so under Unix rules
                // `./C:x` names the file `C:x`, which `C:x` alone (a drive form) does not.
                let drive_like = text.as_bytes().get(1) == Some(&b':');
                if !drive_like {
                    let again = resolve_lexically(text, root).expect("a clean path resolves");
                    assert_eq!(again.as_str(), text, "resolution is not idempotent");
                }
            }
            // A Windows device name (`CON`, `NUL`, `COM1`, ...) is no file to read.
            Err(err) => assert!(
                err.kind == ErrorKind::RootViolation
                    || err.kind == ErrorKind::InvalidArguments
                    || (err.kind == ErrorKind::NotRegularFile && style == HostStyle::Windows),
                "{}",
                err.code()
            ),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let profile = match Profile::parse(text, "profile 'fuzz.json'") {
        Ok(profile) => profile,
        Err(err) => {
            assert!(
                [
                    ErrorKind::InvalidProfile,
                    ErrorKind::InvalidArguments,
                    ErrorKind::InvalidPattern
                ]
                .contains(&err.kind),
                "{}",
                err.code()
            );
            return;
        }
    };
    assert_eq!(profile.kind, PROFILE_KIND);
    assert_eq!(profile.schema_version, PROFILE_SCHEMA_VERSION);
    let selection = &profile.selection;
    if let Some(mode) = &selection.git_mode {
        assert!(devprojex::select::GitMode::parse(mode).is_some());
    }
    for ext in &selection.extensions {
        assert!(!ext.is_empty() && !ext.contains(['/', '\\']));
    }
    let json = profile.to_json();
    let again = Profile::parse(&json, "profile 'fuzz.json'").expect("a written profile parses");
    assert_eq!(again, profile, "a profile changed through to_json");
    for path in selection.roots.iter().chain(&selection.paths) {
        check_path(path);
    }
});
