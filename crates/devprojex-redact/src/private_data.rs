//! Private data (only with `hide_private_data`): e-mail addresses, IPv4 / IPv6 addresses, MAC
//! addresses (colon, dash and Cisco dotted forms), phone numbers (international, and the US
//! national formats), the user name in home-directory paths (`/home/NAME`, `~NAME`), private
//! host names in URLs, and the current machine's user and host name.
//!
//! Code is not mangled: version quads (`AssemblyVersion("1.0.0.0")`, `Version=4.2.2.0`,
//! `release-1.2.3.4`) are not IPv4 addresses; a machine's name joined to one is
//! (`host-10.20.30.40`).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

/// Rule ids of the private-data pass.
pub(crate) mod ids {
    pub(crate) const EMAIL: &str = "email";
    pub(crate) const IPV4: &str = "ipv4";
    pub(crate) const IPV6: &str = "ipv6";
    pub(crate) const MAC: &str = "mac-address";
    pub(crate) const PHONE: &str = "phone-number";
    pub(crate) const HOME_USER: &str = "home-user";
    pub(crate) const USER_NAME: &str = "user-name";
    pub(crate) const HOST_NAME: &str = "host-name";
}

/// A private-data span (absolute byte offsets) and its rule id.
pub(crate) struct DataHit {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) id: &'static str,
}

/// The machine identity hidden by the private-data pass.
///
/// Names shorter than 3 characters and generic account or host names (`root`, `admin`,
/// `runner`, `localhost`, ...) are ignored: hiding them would blank ordinary words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MachineIdentity {
    /// The login name of the current user.
    pub user: Option<String>,
    /// The host name of this machine (the short name is hidden too).
    pub host: Option<String>,
}

impl MachineIdentity {
    /// Read the identity of the current machine once: the user from `USER` / `USERNAME` /
    /// `LOGNAME`, the host from the operating system (`gethostname`), falling back to
    /// `HOSTNAME` / `COMPUTERNAME`.
    pub fn current() -> &'static MachineIdentity {
        static ID: OnceLock<MachineIdentity> = OnceLock::new();
        ID.get_or_init(|| {
            let env = |names: &[&str]| {
                names
                    .iter()
                    .filter_map(|n| std::env::var(n).ok())
                    .map(|v| v.trim().to_string())
                    .find(|v| !v.is_empty())
            };
            let user = env(&["USER", "USERNAME", "LOGNAME"]);
            let host = gethostname::gethostname()
                .into_string()
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .or_else(|| env(&["HOSTNAME", "COMPUTERNAME"]));
            MachineIdentity { user, host }
        })
    }
}

const GENERIC_NAMES: &[&str] = &[
    "root",
    "admin",
    "administrator",
    "user",
    "users",
    "runner",
    "ubuntu",
    "debian",
    "fedora",
    "centos",
    "alpine",
    "ec2-user",
    "localhost",
    "vagrant",
    "docker",
    "guest",
    "build",
    "builder",
    "dev",
    "developer",
    "test",
    "nobody",
    "www-data",
    "default",
    "public",
    "shared",
    "home",
    "local",
    "host",
    "server",
    "computer",
    "machine",
    "worker",
    "node",
    "app",
    "redacted",
    "email",
    "ipv4",
    "ipv6",
    "address",
    "phone",
    "number",
    "name",
    "private",
    "key",
    "secret",
];

fn usable_name(name: &str) -> bool {
    name.len() >= 3
        && name.len() <= 64
        && !GENERIC_NAMES.iter().any(|g| g.eq_ignore_ascii_case(name))
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

struct Patterns {
    email: Regex,
    ipv4: Regex,
    ipv6: Regex,
    /// Anchored (`^`): tried only where a separator sits at its third byte.
    mac: Regex,
    phone: Regex,
    /// Anchored (`^`), each tried only at the starts its separators point to: see `scan`.
    us_phone: [Regex; 3],
    home: Regex,
    home_drive: Regex,
    tilde_home: Regex,
    url_host: Regex,
}

/// MAC addresses, colon and dash forms.
const MAC_PATTERN: &str = r"(?i:[0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5})";
/// US national numbers: `(415) 555-2671`, `415-555-2671`, `415.555.2671`.
const US_PHONE_PATTERNS: [&str; 3] = [
    r"\([2-9][0-9]{2}\) ?[2-9][0-9]{2}[-. ][0-9]{4}",
    r"[2-9][0-9]{2}-[2-9][0-9]{2}-[0-9]{4}",
    r"[2-9][0-9]{2}\.[2-9][0-9]{2}\.[0-9]{4}",
];
/// The `Users\NAME` of `C:\Users\NAME` (the drive is checked by `follows_drive`).
const DRIVE_HOME_PATTERN: &str = r"(?i)users\\{1,2}(?P<name>[^/\\\s'\x22<>:;,|*?`]{1,64})";

fn build(p: &str) -> Regex {
    RegexBuilder::new(p)
        .unicode(false)
        .build()
        .unwrap_or_else(|e| panic!("built-in private-data regex is invalid: {e}"))
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        email: build(r"(?i)[a-z0-9][a-z0-9._%+\-]{0,63}@(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}"),
        ipv4: build(r"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"),
        ipv6: build(r"(?i)[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3})?"),
        // anchored: a pattern that starts with a hexadecimal class is tried at every byte of
        // the text (a tenth of the private-data pass on source text); `scan` tries it only
        // two bytes before each `:` and `-`
        mac: build(&format!("^{MAC_PATTERN}")),
        phone: build(r"\+[1-9][0-9]{0,2}(?:[ .\-]?\(?[0-9]{1,4}\)?){2,6}"),
        // (415) 555-2671, 415-555-2671, 415.555.2671 (area and exchange codes start with 2-9;
        // a `1-` / `1.` before is taken in by `us_phone_start`). One anchored pattern per form,
        // tried only where its separators are (`)` four bytes in, `-` or `.` three and seven
        // bytes in): an unanchored search stops at every `(` and `.` of source code, which was
        // a third of the private-data pass.
        us_phone: US_PHONE_PATTERNS.map(|p| build(&format!("^{p}"))),
        // `/home/NAME`, `/Users/NAME` (also `C:/Users/NAME`); `C:\Users\NAME` is found from its
        // `Users` (`home_drive` and `follows_drive`): a pattern that starts with the drive
        // letter is tried at every letter of the text, ten times slower
        home: build(r"(?i)/(?:home|users)/(?P<name>[^/\\\s'\x22<>:;,|*?`]{1,64})"),
        // anchored: tried only at a `users` before a `\` (a case-insensitive `users` prefix
        // is a Teddy search over all the text)
        home_drive: build(&format!("^{DRIVE_HOME_PATTERN}")),
        tilde_home: build(r"(?:(?m:^)|[\s\x22'=(:,;\[/])~[A-Za-z_][A-Za-z0-9_.\-]{0,31}"),
        url_host: build(r"(?i)\b[a-z][a-z0-9+.\-]{1,15}://(?:[^\s/@'\x22<>]{0,128}@)?[a-z0-9][a-z0-9\-]{0,62}(?:\.[a-z0-9][a-z0-9\-]{0,62}){0,8}"),
    })
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn before(bytes: &[u8], i: usize) -> u8 {
    if i == 0 { b' ' } else { bytes[i - 1] }
}

fn after(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(b' ')
}

const DOC_DOMAINS: &[&str] = &["example.com", "example.org", "example.net"];
const DOC_TLDS: &[&str] = &[
    ".example",
    ".test",
    ".invalid",
    ".localhost",
    ".local",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".svg",
    ".webp",
    ".ico",
    ".js",
    ".mjs",
    ".ts",
    ".css",
    ".json",
    ".map",
    ".txt",
    ".md",
    ".html",
    ".rs",
    ".py",
    ".go",
    ".lock",
    ".toml",
    ".yaml",
    ".yml",
];

fn email_ok(m: &[u8]) -> bool {
    let at = match memchr::memchr(b'@', m) {
        Some(i) => i,
        None => return false,
    };
    let local = &m[..at];
    let domain = m[at + 1..].to_ascii_lowercase();
    if local.eq_ignore_ascii_case(b"git") || local.starts_with(b"[") {
        return false;
    }
    let ends = |s: &str| domain.ends_with(s.as_bytes());
    if DOC_DOMAINS
        .iter()
        .any(|d| domain == d.as_bytes() || ends(&format!(".{d}")))
        || DOC_TLDS.iter().any(|t| ends(t))
    {
        return false;
    }
    // `icon@2x.png`-style asset names
    !(domain.first().is_some_and(u8::is_ascii_digit) && domain.get(1) == Some(&b'x'))
}

/// Whether the dotted numbers at `bytes[s..e]` are a version, not an address: `version` shortly
/// before on the line (`AssemblyVersion("1.0.0.0")`, `Version=4.2.2.0`, `"version": ...`), a
/// name joined by `-` / `_` before (`release-1.2.3.4`), or a pre-release / build suffix after
/// (`1.2.3.4-beta`, `1.2.3.4+sha`).
fn version_context(bytes: &[u8], s: usize, e: usize) -> bool {
    let line_start = memchr::memrchr(b'\n', &bytes[..s]).map_or(0, |i| i + 1);
    let window = &bytes[s.saturating_sub(48).max(line_start)..s];
    let named = window
        .windows(7)
        .any(|w| w.eq_ignore_ascii_case(b"version"));
    let joined = s >= 2
        && matches!(bytes[s - 1], b'-' | b'_')
        && bytes[s - 2].is_ascii_alphanumeric()
        && !names_an_address(&bytes[line_start..s - 1]);
    let a = after(bytes, e);
    let suffixed = a == b'+' || (a == b'-' && after(bytes, e + 1).is_ascii_alphabetic());
    named || joined || suffixed
}

/// Whether the word that ends `before` (the name a `-` / `_` joins to dotted numbers) names a
/// machine or an address (`host-10.20.30.40`, `db-10.0.0.5`): then the numbers are an address,
/// however much the name looks like a release (`release-1.2.3.4`). Leaking an address is worse
/// than hiding a version, so only these words override the joined-name reading.
fn names_an_address(before: &[u8]) -> bool {
    const WORDS: [&str; 16] = [
        "host", "ip", "ipv4", "addr", "address", "server", "srv", "node", "gw", "gateway",
        "router", "proxy", "dns", "db", "vm", "machine",
    ];
    let word_start = before
        .iter()
        .rposition(|b| !b.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1);
    let word = before[word_start..].trim_ascii_end();
    let word = &word[..word
        .iter()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |i| i + 1)];
    WORDS
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w.as_bytes()))
}

/// Whether `at` lies in the `user@` part of a URL (`postgres://app@db.internal`): the token it
/// belongs to holds `://` before it. That is a user and a host, not an e-mail address.
fn in_url_userinfo(bytes: &[u8], at: usize) -> bool {
    let token_start = bytes[..at]
        .iter()
        .rposition(|b| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'<' | b'>'))
        .map_or(0, |i| i + 1);
    memchr::memmem::find(&bytes[token_start..at], b"://").is_some()
}

fn ipv4_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    let a = after(bytes, e);
    if is_word(b) || b == b'.' || is_word(a) || (a == b'.' && after(bytes, e + 1).is_ascii_digit())
    {
        return false;
    }
    if version_context(bytes, s, e) {
        return false;
    }
    let Ok(text) = std::str::from_utf8(&bytes[s..e]) else {
        return false;
    };
    let Ok(ip) = text.parse::<Ipv4Addr>() else {
        return false;
    };
    let o = ip.octets();
    let documentation = matches!(o, [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _]);
    !(ip.is_loopback() || ip.is_unspecified() || ip.is_broadcast() || documentation || o[0] == 255)
}

fn ipv6_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    let a = after(bytes, e);
    if is_word(b) || b == b':' || b == b'.' || is_word(a) || a == b':' {
        return false;
    }
    let cand = &bytes[s..e];
    let groups = cand.split(|&c| c == b':').filter(|g| !g.is_empty()).count();
    let long_group = cand.split(|&c| c == b':').any(|g| g.len() >= 3);
    if groups < 2 || (groups < 3 && !long_group) {
        return false;
    }
    let Ok(text) = std::str::from_utf8(cand) else {
        return false;
    };
    let Ok(ip) = text.parse::<Ipv6Addr>() else {
        return false;
    };
    let seg = ip.segments();
    let documentation =
        (seg[0] == 0x2001 && seg[1] == 0x0db8) || (seg[0] == 0x3fff && seg[1] < 0x1000);
    !(ip.is_loopback() || ip.is_unspecified() || documentation)
}

fn mac_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    let a = after(bytes, e);
    if b.is_ascii_alphanumeric() || matches!(b, b':' | b'-') || a.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(a, b':' | b'-') && after(bytes, e + 1).is_ascii_hexdigit() {
        return false;
    }
    let m = bytes[s..e].to_ascii_lowercase();
    m != b"00:00:00:00:00:00"
        && m != b"ff:ff:ff:ff:ff:ff"
        && m != b"00-00-00-00-00-00"
        && m != b"ff-ff-ff-ff-ff-ff"
}

/// Each colon or dash MAC address (a match of [`MAC_PATTERN`]) as `(start, end)`, in order.
fn mac_matches(p: &Patterns, bytes: &[u8], found: impl FnMut(usize, usize)) {
    // Each candidate start is checked for the bytes every match has before the regex runs: a
    // search call costs more than the checks, and code is full of `::` and `-`.
    let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
    let starts = memchr::memchr2_iter(b':', b'-', bytes)
        .filter(|&i| i >= 2 && hex(i - 2) && hex(i - 1) && hex(i + 1) && hex(i + 2))
        .filter(|&i| bytes.get(i + 3) == Some(&bytes[i]))
        .map(|i| i - 2);
    anchored_matches(&p.mac, bytes, starts, found);
}

/// Each match of the [`US_PHONE_PATTERNS`], form by form, as `(start, end)`.
fn us_phone_matches(p: &Patterns, bytes: &[u8], mut found: impl FnMut(usize, usize)) {
    let digits = |from: usize, n: usize| {
        bytes
            .get(from..from + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    // each form's starts, from its separators at fixed places: `)` four bytes in, `-` or `.`
    // three and seven bytes in
    let separated = |sep: u8| {
        memchr::memchr_iter(sep, bytes)
            .filter(move |&i| i >= 3 && bytes.get(i + 4) == Some(&sep))
            .filter(move |&i| digits(i - 3, 3) && digits(i + 1, 3))
            .map(|i| i - 3)
    };
    let paren = memchr::memchr_iter(b')', bytes)
        .filter(|&i| i >= 4 && bytes[i - 4] == b'(' && digits(i - 3, 3))
        .map(|i| i - 4);
    anchored_matches(&p.us_phone[0], bytes, paren, &mut found);
    anchored_matches(&p.us_phone[1], bytes, separated(b'-'), &mut found);
    anchored_matches(&p.us_phone[2], bytes, separated(b'.'), &mut found);
}

/// The `NAME` spans of `C:\Users\NAME` (and `C:\\Users\\NAME`), in order.
fn drive_home_names(p: &Patterns, bytes: &[u8]) -> Vec<(usize, usize)> {
    // the starts of `users\` after a drive (a name cannot hold a `\`: matches never overlap)
    memchr::memchr_iter(b'\\', bytes)
        .filter_map(|i| i.checked_sub(5))
        .filter(|&s| bytes[s..s + 5].eq_ignore_ascii_case(b"users") && follows_drive(bytes, s))
        .filter_map(|s| {
            let name = p.home_drive.captures(&bytes[s..])?.name("name")?;
            Some((s + name.start(), s + name.end()))
        })
        .collect()
}

/// The leftmost-first, non-overlapping matches of the anchored regex `re` (`^...`), as
/// `find_iter` of the same regex unanchored finds them, given `starts`: ascending, and among
/// them the start of every match. For patterns without look-around whose every match has a
/// separator at a fixed place: the search runs only there, not at every byte of the text.
fn anchored_matches(
    re: &Regex,
    bytes: &[u8],
    starts: impl Iterator<Item = usize>,
    mut found: impl FnMut(usize, usize),
) {
    let mut resume = 0;
    for s in starts {
        if s < resume {
            continue;
        }
        if let Some(m) = re.find(&bytes[s..]) {
            found(s, s + m.end());
            resume = s + m.end();
        }
    }
}

/// Cisco's dotted MAC form, `0011.2233.4455`, found from each `.` (leftmost first, without
/// overlaps, as a regex search finds them): a regex for it reads every byte of the text, and
/// hexadecimal words are everywhere in C.
fn cisco_mac_candidates(bytes: &[u8], mut found: impl FnMut(usize, usize)) {
    let hex4 = |i: usize| {
        bytes
            .get(i..i + 4)
            .is_some_and(|g| g.iter().all(u8::is_ascii_hexdigit))
    };
    let mut resume = 0;
    for dot in memchr::memchr_iter(b'.', bytes) {
        if dot < resume + 4 {
            continue;
        }
        let s = dot - 4;
        if hex4(s) && hex4(dot + 1) && bytes.get(dot + 5) == Some(&b'.') && hex4(dot + 6) {
            found(s, dot + 10);
            resume = dot + 10;
        }
    }
}

/// The start of a US number found at `s`, with the long-distance `1-` / `1.` before it.
fn us_phone_start(bytes: &[u8], s: usize) -> usize {
    if s >= 2 && bytes[s - 2] == b'1' && matches!(bytes[s - 1], b'-' | b'.') {
        s - 2
    } else {
        s
    }
}

/// Whether the `Users` at `at` follows a drive: `C:\Users`, or `C:\\Users` in an escaped string.
fn follows_drive(bytes: &[u8], at: usize) -> bool {
    let Some(head) = bytes[..at].strip_suffix(b"\\") else {
        return false;
    };
    let head = head.strip_suffix(b"\\").unwrap_or(head);
    matches!(head, [.., drive, b':'] if drive.is_ascii_alphabetic())
}

fn cisco_mac_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    let a = after(bytes, e);
    if is_word(b) || matches!(b, b'.' | b':' | b'-') || is_word(a) {
        return false;
    }
    if a == b'.' && after(bytes, e + 1).is_ascii_alphanumeric() {
        return false;
    }
    let m = bytes[s..e].to_ascii_lowercase();
    m != b"0000.0000.0000" && m != b"ffff.ffff.ffff" && !version_context(bytes, s, e)
}

/// A US national number (`(415) 555-2671`, `415-555-2671`, `415.555.2671`) on its own, not
/// inside a longer number, and not one of the 555-01xx numbers reserved for fiction.
fn us_phone_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    let a = after(bytes, e);
    if is_word(b) || matches!(b, b'.' | b'-' | b'+' | b'/') || is_word(a) {
        return false;
    }
    if matches!(a, b'-' | b'.') && after(bytes, e + 1).is_ascii_digit() {
        return false;
    }
    let digits: Vec<u8> = bytes[s..e]
        .iter()
        .copied()
        .filter(u8::is_ascii_digit)
        .collect();
    let n = digits.len();
    !(n >= 7 && &digits[n - 7..n - 4] == b"555" && &digits[n - 4..n - 2] == b"01")
}

/// The user of `~NAME/...` (`cd ~alice`, `https://host/~alice/`): a `/` after the name, or
/// the end of a word for a lower-case name (a C++ destructor `~Foo()` is not a home).
fn tilde_home_ok(bytes: &[u8], name_start: usize, name_end: usize) -> bool {
    let name = &bytes[name_start..name_end];
    let next = after(bytes, name_end);
    let lower = name
        .iter()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'.' | b'-'));
    let ends = next == b'/'
        || (lower && (next.is_ascii_whitespace() || matches!(next, b'"' | b'\'' | b':')));
    let name = std::str::from_utf8(name).unwrap_or("");
    ends && name.len() >= 2 && !GENERIC_NAMES.iter().any(|g| g.eq_ignore_ascii_case(name))
}

/// Labels and suffixes that mark a host as one of a private network.
const PRIVATE_SUFFIXES: &[&str] = &[
    "internal",
    "local",
    "localdomain",
    "lan",
    "corp",
    "home",
    "intranet",
    "intra",
    "private",
    "priv",
];
const PRIVATE_LABELS: &[&str] = &[
    "corp", "internal", "intranet", "intra", "lan", "private", "vpn", "onprem", "on-prem",
];

/// Whether a URL's host names a machine of a private network: a private top-level suffix
/// (`.internal`, `.local`, `.corp`, `.lan`, `.home.arpa`, ...) or a private label in the name
/// (`jira.corp.acme.com`, `git.internal.acme.io`). Public hosts stay: hiding every host would
/// blank the links of a README, and a public host name is not private data.
fn private_host(host: &[u8]) -> bool {
    let h = host.to_ascii_lowercase();
    let labels: Vec<&[u8]> = h.split(|&b| b == b'.').collect();
    if labels.len() < 2 || h.iter().all(|b| b.is_ascii_digit() || *b == b'.') {
        return false;
    }
    let last = std::str::from_utf8(labels[labels.len() - 1]).unwrap_or("");
    if PRIVATE_SUFFIXES.contains(&last) || h.ends_with(b".home.arpa") {
        return true;
    }
    labels[..labels.len() - 1]
        .iter()
        .any(|l| PRIVATE_LABELS.iter().any(|p| p.as_bytes() == *l))
}

fn phone_ok(bytes: &[u8], s: usize, e: usize) -> bool {
    let b = before(bytes, s);
    if is_word(b) || b == b'+' {
        return false;
    }
    let digits = bytes[s..e].iter().filter(|c| c.is_ascii_digit()).count();
    (8..=15).contains(&digits) && !is_word(after(bytes, e))
}

/// Collect private-data spans of `text`.
pub(crate) fn scan(bytes: &[u8], identity_re: Option<&Regex>, out: &mut Vec<DataHit>) {
    let p = patterns();
    let mut push = |s: usize, e: usize, id: &'static str| {
        out.push(DataHit {
            start: s,
            end: e,
            id,
        })
    };
    if memchr::memchr(b'@', bytes).is_some() {
        for m in p.email.find_iter(bytes) {
            if email_ok(m.as_bytes())
                && !is_word(before(bytes, m.start()))
                && !in_url_userinfo(bytes, m.start())
            {
                push(m.start(), m.end(), ids::EMAIL);
            }
        }
    }
    for m in p.ipv4.find_iter(bytes) {
        if ipv4_ok(bytes, m.start(), m.end()) {
            push(m.start(), m.end(), ids::IPV4);
        }
    }
    if memchr::memchr(b':', bytes).is_some() {
        for m in p.ipv6.find_iter(bytes) {
            let (mut s, e) = (m.start(), m.end());
            // a leading single `:` belongs to the text (`host:fe80::1`), keep `::`
            if bytes[s] == b':' && after(bytes, s + 1) != b':' {
                s += 1;
            }
            if e > s && ipv6_ok(bytes, s, e) {
                push(s, e, ids::IPV6);
            }
        }
    }
    mac_matches(p, bytes, |s, e| {
        if mac_ok(bytes, s, e) {
            push(s, e, ids::MAC);
        }
    });
    cisco_mac_candidates(bytes, |s, e| {
        if cisco_mac_ok(bytes, s, e) {
            push(s, e, ids::MAC);
        }
    });
    us_phone_matches(p, bytes, |s, e| {
        let s = us_phone_start(bytes, s);
        if us_phone_ok(bytes, s, e) {
            push(s, e, ids::PHONE);
        }
    });
    if memchr::memchr(b'~', bytes).is_some() {
        // the name follows the match's `~` (a plain search, as for URLs below)
        for m in p.tilde_home.find_iter(bytes) {
            let Some(tilde) = memchr::memchr(b'~', m.as_bytes()) else {
                continue;
            };
            let start = m.start() + tilde + 1;
            let mut end = m.end();
            while end > start && bytes[end - 1] == b'.' {
                end -= 1;
            }
            if tilde_home_ok(bytes, start, end) {
                push(start, end, ids::HOME_USER);
            }
        }
    }
    if memchr::memmem::find(bytes, b"://").is_some() {
        // the host ends the match, after `://` and the `user@` part: a plain search, where
        // reading a group would run the slower capture engine on every URL
        for m in p.url_host.find_iter(bytes) {
            let url = m.as_bytes();
            let Some(scheme_end) = memchr::memmem::find(url, b"://") else {
                continue;
            };
            let authority = scheme_end + 3;
            let host =
                memchr::memchr(b'@', &url[authority..]).map_or(authority, |at| authority + at + 1);
            if private_host(&url[host..]) {
                push(m.start() + host, m.end(), ids::HOST_NAME);
            }
        }
    }
    if memchr::memchr(b'+', bytes).is_some() {
        for m in p.phone.find_iter(bytes) {
            let mut e = m.end();
            while e > m.start() && !bytes[e - 1].is_ascii_digit() {
                e -= 1;
            }
            if phone_ok(bytes, m.start(), e) {
                push(m.start(), e, ids::PHONE);
            }
        }
    }
    let mut home_names: Vec<(usize, usize)> = p
        .home
        .captures_iter(bytes)
        .filter_map(|c| c.name("name").map(|n| (n.start(), n.end())))
        .collect();
    home_names.extend(drive_home_names(p, bytes));
    for (start, end) in home_names {
        let name = &bytes[start..end];
        let generic = ["shared", "public", "default", "all users", "default user"]
            .iter()
            .any(|g| name.eq_ignore_ascii_case(g.as_bytes()));
        let templated = matches!(
            name[0],
            b'[' | b'$' | b'%' | b'{' | b'<' | b'~' | b'*' | b'.'
        );
        if !generic && !templated {
            push(start, end, ids::HOME_USER);
        }
    }
    if let Some(re) = identity_re {
        for c in re.captures_iter(bytes) {
            let m = c.get(0).expect("group 0");
            if is_word(before(bytes, m.start())) || is_word(after(bytes, m.end())) {
                continue;
            }
            let id = if c.name("user").is_some() {
                ids::USER_NAME
            } else {
                ids::HOST_NAME
            };
            push(m.start(), m.end(), id);
        }
    }
}

/// Compile the identity regex (user and host names as whole words), if there is anything to hide.
pub(crate) fn identity_regex(identity: &MachineIdentity) -> Option<Regex> {
    let esc = |s: &str| regex::escape(s);
    let mut hosts = Vec::new();
    if let Some(h) = identity.host.as_deref() {
        if usable_name(h) {
            hosts.push(esc(h));
        }
        if let Some(short) = h.split('.').next()
            && short != h
            && usable_name(short)
        {
            hosts.push(esc(short));
        }
    }
    let user = identity.user.as_deref().filter(|u| usable_name(u)).map(esc);
    // host names first: a user name is often a prefix of the host name (`jdoe` / `jdoe-laptop`)
    let mut alts = Vec::new();
    if !hosts.is_empty() {
        alts.push(format!("(?P<host>{})", hosts.join("|")));
    }
    if let Some(u) = user {
        alts.push(format!("(?P<user>{u})"));
    }
    if alts.is_empty() {
        return None;
    }
    RegexBuilder::new(&format!("(?i){}", alts.join("|")))
        .unicode(false)
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random text dense with near-matches of the anchored patterns: hexadecimal and
    /// decimal digits, their separators, and drive paths.
    fn dense_text(seed: u64, pieces: usize) -> Vec<u8> {
        const PIECES: &[&str] = &[
            "a1:",
            "0F-",
            "9c:",
            "e3-",
            "a1:b2:c3:",
            "d4:E5:f6",
            "0F-1e-2D-",
            "3c-4b-5a",
            "42",
            "7",
            "(415) ",
            "(212)",
            "415-",
            "555-",
            "2671",
            "415.",
            "555.",
            "0101",
            "C:\\Users\\",
            "D:\\\\Users\\\\",
            "Users\\",
            "bob",
            "x",
            " ",
            "\n",
            ".",
            "-",
            ":",
            "(",
            ")",
            "1",
        ];
        let mut state = seed | 1;
        let mut out = Vec::new();
        for _ in 0..pieces {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            out.extend_from_slice(PIECES[(state % PIECES.len() as u64) as usize].as_bytes());
        }
        out
    }

    #[test]
    fn anchored_searches_find_what_the_unanchored_patterns_find() {
        let p = patterns();
        let mac = build(MAC_PATTERN);
        let us: Vec<Regex> = US_PHONE_PATTERNS.iter().map(|s| build(s)).collect();
        let drive = build(DRIVE_HOME_PATTERN);
        let (mut macs, mut phones, mut homes) = (0, 0, 0);
        for seed in 0..1000 {
            let text = dense_text(seed, 400);
            let mut found = Vec::new();
            mac_matches(p, &text, |s, e| found.push((s, e)));
            let expected: Vec<_> = mac.find_iter(&text).map(|m| (m.start(), m.end())).collect();
            assert_eq!(found, expected, "MAC, seed {seed}");
            macs += found.len();

            let mut found = Vec::new();
            us_phone_matches(p, &text, |s, e| found.push((s, e)));
            let expected: Vec<_> = us
                .iter()
                .flat_map(|re| re.find_iter(&text).map(|m| (m.start(), m.end())))
                .collect();
            assert_eq!(found, expected, "US phone, seed {seed}");
            phones += found.len();

            let found = drive_home_names(p, &text);
            let expected: Vec<_> = drive
                .captures_iter(&text)
                .filter(|c| follows_drive(&text, c.get(0).unwrap().start()))
                .map(|c| c.name("name").unwrap())
                .map(|n| (n.start(), n.end()))
                .collect();
            assert_eq!(found, expected, "drive home, seed {seed}");
            homes += found.len();
        }
        // the texts hold many of each, or the comparison proves nothing
        assert!(
            macs > 100 && phones > 100 && homes > 100,
            "{macs} {phones} {homes}"
        );
    }
}
