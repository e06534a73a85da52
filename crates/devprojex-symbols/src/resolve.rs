//! Resolving imports to project files.
//!
//! A [`ProjectView`] is built from the list of project files (the caller's selection), the
//! packages and namespaces the files declare, and the few configuration files that steer
//! resolution (`Cargo.toml`, `go.mod`, `tsconfig.json`/`jsconfig.json`, `package.json`,
//! `composer.json`, `compile_commands.json`), which the caller reads for it, and, for Rust, the
//! names that crate roots and parent modules bring in by `use`, `extern crate` and `mod`
//! ([`ProjectView::rust_name_files`], [`ProjectView::set_rust_names`]). Resolution is then
//! lookups in hash maps; nothing touches the disk.

use std::collections::{HashMap, HashSet};

use crate::Lang;
use crate::imports::{Declaration, RustVisibility, Spec};

/// Where an import leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// One file.
    File(String),
    /// A package folder: a Go package, a Java/Kotlin/Scala package (wildcard imports), a C#
    /// namespace whose files share one folder.
    Folder(String),
}

impl Target {
    /// The project-relative path (a folder without a trailing `/`).
    pub fn path(&self) -> &str {
        match self {
            Target::File(p) | Target::Folder(p) => p,
        }
    }
}

/// The names of the configuration files a [`ProjectView`] reads when they are in the project.
pub const CONFIG_FILE_NAMES: [&str; 7] = [
    "Cargo.toml",
    "go.mod",
    "tsconfig.json",
    "jsconfig.json",
    "package.json",
    "composer.json",
    "compile_commands.json",
];

/// Whether a project path is one of the [`CONFIG_FILE_NAMES`].
pub fn is_config_file(path: &str) -> bool {
    CONFIG_FILE_NAMES.contains(&file_name(path))
}

/// The project, as resolution needs it.
#[derive(Debug, Default, Clone)]
pub struct ProjectView {
    files: HashSet<String>,
    /// Files per folder.
    by_dir: HashMap<String, Vec<String>>,
    /// C/C++: a header's path below an include folder -> the include folders holding it.
    include_index: HashMap<String, Vec<usize>>,
    include_dirs: Vec<String>,
    /// C/C++: `-I`, `-iquote`, `-isystem` folders per translation unit (compile_commands.json).
    compile_flags: HashMap<String, CompileDirs>,
    /// Folders of every compile_commands.json entry, for files (headers) without one.
    compile_fallback: CompileDirs,
    rust_crates: Vec<RustCrate>,
    /// Rust: path dependencies a workspace manifest renames in `[workspace.dependencies]`
    /// (`grep-cli = { path = "crates/cli", package = "grep-cli2" }`), which members inherit
    /// with `grep-cli.workspace = true`: (the workspace's folder, the name code writes, the
    /// package).
    rust_workspace_renames: Vec<(String, String, String)>,
    /// Rust: per crate root or parent module file, the names its top-level `use`, `extern
    /// crate` and `mod x;` items bring in (see [`Declaration::RustName`]).
    /// (File -> name (`*` for the globs) -> what it stands for.)
    rust_names: HashMap<String, HashMap<String, Vec<RustName>>>,
    go_modules: Vec<(String, String)>,
    ts_configs: HashMap<String, TsConfig>,
    js_packages: HashMap<String, String>,
    /// `package.json` folders and their entry file.
    js_package_main: HashMap<String, Vec<String>>,
    /// `package.json` folders and their `exports` subpaths with targets.
    js_exports: HashMap<String, Vec<(String, Vec<String>)>>,
    /// Java/Kotlin/Scala packages and types.
    jvm: Namespaces,
    csharp: Namespaces,
    php: Namespaces,
    /// composer.json PSR-4: namespace prefix (with `.`) -> folders.
    php_psr4: Vec<(String, Vec<String>)>,
    ruby_load_dirs: Vec<String>,
}

/// The declared packages (or namespaces) of one language family and their top-level types,
/// each with the files that declare it.
#[derive(Debug, Default, Clone)]
struct Namespaces {
    packages: HashMap<String, Vec<String>>,
    types: HashMap<String, Vec<String>>,
}

#[derive(Debug, Default, Clone)]
struct CompileDirs {
    quote: Vec<String>,
    angle: Vec<String>,
}

#[derive(Debug, Clone)]
struct RustCrate {
    /// The folder of its Cargo.toml.
    dir: String,
    /// The name as code writes it (`-` as `_`).
    name: String,
    /// The `[package]` name.
    package: String,
    /// Path dependencies renamed in its manifest (`futures04 = { path = "../..", package =
    /// "futures" }`): the name code writes (`-` as `_`) and the package.
    renamed: Vec<(String, String)>,
    /// Dependencies it inherits from its workspace (`x = { workspace = true }`), as code
    /// writes them: a rename of the workspace's applies to them.
    inherited: Vec<String>,
    /// `src/lib.rs` (or `[lib] path`) when it is a project file.
    lib: Option<String>,
    /// `src/main.rs` when it is a project file.
    main: Option<String>,
    /// The crate roots its manifest places by `path` (`[[bin]]`, `[[example]]`, `[[test]]`,
    /// `[[bench]]`, `[lib]`) that are project files: ripgrep's `crates/core/main.rs`.
    declared_roots: Vec<String>,
}

/// A name a module file brings in: `printer` -> `[grep_printer]` (`*` for a glob), `poll_fn`
/// -> `[self, poll_fn]` for `mod poll_fn;`.
#[derive(Debug, Clone)]
struct RustName {
    path: Vec<String>,
    visibility: RustVisibility,
}

/// Who looks at a Rust path: the crate root and module path of the importing file (or of the
/// crate root whose `use` is followed).
#[derive(Clone, Copy)]
struct RustViewer<'a> {
    root: &'a str,
    module: &'a [String],
}

/// Where a Rust path leads ([`ProjectView::rust_walk`]).
struct RustWalk {
    /// The file of the deepest module reached.
    file: String,
    /// Every segment was a module with a file of its own.
    whole: bool,
    /// The crate root and module path reached (for a walk that goes on from there).
    root: String,
    module: Vec<String>,
}

/// How many names brought in by `use` one path may try (each exact name or glob looked at,
/// through re-exports of re-exports); a cycle of them, or a root of thousands of globs, ends
/// there.
const RUST_NAME_STEPS: usize = 64;

/// The most entry points of one package.json tried (`exports` conditions, `types`, `module`,
/// `main`): real packages have a handful.
const JS_PACKAGE_ENTRIES: usize = 16;

#[derive(Debug, Clone, Default)]
struct TsConfig {
    /// Folder non-relative specifiers resolve against (`baseUrl`).
    base_url: Option<String>,
    /// `paths`: pattern -> substitutions, relative to `paths_base`.
    paths: Vec<(String, Vec<String>)>,
    paths_base: String,
}

/// Input for [`ProjectView::new`].
pub struct ViewInput<'a> {
    /// Every project file (project-relative, `/`).
    pub files: Vec<String>,
    /// (file, packages or namespaces and types it declares), from [`crate::imports::scan`].
    pub declarations: Vec<(String, Vec<Declaration>)>,
    /// Reads a project file (a configuration file); `None` when it cannot be read.
    pub read: &'a dyn Fn(&str) -> Option<String>,
    /// The project root as an absolute path with `/`, to make compile_commands.json paths
    /// project-relative.
    pub root: Option<String>,
}

pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn stem(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

/// `dir` + `relative`, with `.` and `..` resolved; `None` when it climbs above the root.
pub fn join(dir: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` is the folder `dir` or below it (`""` is the project's root, above all).
fn in_dir(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn depth(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.matches('/').count() + 1
    }
}

fn common_prefix_dirs(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

impl ProjectView {
    pub fn new(input: ViewInput<'_>) -> Self {
        let mut view = ProjectView::default();
        let mut files = input.files;
        files.sort();
        files.dedup();
        for file in &files {
            view.by_dir
                .entry(dir_of(file).to_string())
                .or_default()
                .push(file.clone());
        }
        view.files = files.iter().cloned().collect();
        view.index_includes(&files);
        let mut ts_config_reader = TsConfigReader::new(input.read);
        for file in &files {
            match file_name(file) {
                "Cargo.toml" => {
                    if let Some(text) = (input.read)(file) {
                        view.add_cargo(file, &text);
                    }
                }
                "go.mod" => {
                    if let Some(text) = (input.read)(file) {
                        view.add_go_mod(file, &text);
                    }
                }
                "tsconfig.json" | "jsconfig.json" => {
                    let dir = dir_of(file).to_string();
                    if !view.ts_configs.contains_key(&dir)
                        && let Some(config) = ts_config_reader.read(file, 0)
                    {
                        view.ts_configs.insert(dir, config);
                    }
                }
                "package.json" => {
                    if let Some(text) = (input.read)(file) {
                        view.add_package_json(file, &text);
                    }
                }
                "composer.json" => {
                    if let Some(text) = (input.read)(file) {
                        view.add_composer(file, &text);
                    }
                }
                "compile_commands.json" => {
                    if let Some(text) = (input.read)(file) {
                        view.add_compile_commands(&text, input.root.as_deref());
                    }
                }
                _ => {}
            }
        }
        let mut rust_names = Vec::new();
        for (file, declares) in input.declarations {
            let namespaces = match Lang::of_path(&file) {
                Some(Lang::Rust) => {
                    rust_names.push((file, declares));
                    continue;
                }
                Some(Lang::Java | Lang::Kotlin | Lang::Scala) => &mut view.jvm,
                Some(Lang::CSharp) => &mut view.csharp,
                Some(Lang::Php) => &mut view.php,
                _ => continue,
            };
            for declaration in declares {
                let (map, name) = match declaration {
                    Declaration::Package(name) => (&mut namespaces.packages, name),
                    Declaration::Type(name) => (&mut namespaces.types, name),
                    Declaration::RustName { .. } => continue,
                };
                map.entry(name).or_default().push(file.clone());
            }
        }
        for namespaces in [&mut view.jvm, &mut view.csharp, &mut view.php] {
            for files in namespaces
                .packages
                .values_mut()
                .chain(namespaces.types.values_mut())
            {
                files.sort();
                files.dedup();
            }
        }
        // Ruby: the `lib` folders (shallowest first), then spec/ and test/ at the root
        let mut lib_dirs: Vec<String> = view
            .by_dir
            .keys()
            .filter(|d| file_name(d) == "lib")
            .cloned()
            .collect();
        lib_dirs.sort_by_key(|d| (depth(d), d.clone()));
        lib_dirs.extend(["spec".to_string(), "test".to_string()]);
        view.ruby_load_dirs = lib_dirs;
        view.set_rust_names(rust_names);
        view
    }

    /// The Rust files whose names [`ProjectView::set_rust_names`] wants: the crate roots the
    /// manifests place (`src/lib.rs` or `[lib] path`, `src/main.rs`, `[[bin]]`, `[[test]]`,
    /// ... paths) and the files with a module file below them (`future/mod.rs` of
    /// `future/poll_fn.rs`).
    pub fn rust_name_files(&self) -> Vec<String> {
        let mut files: Vec<String> = self
            .rust_crates
            .iter()
            .flat_map(|c| c.lib.iter().chain(&c.main).chain(&c.declared_roots))
            .cloned()
            .collect();
        if !self.rust_crates.is_empty() {
            files.extend(
                self.files
                    .iter()
                    .filter(|f| f.ends_with(".rs"))
                    .filter_map(|f| {
                        let (root, path) = self.rust_module_of(f)?;
                        let parent = path.split_last()?.1;
                        self.rust_module_file(&root, parent)
                    }),
            );
        }
        files.sort();
        files.dedup();
        files
    }

    /// The names Rust files bring in by top-level `use`, `extern crate` and `mod x;` items
    /// ([`Declaration::RustName`]), replacing those known: a `use facade::printer::X` then
    /// leads where `printer` does, and `use futures::future::poll_fn` to `future/mod.rs`
    /// when its `mod poll_fn;` is private (the function, not the module file).
    pub fn set_rust_names(&mut self, declarations: Vec<(String, Vec<Declaration>)>) {
        self.rust_names = declarations
            .into_iter()
            .map(|(file, declares)| {
                let mut names: HashMap<String, Vec<RustName>> = HashMap::new();
                for declaration in declares {
                    if let Declaration::RustName {
                        name,
                        path,
                        visibility,
                    } = declaration
                    {
                        names
                            .entry(name)
                            .or_default()
                            .push(RustName { path, visibility });
                    }
                }
                (file, names)
            })
            .filter(|(_, names)| !names.is_empty())
            .collect();
    }

    /// Whether `path` is a project file.
    pub fn has_file(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    /// The project files directly inside `dir`.
    pub fn files_in(&self, dir: &str) -> &[String] {
        self.by_dir.get(dir).map_or(&[], Vec::as_slice)
    }

    /// Where `spec`, imported by `from`, leads (empty: outside the project or unresolved).
    /// Never `from` itself.
    pub fn resolve(&self, from: &str, spec: &Spec) -> Vec<Target> {
        let mut out = match spec {
            Spec::Include { path, quoted } => self.resolve_include(from, path, *quoted),
            Spec::RustMod { name, path_attr } => {
                self.resolve_rust_mod(from, name, path_attr.as_deref())
            }
            Spec::RustUse { segments, inline } => self.resolve_rust_use(from, segments, inline),
            Spec::Python {
                level,
                module,
                names,
            } => self.resolve_python(from, *level, module, names),
            Spec::Js { specifier, .. } => self.resolve_js(from, specifier),
            Spec::Go { path } => self.resolve_go(from, path),
            Spec::Jvm { name, wildcard } => self.resolve_jvm(name, *wildcard),
            Spec::CSharp { name, type_import } => self.resolve_csharp(name, *type_import),
            Spec::Ruby { path, relative } => self.resolve_ruby(from, path, *relative),
            Spec::PhpUse { name } => self.resolve_php_use(name),
            Spec::PhpRequire { path, dir_relative } => {
                self.resolve_php_require(from, path, *dir_relative)
            }
        };
        out.retain(|t| t.path() != from);
        out.sort();
        out.dedup();
        out
    }

    fn file(&self, path: &str) -> Option<Target> {
        self.files
            .contains(path)
            .then(|| Target::File(path.to_string()))
    }

    // ---- C and C++ ------------------------------------------------------------------------

    fn index_includes(&mut self, files: &[String]) {
        let mut dirs: Vec<String> = self
            .by_dir
            .keys()
            .flat_map(|d| {
                // every ancestor folder named include
                let mut found = Vec::new();
                let mut current = d.as_str();
                loop {
                    if file_name(current) == "include" {
                        found.push(current.to_string());
                    }
                    if current.is_empty() {
                        break;
                    }
                    current = dir_of(current);
                }
                found
            })
            .collect();
        dirs.sort();
        dirs.dedup();
        let position: HashMap<&str, usize> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.as_str(), i))
            .collect();
        let mut index: HashMap<String, Vec<usize>> = HashMap::new();
        for file in files {
            if !matches!(Lang::of_path(file), Some(Lang::C | Lang::Cpp)) && !looks_like_header(file)
            {
                continue;
            }
            let mut current = dir_of(file);
            loop {
                if let Some(&i) = position.get(current) {
                    let below = &file[current.len() + 1..];
                    index.entry(below.to_string()).or_default().push(i);
                }
                if current.is_empty() {
                    break;
                }
                current = dir_of(current);
            }
        }
        self.include_dirs = dirs;
        self.include_index = index;
    }

    fn add_compile_commands(&mut self, text: &str, root: Option<&str>) {
        let Some(root) = root else { return };
        let Ok(serde_json::Value::Array(entries)) = serde_json::from_str::<serde_json::Value>(text)
        else {
            return;
        };
        let relative = |path: &str, directory: &str| -> Option<String> {
            let absolute = if path.starts_with('/')
                || path.get(1..3) == Some(":\\")
                || path.get(1..3) == Some(":/")
            {
                path.replace('\\', "/")
            } else {
                format!(
                    "{}/{}",
                    directory.replace('\\', "/"),
                    path.replace('\\', "/")
                )
            };
            let rest = absolute.strip_prefix(root)?;
            let rest = rest.strip_prefix('/').unwrap_or(rest);
            join("", rest)
        };
        let mut fallback_quote: Vec<String> = Vec::new();
        let mut fallback_angle: Vec<String> = Vec::new();
        for entry in entries {
            let directory = entry
                .get("directory")
                .and_then(|d| d.as_str())
                .unwrap_or("");
            let Some(file) = entry.get("file").and_then(|f| f.as_str()) else {
                continue;
            };
            let arguments: Vec<String> = match entry.get("arguments") {
                Some(serde_json::Value::Array(args)) => args
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_string))
                    .collect(),
                _ => match entry.get("command").and_then(|c| c.as_str()) {
                    Some(command) => shlex::split(command).unwrap_or_default(),
                    None => continue,
                },
            };
            let mut dirs = CompileDirs::default();
            let mut iquote = Vec::new();
            let mut isystem = Vec::new();
            let mut i = 0;
            while i < arguments.len() {
                let argument = &arguments[i];
                let (flag, value) = ["-iquote", "-isystem", "-I", "/I"]
                    .iter()
                    .find_map(|flag| {
                        argument.strip_prefix(flag).map(|rest| {
                            if rest.is_empty() {
                                i += 1;
                                (*flag, arguments.get(i).cloned().unwrap_or_default())
                            } else {
                                (*flag, rest.to_string())
                            }
                        })
                    })
                    .unwrap_or(("", String::new()));
                i += 1;
                if flag.is_empty() || value.is_empty() {
                    continue;
                }
                let Some(dir) = relative(&value, directory) else {
                    continue;
                };
                match flag {
                    "-iquote" => iquote.push(dir),
                    "-isystem" => isystem.push(dir),
                    _ => dirs.angle.push(dir),
                }
            }
            dirs.angle.extend(isystem);
            dirs.quote = iquote;
            dirs.quote.extend(dirs.angle.iter().cloned());
            for dir in &dirs.quote {
                if !fallback_quote.contains(dir) {
                    fallback_quote.push(dir.clone());
                }
            }
            for dir in &dirs.angle {
                if !fallback_angle.contains(dir) {
                    fallback_angle.push(dir.clone());
                }
            }
            if let Some(file) = relative(file, directory) {
                self.compile_flags.insert(file, dirs);
            }
        }
        self.compile_fallback = CompileDirs {
            quote: fallback_quote,
            angle: fallback_angle,
        };
    }

    fn resolve_include(&self, from: &str, path: &str, quoted: bool) -> Vec<Target> {
        if path.starts_with('/') {
            return Vec::new();
        }
        if quoted && let Some(found) = join(dir_of(from), path).and_then(|p| self.file(&p)) {
            return vec![found];
        }
        // compile_commands.json: the compiler's own search order
        let flags = self
            .compile_flags
            .get(from)
            .or_else(|| (!self.compile_flags.is_empty()).then_some(&self.compile_fallback));
        if let Some(flags) = flags {
            let dirs = if quoted { &flags.quote } else { &flags.angle };
            for dir in dirs {
                if let Some(found) = join(dir, path).and_then(|p| self.file(&p)) {
                    return vec![found];
                }
            }
        }
        // The project's include folders: the one nearest the including file wins, then the
        // shallowest; a tie (the kernel's <asm/...> in every arch/*/include) is ambiguous.
        let Some(normalized) = join("", path) else {
            return Vec::new();
        };
        let Some(candidates) = self.include_index.get(&normalized) else {
            return Vec::new();
        };
        let rank = |i: &usize| {
            let dir = &self.include_dirs[*i];
            (
                std::cmp::Reverse(
                    common_prefix_dirs(dir, dir_of(from)) * usize::from(!dir.is_empty()),
                ),
                depth(dir),
            )
        };
        let mut ranked: Vec<(_, usize)> = candidates.iter().map(|i| (rank(i), *i)).collect();
        ranked.sort();
        if ranked.len() > 1 && ranked[0].0 == ranked[1].0 {
            return Vec::new();
        }
        let dir = &self.include_dirs[ranked[0].1];
        join(dir, &normalized)
            .and_then(|p| self.file(&p))
            .into_iter()
            .collect()
    }

    /// Whether an include resolution was a tie between include folders (reported as
    /// ambiguous rather than unresolved).
    pub fn include_is_ambiguous(&self, from: &str, spec: &Spec) -> bool {
        let Spec::Include { path, quoted } = spec else {
            return false;
        };
        if !self.resolve_include(from, path, *quoted).is_empty() {
            return false;
        }
        join("", path)
            .and_then(|p| self.include_index.get(&p))
            .is_some_and(|c| c.len() > 1)
    }

    /// Whether a compile_commands.json search folder, or one of its ancestors, is a project
    /// file. Only then can an `#include` lead to a file without naming it (`-I a/b.h` with
    /// `#include "."`): every other include target ends in a component written in the
    /// directive (see the importer prefilter of `related_files`).
    pub fn include_search_names_a_file(&self) -> bool {
        self.compile_fallback
            .quote
            .iter()
            .chain(&self.compile_fallback.angle)
            .any(|dir| {
                let mut current = dir.as_str();
                while !current.is_empty() {
                    if self.files.contains(current) {
                        return true;
                    }
                    current = dir_of(current);
                }
                false
            })
    }

    // ---- Rust -----------------------------------------------------------------------------

    fn add_cargo(&mut self, manifest: &str, text: &str) {
        let Ok(value) = text.parse::<toml::Table>() else {
            return;
        };
        let dir = dir_of(manifest).to_string();
        // a workspace's renames are read from its manifest, with or without a [package]
        let workspace_deps = value
            .get("workspace")
            .and_then(|w| w.get("dependencies"))
            .and_then(|d| d.as_table());
        for (alias, spec) in workspace_deps.into_iter().flatten() {
            if spec.get("path").is_some()
                && let Some(package) = spec.get("package").and_then(|p| p.as_str())
            {
                self.rust_workspace_renames.push((
                    dir.clone(),
                    alias.replace('-', "_"),
                    package.to_string(),
                ));
            }
        }
        let Some(package) = value.get("package").and_then(|p| p.as_table()) else {
            return;
        };
        let Some(name) = package.get("name").and_then(|n| n.as_str()) else {
            return;
        };
        let lib_path = value
            .get("lib")
            .and_then(|l| l.get("path"))
            .and_then(|p| p.as_str())
            .unwrap_or("src/lib.rs");
        let lib = join(&dir, lib_path).filter(|p| self.files.contains(p));
        let main = join(&dir, "src/main.rs").filter(|p| self.files.contains(p));
        let lib_name = value
            .get("lib")
            .and_then(|l| l.get("name"))
            .and_then(|n| n.as_str())
            .unwrap_or(name);
        let mut declared_roots: Vec<String> = ["bin", "example", "test", "bench"]
            .iter()
            .filter_map(|section| value.get(*section).and_then(|t| t.as_array()))
            .flatten()
            .filter_map(|target| target.get("path").and_then(|p| p.as_str()))
            .chain(lib.is_some().then_some(lib_path))
            .filter_map(|path| join(&dir, path))
            .filter(|p| self.files.contains(p))
            .collect();
        declared_roots.sort();
        declared_roots.dedup();
        // [dependencies], [dev-dependencies], [build-dependencies], and each
        // [target.'cfg(..)'.dependencies] likewise
        let sections = ["dependencies", "dev-dependencies", "build-dependencies"];
        let targets = value
            .get("target")
            .and_then(|t| t.as_table())
            .into_iter()
            .flat_map(|t| t.values());
        let dependencies: Vec<(&String, &toml::Value)> = std::iter::once(&value)
            .chain(targets.filter_map(|t| t.as_table()))
            .flat_map(|table| sections.iter().filter_map(|s| table.get(*s)?.as_table()))
            .flatten()
            .collect();
        let inherited = dependencies
            .iter()
            .filter(|(_, spec)| spec.get("workspace").and_then(|w| w.as_bool()) == Some(true))
            .map(|(alias, _)| alias.replace('-', "_"))
            .collect();
        let renamed: Vec<(String, String)> = dependencies
            .into_iter()
            // a registry dependency (`futures_01 = { version = "0.1", package = "futures" }`)
            // is not the workspace's package of that name
            .filter(|(_, spec)| spec.get("path").is_some())
            .filter_map(|(alias, spec)| {
                let package = spec.get("package")?.as_str()?;
                Some((alias.replace('-', "_"), package.to_string()))
            })
            .collect();
        self.rust_crates.push(RustCrate {
            dir,
            name: lib_name.replace('-', "_"),
            package: name.to_string(),
            renamed,
            inherited,
            lib,
            main,
            declared_roots,
        });
        // deepest first, so the nearest Cargo.toml wins
        self.rust_crates
            .sort_by_key(|c| (std::cmp::Reverse(depth(&c.dir)), c.dir.clone()));
    }

    fn rust_crate_of(&self, file: &str) -> Option<&RustCrate> {
        self.rust_crates.iter().find(|c| in_dir(file, &c.dir))
    }

    /// The library of the workspace that code in `file` names `name`: a dependency its
    /// manifest renames, else a crate of that name.
    fn rust_library_named(&self, file: &str, name: &str) -> Option<&str> {
        let krate = self.rust_crate_of(file);
        let renamed = krate.and_then(|c| {
            c.renamed
                .iter()
                .find(|(alias, _)| alias == name)
                .map(|(_, package)| package)
        });
        // inherited from the nearest workspace that renames it
        let renamed = renamed.or_else(|| {
            let c = krate.filter(|c| c.inherited.iter().any(|alias| alias == name))?;
            self.rust_workspace_renames
                .iter()
                .filter(|(dir, alias, _)| alias == name && in_dir(&c.dir, dir))
                .max_by_key(|(dir, _, _)| depth(dir))
                .map(|(_, _, package)| package)
        });
        let mut libraries = self.rust_crates.iter().filter(|c| c.lib.is_some());
        let krate = match renamed {
            Some(package) => libraries.find(|c| &c.package == package),
            None => libraries.find(|c| c.name == name),
        };
        krate?.lib.as_deref()
    }

    /// A file's crate root and its module path below it (`src/a/b.rs` -> (`src/lib.rs`,
    /// [a, b])). Files that are their own crate root (main, bins, tests, examples, build
    /// scripts) have an empty path.
    fn rust_module_of(&self, file: &str) -> Option<(String, Vec<String>)> {
        let krate = self.rust_crate_of(file);
        let crate_dir = krate.map_or("", |c| c.dir.as_str());
        let inner = if crate_dir.is_empty() {
            file
        } else {
            &file[crate_dir.len() + 1..]
        };
        let is_root = krate.is_some_and(|c| {
            c.lib.as_deref() == Some(file)
                || c.main.as_deref() == Some(file)
                || c.declared_roots.iter().any(|r| r == file)
        });
        if is_root {
            return Some((file.to_string(), Vec::new()));
        }
        // src/bin/x.rs and src/bin/x/main.rs are crate roots; so are top-level files of
        // tests/, examples/, benches/ and build.rs
        let parts: Vec<&str> = inner.split('/').collect();
        let own_root = match parts.as_slice() {
            ["src", "bin", _] | ["build.rs"] => true,
            ["src", "bin", _, "main.rs"] => true,
            ["tests" | "examples" | "benches", _] => true,
            [_, "main.rs"] if krate.is_none() => true,
            _ => false,
        };
        if own_root {
            return Some((file.to_string(), Vec::new()));
        }
        let (root, below): (String, &[&str]) = match parts.as_slice() {
            ["src", "bin", bin, rest @ ..] => {
                (join(crate_dir, &format!("src/bin/{bin}/main.rs"))?, rest)
            }
            ["src", rest @ ..] => (
                krate.and_then(|c| c.lib.clone().or_else(|| c.main.clone()))?,
                rest,
            ),
            [dir @ ("tests" | "examples" | "benches"), sub, rest @ ..] => {
                // `tests/x/y.rs` belongs to `tests/x.rs` or `tests/x/main.rs`; without
                // either, to a root the manifest declares (`[[test]] path =
                // "tests/tests.rs"` with `mod x;`)
                let own = [format!("{dir}/{sub}.rs"), format!("{dir}/{sub}/main.rs")]
                    .iter()
                    .filter_map(|candidate| join(crate_dir, candidate))
                    .find(|p| self.files.contains(p));
                match own {
                    Some(root) => (root, rest),
                    None => return Self::rust_declared_module_of(krate?, file),
                }
            }
            _ => return Self::rust_declared_module_of(krate?, file),
        };
        let mut path: Vec<String> = below.iter().map(|s| s.to_string()).collect();
        Some((root, Self::module_path_tail(&mut path)))
    }

    /// A file below a root the manifest places elsewhere (`[[bin]] path =
    /// "crates/core/main.rs"`): a module of the deepest such root above it.
    fn rust_declared_module_of(krate: &RustCrate, file: &str) -> Option<(String, Vec<String>)> {
        let (root, below) = krate
            .declared_roots
            .iter()
            .filter_map(|root| {
                let base = dir_of(root);
                let below = if base.is_empty() {
                    Some(file)
                } else {
                    file.strip_prefix(base)?.strip_prefix('/')
                };
                below.map(|b| (root, b))
            })
            .max_by_key(|(root, _)| depth(dir_of(root)))?;
        let mut path: Vec<String> = below.split('/').map(str::to_string).collect();
        Some((root.clone(), Self::module_path_tail(&mut path)))
    }

    /// `[a, b.rs]` -> `[a, b]`; `[a, mod.rs]` -> `[a]`.
    fn module_path_tail(path: &mut Vec<String>) -> Vec<String> {
        if let Some(last) = path.last_mut() {
            *last = last.trim_end_matches(".rs").to_string();
        }
        if path.last().is_some_and(|l| l == "mod") {
            path.pop();
        }
        std::mem::take(path)
    }

    /// The file of module `path` below the crate root `root`.
    fn rust_module_file(&self, root: &str, path: &[String]) -> Option<String> {
        if path.is_empty() {
            return self.files.contains(root).then(|| root.to_string());
        }
        let dir = dir_of(root);
        let joined = path.join("/");
        let direct = join(dir, &format!("{joined}.rs"))?;
        if self.files.contains(&direct) {
            return Some(direct);
        }
        let nested = join(dir, &format!("{joined}/mod.rs"))?;
        self.files.contains(&nested).then_some(nested)
    }

    fn resolve_rust_mod(&self, from: &str, name: &str, path_attr: Option<&str>) -> Vec<Target> {
        let name_of_file = file_name(from);
        let is_mod_rs = matches!(name_of_file, "mod.rs" | "lib.rs" | "main.rs")
            || self
                .rust_module_of(from)
                .is_some_and(|(root, path)| path.is_empty() && root == from);
        let dir = if is_mod_rs {
            dir_of(from).to_string()
        } else {
            join(dir_of(from), name_of_file.trim_end_matches(".rs")).unwrap_or_default()
        };
        if let Some(attr) = path_attr {
            // `#[path]` is relative to the declaring file's folder (for mod.rs-like files)
            let base = if is_mod_rs {
                dir_of(from)
            } else {
                dir.as_str()
            };
            return join(base, attr)
                .and_then(|p| {
                    self.file(&p)
                        .or_else(|| join(dir_of(from), attr).and_then(|p| self.file(&p)))
                })
                .into_iter()
                .collect();
        }
        [format!("{name}.rs"), format!("{name}/mod.rs")]
            .iter()
            .find_map(|candidate| join(&dir, candidate).and_then(|p| self.file(&p)))
            .into_iter()
            .collect()
    }

    fn resolve_rust_use(&self, from: &str, segments: &[String], inline: &[String]) -> Vec<Target> {
        let Some(first) = segments.first() else {
            return Vec::new();
        };
        // a `use` inside `mod tests { ... }` is relative to that inline module
        let here = self.rust_module_of(from).map(|(root, mut path)| {
            path.extend(inline.iter().cloned());
            (root, path)
        });
        // the crate the importing file is in sees the private names of its root too
        let (own_root, own_module) = here.clone().unwrap_or_default();
        let viewer = RustViewer {
            root: &own_root,
            module: &own_module,
        };
        // `written`: how many segments at the end of the path are names the `use` writes
        // (not `crate`, `self`, `super`)
        let (root, mut path, written): (String, Vec<String>, usize) = match first.as_str() {
            "crate" | "$crate" => {
                let Some((root, _)) = here else {
                    return Vec::new();
                };
                (root, segments[1..].to_vec(), segments.len() - 1)
            }
            "self" | "super" => {
                let Some((root, mut current)) = here else {
                    return Vec::new();
                };
                let mut rest = segments;
                while let Some(head) = rest.first() {
                    match head.as_str() {
                        "self" => {}
                        "super" => {
                            if current.pop().is_none() {
                                return Vec::new();
                            }
                        }
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                current.extend(rest.iter().cloned());
                (root, current, rest.len())
            }
            name => {
                // a module of the current one (`mod x;` then `use x::Y`), else a crate of
                // the workspace
                if let Some((root, current)) = &here {
                    let mut local = current.clone();
                    local.push(name.to_string());
                    if self.rust_module_file(root, &local).is_some() {
                        let mut full = current.clone();
                        full.extend(segments.iter().cloned());
                        return self
                            .rust_longest_module(root, &full, current.len() + 1)
                            .map(|(file, _)| Target::File(file))
                            .into_iter()
                            .collect();
                    }
                }
                let Some(lib) = self.rust_library_named(from, name) else {
                    return Vec::new();
                };
                (lib.to_string(), segments[1..].to_vec(), segments.len() - 1)
            }
        };
        path.retain(|s| s != "self");
        let mut steps = RUST_NAME_STEPS;
        let Some(walk) = self.rust_walk(&root, &path, viewer, &mut steps) else {
            return Vec::new();
        };
        let file = walk.file;
        // `use super::cli` in cli.rs names this very module by a name its parent declares
        // (`mod cli;`): the `use` goes through the parent. `use super::*` inside an inline
        // `mod tests` names the file's own module by keywords alone: no edge.
        if file == from && walk.whole && written > 0 && !path.is_empty() {
            return self
                .rust_module_file(&root, &path[..path.len() - 1])
                .map(Target::File)
                .into_iter()
                .collect();
        }
        vec![Target::File(file)]
    }

    /// Where `path`, below the crate root `root`, leads: the longest prefix that is a module
    /// with a file, and at a crate root, a name the root brings in by `use` or `extern crate`
    /// (`grep::printer::ColorSpecs`, where grep's lib.rs has `pub extern crate grep_printer as
    /// printer;`, leads to grep_printer's lib.rs). The viewer's own crate sees every name of
    /// its root; another crate, the plain `pub` ones only. A name is followed as the last
    /// segment only when it is a module with a file (else the item is taken from the module
    /// before it, as `crate::a::B` is a's), and as a segment before the last to wherever it
    /// leads (`grep_searcher::sinks::UTF8`, `sinks` an inline module of sink.rs, is sink.rs).
    /// A last segment whose module file the viewer cannot see is the item of that name in the
    /// module before it (`futures::future::poll_fn` with a private `mod poll_fn;`).
    /// `steps` bounds the names followed.
    fn rust_walk(
        &self,
        root: &str,
        path: &[String],
        viewer: RustViewer<'_>,
        steps: &mut usize,
    ) -> Option<RustWalk> {
        let mut root = root.to_string();
        let mut module: Vec<String> = Vec::new();
        let mut rest = path;
        loop {
            let mut full = module.clone();
            full.extend(rest.iter().cloned());
            let (file, len) = self.rust_longest_module(&root, &full, module.len())?;
            if len == full.len()
                && len > module.len()
                && self.rust_module_hidden(&root, &full, viewer)
            {
                full.pop();
                let file = self.rust_module_file(&root, &full)?;
                return Some(RustWalk {
                    file,
                    whole: false,
                    root,
                    module: full,
                });
            }
            rest = &rest[len - module.len()..];
            full.truncate(len);
            module = full;
            let reached = RustWalk {
                file,
                whole: rest.is_empty(),
                root: root.clone(),
                module: module.clone(),
            };
            let Some(segment) = rest.first().filter(|_| module.is_empty() && *steps > 0) else {
                return Some(reached);
            };
            *steps -= 1;
            match self.rust_name_target(&root, segment, viewer, steps) {
                Some(named) if named.whole => {
                    root = named.root;
                    module = named.module;
                    rest = &rest[1..];
                }
                Some(named) if rest.len() > 1 => {
                    return Some(RustWalk {
                        whole: false,
                        ..named
                    });
                }
                _ => return Some(reached),
            }
        }
    }

    /// Whether the viewer cannot see module `module` (below `root`) because the `mod` item
    /// of its parent is private to the parent (or to the crate, seen from another crate).
    /// Without the parent's names, it is seen.
    fn rust_module_hidden(&self, root: &str, module: &[String], viewer: RustViewer<'_>) -> bool {
        let Some((name, parent)) = module.split_last() else {
            return false;
        };
        let Some(names) = self
            .rust_module_file(root, parent)
            .and_then(|file| self.rust_names.get(&file))
        else {
            return false;
        };
        let mut declarations = names
            .get(name)
            .into_iter()
            .flatten()
            .filter(|n| n.path.len() == 2 && n.path[0] == "self")
            .peekable();
        declarations.peek().is_some()
            && !declarations.any(|n| match n.visibility {
                RustVisibility::Public => true,
                RustVisibility::Crate => viewer.root == root,
                RustVisibility::Private => viewer.root == root && viewer.module.starts_with(parent),
            })
    }

    /// Where a name the crate root `root` brings in leads: an exact name first, then a module
    /// of that name below one of its globs. The path a name stands for is followed as the
    /// root sees it. Each candidate tried spends a step, so a root of thousands of globs costs
    /// a path at most [`RUST_NAME_STEPS`] walks.
    fn rust_name_target(
        &self,
        root: &str,
        name: &str,
        viewer: RustViewer<'_>,
        steps: &mut usize,
    ) -> Option<RustWalk> {
        let names = self.rust_names.get(root)?;
        let visible = |n: &&RustName| n.visibility == RustVisibility::Public || root == viewer.root;
        let at_root = RustViewer { root, module: &[] };
        let exact = names.get(name).into_iter().flatten().filter(visible);
        let globs = names.get("*").into_iter().flatten().filter(visible);
        for candidate in exact {
            *steps = steps.checked_sub(1)?;
            if let Some(walk) = self.rust_walk_use_path(root, &candidate.path, at_root, steps) {
                return Some(walk);
            }
        }
        for glob in globs {
            *steps = steps.checked_sub(1)?;
            let mut path = glob.path.clone();
            path.push(name.to_string());
            if let Some(walk) = self
                .rust_walk_use_path(root, &path, at_root, steps)
                .filter(|walk| walk.whole)
            {
                return Some(walk);
            }
        }
        None
    }

    /// Where a `use` path written in the crate root `root` leads.
    fn rust_walk_use_path(
        &self,
        root: &str,
        path: &[String],
        viewer: RustViewer<'_>,
        steps: &mut usize,
    ) -> Option<RustWalk> {
        let first = path.first()?;
        match first.as_str() {
            "crate" | "$crate" | "self" => self.rust_walk(root, &path[1..], viewer, steps),
            "super" => None,
            // a module of the root itself (`use sink::sinks;`), else a crate of the workspace
            _ if self.rust_module_file(root, &path[..1]).is_some() => {
                self.rust_walk(root, path, viewer, steps)
            }
            name => {
                let lib = self.rust_library_named(root, name)?;
                self.rust_walk(lib, &path[1..], viewer, steps)
            }
        }
    }

    /// The file of the longest prefix of `path` (at least `min` segments) that is a module,
    /// and the length of that prefix.
    fn rust_longest_module(
        &self,
        root: &str,
        path: &[String],
        min: usize,
    ) -> Option<(String, usize)> {
        let mut len = path.len();
        loop {
            if let Some(file) = self.rust_module_file(root, &path[..len]) {
                return Some((file, len));
            }
            if len <= min || len == 0 {
                return None;
            }
            len -= 1;
        }
    }

    // ---- Python ---------------------------------------------------------------------------

    /// Where absolute imports of `from` are looked up: the folder above its top-level package,
    /// the project root, `src/`, `lib/`, and, for a file outside any package (a script, a test
    /// folder pytest puts on the path), its own folder (`sys.path[0]`). A module inside a
    /// package never sees its siblings through an absolute import: `import typing` in
    /// `flask/app.py` is the standard library's, not `flask/typing.py`.
    fn python_roots(&self, from: &str) -> Vec<String> {
        let mut roots = Vec::new();
        let mut dir = dir_of(from).to_string();
        let mut top = None;
        while self
            .files
            .contains(&join(&dir, "__init__.py").unwrap_or_default())
        {
            top = Some(dir.clone());
            if dir.is_empty() {
                break;
            }
            dir = dir_of(&dir).to_string();
        }
        if let Some(top) = &top {
            roots.push(dir_of(top).to_string());
        }
        for root in ["", "src", "lib"] {
            roots.push(root.to_string());
        }
        if top.is_none() {
            roots.push(dir_of(from).to_string());
        }
        let mut seen = HashSet::new();
        roots.retain(|r| seen.insert(r.clone()));
        roots
    }

    fn python_module(&self, base: &str, dotted: &str) -> Option<String> {
        let relative = dotted.replace('.', "/");
        let stem = join(base, &relative)?;
        let candidates = if relative.is_empty() {
            vec![
                format!("{stem}/__init__.py"),
                format!("{stem}/__init__.pyi"),
            ]
        } else {
            vec![
                format!("{stem}.py"),
                format!("{stem}/__init__.py"),
                format!("{stem}.pyi"),
                format!("{stem}/__init__.pyi"),
            ]
        };
        candidates
            .into_iter()
            .map(|c| c.trim_start_matches('/').to_string())
            .find(|c| self.files.contains(c))
    }

    fn resolve_python(
        &self,
        from: &str,
        level: usize,
        module: &str,
        names: &[String],
    ) -> Vec<Target> {
        let bases: Vec<String> = if level > 0 {
            let mut dir = dir_of(from).to_string();
            for _ in 1..level {
                if dir.is_empty() {
                    return Vec::new();
                }
                dir = dir_of(&dir).to_string();
            }
            vec![dir]
        } else {
            self.python_roots(from)
        };
        for base in &bases {
            let package = self.python_module(base, module);
            let mut out = Vec::new();
            for name in names {
                if name == "*" {
                    continue;
                }
                let dotted = if module.is_empty() {
                    name.clone()
                } else {
                    format!("{module}.{name}")
                };
                if let Some(sub) = self.python_module(base, &dotted) {
                    out.push(Target::File(sub));
                } else if let Some(package) = &package {
                    out.push(Target::File(package.clone()));
                }
            }
            if out.is_empty()
                && let Some(package) = package
            {
                out.push(Target::File(package));
            }
            if !out.is_empty() {
                return out;
            }
        }
        // `import os.path` or `from os.path import join`: `os` sets up `os.path`; importing
        // a.b.c runs a and a.b, so the deepest module that exists is what the import uses
        if level == 0 && module.contains('.') {
            let parts: Vec<&str> = module.split('.').collect();
            for cut in (1..parts.len()).rev() {
                let prefix = parts[..cut].join(".");
                for base in &bases {
                    if let Some(found) = self.python_module(base, &prefix) {
                        return vec![Target::File(found)];
                    }
                }
            }
        }
        Vec::new()
    }

    // ---- JavaScript and TypeScript ----------------------------------------------------------

    fn add_package_json(&mut self, file: &str, text: &str) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
            return;
        };
        let dir = dir_of(file).to_string();
        if let Some(name) = value.get("name").and_then(|n| n.as_str()) {
            self.js_packages
                .entry(name.to_string())
                .or_insert_with(|| dir.clone());
        }
        // `exports`: a string or condition object for ".", or a map of subpaths
        let mut subpaths: Vec<(String, Vec<String>)> = Vec::new();
        match value.get("exports") {
            Some(serde_json::Value::Object(map)) if map.keys().any(|k| k.starts_with('.')) => {
                for (key, targets) in map {
                    subpaths.push((key.clone(), condition_targets(targets)));
                }
            }
            Some(other) => subpaths.push((".".to_string(), condition_targets(other))),
            None => {}
        }
        let mut entries: Vec<String> = subpaths
            .iter()
            .filter(|(key, _)| key == ".")
            .flat_map(|(_, targets)| targets.iter().cloned())
            .collect();
        for key in ["types", "typings", "module", "main"] {
            if let Some(entry) = value.get(key).and_then(|m| m.as_str()) {
                entries.push(entry.to_string());
            }
        }
        // A folder's entries are tried at two levels of nesting (a `main` naming a folder with
        // its own package.json), so their count is squared: keep the first few distinct ones.
        let mut seen = HashSet::new();
        entries.retain(|entry| seen.insert(entry.clone()));
        entries.truncate(JS_PACKAGE_ENTRIES);
        self.js_package_main.insert(dir.clone(), entries);
        if !subpaths.is_empty() {
            self.js_exports.insert(dir, subpaths);
        }
    }

    /// A package's `exports` entry for `subpath` (`./v3`, `./*`), each target tried in order.
    fn js_export(&self, from: &str, dir: &str, subpath: &str) -> Option<String> {
        let map = self.js_exports.get(dir)?;
        let mut best: Option<(usize, String, &Vec<String>)> = None;
        for (key, targets) in map {
            if key == subpath {
                best = Some((usize::MAX, String::new(), targets));
                break;
            }
            if let Some((prefix, suffix)) = key.split_once('*')
                && subpath.starts_with(prefix)
                && subpath.ends_with(suffix)
                && subpath.len() >= prefix.len() + suffix.len()
                && best.as_ref().is_none_or(|(len, _, _)| prefix.len() > *len)
            {
                let matched = subpath[prefix.len()..subpath.len() - suffix.len()].to_string();
                best = Some((prefix.len(), matched, targets));
            }
        }
        let (_, matched, targets) = best?;
        targets.iter().find_map(|target| {
            let target = target.replacen('*', &matched, 1);
            join(dir, &target).and_then(|p| self.js_file(from, &p, 0))
        })
    }

    fn js_extensions(from: &str) -> &'static [&'static str] {
        match Lang::of_path(from) {
            Some(Lang::JavaScript) => &[
                ".js", ".jsx", ".mjs", ".cjs", ".json", ".ts", ".tsx", ".mts", ".cts", ".d.ts",
            ],
            _ => &[
                ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".d.mts", ".d.cts", ".js", ".jsx", ".mjs",
                ".cjs", ".json",
            ],
        }
    }

    /// A path as a module: the file itself, with an extension, a TypeScript source for a
    /// `.js` name, a package folder's entry, or an index file.
    fn js_file(&self, from: &str, path: &str, depth_left: usize) -> Option<String> {
        let path = path.trim_end_matches('/');
        let extensions = Self::js_extensions(from);
        if self.files.contains(path) && Lang::of_path(path).is_some()
            || path.ends_with(".json") && self.files.contains(path)
        {
            return Some(path.to_string());
        }
        // `./x.js` written for `x.ts` (ESM TypeScript)
        for (js, ts) in [
            (".js", &[".ts", ".tsx", ".d.ts"][..]),
            (".jsx", &[".tsx"][..]),
            (".mjs", &[".mts", ".d.mts"][..]),
            (".cjs", &[".cts", ".d.cts"][..]),
        ] {
            if let Some(base) = path.strip_suffix(js) {
                for ext in ts {
                    let candidate = format!("{base}{ext}");
                    if self.files.contains(&candidate) {
                        return Some(candidate);
                    }
                }
            }
        }
        for ext in extensions {
            let candidate = format!("{path}{ext}");
            if self.files.contains(&candidate) {
                return Some(candidate);
            }
        }
        if depth_left > 0
            && let Some(entries) = self.js_package_main.get(path)
        {
            for entry in entries {
                if let Some(target) =
                    join(path, entry).and_then(|p| self.js_file(from, &p, depth_left - 1))
                {
                    return Some(target);
                }
            }
        }
        for ext in extensions {
            let candidate = format!("{path}/index{ext}");
            let candidate = candidate.trim_start_matches('/');
            if self.files.contains(candidate) {
                return Some(candidate.to_string());
            }
        }
        None
    }

    fn ts_config_for(&self, from: &str) -> Option<&TsConfig> {
        let mut dir = dir_of(from);
        loop {
            if let Some(config) = self.ts_configs.get(dir) {
                return Some(config);
            }
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(dir);
        }
    }

    fn resolve_js(&self, from: &str, specifier: &str) -> Vec<Target> {
        let specifier = specifier.split(['?', '#']).next().unwrap_or(specifier);
        if specifier.starts_with("./")
            || specifier.starts_with("../")
            || specifier == "."
            || specifier == ".."
        {
            return join(dir_of(from), specifier)
                .and_then(|p| self.js_file(from, &p, 2))
                .map(Target::File)
                .into_iter()
                .collect();
        }
        if specifier.starts_with('/') || specifier.contains(':') {
            return Vec::new();
        }
        if let Some(config) = self.ts_config_for(from) {
            // `paths`: an exact pattern, else the wildcard with the longest prefix
            let mut best: Option<(usize, &str, &Vec<String>)> = None;
            for (pattern, targets) in &config.paths {
                match pattern.split_once('*') {
                    None if pattern == specifier => {
                        best = Some((usize::MAX, "", targets));
                        break;
                    }
                    Some((prefix, suffix))
                        if specifier.starts_with(prefix)
                            && specifier.ends_with(suffix)
                            && specifier.len() >= prefix.len() + suffix.len()
                            && best.is_none_or(|(len, _, _)| prefix.len() > len) =>
                    {
                        let matched = &specifier[prefix.len()..specifier.len() - suffix.len()];
                        best = Some((prefix.len(), matched, targets));
                    }
                    _ => {}
                }
            }
            if let Some((_, matched, targets)) = best {
                for target in targets {
                    let substituted = target.replacen('*', matched, 1);
                    if let Some(found) = join(&config.paths_base, &substituted)
                        .and_then(|p| self.js_file(from, &p, 2))
                    {
                        return vec![Target::File(found)];
                    }
                }
            }
            if let Some(base) = &config.base_url
                && let Some(found) = join(base, specifier).and_then(|p| self.js_file(from, &p, 2))
            {
                return vec![Target::File(found)];
            }
        }
        // a package of the workspace, by its package.json name
        let mut parts = specifier.splitn(if specifier.starts_with('@') { 3 } else { 2 }, '/');
        let name = if specifier.starts_with('@') {
            let scope = parts.next().unwrap_or("");
            let package = parts.next().unwrap_or("");
            format!("{scope}/{package}")
        } else {
            parts.next().unwrap_or("").to_string()
        };
        let rest = parts.next();
        if let Some(dir) = self.js_packages.get(&name) {
            let subpath = rest.map_or_else(|| ".".to_string(), |r| format!("./{r}"));
            if let Some(found) = self.js_export(from, dir, &subpath) {
                return vec![Target::File(found)];
            }
            let path = match rest {
                Some(rest) => join(dir, rest),
                None => Some(dir.clone()),
            };
            if let Some(found) = path.and_then(|p| self.js_file(from, &p, 2)) {
                return vec![Target::File(found)];
            }
        }
        Vec::new()
    }

    // ---- Go -------------------------------------------------------------------------------

    fn add_go_mod(&mut self, file: &str, text: &str) {
        let dir = dir_of(file).to_string();
        let mut in_replace = false;
        for line in text.lines() {
            let line = line.split("//").next().unwrap_or("").trim();
            if let Some(module) = line.strip_prefix("module ") {
                let module = module.trim().trim_matches('"');
                self.go_modules.push((module.to_string(), dir.clone()));
                continue;
            }
            let replace = if line == "replace (" {
                in_replace = true;
                continue;
            } else if in_replace && line == ")" {
                in_replace = false;
                continue;
            } else if in_replace {
                Some(line)
            } else {
                line.strip_prefix("replace ")
            };
            if let Some(replace) = replace
                && let Some((left, right)) = replace.split_once("=>")
            {
                let module = left.split_whitespace().next().unwrap_or("");
                let target = right.split_whitespace().next().unwrap_or("");
                if (target.starts_with("./") || target.starts_with("../"))
                    && let Some(local) = join(&dir, target)
                {
                    self.go_modules.push((module.to_string(), local));
                }
            }
        }
        // longest module path first
        self.go_modules
            .sort_by_key(|(m, d)| (std::cmp::Reverse(m.len()), d.clone()));
    }

    fn resolve_go(&self, _from: &str, path: &str) -> Vec<Target> {
        for (module, dir) in &self.go_modules {
            let rest = if path == module {
                Some("")
            } else {
                path.strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let Some(folder) = join(dir, rest) else {
                    continue;
                };
                let has_go = self.files_in(&folder).iter().any(|f| f.ends_with(".go"));
                if has_go {
                    return vec![Target::Folder(folder)];
                }
            }
        }
        Vec::new()
    }

    // ---- Java, Kotlin, Scala, C#, PHP -------------------------------------------------------

    /// The files of a package: their folder when they share one, else the files.
    fn package_targets(files: &[String]) -> Vec<Target> {
        let Some(first) = files.first() else {
            return Vec::new();
        };
        let dir = dir_of(first);
        if files.iter().all(|f| dir_of(f) == dir) {
            vec![Target::Folder(dir.to_string())]
        } else {
            files.iter().map(|f| Target::File(f.clone())).collect()
        }
    }

    /// The files that define the type `qualified` (`a.b.Client`): those named after it among
    /// the files declaring it, else every file declaring it, else the files of its package
    /// named after it (a file whose declarations were not read).
    fn type_files(namespaces: &Namespaces, qualified: &str) -> Vec<Target> {
        let (package, name) = qualified.rsplit_once('.').unwrap_or(("", qualified));
        let named_after = |files: &[String]| -> Vec<Target> {
            files
                .iter()
                .filter(|f| stem(file_name(f)) == name)
                .map(|f| Target::File(f.clone()))
                .collect()
        };
        if let Some(declaring) = namespaces.types.get(qualified) {
            let named = named_after(declaring);
            if !named.is_empty() {
                return named;
            }
            return declaring.iter().map(|f| Target::File(f.clone())).collect();
        }
        namespaces
            .packages
            .get(package)
            .map(|files| named_after(files))
            .unwrap_or_default()
    }

    /// `a.b.C` (or `a.b.C.Inner`, `a.b.C.member`): the files of the longest prefix that is a
    /// type, else nothing.
    fn qualified_type(namespaces: &Namespaces, name: &str) -> Vec<Target> {
        let mut end = name.len();
        loop {
            let prefix = &name[..end];
            let found = Self::type_files(namespaces, prefix);
            if !found.is_empty() {
                return found;
            }
            match prefix.rfind('.') {
                Some(dot) => end = dot,
                None => return Vec::new(),
            }
        }
    }

    /// The package of the longest prefix of `name` that is one (a top-level function or
    /// property of a package, a member without a file of its own).
    fn enclosing_package(namespaces: &Namespaces, name: &str) -> Vec<Target> {
        let mut end = name.len();
        loop {
            if let Some(files) = namespaces.packages.get(&name[..end]) {
                return Self::package_targets(files);
            }
            match name[..end].rfind('.') {
                Some(dot) => end = dot,
                None => return Vec::new(),
            }
        }
    }

    /// A Java/Kotlin/Scala import: a class to the file defining it, `a.b.*` to the package
    /// (or, for a type, `a.b.C.*` to the type's file), anything else to its package.
    fn resolve_jvm(&self, name: &str, wildcard: bool) -> Vec<Target> {
        if wildcard && let Some(files) = self.jvm.packages.get(name) {
            return Self::package_targets(files);
        }
        let found = Self::qualified_type(&self.jvm, name);
        if !found.is_empty() {
            return found;
        }
        Self::enclosing_package(&self.jvm, name)
    }

    fn resolve_csharp(&self, name: &str, type_import: bool) -> Vec<Target> {
        if !type_import && let Some(files) = self.csharp.packages.get(name) {
            return Self::package_targets(files);
        }
        let found = Self::qualified_type(&self.csharp, name);
        if !found.is_empty() {
            return found;
        }
        Self::enclosing_package(&self.csharp, name)
    }

    fn add_composer(&mut self, file: &str, text: &str) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
            return;
        };
        let dir = dir_of(file);
        for section in ["autoload", "autoload-dev"] {
            let Some(map) = value
                .get(section)
                .and_then(|a| a.get("psr-4"))
                .and_then(|p| p.as_object())
            else {
                continue;
            };
            for (prefix, dirs) in map {
                let dirs: Vec<String> = match dirs {
                    serde_json::Value::String(d) => vec![d.clone()],
                    serde_json::Value::Array(items) => items
                        .iter()
                        .filter_map(|d| d.as_str().map(str::to_string))
                        .collect(),
                    _ => continue,
                };
                let prefix = prefix.trim_matches('\\').replace('\\', ".");
                let dirs = dirs.iter().filter_map(|d| join(dir, d)).collect();
                self.php_psr4.push((prefix, dirs));
            }
        }
        self.php_psr4
            .sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    }

    fn resolve_php_use(&self, name: &str) -> Vec<Target> {
        for (prefix, dirs) in &self.php_psr4 {
            let rest = if prefix.is_empty() {
                Some(name)
            } else {
                name.strip_prefix(prefix.as_str())
                    .and_then(|r| r.strip_prefix('.'))
            };
            let Some(rest) = rest else { continue };
            for dir in dirs {
                if let Some(found) = join(dir, &format!("{}.php", rest.replace('.', "/")))
                    .and_then(|p| self.file(&p))
                {
                    return vec![found];
                }
            }
        }
        // a class, interface, trait or enum declared in the project (not a prefix: `use
        // function` and `use const` name members, and a namespace prefix says little)
        Self::type_files(&self.php, name)
    }

    fn resolve_php_require(&self, from: &str, path: &str, dir_relative: bool) -> Vec<Target> {
        let dir = dir_of(from);
        let relative = path.trim_start_matches('/');
        if dir_relative || path.starts_with("./") || path.starts_with("../") {
            return join(dir, relative)
                .and_then(|p| self.file(&p))
                .into_iter()
                .collect();
        }
        if path.starts_with('/') {
            return Vec::new();
        }
        join(dir, relative)
            .and_then(|p| self.file(&p))
            .or_else(|| join("", relative).and_then(|p| self.file(&p)))
            .into_iter()
            .collect()
    }

    // ---- Ruby -----------------------------------------------------------------------------

    fn resolve_ruby(&self, from: &str, path: &str, relative: bool) -> Vec<Target> {
        let with_ext = if path.ends_with(".rb") {
            path.to_string()
        } else {
            format!("{path}.rb")
        };
        if relative {
            return join(dir_of(from), &with_ext)
                .and_then(|p| self.file(&p))
                .into_iter()
                .collect();
        }
        if path.starts_with('/') || path.starts_with('.') {
            return join(dir_of(from), &with_ext)
                .and_then(|p| self.file(&p))
                .into_iter()
                .collect();
        }
        // the lib folder above the file first, then every lib folder, then spec/ and test/
        let mut dirs: Vec<&str> = Vec::new();
        let mut current = dir_of(from);
        loop {
            if file_name(current) == "lib" {
                dirs.push(current);
            }
            if current.is_empty() {
                break;
            }
            current = dir_of(current);
        }
        dirs.extend(self.ruby_load_dirs.iter().map(String::as_str));
        dirs.iter()
            .find_map(|d| join(d, &with_ext).and_then(|p| self.file(&p)))
            .into_iter()
            .collect()
    }
}

/// The file targets of an `exports` value: every string in a condition object, custom
/// conditions (a workspace's `@scope/source` pointing at sources) before the standard ones.
fn condition_targets(value: &serde_json::Value) -> Vec<String> {
    fn walk(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            serde_json::Value::Object(map) => {
                const STANDARD: [&str; 6] =
                    ["types", "import", "require", "node", "module", "default"];
                for (key, inner) in map {
                    if !STANDARD.contains(&key.as_str()) {
                        walk(inner, out);
                    }
                }
                for key in STANDARD {
                    if let Some(inner) = map.get(key) {
                        walk(inner, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, &mut out);
    out
}

fn looks_like_header(path: &str) -> bool {
    let name = file_name(path);
    // C++ standard-library style headers have no extension; project ones rarely do
    matches!(
        name.rsplit_once('.').map(|(_, e)| e),
        Some("h" | "hh" | "hpp" | "hxx" | "inc" | "def" | "tbl" | "x" | "ipp" | "inl" | "tcc")
    )
}

/// Reads tsconfig.json/jsconfig.json files with their `extends` chains (relative paths only,
/// at most 8 levels). Each file is read and parsed once per view: `extends` may name a file
/// several times or in a cycle, and following every name anew grows as (names)^(levels).
struct TsConfigReader<'a> {
    read: &'a dyn Fn(&str) -> Option<String>,
    done: HashMap<String, Option<TsConfig>>,
    /// The chain being read: a file extending one of these is a cycle, which tsc refuses, so
    /// that parent is skipped.
    reading: HashSet<String>,
}

impl<'a> TsConfigReader<'a> {
    fn new(read: &'a dyn Fn(&str) -> Option<String>) -> Self {
        TsConfigReader {
            read,
            done: HashMap::new(),
            reading: HashSet::new(),
        }
    }

    fn read(&mut self, file: &str, level: usize) -> Option<TsConfig> {
        if level > 8 || self.reading.contains(file) {
            return None;
        }
        if let Some(done) = self.done.get(file) {
            return done.clone();
        }
        self.reading.insert(file.to_string());
        let config = self.parse(file, level);
        self.reading.remove(file);
        self.done.insert(file.to_string(), config.clone());
        config
    }

    fn parse(&mut self, file: &str, level: usize) -> Option<TsConfig> {
        let text = (self.read)(file)?;
        let value: serde_json::Value =
            jsonc_parser::parse_to_serde_value(&text, &jsonc_parser::ParseOptions::default())
                .ok()?;
        let dir = dir_of(file);
        let mut config = TsConfig {
            paths_base: dir.to_string(),
            ..TsConfig::default()
        };
        let extends: Vec<String> = match value.get("extends") {
            Some(serde_json::Value::String(s)) => vec![s.clone()],
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        for parent in extends {
            if !(parent.starts_with("./") || parent.starts_with("../")) {
                continue;
            }
            let with_ext = if parent.ends_with(".json") {
                parent.clone()
            } else {
                format!("{parent}.json")
            };
            if let Some(inherited) = join(dir, &with_ext).and_then(|p| self.read(&p, level + 1)) {
                if inherited.base_url.is_some() {
                    config.base_url = inherited.base_url;
                }
                if !inherited.paths.is_empty() {
                    config.paths = inherited.paths;
                    config.paths_base = inherited.paths_base;
                }
            }
        }
        let options = value.get("compilerOptions");
        if let Some(base) = options
            .and_then(|o| o.get("baseUrl"))
            .and_then(|b| b.as_str())
        {
            config.base_url = join(dir, base);
        }
        if let Some(paths) = options
            .and_then(|o| o.get("paths"))
            .and_then(|p| p.as_object())
        {
            config.paths = paths
                .iter()
                .map(|(pattern, targets)| {
                    let targets = match targets {
                        serde_json::Value::Array(items) => items
                            .iter()
                            .filter_map(|t| t.as_str().map(str::to_string))
                            .collect(),
                        serde_json::Value::String(s) => vec![s.clone()],
                        _ => Vec::new(),
                    };
                    (pattern.clone(), targets)
                })
                .collect();
            config.paths_base = dir.to_string();
        }
        // paths are relative to baseUrl when there is one
        if let Some(base) = &config.base_url
            && options.and_then(|o| o.get("paths")).is_some()
        {
            config.paths_base = base.clone();
        }
        Some(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_resolves_dots_and_refuses_to_climb_out() {
        assert_eq!(join("a/b", "../c/./d.h").as_deref(), Some("a/c/d.h"));
        assert_eq!(join("", "x/y").as_deref(), Some("x/y"));
        assert_eq!(join("a", "../../x"), None);
    }
}
