//! Secrets behind layers and in the formats of issue 36, through the built binary: 8 providers'
//! tokens each behind 15 layers of escaping (doubled escapes, re-encoded URLs, `\uXXXX`, HTML
//! entities, ANSI colour, a token spelled as escapes), base64 payloads (nested too), UTF-16
//! files, and the formats still missed (Dockerfile `ENV`, SQL, `--password value`,
//! `aws configure set`, an AWS secret beside its key id, YAML and TOML multi-line values,
//! Python auth pairs, shadow and htpasswd hashes in shell history). Every channel must hide
//! them: CLI `pack` and `search`, the MCP tools `get_file`, `search_project` and
//! `pack_context`; and `scan` must report every file.
//!
//! The tokens are fresh on each run (the seed is printed; `DPX_TEST_SEED=N` replays one), so
//! nothing is tuned to fixed values.

use crate::common::{Fixture, Mcp, run};
use devprojex_redact::testgen;
use serde_json::{Value, json};

/// (provider, token template)
const TOKENS: &[(&str, &str)] = &[
    ("aws", "AKIA{{b32:16}}"),
    ("github", "ghp_{{an:36}}"),
    ("stripe", "sk_live_{{an:32}}"),
    ("openai", "sk-proj-{{an:156}}"),
    ("slack", "xoxb-{{d:12}}-{{d:13}}-{{an:24}}"),
    ("anthropic", "sk-ant-api03-{{an:93}}AA"),
    ("gitlab", "glpat-{{an:20}}"),
    ("npm", "npm_{{an:36}}"),
];

/// (name, text before the token); `TOKEN` in it is the token itself, spelled as `\u00XX`
/// escapes by the layer named `spelled`.
const LAYERS: &[(&str, &str)] = &[
    ("json2", r#"x = "start\\n"#),
    ("json3", r#"x = "start\\\\n"#),
    ("crlf2", r#"x = "start\\r\\n"#),
    ("u000a", r#"x = "start\u000a"#),
    ("u002f", r#"x = "https:\u002F\u002Fx.io\u002F"#),
    ("u005cn", r#"x = "start\u005cn"#),
    ("x0a", r#"x = "start\x0a"#),
    ("pct", "x = /cb?token%3D"),
    ("pct2f", "x = /cb%2F"),
    ("pct2", "x = /cb?u=%2Fcb%253Ftoken%253D"),
    ("pct3", "x = /cb?u=%25253D"),
    ("entity", "x = &quot;"),
    ("entity-nl", "x = start&#10;"),
    ("ansi", "x = \u{1b}[33m"),
    ("spelled", "x = \""),
];

/// (path, template) of the formats still missed.
const FORMATS: &[(&str, &str)] = &[
    (
        "docker/Dockerfile",
        "FROM alpine\nENV DB_PASSWORD {{an:20}}\n",
    ),
    (
        "db/init.sql",
        "CREATE USER 'app'@'%' IDENTIFIED BY '{{an:18}}';\n",
    ),
    (
        "db/roles.sql",
        "CREATE ROLE app WITH LOGIN PASSWORD '{{an:18}}';\n",
    ),
    (
        "scripts/run.sh",
        "#!/bin/sh\nmycli deploy --password {{an:20}} --host db\n",
    ),
    (
        "scripts/aws.sh",
        "aws configure set aws_secret_access_key {{b64:40}} --profile ci\n",
    ),
    (
        "src/Creds.java",
        "AWSCredentials c = new BasicAWSCredentials(\"AKIA{{b32:16}}\", \"{{b64:40}}\");\n",
    ),
    (
        "src/creds.go",
        "creds := credentials.NewStaticCredentials(\"AKIA{{b32:16}}\", \"{{b64:40}}\", \"\")\n",
    ),
    (
        "conf/values.yaml",
        "db:\n  password: |\n    {{an:20}}\n  user: app\n",
    ),
    (
        "conf/app.toml",
        "[db]\npassword = \"\"\"\n{{an:20}}\"\"\"\n",
    ),
    (
        "src/client.py",
        "r = requests.get(url, auth=('deploy', '{{an:20}}'))\n",
    ),
    (
        "etc/shadow",
        "root:$6$rounds=5000${{an:16}}${{an:86}}:19740:0:99999:7:::\n",
    ),
    ("web/.htpasswd", "admin:$apr1${{an:8}}${{an:22}}\n"),
    (
        "home/.bash_history",
        "ls\necho 'deploy:$2y$10${{an:53}}' >> /etc/nginx/.htpasswd\n",
    ),
];

struct Project {
    fx: Fixture,
    /// Every path written, and every form a secret of it may take in output (the token, its
    /// `\uXXXX` spelling, a base64 blob holding it).
    files: Vec<(String, Vec<String>)>,
    seed: u64,
}

fn seed() -> u64 {
    std::env::var("DPX_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ u64::from(std::process::id()).rotate_left(32)
        })
}

fn spelled(token: &str) -> String {
    token.bytes().map(|b| format!("\\u{b:04x}")).collect()
}

/// Standard base64 (a test fixture's few lines; the redactor decodes with the `base64` crate).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v = u32::from(chunk[0]) << 16
            | u32::from(*chunk.get(1).unwrap_or(&0)) << 8
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= n {
                out.push(ALPHABET[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn utf16le(text: &str, bom: bool) -> Vec<u8> {
    let mut out = if bom { vec![0xff, 0xfe] } else { Vec::new() };
    for unit in text.encode_utf16() {
        out.extend_from_slice(&unit.to_le_bytes());
    }
    out
}

/// Fresh secrets from one seed.
struct Draw {
    n: u64,
    plain: devprojex_redact::Redactor,
}

impl Draw {
    fn next(&mut self, template: &str) -> (String, Vec<String>) {
        self.n = self.n.wrapping_add(0x9e37_79b9_7f4a_7c15);
        testgen::expand_tracked(template, self.n)
    }

    /// A token the redactor takes on its own: one it refuses bare (an `AKIA` id of too low an
    /// entropy, one character in half the body) is drawn again, since what is tested here is
    /// the layers.
    fn token(&mut self, template: &str) -> (String, Vec<String>) {
        loop {
            let (token, pieces) = self.next(template);
            let bare = format!("x = \"{token}\"");
            if !self.plain.redact(&bare).text.contains(token.as_str()) {
                return (token, pieces);
            }
        }
    }

    /// A format's text, drawn again only when an `AKIA` id in it has too low an entropy.
    fn text(&mut self, template: &str) -> (String, Vec<String>) {
        loop {
            let (text, pieces) = self.next(template);
            let out = self.plain.redact(&text);
            let low_entropy_id = pieces.iter().any(|p| {
                out.text.contains(p.as_str())
                    && p.len() == 16
                    && p.bytes()
                        .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
            });
            if !low_entropy_id {
                return (text, pieces);
            }
        }
    }
}

fn project() -> Project {
    let seed = seed();
    eprintln!("redaction_layers seed: {seed} (DPX_TEST_SEED={seed} replays it)");
    let fx = Fixture::new();
    let mut files = Vec::new();
    let mut draw = Draw {
        n: seed,
        plain: devprojex_redact::Redactor::new(devprojex_redact::RedactOptions::default()),
    };
    for (provider, token_template) in TOKENS {
        for (layer, before) in LAYERS {
            let (token, pieces) = draw.token(token_template);
            let written = if *layer == "spelled" {
                spelled(&token)
            } else {
                token.clone()
            };
            let path = format!("layers/{provider}/{layer}.txt");
            fx.write(&path, format!("marker {layer}\n{before}{written}\"\nend\n"));
            let mut forms: Vec<String> = pieces.into_iter().filter(|p| p.len() >= 8).collect();
            forms.push(spelled(&token));
            files.push((path, forms));
        }
    }
    for (path, template) in FORMATS {
        let (text, pieces) = draw.text(template);
        fx.write(path, format!("# marker\n{text}"));
        files.push((path.to_string(), pieces));
    }
    // base64: a whole .env file in a ConfigMap, and base64 inside JSON inside base64
    let (env, pieces) = draw.next("DB_HOST=db\nGITHUB_TOKEN=ghp_{{an:36}}\nREGION=eu\n");
    let blob = base64(env.as_bytes());
    fx.write(
        "deploy/env-configmap.yaml",
        format!("kind: ConfigMap\n# marker\ndata:\n  app.env: {blob}\n"),
    );
    let mut forms = pieces.clone();
    forms.push(blob.clone());
    files.push(("deploy/env-configmap.yaml".to_string(), forms));
    let json = format!("{{\"ci\": {{\"env\": \"{blob}\"}}}}");
    let outer = base64(json.as_bytes());
    fx.write("ci/settings.txt", format!("marker\nCI_CONFIG={outer}\n"));
    let mut forms = pieces;
    forms.extend([blob, outer]);
    files.push(("ci/settings.txt".to_string(), forms));
    // UTF-16: a registry export with a byte-order mark, a PowerShell script without one
    let (reg, pieces) = draw.text(
        "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\Acme]\r\n\"marker\"=\"1\"\r\n\"ApiToken\"=\"ghp_{{an:36}}\"\r\n\"Password\"=\"{{an:20}}\"\r\n",
    );
    fx.write("win/settings.reg", utf16le(&reg, true));
    files.push(("win/settings.reg".to_string(), pieces));
    let (ps1, pieces) = draw.text(
        "# marker\r\n$env:AWS_ACCESS_KEY_ID = \"AKIA{{b32:16}}\"\r\n$env:AWS_SECRET_ACCESS_KEY = \"{{b64:40}}\"\r\n",
    );
    fx.write("win/deploy.ps1", utf16le(&ps1, false));
    files.push(("win/deploy.ps1".to_string(), pieces));
    Project { fx, files, seed }
}

impl Project {
    fn assert_hidden(&self, what: &str, output: &str) {
        for (path, forms) in &self.files {
            for form in forms {
                assert!(
                    !output.contains(form.as_str()),
                    "{what}: a secret of {path} leaked ({} characters; DPX_TEST_SEED={})",
                    form.len(),
                    self.seed
                );
            }
        }
    }

    fn stdout(&self, args: &[&str]) -> (i32, String) {
        let out = run(args, &self.fx.root);
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

#[test]
fn scan_reports_every_file() {
    let p = project();
    let (code, out) = p.stdout(&["scan", ".", "--format", "json"]);
    assert_eq!(code, 1, "scan exits 1 when secrets are found: {out}");
    p.assert_hidden("scan", &out);
    let report: Value = serde_json::from_str(&out).expect("scan json");
    let found: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    let missed: Vec<&str> = (p.files.iter())
        .map(|(path, _)| path.as_str())
        .filter(|path| !found.contains(path))
        .collect();
    assert!(
        missed.is_empty(),
        "scan missed {missed:?} (DPX_TEST_SEED={})",
        p.seed
    );
    // each base64 blob is named after the rule that found its secret
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == "ci/settings.txt")
        .filter_map(|f| f["ruleId"].as_str())
        .collect();
    assert_eq!(rules, ["base64:github-pat"]);
}

#[test]
fn cli_pack_and_search_hide_every_secret() {
    let p = project();
    for format in ["markdown", "json", "xml"] {
        let (code, out) = p.stdout(&["pack", ".", "--quiet", "--format", format]);
        assert_eq!(code, 0, "pack {format}");
        p.assert_hidden(&format!("pack --format {format}"), &out);
        for (path, _) in &p.files {
            assert!(out.contains(path.as_str()), "pack {format} lost {path}");
        }
    }
    // the structure around each secret stays, and UTF-16 text is shown as text
    let (_, md) = p.stdout(&["pack", ".", "--quiet"]);
    for kept in [
        r#"x = "start\\n[REDACTED:aws-access-key-id]""#,
        "x = /cb?u=%25253D[REDACTED:github-pat]\"",
        "x = \u{1b}[33m[REDACTED:stripe-secret-key]\"",
        "x = \"[REDACTED:github-pat]\"",
        "ENV DB_PASSWORD [REDACTED:generic-password]",
        "IDENTIFIED BY '[REDACTED:sql-password]'",
        "auth=('deploy', '[REDACTED:basic-auth-pair]')",
        "root:[REDACTED:password-hash]:19740",
        "app.env: [REDACTED:base64:github-pat]",
        "\"ApiToken\"=\"[REDACTED:github-pat]\"",
        "$env:AWS_ACCESS_KEY_ID = \"[REDACTED:aws-access-key-id]\"",
    ] {
        assert!(
            md.contains(kept),
            "pack lost the structure around: {kept} (DPX_TEST_SEED={})",
            p.seed
        );
    }
    for pattern in ["marker", "x =", "password", "AKIA", "ghp_"] {
        let (_, out) = p.stdout(&[
            "search",
            pattern,
            ".",
            "--context-lines",
            "3",
            "--max-results",
            "500",
        ]);
        p.assert_hidden(&format!("search {pattern}"), &out);
    }
    // UTF-16 lines are searched as text
    let (_, out) = p.stdout(&["search", "ApiToken", "."]);
    assert!(out.contains("win/settings.reg"), "{out}");
}

#[test]
fn mcp_tools_hide_every_secret() {
    let p = project();
    let mut mcp = Mcp::start(&p.fx.root);
    for (path, _) in &p.files {
        let text = mcp.call_ok("get_file", json!({"path": path}));
        p.assert_hidden(&format!("get_file {path}"), &text);
        assert!(text.contains("[REDACTED:"), "get_file {path}: {text}");
    }
    for pattern in ["marker", "x =", "password", "ApiToken"] {
        let result = mcp.call(
            "search_project",
            json!({"pattern": pattern, "context_lines": 3, "max_results": 500}),
        );
        for text in crate::common::all_texts(&result) {
            p.assert_hidden(&format!("search_project {pattern}"), &text);
        }
    }
    for format in ["markdown", "json"] {
        let text = mcp.call_ok("pack_context", json!({"format": format}));
        p.assert_hidden(&format!("pack_context {format}"), &text);
        for (path, _) in &p.files {
            assert!(
                text.contains(path.as_str()),
                "pack_context {format} lost {path}"
            );
        }
    }
}
