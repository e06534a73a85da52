//! Private data is hidden only with `hide_private_data`, and only real private data.

use devprojex_redact::{FindingKind, MachineIdentity, RedactOptions, Redactor};

fn private() -> Redactor {
    Redactor::with_identity(
        RedactOptions {
            hide_private_data: true,
        },
        &MachineIdentity {
            user: Some("jdoe".into()),
            host: Some("jdoe-laptop.corp.io".into()),
        },
    )
}

fn ids(r: &Redactor, text: &str) -> Vec<String> {
    r.redact(text)
        .findings
        .into_iter()
        .map(|f| f.rule_id)
        .collect()
}

#[test]
fn positives() {
    let r = private();
    for (text, id) in [
        ("contact: maria.garcia@acme-corp.io", "email"),
        ("server 10.20.30.40 is down", "ipv4"),
        ("peer 203.1.113.9:443", "ipv4"),
        ("addr fe80::1c2d:3e4f:5a6b:7c8d%eth0", "ipv6"),
        ("addr 2a01:4f8:c17:b8f::2", "ipv6"),
        ("ether 3c:22:fb:1a:2b:3c", "mac-address"),
        ("ether 3C-22-FB-1A-2B-3C", "mac-address"),
        ("call +44 20 7946 0958 today", "phone-number"),
        ("call +1 (415) 555-2671", "phone-number"),
        ("cd /home/maria/projects", "home-user"),
        ("cd /Users/maria/projects", "home-user"),
        (r"C:\Users\maria\AppData", "home-user"),
        (r#""C:\\Users\\maria\\src""#, "home-user"),
        ("built by jdoe yesterday", "user-name"),
        ("ssh jdoe-laptop.corp.io", "host-name"),
        ("prompt jdoe-laptop $", "host-name"),
        // issue 19: US national formats, Cisco dotted MACs, private hosts in URLs, ~user
        ("call (415) 555-2671 today", "phone-number"),
        ("call (415)555-2671", "phone-number"),
        ("fax: 415-555-2671", "phone-number"),
        ("tel 415.555.2671", "phone-number"),
        ("toll free 1-800-555-2671", "phone-number"),
        ("toll free 1.800.555.2671", "phone-number"),
        ("call 1-(415) 555-2671", "phone-number"),
        ("cd C:/Users/maria/projects", "home-user"),
        (r"D:\\Users\maria\src", "home-user"),
        ("stack 0011.2233.4455 and c914.c829.00a0", "mac-address"),
        ("interface mac 0011.2233.4455 vlan 10", "mac-address"),
        ("mac-address-table static 00a0.c914.c829", "mac-address"),
        ("url: https://jira.corp.acme.com/browse/OPS-1", "host-name"),
        (
            "DATABASE_URL=postgres://app@db01.internal:5432/app",
            "host-name",
        ),
        ("see http://nas.home.arpa/share", "host-name"),
        ("cd ~maria/projects", "home-user"),
        ("home=~maria", "home-user"),
        ("https://cs.acme.edu/~maria/papers/", "home-user"),
        // a machine's name joined to the numbers makes them an address, not a release
        ("logs/host-10.20.30.40.txt", "ipv4"),
        ("backup db-10.0.0.5.sql", "ipv4"),
        ("node2-172.16.4.20 joined", "ipv4"),
    ] {
        let found = ids(&r, text);
        assert!(
            found.iter().any(|f| f == id),
            "{text}: expected {id}, got {found:?}"
        );
        let out = r.redact(text);
        assert!(
            out.findings
                .iter()
                .all(|f| f.kind == FindingKind::PrivateData)
        );
    }
}

#[test]
fn negatives() {
    let r = private();
    for text in [
        "listen on 127.0.0.1:8080 and 0.0.0.0",
        "docs use 192.0.2.1, 198.51.100.7 and 203.0.113.50",
        "ipv6 loopback ::1 and 2001:db8::1 (documentation)",
        "version 1.2.3.4.5 and v1.2.3.4",
        "see user@example.com and git@github.com:acme/app.git",
        "icon@2x.png and lodash@4.17.21 and @types/node@20.1.0",
        "std::io::Result and a::b",
        "time 10:30:45 and ratio 16:9",
        "sha 0123456789abcdef",
        "mask 255.255.255.0",
        "path /home/$USER/x and /Users/Shared/x and ~/src",
        "the root user and the admin group",
        // issue 19: versions are not addresses, code is not a home, public hosts stay
        r#"[assembly: AssemblyVersion("1.0.0.0")]"#,
        r#"[assembly: AssemblyFileVersion("2.1.0.0")]"#,
        "System.Runtime, Version=4.2.2.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a",
        r#"  "version": "1.2.3.4","#,
        "<Version>3.0.0.1</Version>",
        "download app-1.2.3.4.tar.gz or release-1.2.3.4 (1.2.3.4-beta)",
        "Foo::~Foo() { delete impl; }",
        "git diff HEAD~1 and HEAD~2",
        "approximately ~5 minutes",
        "see https://github.com/acme/app and https://docs.rs/regex",
        "dates 2024-05-01 and isbn 978-3-16-148410-0 and ssn-like 123-45-6789",
        "numbers 200 300 4000 and 123-456-7890",
        "fictional (555) 555-0123 and 212-555-0199",
        "ids 0000.0000.0000 and version 2024.0101.1234",
        r"group Users\maria has no drive, nor does \Users\maria",
        "serial 11-800-555-2671 and build1-800-555-2671",
        "hex 0011.2233.4455.6677 and 10011.2233.4455",
    ] {
        let found = ids(&r, text);
        assert!(found.is_empty(), "{text}: unexpected {found:?}");
    }
}

#[test]
fn off_by_default() {
    let r = Redactor::new(RedactOptions::default());
    let text = "mail maria.garcia@acme-corp.io from 10.20.30.40 in /home/maria";
    let out = r.redact(text);
    assert!(out.findings.is_empty());
    assert_eq!(out.text, text);
}

#[test]
fn replacement_format() {
    let out = private().redact("mail maria.garcia@acme-corp.io now");
    assert_eq!(out.text, "mail [REDACTED:email] now");
    assert_eq!(out.findings[0].line, 1);
}
