//! No existence oracle: `get_file`, `related_files`, the `paths` of `analyze` and
//! `pack_context` and a `profile` path give a path outside the effective
//! selection the answer of a missing one, in code and in words, whether anything is there
//! (`.gitignore`d, `.git/`, a product rule, a folder only a folder rule excludes, untracked in
//! the tracked mode, a link to any of them).

use serde_json::json;

use crate::common::{self, Fixture, Mcp, code_of};

/// The answer with the asked-for path masked.
fn masked(text: &str, path: &str) -> String {
    text.replace(&format!("'{path}'"), "'<PATH>'")
}

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    )
    .write("src/main.rs", "mod util;\nfn main() {}\n")
    .write("src/util.rs", "pub fn f() {}\n")
    .write(".gitignore", "*.env\nignored.rs\nbuild/\n")
    .write("secret.env", "TOKEN=abc\n")
    .write("ignored.rs", "fn hidden() {}\n")
    .write("build/gen.rs", "fn generated() {}\n")
    .write("target/debug/out.rs", "fn built() {}\n");
    common::git(&fx.root, &["init", "-q"]);
    common::git(&fx.root, &["add", "-A"]);
    common::git(&fx.root, &["commit", "-q", "-m", "init"]);
    fx.write("untracked.rs", "fn loose() {}\n")
        .write("loose/new.rs", "fn loose() {}\n");
    #[cfg(unix)]
    {
        common::symlink(".git/config", fx.path("link_to_git_config.rs"));
        common::symlink(".git/missing", fx.path("link_to_git_missing.rs"));
        common::symlink("secret.env", fx.path("link_to_secret.rs"));
        common::symlink("nothing.env", fx.path("link_to_nothing.rs"));
    }
    fx
}

/// Every (existing but left out, missing) pair answers the same, and all pairs alike.
fn assert_one_answer(mcp: &mut Mcp, tool: &str, pairs: &[(&str, &str)]) {
    // analyze and pack_context take the path in `paths`; "profile" is analyze's `profile`.
    let arguments = |path: &str| match tool {
        "analyze" | "pack_context" => json!({"paths": [path]}),
        "profile" => json!({"profile": path}),
        _ => json!({"path": path}),
    };
    let (tool, code) = match tool {
        "profile" => ("analyze", "DPX-MCP-INVALID-ARGUMENTS"),
        tool => (tool, "DPX-MCP-PATH-NOT-FOUND"),
    };
    let mut reference: Option<String> = None;
    for (existing, missing) in pairs {
        let there = mcp.call_err(tool, arguments(existing));
        let absent = mcp.call_err(tool, arguments(missing));
        assert_eq!(code_of(&there), code, "{existing}: {there}");
        assert_eq!(code_of(&absent), code, "{missing}: {absent}");
        let (there, absent) = (masked(&there, existing), masked(&absent, missing));
        assert_eq!(there, absent, "{tool} tells {existing} from {missing}");
        assert!(there.contains("'<PATH>'"), "{there}");
        if let Some(reference) = &reference {
            assert_eq!(&there, reference, "{tool}: every such path reads the same");
        }
        reference = Some(there);
    }
}

#[test]
fn every_tool_answers_left_out_paths_as_missing_ones() {
    let fx = project();
    let mut mcp = Mcp::start(&fx.root);
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut pairs = vec![
        ("secret.env", "absent.env"),
        ("ignored.rs", "absent.rs"),
        (".git/config", ".git/absent"),
        (".git/HEAD", "absent/HEAD"),
        ("build/gen.rs", "build/absent.rs"),
        ("build", "absent-folder"),
        ("target/debug/out.rs", "target/debug/absent.rs"),
    ];
    #[cfg(unix)]
    pairs.extend([
        ("link_to_git_config.rs", "link_to_git_missing.rs"),
        ("link_to_secret.rs", "link_to_nothing.rs"),
    ]);
    for tool in [
        "get_file",
        "related_files",
        "analyze",
        "pack_context",
        "profile",
    ] {
        assert_one_answer(&mut mcp, tool, &pairs);
    }
    // What the selection holds still reads, and a folder of it is named a folder.
    assert!(
        mcp.call_ok("get_file", json!({"path": "src/util.rs"}))
            .contains("pub fn f")
    );
    let folder = mcp.call_err("get_file", json!({"path": "src"}));
    assert_eq!(code_of(&folder), "DPX-MCP-INVALID-ARGUMENTS", "{folder}");
    let folder = mcp.call_err("related_files", json!({"path": "src"}));
    assert_eq!(code_of(&folder), "DPX-MCP-INVALID-ARGUMENTS", "{folder}");
}

#[test]
fn in_the_tracked_mode_an_untracked_path_answers_as_a_missing_one() {
    let fx = project();
    let mut mcp = Mcp::start_with(&["--root", &fx.root_str(), "--git-mode", "tracked"], &[]);
    let pairs = [
        ("untracked.rs", "absent.rs"),
        ("loose/new.rs", "loose/absent.rs"),
        ("loose", "absent-folder"),
        ("secret.env", "absent.env"),
    ];
    assert_one_answer(&mut mcp, "get_file", &pairs);
    assert_one_answer(&mut mcp, "related_files", &pairs);
    assert!(
        mcp.call_ok("get_file", json!({"path": "src/main.rs"}))
            .contains("fn main")
    );
}
