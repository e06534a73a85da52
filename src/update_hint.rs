//! The offline version-age note in the MCP `initialize` instructions.
//!
//! A release build carries its release date, compiled in from `DEVPROJEX_RELEASE_DATE`
//! (`YYYY-MM-DD`, set by the release build jobs; see `.github/workflows/dist-build-setup.steps`).
//! When the running release is more than [`STALE_AFTER_DAYS`] days old, the server adds one
//! sentence to its instructions: the version, its release date, that a newer release may exist,
//! and which command the agent may offer, never without the user's consent. Nothing is looked
//! up on the network. Builds without a release date (every `cargo build`) never show it, and
//! `DEVPROJEX_NO_UPDATE_HINT=1` turns it off. It is never part of a tool result.

use jiff::civil::Date;

/// The release date compiled into this build, if it is a release build.
pub const RELEASE_DATE: Option<&str> = option_env!("DEVPROJEX_RELEASE_DATE");

/// A release is "old" after this many days.
pub const STALE_AFTER_DAYS: i64 = 30;

/// The environment variable that turns the note off (`1`, `true` or `yes`).
pub const OPT_OUT_ENV: &str = "DEVPROJEX_NO_UPDATE_HINT";

/// The running release: its version and compiled-in date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release<'a> {
    /// `CARGO_PKG_VERSION`.
    pub version: &'a str,
    /// The release date, `YYYY-MM-DD`.
    pub date: &'a str,
}

/// This build's release, `None` for a build without a release date (a development build).
pub fn this_release() -> Option<Release<'static>> {
    RELEASE_DATE.map(|date| Release {
        version: env!("CARGO_PKG_VERSION"),
        date,
    })
}

/// Whether the opt-out variable's value turns the note off.
pub fn opted_out(value: Option<&str>) -> bool {
    value.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// The note for `release` on `today`, or `None` (no release date, an unreadable one, not old
/// enough, or opted out). `update_command` is what the agent may offer to run.
pub fn note(
    release: Option<Release<'_>>,
    today: Date,
    opted_out: bool,
    update_command: &str,
) -> Option<String> {
    let release = release.filter(|_| !opted_out)?;
    let released: Date = release.date.trim().parse().ok()?;
    let age = released.until(today).ok()?.get_days() as i64;
    // `until` in days: the span between two civil dates is whole days.
    if age <= STALE_AFTER_DAYS {
        return None;
    }
    Some(format!(
        "This devprojex is version {} from {released}, over {STALE_AFTER_DAYS} days ago, so a newer release may exist: you may offer the user to update it with `{update_command}`, but never update without the user's consent.",
        release.version
    ))
}

/// The command that updates this installation: the package manager's when one owns the binary,
/// else `devprojex self-update`.
pub fn update_command() -> String {
    #[cfg(feature = "self-update")]
    {
        let exe = std::env::current_exe()
            .ok()
            .map(|e| std::fs::canonicalize(&e).unwrap_or(e));
        if let Some(exe) = exe {
            let method = devprojex_update::detect_install_method(
                &exe,
                &|name| std::env::var_os(name),
                &|p| p.exists(),
            );
            return method
                .update_command()
                .unwrap_or("devprojex self-update")
                .to_string();
        }
        "devprojex self-update".to_string()
    }
    #[cfg(not(feature = "self-update"))]
    {
        // Built without self-update: a package manager installed it.
        "the package manager's upgrade command".to_string()
    }
}

/// The note for this process now (the real clock, the real environment).
pub fn current_note() -> Option<String> {
    let today = jiff::Zoned::now().date();
    note(
        this_release(),
        today,
        opted_out(std::env::var(OPT_OUT_ENV).ok().as_deref()),
        &update_command(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> Date {
        s.parse().unwrap()
    }

    const RELEASE: Release<'static> = Release {
        version: "0.4.1",
        date: "2026-03-02",
    };

    #[test]
    fn appears_only_after_thirty_days() {
        assert_eq!(
            note(Some(RELEASE), date("2026-04-01"), false, "x"),
            None,
            "30 days"
        );
        let text = note(
            Some(RELEASE),
            date("2026-04-02"),
            false,
            "devprojex self-update",
        )
        .expect("31 days");
        for needle in [
            "0.4.1",
            "2026-03-02",
            "a newer release may exist",
            "`devprojex self-update`",
            "never update without the user's consent",
        ] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
        assert_eq!(text.matches(". ").count(), 0, "one sentence: {text}");
        assert!(text.ends_with('.'));
    }

    #[test]
    fn names_the_package_managers_command() {
        let text = note(
            Some(RELEASE),
            date("2027-01-01"),
            false,
            "brew upgrade devprojex",
        )
        .unwrap();
        assert!(text.contains("`brew upgrade devprojex`"), "{text}");
    }

    #[test]
    fn absent_in_dev_builds_when_opted_out_and_for_bad_dates() {
        let later = date("2030-01-01");
        assert_eq!(note(None, later, false, "x"), None, "no release date");
        assert_eq!(note(Some(RELEASE), later, true, "x"), None, "opted out");
        let bad = Release {
            version: "1.0.0",
            date: "soon",
        };
        assert_eq!(note(Some(bad), later, false, "x"), None);
        // A clock behind the release date never shows it either.
        assert_eq!(note(Some(RELEASE), date("2025-01-01"), false, "x"), None);
    }

    #[test]
    fn opt_out_values() {
        for v in ["1", "true", "YES", " on "] {
            assert!(opted_out(Some(v)), "{v}");
        }
        for v in ["", "0", "false", "no"] {
            assert!(!opted_out(Some(v)), "{v}");
        }
        assert!(!opted_out(None));
    }
}
