//! Every client on every OS layout, as pure path logic (no folder needs to exist), plus the
//! layouts that depend on what exists (Windows MSIX Claude Desktop, legacy Antigravity).

use std::path::{Path, PathBuf};

use devprojex_setup::client::{config_path, project_config_path, user_config_path};
use devprojex_setup::{ClientId, Os, Scope, SetupEnv};

fn norm(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

fn env(os: Os, home: &str) -> SetupEnv {
    SetupEnv::for_tests(os, Path::new(home))
}

fn user(os: Os, home: &str, c: ClientId) -> String {
    norm(&user_config_path(c, &env(os, home)).unwrap())
}

#[test]
fn linux_layout() {
    let h = "/nonexistent/home/ada";
    let os = Os::Linux;
    assert_eq!(
        user(os, h, ClientId::ClaudeCode),
        format!("{h}/.claude.json")
    );
    assert_eq!(
        user(os, h, ClientId::ClaudeDesktop),
        format!("{h}/.config/Claude/claude_desktop_config.json")
    );
    assert_eq!(
        user(os, h, ClientId::Codex),
        format!("{h}/.codex/config.toml")
    );
    assert_eq!(
        user(os, h, ClientId::Antigravity),
        format!("{h}/.gemini/config/mcp_config.json")
    );
    assert_eq!(
        user(os, h, ClientId::Cursor),
        format!("{h}/.cursor/mcp.json")
    );
    assert_eq!(
        user(os, h, ClientId::VsCode),
        format!("{h}/.config/Code/User/mcp.json")
    );
    assert_eq!(
        user(os, h, ClientId::VsCodeInsiders),
        format!("{h}/.config/Code - Insiders/User/mcp.json")
    );
}

#[test]
fn macos_layout() {
    let h = "/nonexistent/Users/ada";
    let os = Os::Macos;
    let support = format!("{h}/Library/Application Support");
    assert_eq!(
        user(os, h, ClientId::ClaudeCode),
        format!("{h}/.claude.json")
    );
    assert_eq!(
        user(os, h, ClientId::ClaudeDesktop),
        format!("{support}/Claude/claude_desktop_config.json")
    );
    assert_eq!(
        user(os, h, ClientId::Codex),
        format!("{h}/.codex/config.toml")
    );
    assert_eq!(
        user(os, h, ClientId::Antigravity),
        format!("{h}/.gemini/config/mcp_config.json")
    );
    assert_eq!(
        user(os, h, ClientId::Cursor),
        format!("{h}/.cursor/mcp.json")
    );
    assert_eq!(
        user(os, h, ClientId::VsCode),
        format!("{support}/Code/User/mcp.json")
    );
    assert_eq!(
        user(os, h, ClientId::VsCodeInsiders),
        format!("{support}/Code - Insiders/User/mcp.json")
    );
}

#[test]
fn windows_layout() {
    let h = "C:\\Users\\ada";
    let os = Os::Windows;
    let roaming = "C:/Users/ada/AppData/Roaming";
    assert_eq!(
        user(os, h, ClientId::ClaudeCode),
        "C:/Users/ada/.claude.json"
    );
    assert_eq!(
        user(os, h, ClientId::ClaudeDesktop),
        format!("{roaming}/Claude/claude_desktop_config.json")
    );
    assert_eq!(
        user(os, h, ClientId::Codex),
        "C:/Users/ada/.codex/config.toml"
    );
    assert_eq!(
        user(os, h, ClientId::Antigravity),
        "C:/Users/ada/.gemini/config/mcp_config.json"
    );
    assert_eq!(
        user(os, h, ClientId::Cursor),
        "C:/Users/ada/.cursor/mcp.json"
    );
    assert_eq!(
        user(os, h, ClientId::VsCode),
        format!("{roaming}/Code/User/mcp.json")
    );
    assert_eq!(
        user(os, h, ClientId::VsCodeInsiders),
        format!("{roaming}/Code - Insiders/User/mcp.json")
    );

    let mut e = env(os, h);
    e.appdata = Some(PathBuf::from("D:\\Roam"));
    assert_eq!(
        norm(&user_config_path(ClientId::VsCode, &e).unwrap()),
        "D:/Roam/Code/User/mcp.json"
    );
    assert_eq!(
        norm(&user_config_path(ClientId::ClaudeDesktop, &e).unwrap()),
        "D:/Roam/Claude/claude_desktop_config.json"
    );
}

#[test]
fn environment_overrides() {
    let mut e = env(Os::Linux, "/nonexistent/home/ada");
    e.codex_home = Some("/srv/codex".into());
    e.claude_config_dir = Some("/srv/claude".into());
    e.xdg_config_home = Some("/srv/xdg".into());
    assert_eq!(
        norm(&user_config_path(ClientId::Codex, &e).unwrap()),
        "/srv/codex/config.toml"
    );
    assert_eq!(
        norm(&user_config_path(ClientId::ClaudeCode, &e).unwrap()),
        "/srv/claude/.claude.json"
    );
    assert_eq!(
        norm(&user_config_path(ClientId::VsCode, &e).unwrap()),
        "/srv/xdg/Code/User/mcp.json"
    );
    assert_eq!(
        norm(&user_config_path(ClientId::ClaudeDesktop, &e).unwrap()),
        "/srv/xdg/Claude/claude_desktop_config.json"
    );
    // XDG does not apply to macOS.
    e.os = Os::Macos;
    assert_eq!(
        norm(&user_config_path(ClientId::VsCode, &e).unwrap()),
        "/nonexistent/home/ada/Library/Application Support/Code/User/mcp.json"
    );
}

#[test]
fn missing_home_is_an_error() {
    let mut e = env(Os::Linux, "/x");
    e.home = None;
    let err = user_config_path(ClientId::Cursor, &e).unwrap_err();
    assert_eq!(err.code(), "DPX-SETUP-NO-LOCATION");
    // CODEX_HOME alone is enough for Codex.
    e.codex_home = Some("/c".into());
    assert!(user_config_path(ClientId::Codex, &e).is_ok());
}

#[test]
fn project_scope_files() {
    let p = Path::new("/repo");
    let got = |c| project_config_path(c, p).map(|p| norm(&p));
    assert_eq!(
        got(ClientId::ClaudeCode).as_deref(),
        Some("/repo/.mcp.json")
    );
    assert_eq!(
        got(ClientId::Codex).as_deref(),
        Some("/repo/.codex/config.toml")
    );
    assert_eq!(
        got(ClientId::Cursor).as_deref(),
        Some("/repo/.cursor/mcp.json")
    );
    assert_eq!(
        got(ClientId::VsCode).as_deref(),
        Some("/repo/.vscode/mcp.json")
    );
    assert_eq!(got(ClientId::ClaudeDesktop), None);
    assert_eq!(got(ClientId::Antigravity), None);
    assert_eq!(got(ClientId::VsCodeInsiders), None);
}

#[test]
fn project_scope_uses_the_repository_root() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    let mut e = SetupEnv::for_tests(Os::Linux, dir.path());
    e.cwd = repo.join("src/deep");
    let p = config_path(ClientId::Cursor, Scope::Project, &e)
        .unwrap()
        .unwrap();
    assert_eq!(p, repo.join(".cursor/mcp.json"));
}

#[test]
fn windows_msix_claude_desktop() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = SetupEnv::for_tests(Os::Windows, dir.path());
    e.localappdata = Some(dir.path().join("Local"));
    let classic = dir
        .path()
        .join("AppData/Roaming/Claude/claude_desktop_config.json");
    assert_eq!(
        user_config_path(ClientId::ClaudeDesktop, &e).unwrap(),
        classic
    );
    let pkg = dir
        .path()
        .join("Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(dir.path().join("Local/Packages/Other_123")).unwrap();
    assert_eq!(
        user_config_path(ClientId::ClaudeDesktop, &e).unwrap(),
        pkg.join("claude_desktop_config.json")
    );
}

#[test]
fn antigravity_current_file_and_the_pre_2_0_one() {
    use devprojex_setup::client::antigravity_legacy_path;
    let dir = tempfile::tempdir().unwrap();
    let e = SetupEnv::for_tests(Os::Linux, dir.path());
    let current = dir.path().join(".gemini/config/mcp_config.json");
    let legacy = dir.path().join(".gemini/antigravity/mcp_config.json");
    // Antigravity 2.0 and `agy` read ~/.gemini/config: always the user file, even when only the
    // old file exists (writing only the old one is what left 2.0 users without the server).
    assert_eq!(
        user_config_path(ClientId::Antigravity, &e).unwrap(),
        current
    );
    assert_eq!(antigravity_legacy_path(&e).unwrap(), legacy);
    std::fs::create_dir_all(legacy.parent().unwrap()).unwrap();
    std::fs::write(&legacy, "{}").unwrap();
    assert_eq!(
        user_config_path(ClientId::Antigravity, &e).unwrap(),
        current
    );
    let w = SetupEnv::for_tests(Os::Windows, Path::new("C:\\Users\\ada"));
    assert_eq!(
        norm(&antigravity_legacy_path(&w).unwrap()),
        "C:/Users/ada/.gemini/antigravity/mcp_config.json"
    );
}

#[test]
fn windows_msix_prefers_the_file_the_app_reads_over_an_empty_package_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = SetupEnv::for_tests(Os::Windows, dir.path());
    e.localappdata = Some(dir.path().join("Local"));
    let classic = dir
        .path()
        .join("AppData/Roaming/Claude/claude_desktop_config.json");
    let pkg = dir
        .path()
        .join("Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(classic.parent().unwrap()).unwrap();
    std::fs::write(&classic, "{\"mcpServers\": {\"mine\": {}}}").unwrap();
    // The package has no private copy, so the app reads %APPDATA%'s file: edit that one.
    assert_eq!(
        user_config_path(ClientId::ClaudeDesktop, &e).unwrap(),
        classic
    );
    // Once the package holds its own copy, that copy is what the app reads.
    std::fs::write(pkg.join("claude_desktop_config.json"), "{}").unwrap();
    assert_eq!(
        user_config_path(ClientId::ClaudeDesktop, &e).unwrap(),
        pkg.join("claude_desktop_config.json")
    );
}

#[test]
fn home_is_expanded_in_roots_on_every_os() {
    let w = SetupEnv::for_tests(Os::Windows, Path::new("C:\\Users\\ada"));
    assert_eq!(
        norm(&w.expand_user_path(Path::new("~\\src\\app"))),
        "C:/Users/ada/src/app"
    );
    assert_eq!(
        norm(&w.expand_user_path(Path::new("~/src"))),
        "C:/Users/ada/src"
    );
    assert_eq!(norm(&w.expand_user_path(Path::new("~"))), "C:/Users/ada");
    let l = SetupEnv::for_tests(Os::Linux, Path::new("/home/ada"));
    assert_eq!(
        l.expand_user_path(Path::new("~/src")),
        Path::new("/home/ada/src")
    );
    // `~user` and a `~` inside a path are left alone (made absolute against the cwd).
    assert_eq!(
        l.expand_user_path(Path::new("~bob/x")),
        Path::new("/home/ada/project/~bob/x")
    );
}

#[test]
fn detection_by_folder_or_executable() {
    use devprojex_setup::client::detect;
    let dir = tempfile::tempdir().unwrap();
    let mut e = SetupEnv::for_tests(Os::Linux, dir.path());
    assert!(ClientId::ALL.iter().all(|c| !detect(*c, &e)));
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    assert!(detect(ClientId::Cursor, &e));
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("codex"), "").unwrap();
    e.path = vec![bin];
    assert!(detect(ClientId::Codex, &e));
    assert!(!detect(ClientId::VsCode, &e));
    // Windows: npm shims are `.cmd` files.
    let mut w = SetupEnv::for_tests(Os::Windows, dir.path());
    w.path = e.path.clone();
    std::fs::write(e.path[0].join("claude.cmd"), "").unwrap();
    assert!(detect(ClientId::ClaudeCode, &w));
    assert!(
        !detect(ClientId::ClaudeCode, &e),
        "no `.cmd` lookup on unix"
    );
}

/// The clients added in issue 37 (item 6), on each OS, with their folder variables.
#[test]
fn gemini_copilot_windsurf_and_zed_on_every_os() {
    for (os, h, zed) in [
        (
            Os::Linux,
            "/nonexistent/home/ada",
            "/nonexistent/home/ada/.config/zed/settings.json",
        ),
        (
            Os::Macos,
            "/nonexistent/Users/ada",
            "/nonexistent/Users/ada/.config/zed/settings.json",
        ),
        (
            Os::Windows,
            "C:\\Users\\ada",
            "C:/Users/ada/AppData/Roaming/Zed/settings.json",
        ),
    ] {
        let hh = h.replace('\\', "/");
        assert_eq!(
            user(os, h, ClientId::GeminiCli),
            format!("{hh}/.gemini/settings.json")
        );
        assert_eq!(
            user(os, h, ClientId::CopilotCli),
            format!("{hh}/.copilot/mcp-config.json")
        );
        assert_eq!(
            user(os, h, ClientId::Windsurf),
            format!("{hh}/.codeium/windsurf/mcp_config.json")
        );
        assert_eq!(user(os, h, ClientId::Zed), zed, "{os:?}");
    }
    let mut e = env(Os::Linux, "/h");
    e.xdg_config_home = Some("/xdg".into());
    e.gemini_cli_home = Some("/gh".into());
    e.copilot_home = Some("/ch".into());
    let at = |c| norm(&user_config_path(c, &e).unwrap());
    assert_eq!(at(ClientId::Zed), "/xdg/zed/settings.json");
    assert_eq!(at(ClientId::GeminiCli), "/gh/.gemini/settings.json");
    assert_eq!(at(ClientId::CopilotCli), "/ch/mcp-config.json");
    // Project scope: Gemini CLI's .gemini/settings.json; the other three have none here.
    let project = Path::new("/src/app");
    assert_eq!(
        project_config_path(ClientId::GeminiCli, project).map(|p| norm(&p)),
        Some("/src/app/.gemini/settings.json".into())
    );
    for c in [ClientId::CopilotCli, ClientId::Windsurf, ClientId::Zed] {
        assert_eq!(project_config_path(c, project), None, "{c}");
    }
}

/// `~/.gemini` is Gemini CLI's folder and Antigravity's: neither is detected by it alone.
#[test]
fn a_shared_gemini_folder_detects_only_the_client_whose_file_is_there() {
    use devprojex_setup::client::detect;
    let dir = tempfile::tempdir().unwrap();
    let e = SetupEnv::for_tests(Os::Linux, dir.path());
    std::fs::create_dir_all(dir.path().join(".gemini/tmp")).unwrap();
    assert!(!detect(ClientId::GeminiCli, &e));
    assert!(!detect(ClientId::Antigravity, &e));
    std::fs::write(dir.path().join(".gemini/settings.json"), "{}").unwrap();
    assert!(detect(ClientId::GeminiCli, &e));
    assert!(!detect(ClientId::Antigravity, &e));
    std::fs::create_dir_all(dir.path().join(".gemini/antigravity")).unwrap();
    assert!(detect(ClientId::Antigravity, &e));
    for (d, c) in [
        (".copilot", ClientId::CopilotCli),
        (".codeium/windsurf", ClientId::Windsurf),
        (".config/zed", ClientId::Zed),
    ] {
        assert!(!detect(c, &e), "{c}");
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
        assert!(detect(c, &e), "{c}");
    }
}
