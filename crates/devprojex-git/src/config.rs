//! Repository settings the selection needs.

use std::path::Path;

/// `core.ignorecase` of the repository containing `path`, when there is one that sets it.
///
/// Read from the repository's own configuration only (isolated, like every local read here):
/// `git init` writes the value it detected on the volume, which is what Git then uses.
pub fn ignore_case(path: &Path) -> Option<bool> {
    let trust = gix::sec::trust::Mapping {
        full: gix::open::Options::isolated(),
        reduced: gix::open::Options::isolated(),
    };
    let repo = gix::ThreadSafeRepository::discover_opts(path, Default::default(), trust)
        .ok()?
        .to_thread_local();
    repo.config_snapshot().boolean("core.ignorecase")
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_repository_setting() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(super::ignore_case(dir.path()), None);
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .output()
                .unwrap()
        };
        git(&["init", "-q"]);
        git(&["config", "core.ignorecase", "true"]);
        assert_eq!(super::ignore_case(dir.path()), Some(true));
        git(&["config", "core.ignorecase", "false"]);
        assert_eq!(super::ignore_case(dir.path()), Some(false));
    }
}
