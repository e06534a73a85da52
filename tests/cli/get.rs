//! `devprojex get`: the `get_file` tool on the command line, with the tool's slice, limits and
//! redaction.

use crate::common::{Fixture, Mcp, one_spot, run};
use serde_json::json;

const STRIPE: &str = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/config.py",
        format!("import os\n\nSTRIPE_KEY = \"{STRIPE}\"\nDEBUG = False\n"),
    )
    .write(
        "long.txt",
        (1..=1500).map(|n| format!("{n}\n")).collect::<String>(),
    );
    std::fs::create_dir(fx.path(".git")).unwrap();
    fx
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn get_prints_the_tools_redacted_payload() {
    let fx = project();
    let output = run(&["get", "config.py", "--line-numbers"], &fx.path("src"));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let cli = text(&output.stdout);
    assert!(!cli.contains(STRIPE), "{cli}");
    insta::assert_snapshot!("get_line_numbers", cli);
    // a whole file says nothing more
    assert_eq!(text(&output.stderr), "");
    // byte-identical to what an agent reads
    let mut mcp = Mcp::start(&fx.root);
    let answer = mcp.call_ok(
        "get_file",
        json!({"path": "src/config.py", "line_numbers": true}),
    );
    assert_eq!(one_spot(&answer).inner, cli);
}

#[test]
fn get_pages_with_the_tools_limits_and_names_the_next_flag() {
    let fx = project();
    let first = run(&["get", "long.txt", "--project", "."], &fx.root);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout).lines().count(), 1000);
    assert_eq!(
        text(&first.stderr),
        "[Showing lines 1-1000 of 1500. Next: --start-line 1001.]\n"
    );
    let rest = run(&["get", "long.txt", "--start-line", "1001"], &fx.root);
    assert_eq!(text(&rest.stderr), "");
    assert!(text(&rest.stdout).starts_with("1001\n") && text(&rest.stdout).ends_with("1500\n"));
    let json = run(
        &[
            "get",
            "long.txt",
            "--start-line",
            "2",
            "--end-line",
            "3",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let masked = text(&json.stdout).replace(&fx.root_str(), "[PROJECT]");
    insta::assert_snapshot!("get_json", masked);
    let past = run(&["get", "long.txt", "--start-line", "1501"], &fx.root);
    assert_eq!(past.status.code(), Some(2));
    assert!(
        text(&past.stderr).contains("DPX-MCP-INVALID-RANGE")
            && text(&past.stderr).contains("pass a start_line between 1 and 1500"),
        "{}",
        text(&past.stderr)
    );
}

#[test]
fn get_reads_nothing_outside_the_selection_or_the_project() {
    let fx = project();
    fx.write(".env", format!("STRIPE={STRIPE}\n"));
    fx.write(".gitignore", "ignored.txt\n")
        .write("ignored.txt", "private\n");
    let outside = Fixture::named("elsewhere");
    outside.write("secret.txt", "outside\n");
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut refused = vec![
        (".git/config", "DPX-MCP-PATH-NOT-FOUND"),
        ("ignored.txt", "DPX-MCP-PATH-NOT-FOUND"),
        ("missing.txt", "DPX-MCP-PATH-NOT-FOUND"),
    ];
    #[cfg(unix)]
    {
        crate::common::symlink(outside.path("secret.txt"), fx.path("link.txt"));
        refused.push(("link.txt", "DPX-MCP-"));
    }
    for (path, code) in refused {
        std::fs::create_dir_all(fx.path(".git")).unwrap();
        fx.write(".git/config", "[core]\n");
        let output = run(&["get", path, "--project", "."], &fx.root);
        assert_eq!(output.status.code(), Some(1), "{path}");
        assert!(text(&output.stdout).is_empty(), "{path}");
        let err = text(&output.stderr);
        assert!(
            err.contains(code) && !err.contains("outside\n"),
            "{path}: {err}"
        );
    }
    let env = run(&["get", ".env"], &fx.root);
    assert!(
        !text(&env.stdout).contains(STRIPE) && !text(&env.stderr).contains(STRIPE),
        "{}",
        text(&env.stdout)
    );
    let escaped = run(
        &[
            "get",
            &outside.path("secret.txt").to_string_lossy(),
            "--project",
            ".",
        ],
        &fx.root,
    );
    assert_eq!(escaped.status.code(), Some(1));
    assert!(text(&escaped.stderr).contains("DPX-MCP-ROOT-VIOLATION"));
    assert!(text(&escaped.stdout).is_empty());
}
