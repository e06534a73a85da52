//! End to end: `self-update` against a loopback server that mimics GitHub's releases API, with a
//! scratch binary standing in for the installed one.
#![cfg(unix)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use devprojex_update::{
    InstallMethod, Outcome, SelfUpdateArgs, UpdateContext, archive_name, bin_path_in_archive,
    run_with,
};
use sha2::{Digest, Sha256};

const TARGET: &str = "x86_64-unknown-linux-gnu";
const OLD: &[u8] = b"#!/bin/sh\necho devprojex 0.1.0\n";
const NEW: &[u8] = b"#!/bin/sh\necho devprojex 0.2.0\n";

struct Server {
    base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn asset_requests(&self) -> Vec<String> {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.starts_with("/assets/"))
            .cloned()
            .collect()
    }
}

/// Serve `routes` (path -> body) on 127.0.0.1, one request per connection; 404 for anything else.
fn serve(make_routes: impl FnOnce(&str) -> HashMap<String, Vec<u8>>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let routes = make_routes(&base);
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            loop {
                let mut header = String::new();
                match reader.read_line(&mut header) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if header == "\r\n" || header == "\n" => break,
                    Ok(_) => {}
                }
            }
            let path = request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("/")
                .to_string();
            let route = path.split('?').next().unwrap_or("").to_string();
            seen.lock().unwrap().push(route.clone());
            let (status, body) = match routes.get(&route) {
                Some(body) => ("200 OK", body.clone()),
                None => ("404 Not Found", br#"{"message":"Not Found"}"#.to_vec()),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            let _ = stream.flush();
        }
    });
    Server { base, requests }
}

fn tar_gz(target: &str, exe: &[u8]) -> Vec<u8> {
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::fast(),
    ));
    let mut add = |path: &str, data: &[u8], mode: u32| {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(mode);
        header.set_cksum();
        builder.append_data(&mut header, path, data).unwrap();
    };
    add(&bin_path_in_archive(target), exe, 0o755);
    add(&format!("devprojex-{target}/README.md"), b"readme\n", 0o644);
    builder.into_inner().unwrap().finish().unwrap()
}

fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

struct Release {
    /// Bytes served as the archive.
    served: Vec<u8>,
    /// Bytes whose digest the `.sha256` asset publishes (`None`: no checksum asset).
    published_for: Option<Vec<u8>>,
}

/// Routes for release v0.2.0 of devprojex/devprojex: latest, by tag, and its assets.
fn releases_api(base: &str, release: &Release) -> HashMap<String, Vec<u8>> {
    let archive = archive_name(TARGET);
    let mut routes = HashMap::new();
    let mut assets = Vec::new();
    // The sidecar first: its name also contains the target, so a substring match would pick it.
    let sidecar = format!("{archive}.sha256");
    if let Some(published) = &release.published_for {
        assets
            .push(serde_json::json!({"name": sidecar, "url": format!("{base}/assets/{sidecar}")}));
        routes.insert(
            format!("/assets/{sidecar}"),
            format!("{}  {archive}\n", sha256_hex(published)).into_bytes(),
        );
    }
    let musl = archive_name("x86_64-unknown-linux-musl");
    assets.push(serde_json::json!({"name": musl, "url": format!("{base}/assets/{musl}")}));
    assets.push(serde_json::json!({
        "name": archive,
        "url": format!("{base}/assets/{archive}"),
        "browser_download_url": format!("{base}/download/{archive}"),
    }));
    routes.insert(format!("/assets/{archive}"), release.served.clone());
    let body = serde_json::json!({
        "tag_name": "v0.2.0",
        "name": "0.2.0",
        "created_at": "2026-11-01T00:00:00Z",
        "body": "notes",
        "assets": assets,
    });
    let one = serde_json::to_vec(&body).unwrap();
    routes.insert(
        "/repos/devprojex/devprojex/releases/latest".into(),
        one.clone(),
    );
    routes.insert(
        "/repos/devprojex/devprojex/releases/tags/v0.2.0".into(),
        one,
    );
    routes.insert(
        "/repos/devprojex/devprojex/releases".into(),
        serde_json::to_vec(&serde_json::json!([body])).unwrap(),
    );
    routes
}

fn good_release() -> Release {
    let archive = tar_gz(TARGET, NEW);
    Release {
        published_for: Some(archive.clone()),
        served: archive,
    }
}

fn installed(dir: &Path) -> PathBuf {
    let exe = dir.join("devprojex");
    std::fs::write(&exe, OLD).unwrap();
    exe
}

fn ctx(server: &Server, exe: &Path, interactive: bool) -> UpdateContext {
    UpdateContext {
        exe: exe.to_path_buf(),
        api_base: server.base.clone(),
        target: TARGET.into(),
        method: InstallMethod::Standalone,
        interactive,
    }
}

fn yes() -> SelfUpdateArgs {
    SelfUpdateArgs {
        yes: true,
        ..Default::default()
    }
}

fn dir_listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn updates_the_binary_with_yes() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let mut out = Vec::new();
    let outcome = run_with(
        &yes(),
        "0.1.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut out,
    )
    .unwrap();
    assert_eq!(
        outcome,
        Outcome::Updated {
            version: "0.2.0".into()
        }
    );
    assert_eq!(std::fs::read(&exe).unwrap(), NEW);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&exe).unwrap().permissions().mode() & 0o111,
        0o111
    );
    assert_eq!(
        dir_listing(dir.path()),
        ["devprojex"],
        "no temporary files left beside the binary"
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Updated"), "{text}");
    // The exact archive was downloaded, plus its checksum, and nothing else.
    let mut got = server.asset_requests();
    got.sort();
    assert_eq!(
        got,
        [
            format!("/assets/{}", archive_name(TARGET)),
            format!("/assets/{}.sha256", archive_name(TARGET))
        ]
    );
}

#[test]
fn corrupt_download_is_refused_and_the_binary_untouched() {
    let good = tar_gz(TARGET, NEW);
    let mut corrupt = good.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0xff;
    let release = Release {
        served: corrupt,
        published_for: Some(good),
    };
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let err = run_with(
        &yes(),
        "0.1.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut Vec::new(),
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("does not match the release's published sha256"),
        "{msg}"
    );
    assert!(msg.contains("nothing was installed"), "{msg}");
    assert_eq!(std::fs::read(&exe).unwrap(), OLD);
    assert_eq!(dir_listing(dir.path()), ["devprojex"]);
}

#[test]
fn a_release_without_checksum_is_refused() {
    let release = Release {
        served: tar_gz(TARGET, NEW),
        published_for: None,
    };
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let err = run_with(
        &yes(),
        "0.1.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("no usable sha256"), "{err}");
    assert_eq!(std::fs::read(&exe).unwrap(), OLD);
    assert!(
        server.asset_requests().is_empty(),
        "nothing downloaded without a checksum to verify"
    );
}

#[test]
fn check_reports_and_changes_nothing() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let args = SelfUpdateArgs {
        check: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    let outcome = run_with(
        &args,
        "0.1.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut out,
    )
    .unwrap();
    assert_eq!(
        outcome,
        Outcome::Checked {
            latest: "0.2.0".into(),
            newer: true
        }
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("0.2.0 is available"), "{text}");
    assert!(server.asset_requests().is_empty());
    assert_eq!(std::fs::read(&exe).unwrap(), OLD);

    // A managed install may still check, and is told its own command.
    let mut managed = ctx(&server, &exe, false);
    managed.method = InstallMethod::Cargo;
    let mut out = Vec::new();
    run_with(&args, "0.1.0", &managed, &mut &b""[..], &mut out).unwrap();
    assert!(
        String::from_utf8(out)
            .unwrap()
            .contains("cargo install --locked devprojex")
    );
}

#[test]
fn up_to_date_does_nothing() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let outcome = run_with(
        &yes(),
        "0.2.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(
        outcome,
        Outcome::UpToDate {
            latest: "0.2.0".into()
        }
    );
    assert!(server.asset_requests().is_empty());
}

#[test]
fn without_yes_and_without_a_terminal_it_refuses_and_reads_nothing() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    // Input that would say yes: it must not be read.
    let mut input = &b"y\n"[..];
    let outcome = run_with(
        &SelfUpdateArgs::default(),
        "0.1.0",
        &ctx(&server, &exe, false),
        &mut input,
        &mut Vec::new(),
    )
    .unwrap();
    match outcome {
        Outcome::Refused(msg) => assert!(msg.contains("--yes"), "{msg}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(input, b"y\n", "stdin was not read");
    assert_eq!(std::fs::read(&exe).unwrap(), OLD);
    assert!(server.asset_requests().is_empty());
}

#[test]
fn on_a_terminal_it_asks() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let outcome = run_with(
        &SelfUpdateArgs::default(),
        "0.1.0",
        &ctx(&server, &exe, true),
        &mut &b"n\n"[..],
        &mut Vec::new(),
    )
    .unwrap();
    assert!(matches!(outcome, Outcome::Refused(_)));
    assert_eq!(std::fs::read(&exe).unwrap(), OLD);

    let mut out = Vec::new();
    let outcome = run_with(
        &SelfUpdateArgs::default(),
        "0.1.0",
        &ctx(&server, &exe, true),
        &mut &b"y\n"[..],
        &mut out,
    )
    .unwrap();
    assert_eq!(
        outcome,
        Outcome::Updated {
            version: "0.2.0".into()
        }
    );
    assert!(String::from_utf8(out).unwrap().contains("[y/N]"));
    assert_eq!(std::fs::read(&exe).unwrap(), NEW);
}

#[test]
fn a_pinned_version_is_fetched_by_tag() {
    let release = good_release();
    let server = serve(|base| releases_api(base, &release));
    let dir = tempfile::tempdir().unwrap();
    let exe = installed(dir.path());
    let args = SelfUpdateArgs {
        yes: true,
        version: Some("0.2.0".into()),
        ..Default::default()
    };
    let outcome = run_with(
        &args,
        "0.3.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(
        outcome,
        Outcome::Updated {
            version: "0.2.0".into()
        },
        "an explicit version may downgrade"
    );
    assert_eq!(std::fs::read(&exe).unwrap(), NEW);

    let missing = SelfUpdateArgs {
        yes: true,
        version: Some("9.9.9".into()),
        ..Default::default()
    };
    let err = run_with(
        &missing,
        "0.3.0",
        &ctx(&server, &exe, false),
        &mut &b""[..],
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("unchanged"), "{err}");
}
