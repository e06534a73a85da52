//! The server entry setup writes, and how an existing entry is judged.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::client::Launch;
use crate::env::{Os, SetupEnv, is_absolute_for};

/// Baseline git mode baked into the server command line (`devprojex mcp --git-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GitMode {
    /// No git awareness.
    None,
    /// Honour `.gitignore`.
    Gitignore,
    /// Only tracked files.
    Tracked,
}

impl GitMode {
    /// The token on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            GitMode::None => "none",
            GitMode::Gitignore => "gitignore",
            GitMode::Tracked => "tracked",
        }
    }
}

/// The server startup flags written into the entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerFlags {
    /// `--root` values, already absolute (or a client variable such as `${workspaceFolder}`).
    pub roots: Vec<String>,
    /// `--hide-private-data`.
    pub hide_private_data: bool,
    /// `--allow-remote`.
    pub allow_remote: bool,
    /// `--git-mode`.
    pub git_mode: Option<GitMode>,
}

impl ServerFlags {
    /// The argument list: `mcp`, then the flags in a fixed order.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec!["mcp".to_string()];
        for r in &self.roots {
            args.push("--root".into());
            args.push(r.clone());
        }
        if self.hide_private_data {
            args.push("--hide-private-data".into());
        }
        if self.allow_remote {
            args.push("--allow-remote".into());
        }
        if let Some(m) = self.git_mode {
            args.push("--git-mode".into());
            args.push(m.as_str().into());
        }
        args
    }
}

/// One server entry, as written into a client config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Write `"type": "stdio"` first (VS Code, Claude Code).
    pub with_type: bool,
    /// The command (absolute path or `devprojex`).
    pub command: String,
    /// The arguments.
    pub args: Vec<String>,
    /// Keys a client needs besides these, written after them (Claude Code's
    /// `"alwaysLoad": true`; Copilot CLI's `"type": "local"`, written first, and `"tools": ["*"]`).
    pub extra: Vec<(&'static str, Value)>,
}

impl Entry {
    /// The entry as a JSON value (key order is not significant for comparison).
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::Map::new();
        for (k, value) in self.fields() {
            v.insert(k.to_string(), value);
        }
        Value::Object(v)
    }

    /// The entry as an ordered list of keys and values for the JSONC writer.
    pub(crate) fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut f = Vec::new();
        if self.with_type {
            f.push(("type", json!("stdio")));
        }
        f.extend(self.extra.iter().filter(|(k, _)| *k == "type").cloned());
        f.push(("command", json!(self.command)));
        f.push(("args", json!(self.args)));
        f.extend(self.extra.iter().filter(|(k, _)| *k != "type").cloned());
        f
    }
}

/// How an existing entry relates to the one setup would write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryState {
    /// Identical.
    Current,
    /// Written by setup earlier and differs only in the command path (the binary moved, or
    /// `--command-path` changed): setup updates it without `--force`.
    Outdated,
    /// Written by setup (or `claude mcp add`) before setup wrote a key it writes now, such as
    /// Claude Code's `"alwaysLoad": true`: setup adds it without `--force`.
    Incomplete,
    /// Differs otherwise: changed by hand, written with other server flags, or another server of
    /// the same name. Setup cannot tell these apart, so it replaces the entry only with `--force`.
    Modified,
}

const KNOWN_KEYS: [&str; 5] = ["type", "command", "args", "alwaysLoad", "tools"];

/// Judges an existing entry against the wanted one.
pub fn classify(existing: &Value, wanted: &Entry) -> EntryState {
    let (existing, want) = (normalize(existing), normalize(&wanted.to_json()));
    if existing == want {
        return EntryState::Current;
    }
    if !looks_like_ours(&existing) {
        return EntryState::Modified;
    }
    let mut same_but_command = existing.clone();
    if let Some(obj) = same_but_command.as_object_mut() {
        obj.insert("command".into(), Value::String(wanted.command.clone()));
    }
    if same_but_command == want {
        return EntryState::Outdated;
    }
    // The keys setup writes now that the entry lacks (never a value the user changed).
    let mut completed = same_but_command;
    if let (Some(obj), Some(want_obj)) = (completed.as_object_mut(), want.as_object()) {
        for (k, v) in want_obj {
            obj.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    if completed == want {
        EntryState::Incomplete
    } else {
        EntryState::Modified
    }
}

/// Drops what does not change how a client starts the server: `"type": "stdio"` (the default for
/// an entry with a command; Copilot CLI calls it `"local"`), Copilot's default `"tools": ["*"]`,
/// and an empty `env` (which `claude mcp add` writes).
fn normalize(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(obj) = v.as_object_mut() {
        if obj
            .get("type")
            .is_some_and(|t| t == "stdio" || t == "local")
        {
            obj.remove("type");
        }
        if obj.get("tools").is_some_and(|t| *t == json!(["*"])) {
            obj.remove("tools");
        }
        if obj
            .get("env")
            .is_some_and(|e| e.as_object().is_some_and(|m| m.is_empty()))
        {
            obj.remove("env");
        }
    }
    v
}

/// Whether `v` is an entry setup could have written: only `type`/`command`/`args` (and an empty
/// `env`, `"alwaysLoad": true`, `"tools": ["*"]`), a devprojex command, and arguments `mcp` plus
/// known server flags.
pub fn looks_like_ours(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let empty_env = |k: &str| {
        k == "env"
            && obj
                .get(k)
                .and_then(Value::as_object)
                .is_some_and(|m| m.is_empty())
    };
    if obj
        .keys()
        .any(|k| !KNOWN_KEYS.contains(&k.as_str()) && !empty_env(k))
    {
        return false;
    }
    if let Some(t) = obj.get("type")
        && t != "stdio"
        && t != "local"
    {
        return false;
    }
    // `alwaysLoad` as setup writes it; `false` is the user's choice, not setup's entry.
    if obj.get("alwaysLoad").is_some_and(|v| *v != json!(true)) {
        return false;
    }
    if obj.get("tools").is_some_and(|v| *v != json!(["*"])) {
        return false;
    }
    let Some(cmd) = obj.get("command").and_then(Value::as_str) else {
        return false;
    };
    if !is_devprojex_command(cmd) {
        return false;
    }
    let Some(args) = obj.get("args").and_then(Value::as_array) else {
        return false;
    };
    let args: Option<Vec<&str>> = args.iter().map(Value::as_str).collect();
    let Some(args) = args else { return false };
    let mut it = args.iter();
    if it.next() != Some(&"mcp") {
        return false;
    }
    while let Some(a) = it.next() {
        match *a {
            "--hide-private-data" | "--allow-remote" => {}
            "--root" => {
                if it.next().is_none() {
                    return false;
                }
            }
            "--git-mode" => {
                if !matches!(
                    it.next(),
                    Some(&"none" | &"gitignore" | &"tracked" | &"off")
                ) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// Whether the command names a devprojex binary (`devprojex`, `devprojex.exe`, or a path to one).
pub fn is_devprojex_command(cmd: &str) -> bool {
    let file = cmd.rsplit(['/', '\\']).next().unwrap_or(cmd);
    let stem = file
        .strip_suffix(".exe")
        .or_else(|| file.strip_suffix(".EXE"))
        .unwrap_or(file);
    stem == "devprojex"
}

/// Whether the command of an entry can be found: an absolute path that exists, or a name on `PATH`.
pub fn command_resolves(cmd: &str, env: &SetupEnv) -> bool {
    command_target(cmd, env).is_some()
}

/// The file the command of an entry runs, if it can be found through the current `PATH`.
pub fn command_target(cmd: &str, env: &SetupEnv) -> Option<PathBuf> {
    command_target_in(cmd, env, &env.path)
}

/// The file the command of an entry runs, if it can be found through `path` (the folders of a
/// `PATH`); relative commands resolve against the current folder.
pub fn command_target_in(cmd: &str, env: &SetupEnv, path: &[PathBuf]) -> Option<PathBuf> {
    if is_absolute_for(env.os, Path::new(cmd)) {
        return Path::new(cmd).is_file().then(|| PathBuf::from(cmd));
    }
    if cmd.contains(['/', '\\']) {
        let p = env.cwd.join(cmd);
        return p.is_file().then_some(p);
    }
    let name = cmd
        .strip_suffix(env.os.exe_suffix())
        .filter(|s| !s.is_empty())
        .unwrap_or(cmd);
    env.which_in(path, name)
        .or_else(|| path.iter().map(|d| d.join(cmd)).find(|p| p.is_file()))
}

/// The `PATH` folders a client started by `launch` most likely gives its servers: the shell's
/// for terminal clients; for desktop clients launchd's `/usr/bin:/bin:/usr/sbin:/sbin` on macOS,
/// the desktop session's usual `PATH` on Linux (systemd's default plus `/snap/bin`), and on
/// Windows the current `PATH` (desktop apps get the same persistent user and system `PATH`).
pub fn likely_path(env: &SetupEnv, launch: Launch) -> Vec<PathBuf> {
    let fixed = |dirs: &[&str]| dirs.iter().map(PathBuf::from).collect();
    match (launch, env.os) {
        (Launch::Terminal, _) | (Launch::Desktop, Os::Windows) => env.path.clone(),
        (Launch::Desktop, Os::Macos) => fixed(MACOS_LAUNCHD_PATH),
        (Launch::Desktop, Os::Linux) => fixed(LINUX_DESKTOP_PATH),
    }
}

/// launchd's default `PATH`, which apps started from the Dock or Finder get on macOS.
pub const MACOS_LAUNCHD_PATH: &[&str] = &["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/// The `PATH` of a Linux desktop session (systemd's default, plus Ubuntu's `/snap/bin`).
pub const LINUX_DESKTOP_PATH: &[&str] = &[
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
    "/snap/bin",
];

/// Whether the command of an entry runs the current executable.
pub fn runs_current_exe(cmd: &str, env: &SetupEnv) -> bool {
    match (command_target(cmd, env), &env.current_exe) {
        (Some(t), Some(exe)) => same_file(&t, exe),
        _ => false,
    }
}

/// How the command in the entry is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CommandPath {
    /// `devprojex` when the client would find this binary through its own `PATH` (a desktop
    /// app's `PATH` is not the shell's), else this binary's stable absolute path.
    #[default]
    Auto,
    /// Always the stable absolute path of the running binary.
    Absolute,
    /// Always the plain name `devprojex` (it must then be on the client's `PATH`).
    Name,
}

/// The command to write for a client started by `launch`, following `mode`.
pub fn resolve_command(mode: CommandPath, env: &SetupEnv, launch: Launch) -> String {
    let Some(exe) = env.current_exe.as_ref() else {
        return "devprojex".into();
    };
    let stable = || stable_exe_path(exe, env).to_string_lossy().into_owned();
    match mode {
        CommandPath::Name => "devprojex".into(),
        CommandPath::Absolute => stable(),
        CommandPath::Auto => {
            let found = env.which_in(&likely_path(env, launch), "devprojex");
            if found.is_some_and(|p| same_file(&p, exe)) {
                "devprojex".into()
            } else {
                stable()
            }
        }
    }
}

/// The path to write for `exe`: a package manager's stable link rather than a versioned or
/// hashed install folder that the next upgrade deletes. Homebrew
/// `<prefix>/Cellar/devprojex/<version>/bin/devprojex` becomes `<prefix>/bin/devprojex` (else
/// `<prefix>/opt/devprojex/bin/devprojex`); winget `...\WinGet\Packages\<id>\devprojex.exe`
/// becomes `...\WinGet\Links\devprojex.exe`; a Nix store path becomes the profile link that
/// runs it. A candidate is used only when it exists.
pub fn stable_exe_path(exe: &Path, env: &SetupEnv) -> PathBuf {
    stable_exe_path_with(exe, env, &|p| p.exists(), &same_file)
}

/// [`stable_exe_path`] with the file-system questions injected (tests use per-OS fixtures).
pub fn stable_exe_path_with(
    exe: &Path,
    env: &SetupEnv,
    exists: &dyn Fn(&Path) -> bool,
    same: &dyn Fn(&Path, &Path) -> bool,
) -> PathBuf {
    let text = exe.to_string_lossy();
    let windows = env.os == Os::Windows;
    let sep = if windows { "\\" } else { "/" };
    let norm = text.replace('\\', "/");
    let lower = norm.to_lowercase();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(at) = norm.find("/Cellar/devprojex/") {
        let prefix = &text[..at];
        for rest in [
            ["bin", "devprojex"].as_slice(),
            &["opt", "devprojex", "bin", "devprojex"],
        ] {
            candidates.push(PathBuf::from(format!("{prefix}{sep}{}", rest.join(sep))));
        }
    }
    if let Some(at) = lower.find("/winget/packages/") {
        let prefix = &text[..at + "/winget/".len()];
        // The file name after the last separator of either kind (a Windows path on any host).
        let file = norm.rsplit('/').next().unwrap_or("devprojex.exe");
        candidates.push(PathBuf::from(format!("{prefix}Links{sep}{file}")));
    }
    if norm.starts_with("/nix/store/") {
        if let Some(home) = &env.home {
            candidates.push(home.join(".nix-profile/bin/devprojex"));
        }
        candidates.push(PathBuf::from("/run/current-system/sw/bin/devprojex"));
    }
    // Homebrew's and winget's links may already point at a newer version than the one running:
    // they are the right path anyway. A Nix profile link must run this very binary.
    let package_link = norm.contains("/Cellar/") || lower.contains("/winget/packages/");
    candidates
        .into_iter()
        .find(|c| exists(c) && (package_link || same(c, exe)))
        .unwrap_or_else(|| exe.to_path_buf())
}

/// Whether `exe` is a development build: it lives in a Cargo target folder
/// (`target/<profile>/`, `target/<triple>/<profile>/`, or any folder Cargo marked with
/// `.rustc_info.json`), as with `cargo run -- setup`.
pub fn is_dev_build(exe: &Path) -> bool {
    is_dev_build_with(exe, &|p| p.exists())
}

/// [`is_dev_build`] with the file-system question injected.
pub fn is_dev_build_with(exe: &Path, exists: &dyn Fn(&Path) -> bool) -> bool {
    let dirs: Vec<&Path> = exe.ancestors().skip(1).take(3).collect();
    let named_target = dirs
        .iter()
        .skip(1)
        .any(|d| d.file_name().is_some_and(|n| n == "target"));
    named_target || dirs.iter().any(|d| exists(&d.join(".rustc_info.json")))
}

pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The arguments without their `--root VALUE` pairs.
pub fn without_roots(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--root" {
            it.next();
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// The `--root` values of an argument list.
pub fn roots_of(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--root"
            && let Some(v) = it.next()
        {
            out.push(v.clone());
        }
    }
    out
}

/// The string arguments of an entry (`None` when `args` is missing or not all strings).
pub fn entry_args(v: &Value) -> Option<Vec<String>> {
    v.get("args")?
        .as_array()?
        .iter()
        .map(|a| a.as_str().map(String::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted() -> Entry {
        Entry {
            with_type: false,
            command: "/usr/bin/devprojex".into(),
            args: vec!["mcp".into()],
            extra: Vec::new(),
        }
    }

    #[test]
    fn classification() {
        let w = wanted();
        assert_eq!(classify(&w.to_json(), &w), EntryState::Current);
        let moved = json!({"command": "C:\\Tools\\devprojex.exe", "args": ["mcp"]});
        assert_eq!(classify(&moved, &w), EntryState::Outdated);
        let flags = json!({"command": "/usr/bin/devprojex", "args": ["mcp", "--allow-remote"]});
        assert_eq!(classify(&flags, &w), EntryState::Modified);
        let env = json!({"command": "/usr/bin/devprojex", "args": ["mcp"], "env": {"X": "1"}});
        assert_eq!(classify(&env, &w), EntryState::Modified);
        // What `claude mcp add devprojex -- /usr/bin/devprojex mcp` writes.
        let claude =
            json!({"type": "stdio", "command": "/usr/bin/devprojex", "args": ["mcp"], "env": {}});
        assert_eq!(classify(&claude, &w), EntryState::Current);
        let claude_moved =
            json!({"type": "stdio", "command": "devprojex", "args": ["mcp"], "env": {}});
        assert_eq!(classify(&claude_moved, &w), EntryState::Outdated);
        let other = json!({"command": "npx", "args": ["mcp"]});
        assert_eq!(classify(&other, &w), EntryState::Modified);
    }

    #[test]
    fn ours() {
        assert!(looks_like_ours(
            &json!({"type": "stdio", "command": "devprojex", "args": ["mcp", "--root", "/x", "--git-mode", "off"]})
        ));
        assert!(!looks_like_ours(
            &json!({"command": "devprojex", "args": ["mcp", "--root"]})
        ));
        assert!(!looks_like_ours(
            &json!({"command": "devprojex", "args": ["pack"]})
        ));
        assert!(!looks_like_ours(
            &json!({"type": "http", "command": "devprojex", "args": ["mcp"]})
        ));
        assert!(is_devprojex_command("/a/b/devprojex"));
        assert!(is_devprojex_command("C:\\b\\devprojex.exe"));
        assert!(!is_devprojex_command("devprojex-old"));
    }

    fn env(os: Os, home: &str) -> SetupEnv {
        SetupEnv::for_tests(os, Path::new(home))
    }

    #[test]
    fn package_manager_installs_get_their_stable_path() {
        let yes = |_: &Path| true;
        let no = |_: &Path| false;
        let same = |_: &Path, _: &Path| true;
        let mac = env(Os::Macos, "/Users/ada");
        for (cellar, stable) in [
            (
                "/opt/homebrew/Cellar/devprojex/0.1.0/bin/devprojex",
                "/opt/homebrew/bin/devprojex",
            ),
            (
                "/usr/local/Cellar/devprojex/0.3.2_1/bin/devprojex",
                "/usr/local/bin/devprojex",
            ),
            (
                "/home/linuxbrew/.linuxbrew/Cellar/devprojex/0.1.0/bin/devprojex",
                "/home/linuxbrew/.linuxbrew/bin/devprojex",
            ),
        ] {
            assert_eq!(
                stable_exe_path_with(Path::new(cellar), &mac, &yes, &same),
                Path::new(stable)
            );
            // Without the link, the keg's `opt` link; without that, the path as it is.
            let opt = |p: &Path| p.to_string_lossy().contains("/opt/devprojex/");
            let got = stable_exe_path_with(Path::new(cellar), &mac, &opt, &same);
            assert!(
                got.to_string_lossy()
                    .ends_with("/opt/devprojex/bin/devprojex"),
                "{got:?}"
            );
            assert_eq!(
                stable_exe_path_with(Path::new(cellar), &mac, &no, &same),
                Path::new(cellar)
            );
        }
        let win = env(Os::Windows, "C:\\Users\\ada");
        let pkg = "C:\\Users\\ada\\AppData\\Local\\Microsoft\\WinGet\\Packages\\devprojex.devprojex_Microsoft.Winget.Source_8wekyb3d8bbwe\\devprojex.exe";
        assert_eq!(
            stable_exe_path_with(Path::new(pkg), &win, &yes, &same),
            Path::new("C:\\Users\\ada\\AppData\\Local\\Microsoft\\WinGet\\Links\\devprojex.exe")
        );
        let linux = env(Os::Linux, "/home/ada");
        let nix = "/nix/store/8c3v1z-devprojex-0.1.0/bin/devprojex";
        assert_eq!(
            stable_exe_path_with(Path::new(nix), &linux, &yes, &same),
            Path::new("/home/ada/.nix-profile/bin/devprojex")
        );
        let other = |_: &Path, _: &Path| false;
        assert_eq!(
            stable_exe_path_with(Path::new(nix), &linux, &yes, &other),
            Path::new(nix),
            "a profile link to another build is not this binary"
        );
        for plain in ["/home/ada/.local/bin/devprojex", "/usr/bin/devprojex"] {
            assert_eq!(
                stable_exe_path_with(Path::new(plain), &linux, &yes, &same),
                Path::new(plain)
            );
        }
    }

    #[test]
    fn desktop_path_per_os() {
        let mut mac = env(Os::Macos, "/Users/ada");
        mac.path = vec!["/opt/homebrew/bin".into(), "/usr/bin".into()];
        assert_eq!(
            likely_path(&mac, Launch::Desktop),
            ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map(PathBuf::from)
        );
        assert_eq!(likely_path(&mac, Launch::Terminal), mac.path);
        let mut linux = env(Os::Linux, "/home/ada");
        linux.path = vec!["/home/ada/.cargo/bin".into()];
        let desktop = likely_path(&linux, Launch::Desktop);
        assert!(desktop.contains(&PathBuf::from("/usr/bin")));
        assert!(!desktop.contains(&PathBuf::from("/home/ada/.cargo/bin")));
        let mut win = env(Os::Windows, "C:\\Users\\ada");
        win.path = vec!["C:\\Users\\ada\\.cargo\\bin".into()];
        assert_eq!(likely_path(&win, Launch::Desktop), win.path);
    }

    #[test]
    fn dev_builds_are_recognised() {
        let no = |_: &Path| false;
        for dev in [
            "/home/ada/src/devprojex/target/debug/devprojex",
            "/home/ada/src/devprojex/target/release/devprojex",
            "/home/ada/src/devprojex/target/x86_64-unknown-linux-gnu/release/devprojex",
            "C:\\src\\devprojex\\target\\debug\\devprojex.exe",
        ] {
            let p = PathBuf::from(dev.replace('\\', "/"));
            assert!(is_dev_build_with(&p, &no), "{dev}");
        }
        // A custom CARGO_TARGET_DIR is recognised by the file Cargo writes there.
        let marked = |p: &Path| p == Path::new("/tmp/cargo/.rustc_info.json");
        assert!(is_dev_build_with(
            Path::new("/tmp/cargo/debug/devprojex"),
            &marked
        ));
        for installed in [
            "/home/ada/.cargo/bin/devprojex",
            "/opt/homebrew/Cellar/devprojex/0.1.0/bin/devprojex",
            "/usr/bin/devprojex",
            "/home/ada/target-practice/bin/devprojex",
        ] {
            assert!(!is_dev_build_with(Path::new(installed), &no), "{installed}");
        }
    }

    #[test]
    fn args_order() {
        let f = ServerFlags {
            roots: vec!["/a".into(), "/b".into()],
            hide_private_data: true,
            allow_remote: true,
            git_mode: Some(GitMode::Gitignore),
        };
        assert_eq!(
            f.args(),
            [
                "mcp",
                "--root",
                "/a",
                "--root",
                "/b",
                "--hide-private-data",
                "--allow-remote",
                "--git-mode",
                "gitignore"
            ]
        );
    }
}
