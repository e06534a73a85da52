//! Product exclusions: always on, never re-enabled by a profile, a flag or an agent glob.
//! Every rule here is documented in `docs/selection.md`; keep the two in step.

use std::path::Path;

/// Version-control metadata folders, hidden everywhere.
pub const VCS_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    "_darcs",
    "CVS",
    ".jj",
    ".pijul",
    ".fossil-settings",
];

/// Operating-system litter files, hidden everywhere.
pub const OS_LITTER_FILES: &[&str] = &[
    ".DS_Store",
    "Thumbs.db",
    "ehthumbs.db",
    "desktop.ini",
    "Desktop.ini",
    ".localized",
    "$RECYCLE.BIN",
];

/// Where a smart-ignore rule looks for its project markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerScope {
    /// The folder's parent must hold a marker (e.g. `target` next to `Cargo.toml`).
    Parent,
    /// The parent or any ancestor inside the root holds a marker (e.g. `__pycache__` deep in a package).
    Ancestor,
}

/// A build or dependency output folder, recognised per ecosystem and scoped by project markers
/// so that an ordinary folder of the same name in a project without the marker stays visible.
#[derive(Debug, Clone, Copy)]
pub struct SmartRule {
    pub ecosystem: &'static str,
    pub folders: &'static [&'static str],
    /// Exact file names, or `*.ext` for any file with that extension.
    pub markers: &'static [&'static str],
    pub scope: MarkerScope,
}

const PYTHON_MARKERS: &[&str] = &[
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "Pipfile",
    "tox.ini",
    "noxfile.py",
    "poetry.lock",
    "uv.lock",
    "*.py",
];
const DOTNET_MARKERS: &[&str] = &[
    "*.csproj",
    "*.fsproj",
    "*.vbproj",
    "*.sln",
    "*.slnx",
    "Directory.Build.props",
];
const GRADLE_MARKERS: &[&str] = &[
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "gradlew",
];

pub const SMART_RULES: &[SmartRule] = &[
    SmartRule {
        ecosystem: "Rust",
        folders: &["target"],
        markers: &["Cargo.toml"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Maven / sbt",
        folders: &["target"],
        markers: &["pom.xml", "build.sbt"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Gradle",
        folders: &["build", ".gradle", "target"],
        markers: GRADLE_MARKERS,
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: ".NET",
        folders: &["bin", "obj"],
        markers: DOTNET_MARKERS,
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Node.js",
        folders: &[
            "node_modules",
            "dist",
            ".next",
            ".nuxt",
            ".svelte-kit",
            ".turbo",
            ".parcel-cache",
            ".vite",
            "coverage",
            ".yarn",
            "bower_components",
        ],
        markers: &["package.json"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Python",
        folders: &[
            "__pycache__",
            ".mypy_cache",
            ".pytest_cache",
            ".ruff_cache",
            ".hypothesis",
        ],
        markers: PYTHON_MARKERS,
        scope: MarkerScope::Ancestor,
    },
    SmartRule {
        ecosystem: "Python",
        folders: &[
            ".venv", "venv", ".tox", ".nox", ".eggs", "build", "dist", "htmlcov",
        ],
        markers: PYTHON_MARKERS,
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Go",
        folders: &["vendor"],
        markers: &["go.mod"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "PHP",
        folders: &["vendor"],
        markers: &["composer.json"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Ruby",
        folders: &[".bundle", "vendor"],
        markers: &["Gemfile"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Swift",
        folders: &[".build", ".swiftpm", "Pods", "DerivedData"],
        markers: &["Package.swift", "Podfile", "*.xcodeproj", "*.xcworkspace"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Dart / Flutter",
        folders: &[".dart_tool", "build"],
        markers: &["pubspec.yaml"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Elixir",
        folders: &["_build", "deps"],
        markers: &["mix.exs"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Haskell",
        folders: &["dist-newstyle", ".stack-work"],
        markers: &["*.cabal", "stack.yaml", "cabal.project"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Zig",
        folders: &["zig-cache", ".zig-cache", "zig-out"],
        markers: &["build.zig"],
        scope: MarkerScope::Parent,
    },
    SmartRule {
        ecosystem: "Terraform",
        folders: &[".terraform"],
        markers: &["*.tf"],
        scope: MarkerScope::Parent,
    },
];

/// True when a folder named `name` whose parent is `parent` is build or dependency output.
/// `root` bounds the ancestor search.
pub fn is_smart_ignored_dir(name: &str, parent: &Path, root: &Path) -> bool {
    let mut candidates = SMART_RULES
        .iter()
        .filter(|rule| rule.folders.contains(&name))
        .peekable();
    if candidates.peek().is_none() {
        return false;
    }
    let mut listing_cache: Option<Vec<String>> = None;
    for rule in candidates {
        let found = match rule.scope {
            MarkerScope::Parent => {
                let listing = listing_cache.get_or_insert_with(|| list_names(parent));
                has_marker(listing, rule.markers)
            }
            MarkerScope::Ancestor => {
                let mut dir = Some(parent);
                let mut hit = false;
                while let Some(current) = dir {
                    if has_marker(&list_names(current), rule.markers) {
                        hit = true;
                        break;
                    }
                    if current == root {
                        break;
                    }
                    dir = current.parent().filter(|p| p.starts_with(root));
                }
                hit
            }
        };
        if found {
            return true;
        }
    }
    false
}

fn list_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn has_marker(listing: &[String], markers: &[&str]) -> bool {
    markers
        .iter()
        .any(|marker| match marker.strip_prefix("*.") {
            Some(ext) => listing.iter().any(|name| {
                name.len() > ext.len() + 1
                    && name.ends_with(ext)
                    && name.as_bytes()[name.len() - ext.len() - 1] == b'.'
            }),
            None => listing.iter().any(|name| name == marker),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_matching() {
        let listing = vec!["App.csproj".to_string(), "README.md".to_string()];
        assert!(has_marker(&listing, DOTNET_MARKERS));
        assert!(!has_marker(&listing, &["Cargo.toml"]));
        assert!(!has_marker(&["csproj".to_string()], &["*.csproj"]));
    }
}
