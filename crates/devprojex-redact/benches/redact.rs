//! Redaction throughput, single thread.
//!
//! - `ordinary-source`: ~4 MB of ordinary source text without secrets (Rust, Python, JS, YAML,
//!   TOML, Markdown lines in a fixed pseudo-random mix, with the keyword-bearing lines real code
//!   has: `token`, `key`, `password`, URLs in comments, ...).
//! - `own-source`: this crate's own engine source (no secrets; dense with the words `secret`,
//!   `token`, `key`, `password`).
//! - `dense-candidates`: ~1 MB where every line is a candidate: a credential, a placeholder, or
//!   a secret-looking assignment (expanded rule examples and corpus-like lines).
//! - `config-candidates`: ~1 MB of configuration and code where every line carries a
//!   candidate (a secret-looking key, a URL, a token prefix) but about one in ten holds a secret.
//! - `private-data`: the ordinary source with `hide_private_data` on.
//!
//! Run: `cargo bench -p devprojex-redact --bench redact -- --warm-up-time 1 --measurement-time 3`
//!
//! With `DPX_BENCH_CPU_TIME=1` (Unix), time is the benchmark thread's CPU time instead of wall
//! time: on a shared, loaded machine wall time also counts the time the thread waited for a core.
//!
//! With `DPX_BENCH_INPUTS=DIR`, the inputs are read from DIR when it holds them and written there
//! otherwise, so that two builds (a baseline and a change) can be timed on the same bytes: the
//! `own-source` and `dense-candidates` inputs are made from the build's own source and rules.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput};

/// Thread CPU time (Unix), wall time elsewhere.
struct CpuTime;

#[cfg(unix)]
#[allow(unsafe_code)]
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on Linux
    // and macOS.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Duration {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

static WALL: WallTime = WallTime;

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu_time()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_time().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}
use devprojex_redact::{RedactOptions, Redactor, rule_catalog, testgen};

const ORDINARY_LINES: &[&str] = &[
    "use std::collections::HashMap;",
    "use serde::{Deserialize, Serialize};",
    "",
    "/// Parse the configuration file and return the merged settings.",
    "pub fn parse_config(path: &Path) -> Result<Config, ConfigError> {",
    "    let text = std::fs::read_to_string(path).map_err(ConfigError::Io)?;",
    "    let mut settings = Settings::default();",
    "    for (index, line) in text.lines().enumerate() {",
    "        if line.trim().is_empty() || line.starts_with('#') {",
    "            continue;",
    "        }",
    "        let (key, value) = line.split_once('=').ok_or(ConfigError::Syntax(index + 1))?;",
    "        settings.insert(key.trim().to_string(), value.trim().to_string());",
    "    }",
    "    Ok(Config { settings, path: path.to_path_buf() })",
    "}",
    "",
    "#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]",
    "pub struct Config {",
    "    pub settings: HashMap<String, String>,",
    "    pub path: PathBuf,",
    "}",
    "    let token = lexer.next_token()?;",
    "    match token.kind {",
    "        TokenKind::Ident => parse_ident(&mut lexer, token),",
    "        TokenKind::Number(n) => Expr::Number(n),",
    "        _ => return Err(ParseError::Unexpected(token.span)),",
    "    }",
    "def load_users(session, limit=100):",
    "    \"\"\"Return the most recent users, newest first.\"\"\"",
    "    query = session.query(User).order_by(User.created_at.desc())",
    "    return [u.to_dict() for u in query.limit(limit)]",
    "",
    "class PasswordResetView(View):",
    "    template_name = 'accounts/password_reset.html'",
    "    def post(self, request):",
    "        form = PasswordResetForm(request.POST)",
    "        if form.is_valid():",
    "            form.save(request=request)",
    "        return redirect('login')",
    "export async function fetchItems(client, { page = 1, perPage = 50 } = {}) {",
    "  const response = await client.get(`/api/items?page=${page}&per_page=${perPage}`);",
    "  if (!response.ok) throw new Error(`request failed: ${response.status}`);",
    "  return response.json();",
    "}",
    "const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };",
    "// See https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers for details.",
    "  const apiKey = process.env.API_KEY;",
    "services:",
    "  web:",
    "    image: nginx:1.25",
    "    ports:",
    "      - \"8080:80\"",
    "    environment:",
    "      - LOG_LEVEL=info",
    "[dependencies]",
    "serde = { version = \"1\", features = [\"derive\"] }",
    "tokio = { version = \"1.40\", features = [\"full\"] }",
    "## Installation",
    "Run `cargo install devprojex` and then `devprojex --help` to list the commands.",
    "The cache key is derived from the path and the modification time of each file.",
    "    for (i, item) in items.iter().enumerate().filter(|(_, it)| it.enabled) {",
    "        total += item.price * item.quantity as f64;",
    "    }",
    "    assert_eq!(result.len(), 3, \"expected three results, got {result:?}\");",
    "    println!(\"{:>8} {:>8} {}\", stats.lines, stats.bytes, stats.name);",
    "fn hash_password(password: &str, salt: &[u8]) -> Vec<u8> {",
    "    let mut hasher = Sha256::new();",
    "    hasher.update(salt);",
    "    hasher.finalize().to_vec()",
    "SELECT id, name, email_verified FROM accounts WHERE deleted_at IS NULL ORDER BY id;",
    "if __name__ == '__main__':",
    "    main(sys.argv[1:])",
    "    let keys: Vec<_> = map.keys().cloned().collect();",
    "    self.secret_store.rotate(&name).await?;",
    "#[cfg(test)]",
    "mod tests {",
    "    use super::*;",
    "    #[test]",
    "    fn parses_empty_input() {",
    "        assert!(parse(\"\").is_ok());",
    "    }",
    "}",
];

fn ordinary_source(target: usize) -> String {
    let mut out = String::with_capacity(target + 256);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    while out.len() < target {
        // runs of consecutive lines keep the text looking like real files
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let start = (state % ORDINARY_LINES.len() as u64) as usize;
        let run = 4 + (state >> 32) as usize % 12;
        for line in ORDINARY_LINES.iter().cycle().skip(start).take(run) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn own_source() -> String {
    [
        include_str!("../src/lib.rs"),
        include_str!("../src/rules.rs"),
        include_str!("../src/private_data.rs"),
        include_str!("../src/private_key.rs"),
    ]
    .concat()
}

fn dense(target: usize) -> String {
    let mut templates: Vec<String> = rule_catalog()
        .into_iter()
        .flat_map(|r| r.examples.into_iter())
        .collect();
    templates.extend(
        [
            "password: changeme",
            "API_KEY=${API_KEY}",
            "token = lexer.next_token()",
            "checksum = \"{{hex:64}}\"",
            "commit {{hex:40}}",
            "id: {{uuid}}",
            "url = https://github.com/acme/app",
            "client_secret: {{b64u:40}}",
            "DB_PASSWORD={{an:16}}",
        ]
        .map(String::from),
    );
    let mut out = String::with_capacity(target + 1024);
    let mut seed = 0u64;
    while out.len() < target {
        for t in &templates {
            out.push_str(&testgen::expand(t, seed));
            out.push('\n');
        }
        seed += 1;
    }
    out
}

const CONFIG_LINES: &[&str] = &[
    "DB_HOST=db.internal",
    "DB_PASSWORD=${DB_PASSWORD}",
    "api_key: <your-api-key>",
    "token_url: https://auth.acme.io/oauth/token",
    "max_tokens: 4096",
    "  secretName: billing-secrets",
    "let token = lexer.next_token()?;",
    "REDIS_URL=redis://cache:6379/0",
    "docs: https://docs.acme.io/guide#tokens",
    "password_min_length = 12",
    "client_secret = os.environ['CLIENT_SECRET']",
    "auth_token_ttl: 3600",
    "const headers = { Authorization: `Bearer ${token}` };",
    "session_key: session_id",
    "private_key_path = \"~/.ssh/id_ed25519\"",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "secret: true",
    "checksum = \"{{hex:64}}\"",
    "DB_PASSWORD={{an:16}}",
    "GITHUB_TOKEN=ghp_{{an:36}}",
];

fn config_candidates(target: usize) -> String {
    let mut out = String::with_capacity(target + 256);
    let mut seed = 0u64;
    while out.len() < target {
        for t in CONFIG_LINES {
            out.push_str(&testgen::expand(t, seed));
            out.push('\n');
        }
        seed += 1;
    }
    out
}

/// The input `name` from `dir` when it is there; otherwise `make()`, saved to `dir` if given.
fn fixed_input(
    dir: &Option<std::path::PathBuf>,
    name: &str,
    make: impl FnOnce() -> String,
) -> String {
    let Some(dir) = dir else { return make() };
    let path = dir.join(format!("{name}.txt"));
    if let Ok(text) = std::fs::read_to_string(&path) {
        return text;
    }
    let text = make();
    std::fs::create_dir_all(dir).expect("create the DPX_BENCH_INPUTS directory");
    std::fs::write(&path, &text).expect("write a benchmark input");
    text
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let secrets = Redactor::new(RedactOptions::default());
    let private = Redactor::new(RedactOptions {
        hide_private_data: true,
    });
    let ordinary = ordinary_source(4 << 20);
    assert!(
        !secrets.redact(&ordinary).has_secrets(),
        "ordinary text must hold no secrets"
    );
    let inputs = std::env::var_os("DPX_BENCH_INPUTS").map(std::path::PathBuf::from);
    let own = fixed_input(&inputs, "own-source", || own_source().repeat(8));
    let dense = fixed_input(&inputs, "dense-candidates", || dense(1 << 20));
    let config = fixed_input(&inputs, "config-candidates", || config_candidates(1 << 20));
    assert!(secrets.redact(&dense).findings.len() > 1000);

    let mut g = c.benchmark_group("redact");
    g.throughput(Throughput::Bytes(ordinary.len() as u64));
    g.bench_function("keywords-only", |b| {
        b.iter(|| black_box(devprojex_redact::keyword_hit_counts(black_box(&ordinary))))
    });
    for (name, text, r) in [
        ("ordinary-source", &ordinary, &secrets),
        ("own-source", &own, &secrets),
        ("dense-candidates", &dense, &secrets),
        ("config-candidates", &config, &secrets),
        ("private-data", &ordinary, &private),
    ] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| b.iter(|| black_box(r.redact(black_box(text)))));
    }
    g.finish();
}

fn main() {
    if std::env::var_os("DPX_BENCH_CPU_TIME").is_some() {
        let mut c = Criterion::default()
            .with_measurement(CpuTime)
            .configure_from_args();
        bench(&mut c);
        c.final_summary();
    } else {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c);
        c.final_summary();
    }
}
