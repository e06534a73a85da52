//! End-to-end tests of `devprojex setup` and `devprojex doctor` against a temporary home folder.
//!
//! These tests simulate a Linux home (`SetupEnv::for_tests(Os::Linux, ..)`) in a real temporary
//! folder, with Unix paths written into the configs they start from; on Windows that mix is
//! neither Linux nor Windows, so they run on Linux and macOS. Windows' own rules (config
//! locations, PATH choice, `\\?\` and drive forms, locked and read-only files, backup names) are
//! tested as pure functions with per-OS fixtures (`tests/paths.rs`, the unit tests), and the
//! edits themselves by `golden`, `roundtrip`, `line_endings` and `layouts`, which run there too.
#![cfg(not(windows))]

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser};
use devprojex_setup::{DoctorArgs, Io, Os, SetupArgs, SetupEnv, run_doctor_with, run_setup_with};

/// The main binary's shape, as the contract describes it.
#[derive(Parser)]
#[command(name = "devprojex")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    Setup(SetupArgs),
    Doctor(DoctorArgs),
}

struct Out {
    code: u8,
    out: String,
    err: String,
}

struct Home {
    _dir: tempfile::TempDir,
    root: PathBuf,
    env: SetupEnv,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut env = SetupEnv::for_tests(Os::Linux, &root);
        std::fs::create_dir_all(&env.cwd).unwrap();
        // The running binary exists (so entries pointing at it are not stale) but is not on PATH.
        let exe = env.current_exe.clone().unwrap();
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "").unwrap();
        env.path = vec![];
        Home {
            _dir: dir,
            root,
            env,
        }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn mkdir(&self, rel: &str) {
        std::fs::create_dir_all(self.p(rel)).unwrap();
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.p(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.p(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn exe(&self) -> String {
        self.env
            .current_exe
            .as_ref()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }

    fn run_with(&self, argv: &[&str], interactive: bool, input: &str) -> Out {
        let mut full = vec!["devprojex"];
        full.extend_from_slice(argv);
        let cli = Cli::try_parse_from(full).unwrap_or_else(|e| panic!("{e}"));
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut input = input.as_bytes();
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            input: &mut input,
            interactive,
        };
        let code = match cli.cmd {
            Cmd::Setup(a) => run_setup_with(&a, &self.env, &mut io),
            Cmd::Doctor(a) => run_doctor_with(&a, &self.env, &mut io),
        };
        Out {
            code,
            out: String::from_utf8(out).unwrap(),
            err: String::from_utf8(err).unwrap(),
        }
    }

    fn run(&self, argv: &[&str]) -> Out {
        self.run_with(argv, false, "")
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// The backup path printed after "backup of the replaced file: " (with `~` expanded).
fn backup_named_in(h: &Home, out: &str) -> PathBuf {
    let line = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("backup of the replaced file: "))
        .unwrap_or_else(|| panic!("no backup named in:\n{out}"));
    PathBuf::from(line.replacen('~', &h.root.to_string_lossy(), 1))
}

#[test]
fn clap_contract() {
    Cli::command().debug_assert();
    let help = Cli::command()
        .find_subcommand_mut("setup")
        .unwrap()
        .render_long_help()
        .to_string();
    for needle in [
        "--client",
        "--scope",
        "--dry-run",
        "--remove",
        "--force",
        "--command-path",
        "Examples:",
        "status",
    ] {
        assert!(help.contains(needle), "help mentions {needle}");
    }
    assert!(Cli::try_parse_from(["devprojex", "setup", "status", "--client", "codex"]).is_ok());
    assert!(Cli::try_parse_from(["devprojex", "setup", "--client", "notepad"]).is_err());
    assert!(Cli::try_parse_from(["devprojex", "doctor", "--root", "/a", "--root", "/b"]).is_ok());
}

#[test]
fn detects_clients_and_dry_run_writes_nothing() {
    let h = Home::new();
    h.mkdir(".cursor");
    h.write(".codex/config.toml", "model = \"o3\"\n");
    let r = h.run(&["setup", "--dry-run"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("Cursor") && r.out.contains("OpenAI Codex"),
        "{}",
        r.out
    );
    assert!(
        !r.out.contains("Claude Desktop"),
        "undetected clients are not planned:\n{}",
        r.out
    );
    assert!(r.out.contains("--- /dev/null"), "new file diff:\n{}", r.out);
    assert!(r.out.contains("+[mcp_servers.devprojex]"), "{}", r.out);
    assert!(r.out.contains("Dry run: nothing was written."));
    assert!(!h.p(".cursor/mcp.json").exists());
    assert_eq!(h.read(".codex/config.toml"), "model = \"o3\"\n");
}

#[test]
fn not_a_terminal_requires_yes() {
    let h = Home::new();
    h.mkdir(".cursor");
    let r = h.run(&["setup"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("DPX-SETUP-NOT-A-TERMINAL") && r.err.contains("--yes"),
        "{}",
        r.err
    );
    assert!(!h.p(".cursor/mcp.json").exists());
}

#[test]
fn yes_writes_then_second_run_changes_nothing() {
    let h = Home::new();
    h.write(
        ".cursor/mcp.json",
        "{\n  // mine\n  \"mcpServers\": {}\n}\n",
    );
    h.mkdir(".codex");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("verify:"), "{}", r.out);
    let cursor = h.read(".cursor/mcp.json");
    assert!(cursor.contains("// mine"));
    assert!(
        cursor.contains(&format!("\"command\": \"{}\"", h.exe())),
        "{cursor}"
    );
    // The bytes replaced are kept in devprojex's data folder, and the output names the copy.
    let bak = backup_named_in(&h, &r.out);
    assert!(
        bak.starts_with(h.p(".local/share/devprojex/setup-backups")),
        "{bak:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&bak).unwrap(),
        "{\n  // mine\n  \"mcpServers\": {}\n}\n"
    );
    assert!(!h.p(".cursor/mcp.json.devprojex.bak").exists());
    let codex = h.read(".codex/config.toml");
    assert!(codex.starts_with("[mcp_servers.devprojex]\n"), "{codex}");
    assert_eq!(
        r.out.matches("backup of the replaced file").count(),
        1,
        "no backup of a file that did not exist:\n{}",
        r.out
    );

    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("Nothing to change"), "{}", r.out);
    assert_eq!(h.read(".cursor/mcp.json"), cursor);
    assert_eq!(h.read(".codex/config.toml"), codex);
}

#[test]
fn confirmation_prompt() {
    let h = Home::new();
    h.mkdir(".cursor");
    let r = h.run_with(&["setup"], true, "n\n");
    assert_eq!(r.code, 1);
    assert!(
        r.out.contains("[y/N]") && r.err.contains("DPX-SETUP-ABORTED"),
        "{}{}",
        r.out,
        r.err
    );
    assert!(!h.p(".cursor/mcp.json").exists());
    let r = h.run_with(&["setup"], true, "y\n");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(h.p(".cursor/mcp.json").exists());
}

#[test]
fn hand_edited_entry_needs_force() {
    let h = Home::new();
    let original = "{\n  \"mcpServers\": {\n    \"devprojex\": {\"command\": \"devprojex\", \"args\": [\"mcp\"], \"env\": {\"X\": \"1\"}}\n  }\n}\n";
    h.write(".cursor/mcp.json", original);
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("the entry differs"), "{}", r.out);
    assert!(
        r.out.contains("-  \"env\": {"),
        "shows the difference:\n{}",
        r.out
    );
    assert!(r.err.contains("DPX-SETUP-CONFLICT"), "{}", r.err);
    assert_eq!(h.read(".cursor/mcp.json"), original);

    let r = h.run(&["setup", "--yes", "--client", "cursor", "--force"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v = json(&h.read(".cursor/mcp.json"));
    assert_eq!(
        v["mcpServers"]["devprojex"],
        serde_json::json!({"command": h.exe(), "args": ["mcp", "--root", "${workspaceFolder}"]})
    );
}

#[test]
fn moved_binary_is_updated_without_force_other_flags_need_it() {
    let h = Home::new();
    h.write(
        ".claude.json",
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"/old/devprojex\", \"args\": [\"mcp\"]}}}",
    );
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("update the entry written by an earlier setup"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("a running Claude Code rewrites"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("-  \"command\": \"/old/devprojex\""),
        "shows the difference:\n{}",
        r.out
    );
    assert_eq!(
        json(&h.read(".claude.json"))["mcpServers"]["devprojex"]["command"],
        h.exe()
    );

    // Other server flags: setup cannot tell them from a hand edit.
    let flags = [
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--hide-private-data",
        "--git-mode",
        "tracked",
    ];
    let r = h.run(&flags);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("+    \"--hide-private-data\","), "{}", r.out);
    let mut forced = flags.to_vec();
    forced.push("--force");
    assert_eq!(h.run(&forced).code, 0);
    let v = json(&h.read(".claude.json"));
    assert_eq!(
        v["mcpServers"]["devprojex"]["args"],
        serde_json::json!(["mcp", "--hide-private-data", "--git-mode", "tracked"])
    );
}

#[test]
fn unparsable_file_is_left_untouched_and_named() {
    let h = Home::new();
    let broken = "{\n  \"mcpServers\": {\n    \"a\": 1,,\n  }\n}\n";
    h.write(".claude.json", broken);
    h.mkdir(".cursor");
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--client",
        "cursor",
    ]);
    assert_eq!(r.code, 1);
    let want = format!("{}:3:", h.p(".claude.json").display());
    assert!(
        r.err.contains("DPX-SETUP-PARSE") && r.err.contains(&want),
        "{}",
        r.err
    );
    assert_eq!(h.read(".claude.json"), broken);
    assert!(
        h.p(".cursor/mcp.json").exists(),
        "the other client is still configured"
    );

    // Strict JSON clients refuse comments (the client itself would).
    h.write(".claude.json", "{ // no\n}\n");
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains(":1:3:"), "{}", r.err);

    // TOML errors too.
    h.write(".codex/config.toml", "model = \n");
    let r = h.run(&["setup", "--yes", "--client", "codex"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("config.toml:1:"), "{}", r.err);
    assert_eq!(h.read(".codex/config.toml"), "model = \n");
}

#[test]
fn remove_restores_the_original() {
    let h = Home::new();
    let original =
        "{\n\t\"servers\": {\n\t\t\"other\": {\"type\": \"stdio\", \"command\": \"x\"}\n\t}\n}\n";
    h.write(".config/Code/User/mcp.json", original);
    let r0 = h.run(&["setup", "--yes", "--client", "vscode"]);
    assert_eq!(r0.code, 0, "{}{}", r0.out, r0.err);
    assert_ne!(h.read(".config/Code/User/mcp.json"), original);
    let r = h.run(&["setup", "--yes", "--client", "vscode", "--remove"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert_eq!(h.read(".config/Code/User/mcp.json"), original);
    let r = h.run(&["setup", "--yes", "--client", "vscode", "--remove"]);
    assert!(r.out.contains("no entry to remove"), "{}", r.out);
}

#[test]
fn remove_refuses_a_foreign_entry_without_force() {
    let h = Home::new();
    let original = "{\"mcpServers\": {\"devprojex\": {\"command\": \"something-else\"}}}\n";
    h.write(".cursor/mcp.json", original);
    let r = h.run(&["setup", "--yes", "--client", "cursor", "--remove"]);
    assert_eq!(r.code, 1);
    assert_eq!(h.read(".cursor/mcp.json"), original);
    assert_eq!(
        h.run(&[
            "setup", "--yes", "--client", "cursor", "--remove", "--force"
        ])
        .code,
        0
    );
    assert_eq!(h.read(".cursor/mcp.json"), "{\"mcpServers\": {}}\n");
}

#[test]
fn project_scope() {
    let h = Home::new();
    std::fs::create_dir_all(h.env.cwd.join(".git")).unwrap();
    let r = h.run(&[
        "setup",
        "--yes",
        "--scope",
        "project",
        "--client",
        "vscode",
        "--client",
        "claude-code",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v = json(&std::fs::read_to_string(h.env.cwd.join(".vscode/mcp.json")).unwrap());
    assert_eq!(
        v["servers"]["devprojex"]["args"],
        serde_json::json!(["mcp", "--root", "${workspaceFolder}"])
    );
    assert_eq!(v["servers"]["devprojex"]["type"], "stdio");
    let v = json(&std::fs::read_to_string(h.env.cwd.join(".mcp.json")).unwrap());
    assert_eq!(
        v["mcpServers"]["devprojex"]["args"],
        serde_json::json!(["mcp"])
    );

    let r = h.run(&[
        "setup",
        "--yes",
        "--scope",
        "project",
        "--client",
        "claude-desktop",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("DPX-SETUP-USAGE"), "{}", r.err);
}

#[test]
fn roots_are_made_absolute() {
    let h = Home::new();
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "antigravity",
        "--root",
        "app",
        "--allow-remote",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v = json(&h.read(".gemini/config/mcp_config.json"));
    let root = h.env.cwd.join("app").to_string_lossy().into_owned();
    assert_eq!(
        v["mcpServers"]["devprojex"]["args"],
        serde_json::json!(["mcp", "--root", root, "--allow-remote"])
    );
}

#[test]
fn command_found_through_path_is_written_by_name() {
    let mut h = Home::new();
    h.env.path = vec![
        h.env
            .current_exe
            .clone()
            .unwrap()
            .parent()
            .unwrap()
            .to_path_buf(),
    ];
    assert_eq!(
        h.run(&["setup", "--yes", "--client", "claude-code"]).code,
        0
    );
    let v = json(&h.read(".claude.json"));
    assert_eq!(v["mcpServers"]["devprojex"]["command"], "devprojex");
    assert_eq!(
        h.run(&[
            "setup",
            "--yes",
            "--client",
            "claude-code",
            "--command-path",
            "absolute"
        ])
        .code,
        0
    );
    let v = json(&h.read(".claude.json"));
    assert_eq!(v["mcpServers"]["devprojex"]["command"], h.exe());
}

#[test]
fn status_lists_every_client() {
    let h = Home::new();
    assert_eq!(h.run(&["setup", "--yes", "--client", "cursor"]).code, 0);
    h.write(
        ".codex/config.toml",
        "[mcp_servers.devprojex]\ncommand = \"/gone/devprojex\"\nargs = [\"mcp\"]\n",
    );
    h.write(
        ".claude.json",
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"node\", \"args\": []}}}",
    );
    let r = h.run(&["setup", "status"]);
    assert_eq!(r.code, 0, "{}", r.err);
    for c in [
        "Claude Code",
        "Claude Desktop",
        "OpenAI Codex",
        "Google Antigravity",
        "Cursor",
        "VS Code",
        "VS Code Insiders",
    ] {
        assert!(r.out.contains(c), "{c} listed:\n{}", r.out);
    }
    assert!(r.out.contains("present, current"), "{}", r.out);
    assert!(
        r.out.contains("STALE: command not found: /gone/devprojex"),
        "{}",
        r.out
    );
    assert!(r.out.contains("no config file"), "{}", r.out);
    assert!(r.out.contains("~/.cursor/mcp.json"), "{}", r.out);
    // `node` is not on the (empty) PATH: stale as well.
    assert!(r.out.contains("command not found: node"), "{}", r.out);
}

#[test]
fn doctor_checks() {
    let h = Home::new();
    let r = h.run(&["doctor"]);
    assert!(
        r.out.contains("binary:") && r.out.contains("root:") && r.out.contains("git:"),
        "{}",
        r.out
    );
    assert!(r.out.contains("no client has an entry"), "{}", r.out);
    assert_eq!(r.code, 0, "warnings only:\n{}", r.out);

    h.write(
        ".codex/config.toml",
        "[mcp_servers.devprojex]\ncommand = \"/gone/devprojex\"\nargs = [\"mcp\"]\n",
    );
    let missing = h.p("missing").to_string_lossy().into_owned();
    let r = h.run(&["doctor", "--root", &missing]);
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(r.out.contains("does not exist"), "{}", r.out);
    assert!(r.out.contains("STALE"), "{}", r.out);

    assert_eq!(h.run(&["setup", "--yes", "--client", "cursor"]).code, 0);
    h.write(
        ".config/Code/User/mcp.json",
        "{\"servers\": {\"devprojex\": {\"type\": \"stdio\"",
    );
    let r = h.run(&["doctor"]);
    assert!(
        r.out
            .contains("[ok  ] Cursor: entry present, current (runs this binary)"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("[FAIL] VS Code: config does not parse"),
        "{}",
        r.out
    );
    assert_eq!(r.code, 1);
}

#[test]
fn missing_folder_is_created_and_invalid_name_refused() {
    let h = Home::new();
    let root = h.p("src").to_string_lossy().into_owned();
    assert_eq!(
        h.run(&[
            "setup",
            "--yes",
            "--client",
            "claude-desktop",
            "--root",
            &root
        ])
        .code,
        0
    );
    assert!(h.p(".config/Claude/claude_desktop_config.json").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(h.p(".config/Claude/claude_desktop_config.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "new user-scope file is private");
    }
    let r = h.run(&["setup", "--yes", "--client", "cursor", "--name", "bad name"]);
    assert_eq!(r.code, 2);
}

#[test]
fn no_clients_detected() {
    let h = Home::new();
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("DPX-SETUP-NO-CLIENTS"), "{}", r.err);
}

#[cfg(unix)]
#[test]
fn symlinked_config_is_edited_at_its_target() {
    let h = Home::new();
    h.write("dotfiles/cursor-mcp.json", "{\"mcpServers\": {}}\n");
    h.mkdir(".cursor");
    std::os::unix::fs::symlink(h.p("dotfiles/cursor-mcp.json"), h.p(".cursor/mcp.json")).unwrap();
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("symlink"), "{}", r.out);
    assert!(
        std::fs::symlink_metadata(h.p(".cursor/mcp.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(h.read("dotfiles/cursor-mcp.json").contains("devprojex"));
    assert_eq!(
        std::fs::read_to_string(backup_named_in(&h, &r.out)).unwrap(),
        "{\"mcpServers\": {}}\n"
    );
}

#[allow(dead_code)]
fn unused(_: &Path) {}
