//! The credential shapes of issue 19 through the built binary: tokens after escapes and
//! percent-encodings, base64-wrapped keys and JWTs, a JWT on a very long minified line,
//! credential files and command lines. Every front door must hide them: CLI `pack` (every
//! format and detail level), `search` and `scan`, and the MCP tools `get_file`,
//! `search_project`, `pack_context` (inline and stored, every format and detail level) and
//! `read_pack`.
//!
//! The secrets are generated (`devprojex_redact::testgen`), so no credential-shaped literal is
//! committed; each file also holds a plain marker word so searches land on the secret lines.

use std::collections::BTreeMap;

use crate::common::{self, Fixture, Mcp, run, spots};
use devprojex_redact::testgen;
use serde_json::{Value, json};

/// (project-relative path, template, the rule ids `scan` must report for it)
const FILES: &[(&str, &str, &[&str])] = &[
    (
        "logs/app.jsonl",
        r#"{"level":"info","msg":"marker started\nAKIA{{b32:16}}\nready"}
{"level":"debug","msg":"marker headers\r\nAuthorization: token ghp_{{an:36}}\r\n"}"#,
        &["aws-access-key-id", "github-pat"],
    ),
    (
        "logs/access.log",
        "203.0.113.9 - - [01/May/2024:10:00:00 +0000] \"GET /cb?marker=1&token%3Dsk_live_{{an:32}}%26next%3D%2F HTTP/1.1\" 200 512",
        &["stripe-secret-key"],
    ),
    (
        "har/session.har",
        r#"{"request": {"postData": {"text": "{\"marker\":1,\"token\":\"github_pat_{{an:22}}_{{an:59}}\",\"anthropic\":\"sk-ant-api03-{{b64u:93}}AA\"}"}}}"#,
        &["github-fine-grained-pat", "anthropic-api-key"],
    ),
    (
        "deploy/kubeconfig.yaml",
        "apiVersion: v1\nkind: Config\n# marker\nusers:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUR{{b64:1500}}=\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF{{b64:2100}}==\n",
        &["base64-pem-block"],
    ),
    (
        "deploy/secret.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db # marker\ntype: Opaque\ndata:\n  password: {{b64:24}}\n  session: {{jwt64:60}}\n",
        &["kubernetes-secret"],
    ),
    (
        "web/bundle.min.js",
        "/* marker */{{fill:70000}}var t=\"eyJhbGciOiJIUzI1NiJ9.eyJ{{b64u:5000}}.{{b64u:43}}\";{{fill:2000}}\n",
        &["jwt"],
    ),
    (
        "home/.netrc",
        "# marker\nmachine api.acme.io login deploy password {{an:20}}\nmachine git.acme.io\n  login ci\n  password {{an:24}}\n",
        &["netrc-password"],
    ),
    (
        "home/.pgpass",
        "# marker\ndb.internal:5432:billing:app:{{an:18}}\n",
        &["pgpass-password"],
    ),
    (
        "site/wp-config.php",
        "<?php\n// marker\ndefine( 'DB_PASSWORD', '{{an:20}}' );\n",
        &["wordpress-config-secret"],
    ),
    (
        "scripts/deploy.sh",
        "#!/bin/sh\n# marker\nmysql -h db -u root -p{{an:14}} billing < dump.sql\ncurl -X POST \\\n  -u deploy:{{an:18}} \\\n  https://ci.acme.io/api\ndocker login -u ci -p {{an:24}} registry.acme.io\nsshpass -p '{{an:16}}' ssh deploy@build.acme.io uptime\n",
        &[
            "mysql-cli-password",
            "curl-auth-user",
            "docker-login-password",
            "sshpass-password",
        ],
    ),
    (
        "conf/redis.conf",
        "# marker\nrequirepass {{an:32}}\n",
        &["redis-password"],
    ),
    (
        "src/db.go",
        "package db\n\n// marker\nconst dsn = \"app:{{an:16}}@tcp(db.internal:3306)/billing\"\n",
        &["go-mysql-dsn"],
    ),
    (
        "src/main/resources/application.properties",
        "# marker\nspring.datasource.password=${DB_PASSWORD:{{an:16}}}\n",
        &["generic-password"],
    ),
    ("config/master.key", "{{hex:32}}\n", &["rails-master-key"]),
    (
        "keys/deploy.ssh2",
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"marker\"\n{{b64:70}}\n{{b64:70}}\n{{b64:30}}==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n",
        &["private-key"],
    ),
];

struct Project {
    fx: Fixture,
    /// Every generated secret (8 characters or more), by file.
    secrets: BTreeMap<&'static str, Vec<String>>,
}

fn project() -> Project {
    let fx = Fixture::new();
    let mut secrets = BTreeMap::new();
    for (i, (path, template, _)) in FILES.iter().enumerate() {
        let (text, pieces) = testgen::expand_tracked(template, 1_900 + i as u64);
        fx.write(path, text);
        secrets.insert(*path, pieces.into_iter().filter(|p| p.len() >= 8).collect());
    }
    Project { fx, secrets }
}

impl Project {
    /// Fail when any generated secret appears in `output`.
    fn assert_hidden(&self, what: &str, output: &str) {
        for (path, pieces) in &self.secrets {
            for piece in pieces {
                assert!(
                    !output.contains(piece.as_str()),
                    "{what}: a secret of {path} leaked ({} characters)",
                    piece.len()
                );
            }
        }
    }
}

fn stdout_of(project: &Project, args: &[&str]) -> (i32, String) {
    let out = run(args, &project.fx.root);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn cli_pack_in_every_format_and_level_hides_every_shape() {
    let p = project();
    for format in ["markdown", "text", "json", "xml"] {
        for detail in ["full", "compact", "signatures"] {
            let (code, out) = stdout_of(
                &p,
                &[
                    "pack", ".", "--quiet", "--format", format, "--detail", detail,
                ],
            );
            assert_eq!(code, 0, "pack {format} {detail}");
            p.assert_hidden(&format!("pack --format {format} --detail {detail}"), &out);
            // every file is in the pack, redacted, not withheld
            for (path, _, rules) in FILES {
                for rule in *rules {
                    assert!(
                        out.contains(&format!("[REDACTED:{rule}]")),
                        "pack --format {format} --detail {detail}: no {rule} marker for {path}"
                    );
                }
            }
        }
    }
    // the structure around the values stays
    let (_, md) = stdout_of(&p, &["pack", ".", "--quiet"]);
    for kept in [
        "machine api.acme.io login deploy password [REDACTED:netrc-password]",
        "db.internal:5432:billing:app:[REDACTED:pgpass-password]",
        "define( 'DB_PASSWORD', '[REDACTED:wordpress-config-secret]' );",
        "mysql -h db -u root -p[REDACTED:mysql-cli-password] billing",
        "  -u deploy:[REDACTED:curl-auth-user] \\",
        "docker login -u ci -p [REDACTED:docker-login-password] registry.acme.io",
        "requirepass [REDACTED:redis-password]",
        "app:[REDACTED:go-mysql-dsn]@tcp(db.internal:3306)/billing",
        "spring.datasource.password=${DB_PASSWORD:[REDACTED:generic-password]}",
        "    client-key-data: [REDACTED:base64-pem-block]",
        "  password: [REDACTED:kubernetes-secret]",
        r"marker started\n[REDACTED:aws-access-key-id]\nready",
        "token%3D[REDACTED:stripe-secret-key]%26next",
        "var t=\"[REDACTED:jwt]\";",
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
    ] {
        assert!(md.contains(kept), "pack lost the structure around: {kept}");
    }
}

#[test]
fn cli_search_hides_every_shape() {
    let p = project();
    for pattern in ["marker", "password", "token", "curl", "data", "tcp"] {
        let (_, out) = stdout_of(
            &p,
            &[
                "search",
                pattern,
                ".",
                "--context-lines",
                "8",
                "--max-results",
                "200",
            ],
        );
        assert!(!out.is_empty(), "search {pattern} found nothing");
        p.assert_hidden(&format!("search {pattern}"), &out);
    }
}

#[test]
fn cli_scan_reports_every_shape() {
    let p = project();
    let (code, out) = stdout_of(&p, &["scan", ".", "--format", "json"]);
    assert_eq!(code, 1, "scan exits 1 when secrets are found: {out}");
    p.assert_hidden("scan", &out);
    let report: Value = serde_json::from_str(&out).expect("scan json");
    let found: Vec<(String, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["ruleId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (path, _, rules) in FILES {
        for rule in *rules {
            assert!(
                found.iter().any(|(p, r)| p == path && r == rule),
                "scan did not report {rule} in {path}: {found:?}"
            );
        }
    }
}

/// The whole text of a `pack_context` result: inline, or every `read_pack` slice of a stored
/// pack, following the `Next: call read_pack with start_line=N` trailers.
fn pack_text(mcp: &mut Mcp, arguments: Value) -> String {
    let text = mcp.call_ok("pack_context", arguments.clone());
    let Some(id) = text
        .split("Pack stored as '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
    else {
        return text;
    };
    let mut whole = text.clone();
    let mut start = 1u64;
    for _ in 0..100 {
        let slice = mcp.call_ok("read_pack", json!({"pack_id": id, "start_line": start}));
        whole.extend(spots(&slice).into_iter().map(|s| s.inner));
        let Some(next) = slice
            .split("start_line=")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<u64>().ok())
        else {
            return whole;
        };
        assert!(next > start, "read_pack does not advance: {slice}");
        start = next;
    }
    panic!("read_pack never ended for {arguments}");
}

#[test]
fn mcp_tools_hide_every_shape() {
    let p = project();
    let mut mcp = Mcp::start(&p.fx.root);
    for (path, _, rules) in FILES {
        let text = mcp.call_ok("get_file", json!({"path": path}));
        p.assert_hidden(&format!("get_file {path}"), &text);
        // (get_file returns at most 50,000 characters: the long line is cut before its JWT)
        if !path.ends_with(".min.js") {
            assert!(
                text.contains(&format!("[REDACTED:{}]", rules[0])),
                "get_file {path}: {text}"
            );
        }
    }
    for pattern in ["marker", "password", "token", "data"] {
        let result = mcp.call(
            "search_project",
            json!({"pattern": pattern, "context_lines": 8, "max_results": 200}),
        );
        for text in common::all_texts(&result) {
            p.assert_hidden(&format!("search_project {pattern}"), &text);
        }
    }
    for format in ["markdown", "text", "json", "xml"] {
        for detail in ["full", "compact", "signatures"] {
            let text = pack_text(&mut mcp, json!({"format": format, "detail": detail}));
            p.assert_hidden(&format!("pack_context {format} {detail}"), &text);
            // the pack is over 50,000 characters: stored, and read back through read_pack,
            // which carries the long line with its JWT redacted
            assert!(
                text.contains("Pack stored as '") && text.contains("[REDACTED:jwt]"),
                "pack_context {format} {detail} was not read back whole"
            );
            // every file is in the pack, redacted, not withheld
            for (path, _, rules) in FILES {
                for rule in *rules {
                    assert!(
                        text.contains(&format!("[REDACTED:{rule}]")),
                        "pack_context {format} {detail}: no {rule} marker for {path}"
                    );
                }
            }
        }
    }
}
