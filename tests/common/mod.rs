//! Shared helpers for the integration tests: fixtures in temp dirs, a raw JSON-RPC client for
//! `devprojex mcp` over piped stdio, and spotlight-block parsing.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Failure guard for one response; never a pacing sleep.
pub const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_devprojex")
}

/// A temp dir holding a project folder `<tmp>/proj` (so the project name is stable).
pub struct Fixture {
    pub tmp: tempfile::TempDir,
    pub root: PathBuf,
}

impl Fixture {
    pub fn new() -> Self {
        Self::named("proj")
    }

    pub fn named(name: &str) -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = canonical(tmp.path()).join(name);
        std::fs::create_dir_all(&root).unwrap();
        Self { tmp, root }
    }

    /// The canonical temp base (parent of the project).
    pub fn base(&self) -> PathBuf {
        self.root.parent().unwrap().to_path_buf()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        write_file(&self.root.join(rel), content);
        self
    }

    pub fn mkdir(&self, rel: &str) -> &Self {
        std::fs::create_dir_all(self.root.join(rel)).unwrap();
        self
    }

    pub fn root_str(&self) -> String {
        self.root.to_str().unwrap().to_string()
    }
}

/// The canonical form of a folder as the product shows it: on Windows without the `\\?\`
/// prefix of `std::fs::canonicalize`, which users never type (nor see).
pub fn canonical(path: &Path) -> PathBuf {
    let base = std::fs::canonicalize(path).expect("canonical path");
    #[cfg(windows)]
    let base = PathBuf::from(
        base.to_str()
            .and_then(|text| text.strip_prefix(r"\\?\"))
            .filter(|rest| rest.as_bytes().get(1) == Some(&b':'))
            .map(str::to_string)
            .unwrap_or_else(|| base.to_string_lossy().into_owned()),
    );
    base
}

pub fn write_file(path: &Path, content: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, content).unwrap();
}

#[cfg(unix)]
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// Run the CLI synchronously.
pub fn run(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .env("DEVPROJEX_CONFIG_DIR", cwd.join(".no-config"))
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A `devprojex mcp` child driven with raw JSON-RPC lines.
pub struct Mcp {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every stdout line seen so far (for "stdout carries only JSON-RPC" checks).
    pub raw_lines: Vec<String>,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Value>,
    next_id: i64,
    stderr_path: PathBuf,
    _stderr_dir: tempfile::TempDir,
}

pub struct McpOptions<'a> {
    pub args: Vec<String>,
    pub envs: Vec<(&'a str, String)>,
}

impl Mcp {
    /// Start `devprojex mcp --root <root>` and initialize the session.
    pub fn start(root: &Path) -> Self {
        Self::start_with(&["--root", root.to_str().unwrap()], &[])
    }

    /// Start with extra arguments (after `mcp`) and environment, then initialize.
    pub fn start_with(args: &[&str], envs: &[(&str, &str)]) -> Self {
        let mut mcp = Self::spawn(args, envs);
        mcp.initialize();
        mcp
    }

    /// Start without initializing.
    pub fn spawn(args: &[&str], envs: &[(&str, &str)]) -> Self {
        Self::spawn_adjusted(Path::new(bin()), args, envs, |_| {})
    }

    /// Start `program mcp` without initializing, after `adjust` has changed the command (e.g.
    /// its uid).
    pub fn spawn_adjusted(
        program: &Path,
        args: &[&str],
        envs: &[(&str, &str)],
        adjust: impl FnOnce(&mut Command),
    ) -> Self {
        let stderr_dir = tempfile::tempdir().unwrap();
        let stderr_path = stderr_dir.path().join("stderr.txt");
        let stderr_file = std::fs::File::create(&stderr_path).unwrap();
        let mut command = Command::new(program);
        command
            .arg("mcp")
            .args(args)
            .env_remove("DEVPROJEX_ROOT")
            .env_remove("CLAUDE_PROJECT_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr_file));
        let has_pack_dir = envs.iter().any(|(k, _)| *k == "DEVPROJEX_PACK_DIR");
        if !has_pack_dir {
            command.env("DEVPROJEX_PACK_DIR", stderr_dir.path().join("packs"));
        }
        for (key, value) in envs {
            command.env(key, value);
        }
        adjust(&mut command);
        let mut child = command.spawn().expect("spawn devprojex mcp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(stdout);
            for line in reader.lines() {
                match line {
                    Ok(line) => {
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
            raw_lines: Vec::new(),
            notifications: Vec::new(),
            next_id: 1,
            stderr_path,
            _stderr_dir: stderr_dir,
        }
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    pub fn initialize(&mut self) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "devprojex-tests", "version": "0"}
            }),
        );
        assert!(
            response.get("result").is_some(),
            "initialize failed: {response}"
        );
        self.notify("notifications/initialized", json!({}));
        response
    }

    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next stdout line parsed as JSON (panics on timeout or non-JSON).
    pub fn recv(&mut self) -> Value {
        self.recv_within(RESPONSE_TIMEOUT)
            .expect("timed out waiting for a message from the server")
    }

    pub fn recv_within(&mut self, timeout: Duration) -> Option<Value> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.raw_lines.push(line.clone());
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|err| panic!("stdout line is not JSON ({err}): {line:?}"));
                Some(value)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!(
                "server stdout closed unexpectedly; stderr: {}",
                self.stderr()
            ),
        }
    }

    /// Wait for the response carrying `id`, keeping notifications on the side.
    pub fn wait_response(&mut self, id: &Value) -> Value {
        loop {
            let message = self.recv();
            if message.get("id") == Some(id)
                && (message.get("result").is_some() || message.get("error").is_some())
            {
                return message;
            }
            if message.get("method").is_some() && message.get("id").is_none() {
                self.notifications.push(message);
                continue;
            }
            panic!("unexpected message while waiting for id {id}: {message}");
        }
    }

    /// Send a request and wait for its response (the whole JSON-RPC response object).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_response(&id)
    }

    /// `tools/call`; returns the `result` object (panics on a JSON-RPC error).
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        match response.get("result") {
            Some(result) => result.clone(),
            None => panic!("tools/call {tool} failed at the protocol level: {response}"),
        }
    }

    /// `tools/call` that must succeed; returns the first text block.
    pub fn call_ok(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments.clone());
        assert_eq!(
            result["isError"],
            json!(false),
            "{tool} {arguments} failed: {result}"
        );
        first_text(&result)
    }

    /// `tools/call` that must fail with `isError`; returns the first text block.
    pub fn call_err(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments.clone());
        assert_eq!(
            result["isError"],
            json!(true),
            "{tool} {arguments} should fail: {result}"
        );
        first_text(&result)
    }

    /// Close stdin and wait for the process to exit (guarded by `timeout`).
    pub fn close_and_wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        self.stdin.take();
        self.wait_exit(timeout)
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Drain whatever stdout lines are still buffered after exit.
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.raw_lines.push(line);
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        self.stdin.take();
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn first_text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text block in {result}"))
        .to_string()
}

pub fn all_texts(result: &Value) -> Vec<String> {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// One spotlighted block found in a response text.
#[derive(Debug, Clone)]
pub struct Spot {
    /// `untrusted-data-<24 hex>`
    pub tag: String,
    /// The text between `<tag>\n` and `</tag>`, exactly.
    pub inner: String,
    /// Byte offset just past the closing tag.
    pub end: usize,
    /// Byte offset of the opening tag.
    pub start: usize,
}

pub fn is_spot_tag(tag: &str) -> bool {
    tag.strip_prefix("untrusted-data-").is_some_and(|hex| {
        hex.len() == 24
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Every spotlight block in `text`, in order. A block opens with `<untrusted-data-HEX>` on its
/// own line and closes at the first following `</untrusted-data-HEX>` with the same HEX.
pub fn spots(text: &str) -> Vec<Spot> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = text[from..].find("\n<untrusted-data-") {
        let open = from + pos + 1;
        let Some(close_angle) = text[open..].find('>') else {
            break;
        };
        let tag = &text[open + 1..open + close_angle];
        if !is_spot_tag(tag) || !text[open + close_angle + 1..].starts_with('\n') {
            from = open;
            continue;
        }
        let body_start = open + close_angle + 2;
        let closing = format!("</{tag}>");
        let Some(rel_end) = text[body_start..].find(&closing) else {
            panic!("spotlight block {tag} is never closed in: {text}")
        };
        out.push(Spot {
            tag: tag.to_string(),
            // One newline before the closing tag belongs to the framing, not the payload.
            inner: text[body_start..body_start + rel_end]
                .strip_suffix('\n')
                .unwrap_or_else(|| panic!("spotlight block {tag} has no framing newline"))
                .to_string(),
            start: open,
            end: body_start + rel_end + closing.len(),
        });
        from = body_start + rel_end + closing.len();
    }
    out
}

/// The single spotlight block of a text (panics unless exactly one).
pub fn one_spot(text: &str) -> Spot {
    let found = spots(text);
    assert_eq!(
        found.len(),
        1,
        "expected exactly one spotlight block in: {text}"
    );
    found.into_iter().next().unwrap()
}

/// Read a stored pack back completely through `read_pack` (following the trailers).
pub fn read_whole_pack(mcp: &mut Mcp, pack_id: &str) -> (String, usize) {
    let mut document = String::new();
    let mut start = 1u64;
    let mut calls = 0;
    let re = regex::Regex::new(r"^\[Showing lines (\d+)-(\d+) of (\d+)\. (.*)\]$").unwrap();
    loop {
        calls += 1;
        assert!(calls < 10_000, "read_pack never reached the end");
        let text = mcp.call_ok(
            "read_pack",
            json!({"pack_id": pack_id, "start_line": start}),
        );
        let spot = one_spot(&text);
        let trailer = text[spot.end..].trim();
        let caps = re
            .captures(trailer)
            .unwrap_or_else(|| panic!("no [Showing lines ...] trailer in: {trailer:?}"));
        let a: u64 = caps[1].parse().unwrap();
        let b: u64 = caps[2].parse().unwrap();
        let n: u64 = caps[3].parse().unwrap();
        assert_eq!(a, start, "slice starts where asked");
        assert!(b >= a && b <= n);
        assert!(b - a < 1000, "at most 1,000 lines per call");
        assert!(
            spot.inner.chars().count() <= 50_001,
            "at most 50,000 characters per call"
        );
        document.push_str(&spot.inner);
        if b == n {
            assert!(caps[4].contains("End"), "last trailer says end: {trailer}");
            break;
        }
        let next = format!("start_line={}", b + 1);
        assert!(
            caps[4].contains(&next),
            "trailer names the next range: {trailer}"
        );
        start = b + 1;
    }
    (document, calls)
}

/// Extract the pack id from a stored `pack_context` response.
pub fn stored_pack_id(text: &str) -> Option<(String, u64)> {
    let re = regex::Regex::new(r"^Pack stored as '([^']+)' \((\d+) characters\)\. Call read_pack")
        .unwrap();
    re.captures(text)
        .map(|c| (c[1].to_string(), c[2].parse().unwrap()))
}

/// One XML element, flattened in document order.
#[derive(Debug, Clone, Default)]
pub struct XmlElem {
    pub name: String,
    pub attrs: std::collections::BTreeMap<String, String>,
    /// Decoded character data directly inside this element.
    pub text: String,
    pub depth: usize,
}

/// Parse a whole XML document with quick-xml (end names checked), decoding attributes, text,
/// character and predefined entity references and CDATA. Panics on any parse error. Also
/// checks that the raw document holds only characters legal in XML 1.0.
pub fn parse_xml(doc: &str) -> Vec<XmlElem> {
    use quick_xml::XmlVersion;
    use quick_xml::events::Event;
    for (i, ch) in doc.char_indices() {
        let legal = matches!(ch, '\t' | '\n' | '\r')
            || ('\u{20}'..='\u{D7FF}').contains(&ch)
            || ('\u{E000}'..='\u{FFFD}').contains(&ch)
            || ch >= '\u{10000}';
        assert!(
            legal,
            "character {ch:?} at byte {i} is not legal in XML 1.0"
        );
    }
    let mut reader = quick_xml::Reader::from_str(doc);
    reader.config_mut().check_end_names = true;
    let mut out: Vec<XmlElem> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut roots = 0;
    let open = |e: &quick_xml::events::BytesStart, depth: usize| {
        let mut elem = XmlElem {
            name: e.name().as_ref().to_string(),
            depth,
            ..XmlElem::default()
        };
        for attr in e.attributes() {
            let attr = attr.unwrap_or_else(|err| panic!("bad attribute: {err}\n{doc}"));
            let key = attr.key.as_ref().to_string();
            let value = attr
                .normalized_value(XmlVersion::Implicit1_0)
                .unwrap_or_else(|err| panic!("bad attribute value: {err}"))
                .into_owned();
            assert!(
                elem.attrs.insert(key.clone(), value).is_none(),
                "duplicate attribute {key}"
            );
        }
        elem
    };
    loop {
        let event = reader.read_event().unwrap_or_else(|err| {
            panic!(
                "XML parse error at {}: {err}\n{doc}",
                reader.buffer_position()
            )
        });
        match event {
            Event::Start(e) => {
                if stack.is_empty() {
                    roots += 1;
                }
                out.push(open(&e, stack.len()));
                stack.push(out.len() - 1);
            }
            Event::Empty(e) => {
                if stack.is_empty() {
                    roots += 1;
                }
                out.push(open(&e, stack.len()));
            }
            Event::End(_) => {
                stack.pop().expect("end tag without start");
            }
            Event::Text(t) => {
                let text = t.xml10_content().into_owned();
                match stack.last() {
                    Some(&i) => out[i].text.push_str(&text),
                    None => assert!(
                        text.trim().is_empty(),
                        "text outside the root element: {text:?}"
                    ),
                }
            }
            Event::CData(c) => {
                let text = c.into_inner().to_string();
                let &i = stack.last().expect("CDATA outside the root element");
                out[i].text.push_str(&text);
            }
            Event::GeneralRef(r) => {
                let ch = match r
                    .resolve_char_ref()
                    .unwrap_or_else(|err| panic!("bad char ref: {err}"))
                {
                    Some(ch) => ch.to_string(),
                    None => match &*r {
                        "lt" => "<".into(),
                        "gt" => ">".into(),
                        "amp" => "&".into(),
                        "quot" => "\"".into(),
                        "apos" => "'".into(),
                        other => panic!("undeclared entity &{other};"),
                    },
                };
                let &i = stack.last().expect("reference outside the root element");
                out[i].text.push_str(&ch);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) => {}
            Event::DocType(_) => panic!("unexpected DOCTYPE"),
        }
    }
    assert!(
        stack.is_empty(),
        "unclosed elements at the end of the document"
    );
    assert_eq!(roots, 1, "exactly one root element");
    out
}

/// Markdown events of a document (pulldown-cmark).
pub fn markdown_events(doc: &str) -> Vec<pulldown_cmark::Event<'_>> {
    pulldown_cmark::Parser::new(doc).collect()
}

/// Every fenced code block in a markdown document: (info string, content).
pub fn markdown_code_blocks(doc: &str) -> Vec<(String, String)> {
    use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in pulldown_cmark::Parser::new(doc) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "<indented>".to_string(),
                };
                current = Some((info, String::new()));
            }
            Event::Text(text) if current.is_some() => current.as_mut().unwrap().1.push_str(&text),
            Event::End(TagEnd::CodeBlock) => out.push(current.take().unwrap()),
            _ => {}
        }
    }
    out
}

/// Text of the headings of a markdown document, with the heading level.
pub fn markdown_headings(doc: &str) -> Vec<(u32, String)> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut out = Vec::new();
    let mut current: Option<(u32, String)> = None;
    for event in pulldown_cmark::Parser::new(doc) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some((level as u32, String::new()))
            }
            Event::Text(t) | Event::Code(t) if current.is_some() => {
                current.as_mut().unwrap().1.push_str(&t)
            }
            Event::End(TagEnd::Heading(_)) => out.push(current.take().unwrap()),
            _ => {}
        }
    }
    out
}

/// The project every snapshot test reads: a little of each language the tools understand, a
/// secret for redaction, an ignored file, a binary file and a build folder.
pub fn sample_project() -> Fixture {
    let fx = Fixture::new();
    fx.write(".gitignore", "*.log\n")
        .write("README.md", "# Demo\n\nA small project for snapshots.\n")
        .write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n")
        .write(
            "src/main.rs",
            "mod util;\n\nuse util::greet;\n\n/// Entry point.\nfn main() {\n    // say hello\n    greet(\"world\");\n}\n",
        )
        .write(
            "src/util.rs",
            "/// Greets someone.\npub fn greet(name: &str) {\n    println!(\"hello {name}\");\n}\n\npub struct Config {\n    pub retries: u32,\n}\n",
        )
        .write(
            "app/settings.py",
            "import os\n\nGITHUB_TOKEN = \"ghp_R7sLq2vNw9XkT4bYc8ZpM3dHf6JaE1uGi5Ko\"\n\n\nclass Greeter:\n    def greet(self, name):\n        # a friendly hello\n        return f\"hello {name}\"\n",
        )
        .write(
            "web/index.ts",
            "import { helper } from './helper';\n\nexport function main(): void {\n  helper();\n}\n",
        )
        .write(
            "web/helper.ts",
            "export function helper(): number {\n  return 42;\n}\n",
        )
        .write("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
        .write("debug.log", "ignored\n")
        .write("target/debug/demo", "build output\n");
    fx
}

/// Text a user reads, with what changes from run to run masked: the project folder (`[ROOT]`,
/// also as JSON writes it), the temp folder (`[TMP]`), spotlight delimiters, stored pack ids and
/// the version.
pub fn masked(fx: &Fixture, text: &str) -> String {
    let root = fx.root_str();
    let json_root = serde_json::to_string(&root).unwrap();
    let mut out = text
        .replace(json_root.trim_matches('"'), "[ROOT]")
        .replace(&root, "[ROOT]")
        .replace(fx.base().to_str().unwrap(), "[TMP]")
        .replace(env!("CARGO_PKG_VERSION"), "[VERSION]");
    for (prefix, len, mask) in [
        ("untrusted-data-", 24, "untrusted-data-[ID]"),
        ("pack_", 32, "pack_[ID]"),
    ] {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(prefix) {
            let tail = &rest[at + prefix.len()..];
            let hex = tail.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
            result.push_str(&rest[..at]);
            if hex == len {
                result.push_str(mask);
                rest = &tail[len..];
            } else {
                result.push_str(prefix);
                rest = tail;
            }
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// The stable code a tool error's text starts with (`DPX-MCP-...: message`).
pub fn code_of(text: &str) -> &str {
    text.split(':').next().unwrap_or("")
}

/// Run `git` in `root` with a fixed identity and no signing; panics when it fails.
pub fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(root)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}
