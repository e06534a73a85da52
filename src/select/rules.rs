//! Product exclusions: always on, never re-enabled by a profile, a flag or an agent glob.
//! Every rule here is documented in `docs/selection.md`; keep the two in step.

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
];

/// Operating-system folders that are never project content: recycle bins, volume metadata,
/// Spotlight and FSEvents stores.
pub const OS_LITTER_DIRS: &[&str] = &[
    "$RECYCLE.BIN",
    "System Volume Information",
    ".Trashes",
    ".Spotlight-V100",
    ".fseventsd",
    ".TemporaryItems",
    ".DocumentRevisions-V100",
];

/// OS litter by file name: the list above, plus macOS AppleDouble files (`._name`), which
/// carry another file's resource fork and extended attributes.
pub fn is_os_litter_file(name: &str) -> bool {
    OS_LITTER_FILES.contains(&name) || (name.starts_with("._") && name.len() > 2)
}

/// Extensions whose files are text in practice. The walk does not open them to sniff for NUL
/// bytes (a tree of a large repository would otherwise read 8 KiB of every file); the loader
/// still finds a NUL byte in one and treats it as binary.
const KNOWN_TEXT_EXTENSIONS: &[&str] = &[
    "adoc", "asm", "awk", "bash", "bat", "c", "cc", "cfg", "cjs", "clj", "cmake", "cocci", "conf",
    "config", "cpp", "cs", "csproj", "css", "csv", "cxx", "dart", "diff", "dts", "dtsi", "el",
    "erl", "ex", "exs", "fish", "fs", "gemspec", "go", "gradle", "graphql", "groovy", "h", "hh",
    "hpp", "hrl", "hs", "htm", "html", "hxx", "in", "inc", "ini", "java", "jl", "js", "json",
    "jsonc", "jsx", "kt", "kts", "ld", "lds", "less", "litmus", "lock", "log", "lua", "m", "m4",
    "md", "mjs", "mk", "ml", "mli", "nim", "nix", "patch", "php", "pl", "pm", "props", "proto",
    "ps1", "py", "pyi", "r", "rake", "rb", "rs", "rst", "s", "sass", "scala", "scss", "sh", "sln",
    "sql", "svelte", "svg", "swift", "tex", "toml", "ts", "tsx", "txt", "vue", "xml", "xsl",
    "xslt", "yaml", "yml", "zig", "zsh",
];

/// File names that are text in practice without an extension (build files, project notes), also
/// with a suffix after a dot (`Kconfig.debug`, `Makefile.am`, `Dockerfile.dev`).
const KNOWN_TEXT_NAMES: &[&str] = &[
    "AUTHORS",
    "Brewfile",
    "CHANGELOG",
    "CHANGES",
    "CODEOWNERS",
    "CONTRIBUTING",
    "COPYING",
    "CREDITS",
    "Containerfile",
    "Dockerfile",
    "GNUmakefile",
    "Gemfile",
    "INSTALL",
    "Jenkinsfile",
    "Justfile",
    "Kbuild",
    "Kconfig",
    "LICENSE",
    "MAINTAINERS",
    "Makefile",
    "NEWS",
    "NOTICE",
    "Podfile",
    "Procfile",
    "README",
    "Rakefile",
    "TODO",
    "Vagrantfile",
    "justfile",
    "makefile",
];

/// True when `name` has one of [`KNOWN_TEXT_EXTENSIONS`] (compared without case) or is one of
/// [`KNOWN_TEXT_NAMES`].
pub fn is_known_text(name: &str) -> bool {
    let stem = name.split_once('.').map_or(name, |(stem, _)| stem);
    if KNOWN_TEXT_NAMES.binary_search(&stem).is_ok() {
        return true;
    }
    let Some(dot) = name.rfind('.').filter(|&d| d > 0) else {
        return false;
    };
    let ext = &name[dot + 1..];
    ext.len() <= 8
        && KNOWN_TEXT_EXTENSIONS
            .binary_search_by(|known| {
                known
                    .bytes()
                    .cmp(ext.bytes().map(|b| b.to_ascii_lowercase()))
            })
            .is_ok()
}

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

/// Bit `i` set: the markers of `SMART_RULES[i]` are among `listing` (a folder's names).
pub fn markers_present(listing: &[&str]) -> u64 {
    SMART_RULES
        .iter()
        .enumerate()
        .filter(|(_, rule)| has_marker(listing, rule.markers))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// The bits of `markers` that a child folder inherits: rules scoped to any ancestor.
pub fn inherited_markers(markers: u64) -> u64 {
    SMART_RULES
        .iter()
        .enumerate()
        .filter(|(_, rule)| rule.scope == MarkerScope::Ancestor)
        .fold(0, |mask, (i, _)| mask | (markers & 1 << i))
}

/// True when a folder named `name` is build or dependency output. `here` holds the markers of
/// its parent folder ([`markers_present`]), `above` those inherited from the parent's ancestors
/// inside the root ([`inherited_markers`]).
pub fn is_smart_ignored_dir(name: &str, here: u64, above: u64) -> bool {
    SMART_RULES.iter().enumerate().any(|(i, rule)| {
        rule.folders.contains(&name)
            && match rule.scope {
                MarkerScope::Parent => here & 1 << i != 0,
                MarkerScope::Ancestor => (here | above) & 1 << i != 0,
            }
    })
}

fn has_marker(listing: &[&str], markers: &[&str]) -> bool {
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
        let listing = ["App.csproj", "README.md"];
        assert!(has_marker(&listing, DOTNET_MARKERS));
        assert!(!has_marker(&listing, &["Cargo.toml"]));
        assert!(!has_marker(&["csproj"], &["*.csproj"]));
    }

    #[test]
    fn known_text_list_is_sorted_and_matches_without_case() {
        assert!(KNOWN_TEXT_EXTENSIONS.windows(2).all(|w| w[0] < w[1]));
        assert!(KNOWN_TEXT_NAMES.windows(2).all(|w| w[0] < w[1]));
        assert!(is_known_text("main.rs") && is_known_text("FORK.C") && is_known_text("a.tar.md"));
        assert!(
            is_known_text("Makefile") && is_known_text("Kconfig.debug") && is_known_text("README")
        );
        assert!(!is_known_text("MAKEFILE") && !is_known_text("Makefiles"));
        assert!(!is_known_text("Build") && !is_known_text(".c") && !is_known_text("x.png"));
        assert!(is_os_litter_file("._notes.txt") && !is_os_litter_file("._"));
    }

    #[test]
    fn smart_rules_by_scope() {
        let rust = markers_present(&["Cargo.toml", "src"]);
        assert!(is_smart_ignored_dir("target", rust, 0));
        assert!(!is_smart_ignored_dir("target", 0, inherited_markers(rust)));
        let python = markers_present(&["setup.py"]);
        // __pycache__ deep inside a Python package: the marker is an ancestor's.
        assert!(is_smart_ignored_dir(
            "__pycache__",
            0,
            inherited_markers(python)
        ));
        assert!(!is_smart_ignored_dir("__pycache__", 0, 0));
        assert!(SMART_RULES.len() <= 64, "the marker masks are u64");
    }
}
