//! Scope-aware configuration detection: a value assigned to a secret-looking key is judged by
//! the key and by the value's shape (length, entropy, not a reference, not a placeholder).
//!
//! Forms understood: `.env` / shell (`KEY=value`, `export KEY=value`), YAML (`key: value`), JSON
//! (`"key": "value"`), TOML / INI / properties (`key = value`), XML (`<password>v</password>`,
//! `<add key="Password" value="v"/>`), and source assignments (`const TOKEN = "v"`,
//! `password := "v"`, `api_key: &str = "v"`, `"token" => "v"`, `setPassword("v")`).

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::util;

/// Words that make a key secret-looking, matched in the key with `_ - .` removed, lower-case.
const KEY_WORDS: &[&str] = &[
    "passw",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "authkey",
    "credential",
    "connstr",
    "connectionstr",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "accountkey",
    "licensekey",
    "sessionkey",
    "sharedkey",
    "appkey",
    "clientkey",
    "creds",
    "auth",
];

/// Key words too common to make a key secret-looking on their own: a key whose only secret word
/// is one of these must not also name something else (`author`, `authority`, `authentication`).
const WEAK_KEY_WORDS: &[&str] = &["auth", "creds"];
const WEAK_KEY_EXCLUDED: &[&str] = &[
    "author",
    "authorit",
    "authentic",
    "authoriz",
    "oauth",
    "authn",
    "authz",
    "authmode",
    "authmethod",
    "authtype",
    "authprovider",
    "authenabled",
    "authurl",
];

/// Anchors searched on a candidate line; the key around each anchor is then parsed by hand.
const ANCHORS: &[&str] = &[
    "passw",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "key",
    "credential",
    "conn",
    "creds",
];

/// For each byte: the anchors that start with it in either case (bit `i`: `ANCHORS[i]`).
const ANCHOR_FIRST: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < ANCHORS.len() {
        let first = ANCHORS[i].as_bytes()[0];
        table[first.to_ascii_lowercase() as usize] |= 1 << i;
        table[first.to_ascii_uppercase() as usize] |= 1 << i;
        i += 1;
    }
    table
};

/// Bytes examined per round of [`anchor_matches`].
const ANCHOR_CHUNK: usize = 32;

/// The anchors' first two bytes in lower case. They are ASCII letters (checked here), so
/// `byte | 0x20` folds a text byte's case for the comparison: it maps a byte to a lower-case
/// letter only when the byte is that letter in either case.
const ANCHOR_PAIRS: [[u8; 2]; ANCHORS.len()] = {
    let mut pairs = [[0u8; 2]; ANCHORS.len()];
    let mut i = 0;
    while i < ANCHORS.len() {
        let a = ANCHORS[i].as_bytes();
        assert!(a[0].is_ascii_alphabetic() && a[1].is_ascii_alphabetic());
        pairs[i] = [a[0].to_ascii_lowercase(), a[1].to_ascii_lowercase()];
        i += 1;
    }
    pairs
};

/// Bit `i` set where an anchor's first two bytes start at `window[i]`, for a whole chunk: a
/// fixed number of byte comparisons per byte and no table, which the compiler turns into vector
/// compares, then eight flags at a time gathered into bits by one multiplication.
fn mark_chunk(window: &[u8; ANCHOR_CHUNK + 1]) -> u32 {
    let mut flags = [0u8; ANCHOR_CHUNK];
    for (i, flag) in flags.iter_mut().enumerate() {
        let (a, b) = (window[i] | 0x20, window[i + 1] | 0x20);
        let mut hit = false;
        for [first, second] in ANCHOR_PAIRS {
            hit |= (a == first) & (b == second);
        }
        *flag = u8::from(hit);
    }
    // eight 0/1 bytes -> eight bits: the product puts byte `i`'s bit at bit `56 + i` (the
    // partial products land on distinct bits, so nothing carries into the top byte)
    let mut marked = 0u32;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let eight = u64::from_le_bytes(eight.try_into().expect("eight flags"));
        marked |= u32::from((eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8) << (8 * k);
    }
    marked
}

/// The anchors in `bytes[start..end]` (ASCII case-insensitive), leftmost first and not
/// overlapping, as absolute `(start, end)`: what an Aho-Corasick `find_iter` with
/// `MatchKind::LeftmostFirst` reports on that slice. No anchor is a prefix of another, so at most
/// one starts at any byte. Each round marks, without a branch per byte, the bytes of a chunk
/// where an anchor's first two bytes are (a general automaton, or a branch per byte, costs
/// several times more: the anchors' first letters are common), then checks only those. A chunk
/// may read on past `end` (segments are short lines: a scalar tail would cost as much as the
/// chunks); the marks there are dropped.
fn anchor_matches(bytes: &[u8], start: usize, end: usize) -> impl Iterator<Item = (usize, usize)> {
    let hay = &bytes[..end];
    // `pos`: where the next match may start; `marked`: the candidates of the chunk from `base`
    // not yet checked, as bits; `next`: the first position not yet marked
    let (mut pos, mut base, mut marked, mut next) = (start, start, 0u32, start);
    std::iter::from_fn(move || {
        loop {
            while marked != 0 {
                let at = base + marked.trailing_zeros() as usize;
                marked &= marked - 1;
                if at < pos {
                    continue; // inside the match reported last
                }
                let mut candidates = ANCHOR_FIRST[hay[at] as usize];
                while candidates != 0 {
                    let anchor = ANCHORS[candidates.trailing_zeros() as usize].as_bytes();
                    candidates &= candidates - 1;
                    if hay
                        .get(at..at + anchor.len())
                        .is_some_and(|w| w.eq_ignore_ascii_case(anchor))
                    {
                        pos = at + anchor.len();
                        return Some((at, pos));
                    }
                }
            }
            base = next.max(pos);
            // every anchor is two bytes or more: none starts at the last byte
            if base + 1 >= hay.len() {
                return None;
            }
            next = (base + ANCHOR_CHUNK).min(hay.len() - 1);
            // at the end of the text the chunk is padded with zeros, which match no letter
            let mut padded = [0u8; ANCHOR_CHUNK + 1];
            let window = match bytes.get(base..=base + ANCHOR_CHUNK) {
                Some(window) => window.try_into().expect("a chunk and one byte"),
                None => {
                    let tail = &bytes[base..];
                    padded[..tail.len()].copy_from_slice(tail);
                    &padded
                }
            };
            // the pairs wholly inside the slice start before `next` (`next > base`)
            marked = mark_chunk(window) & (u32::MAX >> (ANCHOR_CHUNK - (next - base)));
        }
    })
}

/// Which generic rule a key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyClass {
    /// password / passwd / pwd / passphrase
    Password,
    /// every other secret word
    Secret,
}

/// A value found by the scope-aware engine: byte range (absolute) and its class.
pub(crate) struct ScopeHit {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) class: KeyClass,
}

/// For each byte: whether it belongs to a key (ASCII letters and digits, `_`, `.`, `-`). A table:
/// the chain of comparisons mispredicted on the `_` and `-` inside keys.
const KEY_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
        b += 1;
    }
    table
};

/// For each byte: whether it ends an unquoted value (ASCII white space, quotes, `,` `;` `)` `}`
/// `]` `<` `>`).
const VALUE_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_whitespace()
            || matches!(
                c,
                b'"' | b'\'' | b'`' | b',' | b';' | b')' | b'}' | b']' | b'<' | b'>'
            );
        b += 1;
    }
    table
};

/// [`VALUE_STOP`] and `&`: the end of a query parameter's value (`?token=...&next=...`).
const QUERY_VALUE_STOP: [bool; 256] = {
    let mut table = VALUE_STOP;
    table[b'&' as usize] = true;
    table
};

fn is_key_byte(b: u8) -> bool {
    KEY_BYTE[b as usize]
}

fn skip_blanks(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Scan whole lines `bytes[start..end]` for secret assignments. `covered` holds the byte ranges
/// provider rules already redact, sorted by start: a value inside one of them needs no
/// judgement (its redaction cannot change), which saves most of the work on lines that hold a
/// recognised credential.
pub(crate) fn scan(
    bytes: &[u8],
    start: usize,
    end: usize,
    covered: &[(usize, usize)],
    out: &mut Vec<ScopeHit>,
) {
    let mut last_key_start = usize::MAX;
    let mut resume = start;
    for (at, _) in anchor_matches(bytes, start, end) {
        if at < resume {
            continue;
        }
        let ls = util::line_start(bytes, at).max(start);
        let le = util::line_end(bytes, at).min(end);
        let mut ks = at;
        while ks > ls && is_key_byte(bytes[ks - 1]) {
            ks -= 1;
        }
        // The rule id in a marker (`[REDACTED:generic-password]`) is not a key: read as one, it
        // would redact on a second pass what the first left (redaction must be idempotent).
        if util::in_marker_id(bytes, ks) {
            continue;
        }
        if ks == last_key_start {
            continue;
        }
        last_key_start = ks;
        let mut ke = at;
        while ke < le && is_key_byte(bytes[ke]) {
            ke += 1;
        }
        let Some(candidate) = parse_at(bytes, ls, le, ks, ke, end) else {
            continue;
        };
        if is_covered(covered, candidate.vs, candidate.ve) {
            resume = candidate.ve;
            continue;
        }
        if let Some(hit) = candidate.judge(bytes) {
            resume = hit.end;
            out.push(hit);
        }
    }
}

/// Whether `[start, end)` lies inside one of the sorted `ranges`.
fn is_covered(ranges: &[(usize, usize)], start: usize, end: usize) -> bool {
    // the last range starting at or before `start`; ranges may nest or overlap, so also look at
    // the widest reach among those before it
    let upto = ranges.partition_point(|&(s, _)| s <= start);
    ranges[..upto].iter().rev().take(8).any(|&(_, e)| e >= end)
}

/// An assignment found by the parser, not yet judged: key `bytes[ks..ke]`, value
/// `bytes[vs..ve]`.
struct Candidate {
    ks: usize,
    ke: usize,
    vs: usize,
    ve: usize,
    ctx: Context,
}

impl Candidate {
    fn judge(&self, bytes: &[u8]) -> Option<ScopeHit> {
        hit(&bytes[self.ks..self.ke], bytes, self.vs, self.ve, self.ctx)
    }
}

/// Parse the assignment whose key is `bytes[ks..ke]` on the line `bytes[ls..le]`.
fn parse_at(
    bytes: &[u8],
    ls: usize,
    le: usize,
    ks: usize,
    ke: usize,
    seg_end: usize,
) -> Option<Candidate> {
    let key = &bytes[ks..ke];
    let before = if ks > ls { bytes[ks - 1] } else { b'\n' };
    // `KeyClass::Password => ...`: the last segment of a path, not a key
    if before == b':' && ks >= ls + 2 && bytes[ks - 2] == b':' {
        return None;
    }
    // XML element: <password>value</password>, or the value alone on the next line
    if before == b'<' {
        let gt = ke + memchr::memchr(b'>', &bytes[ke..le])?;
        if bytes[gt - 1] == b'/' {
            return None;
        }
        let vs = gt + 1;
        if bytes[vs..le].trim_ascii().is_empty() && le < seg_end {
            let next_e = util::line_end(bytes, le + 1).min(seg_end);
            let (vs, ve) = trimmed(bytes, le + 1, next_e);
            let close = util::line_end(bytes, (next_e + 1).min(bytes.len()));
            let closing = bytes.get(next_e + 1..close).map(<[u8]>::trim_ascii);
            if ve > vs && closing.is_some_and(|c| c.starts_with(b"</")) {
                return candidate(ks, ke, vs, ve, Context::literal());
            }
            return None;
        }
        let ve = vs + memchr::memchr(b'<', &bytes[vs..le])?;
        if bytes.get(ve + 1) != Some(&b'/') || ve == vs {
            return None;
        }
        return candidate(ks, ke, vs, ve, Context::literal());
    }
    // a quoted key given to a call with its value: setProperty("KEY", "value"),
    // define('DB_PASSWORD', '...'), GetEnvOrDefault("api_token", "...")
    if matches!(before, b'"' | b'\'') && bytes.get(ke) == Some(&before) {
        let open = bytes[ls..ks - 1].trim_ascii_end();
        if open.ends_with(b"(") {
            let comma = skip_blanks(bytes, ke + 1, le);
            if bytes.get(comma) == Some(&b',') {
                let q = skip_blanks(bytes, comma + 1, le);
                if let Some(&quote @ (b'"' | b'\'')) = bytes.get(q) {
                    let vs = q + 1;
                    let ve = vs + memchr::memchr(quote, &bytes[vs..le])?;
                    let after = skip_blanks(bytes, ve + 1, le);
                    if matches!(bytes.get(after), Some(b')' | b',')) {
                        let ctx = Context {
                            quoted: true,
                            literal_line: false,
                            spaced_sep: false,
                        };
                        return candidate(ks, ke, vs, ve, ctx);
                    }
                }
            }
            return None;
        }
    }
    // XML key/value attributes: key="DbPassword" value="..."
    if matches!(before, b'"' | b'\'') && bytes.get(ke) == Some(&before) {
        let attr = trim(&bytes[ls..ks - 1]);
        let attr = attr.strip_suffix(b"=").map(trim).unwrap_or(b"");
        if attr.ends_with(b"key")
            || attr.ends_with(b"name")
            || attr.ends_with(b"Key")
            || attr.ends_with(b"Name")
        {
            let i = skip_blanks(bytes, ke + 1, le);
            let rest = &bytes[i..le];
            if rest.len() > 6 && rest[..5].eq_ignore_ascii_case(b"value") {
                let j = skip_blanks(bytes, i + 5, le);
                if bytes.get(j) == Some(&b'=') {
                    let q = skip_blanks(bytes, j + 1, le);
                    if let Some(&quote @ (b'"' | b'\'')) = bytes.get(q) {
                        let vs = q + 1;
                        let ve = vs + memchr::memchr(quote, &bytes[vs..le])?;
                        return candidate(ks, ke, vs, ve, Context::literal());
                    }
                }
            }
        }
    }
    // Dockerfile `ENV KEY value` (the legacy form without `=`: the value is the rest of the line)
    let i = skip_blanks(bytes, ke, le);
    if i > ke && i < le && bytes[i] != b'=' && is_dockerfile_env(bytes, ls, ks) {
        let end = rest_of_line_value_end(bytes, i, le);
        let (vs, ve, quoted) = match (bytes[i], bytes[end - 1]) {
            (q @ (b'"' | b'\''), last) if last == q && end - i >= 2 => (i + 1, end - 1, true),
            _ => (i, end, false),
        };
        let ctx = Context {
            quoted,
            literal_line: true,
            spaced_sep: false,
        };
        return candidate(ks, ke, vs, ve, ctx);
    }
    // closing quotes / brackets of the key: "key": / ['key'] = (after blanks where decoded
    // escapes left them: `\"key\": ` reads `  "key  ": `)
    let mut i = ke;
    let after_blanks = skip_blanks(bytes, ke, le);
    if after_blanks > ke && matches!(bytes.get(after_blanks), Some(b'"' | b'\'')) {
        i = after_blanks;
    }
    let mut closers = 0;
    while i < le && closers < 2 && matches!(bytes[i], b'"' | b'\'' | b']') {
        i += 1;
        closers += 1;
    }
    i = skip_blanks(bytes, i, le);
    if i >= le {
        return None;
    }
    // call form: setPassword("value")
    if bytes[i] == b'(' {
        if is_lookup_call(key) {
            return None;
        }
        let q = skip_blanks(bytes, i + 1, le);
        let quote = *bytes.get(q)?;
        if !matches!(quote, b'"' | b'\'') {
            return None;
        }
        let vs = q + 1;
        let ve = vs + memchr::memchr(quote, &bytes[vs..le])?;
        let after = skip_blanks(bytes, ve + 1, le);
        if !matches!(bytes.get(after), Some(b',' | b')')) {
            return None;
        }
        let ctx = Context {
            quoted: true,
            literal_line: false,
            spaced_sep: false,
        };
        return candidate(ks, ke, vs, ve, ctx);
    }
    // separator
    let sep_start = i;
    let rest = &bytes[i..le];
    let mut typed = false;
    let value_at = if rest.starts_with(b":::=") {
        i + 4 // Makefile assignments: `::=`, `:::=`
    } else if rest.starts_with(b"::=") {
        i + 3
    } else if rest.starts_with(b"::") {
        return None;
    } else if rest.starts_with(b":=")
        || rest.starts_with(b"=>")
        || rest.starts_with(b"<-")
        || rest.starts_with(b"?=")
        || rest.starts_with(b".=")
    {
        i + 2
    } else if rest.starts_with(b"??=") || rest.starts_with(b"||=") {
        i + 3
    } else if rest.starts_with(b"==") || rest.starts_with(b"=~") {
        return None;
    } else if rest[0] == b'=' {
        i + 1
    } else if rest[0] == b':' {
        // `key: value`, or a typed declaration `key: Type = value`
        let t = skip_blanks(bytes, i + 1, le);
        let mut j = t;
        while j < le
            && j - t <= 96
            && (bytes[j].is_ascii_alphanumeric()
                || matches!(
                    bytes[j],
                    b'_' | b'&' | b'<' | b'>' | b'[' | b']' | b'\'' | b' '
                ))
        {
            j += 1;
        }
        if j > t && bytes.get(j) == Some(&b'=') && bytes.get(j + 1) != Some(&b'=') {
            typed = true;
            j + 1
        } else {
            i + 1
        }
    } else if let Some(after_type) = typed_declaration(bytes, i, le) {
        // `var token string = "..."` (Go), a type after the name
        typed = true;
        after_type
    } else {
        return None;
    };
    let sep = &bytes[sep_start..value_at];
    let vs0 = skip_blanks(bytes, value_at, le);
    if vs0 >= le {
        return None;
    }
    let first = bytes[vs0];
    // a value written on the lines below: a YAML block scalar (`password: |`), a TOML
    // multi-line string (`password = """`)
    if let Some((vs, ve)) = value_below(bytes, vs0, le, seg_end) {
        let ctx = Context {
            quoted: true,
            literal_line: false,
            spaced_sep: false,
        };
        return candidate(ks, ke, vs, ve, ctx);
    }
    let (mut vs, mut ve, quoted) = if matches!(first, b'"' | b'\'' | b'`') {
        let close = memchr::memchr(first, &bytes[vs0 + 1..le])?;
        // blanks inside the quotes are not part of a secret (nor are decoded escapes)
        let (s, e) = trimmed(bytes, vs0 + 1, vs0 + 1 + close);
        (s, e, true)
    } else {
        let mut e = vs0;
        // a query parameter (`?token=...&next=...`) ends at the next `&`
        let query = matches!(before, b'?' | b'&');
        let stop = if query {
            &QUERY_VALUE_STOP
        } else {
            &VALUE_STOP
        };
        while e < le && !stop[bytes[e] as usize] {
            e += 1;
        }
        if bytes.get(e) == Some(&b'(') {
            return None; // a call: `key = make_secret(...)`
        }
        (vs0, e, false)
    };
    if ve <= vs {
        return None;
    }
    let spaced_sep = bytes[ke..vs0].iter().any(u8::is_ascii_whitespace);
    let sep_trimmed: &[u8] = if typed { b"=" } else { trim(sep) };
    let mut literal_line = !quoted && !typed && is_literal_line(bytes, ls, ks, sep_trimmed);
    if literal_line {
        // A config line: the value is the rest of the line, minus a trailing comment.
        let rest_end = rest_of_line_value_end(bytes, vs, le);
        if rest_end > vs && matches!(bytes[rest_end - 1], b',' | b';' | b'{' | b'(' | b')') {
            // `key: value,` is an object literal or a statement in code, not a config line
            literal_line = false;
        } else {
            ve = rest_end;
            while vs < ve && bytes[vs].is_ascii_whitespace() {
                vs += 1;
            }
        }
    }
    let ctx = Context {
        quoted,
        literal_line,
        spaced_sep,
    };
    candidate(ks, ke, vs, ve, ctx)
}

/// `ENV` before the key: a Dockerfile instruction.
fn is_dockerfile_env(bytes: &[u8], ls: usize, ks: usize) -> bool {
    trim(&bytes[ls..ks]).eq_ignore_ascii_case(b"env")
}

/// The value of a YAML block scalar (`|`, `>`, with chomping and indentation indicators) or of
/// a TOML multi-line string (`"""`, `\'\'\'`) opened at `bytes[vs0..le]`: its first line, the
/// next one (inside the segment `..seg_end`) unless the string starts on this line.
fn value_below(bytes: &[u8], vs0: usize, le: usize, seg_end: usize) -> Option<(usize, usize)> {
    let rest = bytes[vs0..le].trim_ascii_end();
    let block = matches!(rest.first(), Some(b'|' | b'>'))
        && rest[1..]
            .iter()
            .all(|b| matches!(b, b'-' | b'+' | b'1'..=b'9'));
    let triple = [&b"\"\"\""[..], b"'''"]
        .into_iter()
        .find(|q| rest.starts_with(q));
    if !block && triple.is_none() {
        return None;
    }
    // a TOML string may start on the opening line: `"""s3cr3t` or `"""s3cr3t"""`
    if let Some(q) = triple {
        let after = vs0 + 3;
        let end = after + util_find(&bytes[after..le], q).unwrap_or(le - after);
        let (s, e) = trimmed(bytes, after, end);
        if e > s {
            return Some((s, e));
        }
    }
    if le >= seg_end {
        return None;
    }
    let next_e = util::line_end(bytes, le + 1).min(seg_end);
    let mut end = next_e;
    if let Some(q) = triple {
        end = le + 1 + util_find(&bytes[le + 1..next_e], q).unwrap_or(next_e - le - 1);
    }
    let (s, e) = trimmed(bytes, le + 1, end);
    (e > s).then_some((s, e))
}

fn util_find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// `Type = ` after a key (`var token string = "..."`): where the value starts.
fn typed_declaration(bytes: &[u8], i: usize, le: usize) -> Option<usize> {
    let mut j = i;
    while j < le && j - i < 24 && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    if j == i || !bytes[i].is_ascii_alphabetic() {
        return None;
    }
    let eq = skip_blanks(bytes, j, le);
    (eq > j && bytes.get(eq) == Some(&b'=') && bytes.get(eq + 1) != Some(&b'=')).then_some(eq + 1)
}

/// `bytes[s..e]` without surrounding white space.
fn trimmed(bytes: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && bytes[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && bytes[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    (s, e)
}

/// An unjudged candidate (cheap structural checks only).
fn candidate(ks: usize, ke: usize, vs: usize, ve: usize, ctx: Context) -> Option<Candidate> {
    (vs < ve).then_some(Candidate {
        ks,
        ke,
        vs,
        ve,
        ctx,
    })
}

fn hit(key: &[u8], bytes: &[u8], vs: usize, ve: usize, ctx: Context) -> Option<ScopeHit> {
    if vs >= ve {
        return None;
    }
    // `${DB_PASSWORD:default}` (Spring) and `${DB_PASSWORD:-default}` (shell, Compose): the
    // reference is not a secret, the default written after it is
    let (vs, ve, ctx) = match reference_default(&bytes[vs..ve]) {
        Some((s, e)) => (
            vs + s,
            vs + e,
            Context {
                quoted: true,
                ..ctx
            },
        ),
        None => (vs, ve, ctx),
    };
    let v = &bytes[vs..ve];
    // cheap value checks first; the key is classified only for a plausible value
    if v.len() < 6 || (!ctx.quoted && looks_like_code(v, ctx)) {
        return None;
    }
    let class = key_class(key)?;
    let class = judge(class, v, ctx)?;
    Some(ScopeHit {
        start: vs,
        end: ve,
        class,
    })
}

/// The default of `${NAME:default}` / `${NAME:-default}` / `${NAME-default}`, as a range of `v`.
fn reference_default(v: &[u8]) -> Option<(usize, usize)> {
    let inner = v.strip_prefix(b"${")?.strip_suffix(b"}")?;
    let name = inner
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        .count();
    let rest = &inner[name..];
    let skip = if rest.starts_with(b":-") {
        2
    } else if rest.starts_with(b":") || rest.starts_with(b"-") {
        1
    } else {
        return None;
    };
    let start = 2 + name + skip;
    let end = v.len() - 1;
    (name > 0 && end > start && !v[start..end].contains(&b'$')).then_some((start, end))
}

/// `KEY=value` at the start of a line (optionally after `export`, `set`, `ENV`, `- `, ...).
fn is_literal_line(bytes: &[u8], line_begin: usize, key_start: usize, sep: &[u8]) -> bool {
    let prefix = trim(&bytes[line_begin..key_start]);
    let prefix_ok = prefix.is_empty()
        || prefix == b"-"
        || prefix.eq_ignore_ascii_case(b"export")
        || prefix.eq_ignore_ascii_case(b"set")
        || prefix.eq_ignore_ascii_case(b"env")
        || prefix.eq_ignore_ascii_case(b"arg")
        || prefix.eq_ignore_ascii_case(b"$env:");
    if !prefix_ok {
        return false;
    }
    let sep = trim(sep);
    sep == b"=" || sep == b":"
}

fn rest_of_line_value_end(bytes: &[u8], vs: usize, line_stop: usize) -> usize {
    let mut end = line_stop;
    // cut a trailing ` #comment` or ` ;comment`
    let mut i = vs;
    while i + 1 < line_stop {
        if bytes[i].is_ascii_whitespace() && matches!(bytes[i + 1], b'#' | b';') {
            end = i;
            break;
        }
        i += 1;
    }
    while end > vs && bytes[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

fn trim(b: &[u8]) -> &[u8] {
    let s = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let e = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(s, |i| i + 1);
    &b[s..e.max(s)]
}

#[derive(Clone, Copy)]
struct Context {
    quoted: bool,
    literal_line: bool,
    spaced_sep: bool,
}

impl Context {
    /// A literal value (XML text or attribute).
    fn literal() -> Self {
        Context {
            quoted: true,
            literal_line: true,
            spaced_sep: false,
        }
    }
}

fn normalized_key(key: &[u8]) -> Vec<u8> {
    key.iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect()
}

/// Keys whose value names, locates or describes a secret rather than holding one.
const EXCLUDED_KEY_SUFFIXES: &[&str] = &[
    "name",
    "names",
    "id",
    "ids",
    "type",
    "types",
    "url",
    "uri",
    "urls",
    "endpoint",
    "file",
    "filename",
    "path",
    "dir",
    "directory",
    "length",
    "len",
    "size",
    "count",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "expiresin",
    "expiresat",
    "policy",
    "ref",
    "reference",
    "field",
    "header",
    "prefix",
    "suffix",
    "label",
    "version",
    "format",
    "mode",
    "enabled",
    "disabled",
    "required",
    "regex",
    "pattern",
    "min",
    "max",
    "limit",
    "limits",
    "timeout",
    "hint",
    "description",
    "desc",
    "help",
    "title",
    "message",
    "msg",
    "error",
    "errors",
    "usage",
    "tokens",
    "location",
    "provider",
    "source",
    "store",
    "manager",
    "kind",
    "algorithm",
    "alg",
    "method",
    "strategy",
    "scope",
    "scopes",
    "env",
    "var",
    "variable",
    "schema",
    "rotation",
    "lifetime",
    "duration",
    "age",
    "validity",
    "validator",
    "validation",
    "strength",
    "reset",
    "changed",
    "changedat",
    "updatedat",
    "createdat",
    "index",
    "idx",
    "offset",
    "class",
    "style",
    "icon",
    "text",
    "placeholder",
    "count",
    "confirmation",
    "confirm",
    "policy",
    "rules",
    "complexity",
    "resolver",
    "backend",
    "engine",
    "namespace",
    "mount",
    "arn",
    "keyring",
    "bucket",
];

const EXCLUDED_KEY_PARTS: &[&str] = &[
    "tokeniz",
    "public",
    "pagetoken",
    "nexttoken",
    "continuationtoken",
    "synctoken",
    "cursor",
    "tokentype",
    "secretref",
    "secretkeyref",
    "forgot",
    "oldpwd",
    // anti-forgery tokens are public per page
    "csrf",
    "xsrf",
    "authenticity",
    // names of vaults and libraries, not holders of a secret
    "keyvault",
    "jsonwebtoken",
];

fn key_class(key: &[u8]) -> Option<KeyClass> {
    let norm = normalized_key(key);
    if norm.len() > 80 {
        return None;
    }
    static WORDS: OnceLock<AhoCorasick> = OnceLock::new();
    let words = util::word_set(&WORDS, KEY_WORDS);
    let mut strong = false;
    let mut any = false;
    let pwd_word = pwd_is_a_word(key);
    let mut pw = false;
    for m in words.find_iter(&norm) {
        let word = KEY_WORDS[m.pattern().as_usize()];
        if word == "pwd" && !pwd_word {
            continue; // `pwdn`, `gpio_pwdown`, `sm_pwdb`: power-down and signal names
        }
        any = true;
        pw |= matches!(word, "passw" | "pwd" | "passphrase");
        strong |= !WEAK_KEY_WORDS.contains(&word);
    }
    if !any {
        return None;
    }
    if !strong {
        static WEAK: OnceLock<AhoCorasick> = OnceLock::new();
        if util::word_set(&WEAK, WEAK_KEY_EXCLUDED).is_match(&norm) {
            return None;
        }
    }
    static SUFFIXES: OnceLock<AhoCorasick> = OnceLock::new();
    let suffixes = SUFFIXES.get_or_init(|| {
        AhoCorasickBuilder::new()
            .match_kind(MatchKind::Standard)
            .build(EXCLUDED_KEY_SUFFIXES)
            .unwrap_or_else(|e| panic!("built-in key suffixes are invalid: {e}"))
    });
    if suffixes
        .find_overlapping_iter(&norm)
        .any(|m| m.end() == norm.len())
        || {
            static PARTS: OnceLock<AhoCorasick> = OnceLock::new();
            util::word_set(&PARTS, EXCLUDED_KEY_PARTS).is_match(&norm)
        }
    {
        return None;
    }
    Some(if pw {
        KeyClass::Password
    } else {
        KeyClass::Secret
    })
}

/// Whether `pwd` stands as a word of the key (`DB_PWD`, `dbPwd`, `pwd`), not as the start of a
/// longer one (`pwdn`, `PWDOWN`, `undec_sm_pwdb`).
fn pwd_is_a_word(key: &[u8]) -> bool {
    let mut from = 0;
    while let Some(at) = key[from..]
        .windows(3)
        .position(|w| w.eq_ignore_ascii_case(b"pwd"))
    {
        let at = from + at;
        let last = key[at + 2];
        match key.get(at + 3) {
            Some(&next) if next.is_ascii_alphabetic() => {
                // camelCase goes on with an upper-case letter after a lower-case `d`
                if last.is_ascii_lowercase() && next.is_ascii_uppercase() {
                    return true;
                }
            }
            _ => return true,
        }
        from = at + 1;
    }
    false
}

/// Whether a value reads as words, not as a generated secret: an identifier, a dotted path, a
/// package name, a version or a list of numbers (`semanticTokensProvider.full.delta`,
/// `heredoc_redirect_token1`, `CLIENT_TRAFFIC_SECRET_0`, `httpx==0.28.1`, `[62,70,27]`).
///
/// The value is cut into parts at every byte that is not a letter or digit, between letters
/// and digits, and where the case changes as in `camelCase` and `HTTPServer`. Words have
/// parts of three letters or more on average, at most one in three of one or two letters, a
/// vowel in every part of six or more and no run of six consonants; numbers of at most five
/// digits, and at most one of them between two letters (`m2m`, `ipv4Address`). A generated
/// token falls apart into short parts and numbers inside letters (`Zk29fLq81mXa0Pq` is `Zk 29
/// f Lq 81 m Xa 0 Pq`, `zEmEqsuaixjoatynUq9BFTmv` is `z Em Eqsuaixjoatyn Uq 9 BF Tmv`). A value
/// of numbers alone reads as a list or a version when it has two or more.
pub(crate) fn reads_as_words(v: &[u8]) -> bool {
    let (mut parts, mut short, mut letters, mut numbers, mut inner_numbers) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut i = 0;
    while i < v.len() {
        let b = v[i];
        if b.is_ascii_digit() {
            let n = v[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if n > 5 {
                return false;
            }
            numbers += 1;
            let between_letters = i > 0
                && v[i - 1].is_ascii_alphabetic()
                && v.get(i + n).is_some_and(u8::is_ascii_alphabetic);
            inner_numbers += usize::from(between_letters);
            i += n;
        } else if b.is_ascii_alphabetic() {
            // one part: `Word`, `word`, or `WORD` (the last capital of a run starts the next
            // part when a lower-case letter follows it: `HTTPServer`)
            let mut j = i + 1;
            if b.is_ascii_uppercase() && v.get(j).is_some_and(u8::is_ascii_uppercase) {
                while j < v.len() && v[j].is_ascii_uppercase() {
                    j += 1;
                }
                if j < v.len() && v[j].is_ascii_lowercase() && j - i > 1 {
                    j -= 1;
                }
            } else {
                while j < v.len() && v[j].is_ascii_lowercase() {
                    j += 1;
                }
            }
            let part = &v[i..j];
            if part.len() >= 6 && !has_vowel(part) || consonant_run(part) >= 6 {
                return false;
            }
            parts += 1;
            short += usize::from(part.len() <= 2);
            letters += part.len();
            i = j;
        } else {
            i += 1;
        }
    }
    if parts == 0 {
        return numbers >= 2;
    }
    inner_numbers <= 1 && short * 3 <= parts && letters >= 3 * parts
}

fn has_vowel(part: &[u8]) -> bool {
    part.iter().any(|b| {
        matches!(
            b.to_ascii_lowercase(),
            b'a' | b'e' | b'i' | b'o' | b'u' | b'y'
        )
    })
}

fn consonant_run(part: &[u8]) -> usize {
    let (mut run, mut longest) = (0usize, 0usize);
    for b in part {
        run = if has_vowel(std::slice::from_ref(b)) {
            0
        } else {
            run + 1
        };
        longest = longest.max(run);
    }
    longest
}

const PLACEHOLDER_VALUES: &[&str] = &[
    "changeme",
    "change_me",
    "change-me",
    "changeit",
    "password",
    "passwd",
    "secret",
    "token",
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "empty",
    "required",
    "optional",
    "redacted",
    "hidden",
    "masked",
    "todo",
    "tbd",
    "fixme",
    "sample",
    "test",
    "testing",
    "dummy",
    "placeholder",
    "default",
    "string",
    "value",
    "secretkey",
    "apikey",
    "api_key",
    "mypassword",
    "yourpassword",
    "notset",
    "unset",
    "n/a",
    "na",
    "off",
    "on",
    "yes",
    "no",
];

const PLACEHOLDER_PARTS: &[&str] = &[
    "your_",
    "your-",
    "your.",
    "your ",
    "yourtoken",
    "yourkey",
    "yoursecret",
    "yourpassword",
    "changeme",
    "change_me",
    "change-me",
    "replace",
    "placeholder",
    "insert_",
    "insert-",
    "enter_",
    "enter-",
    "_here",
    "-here",
    "xxxx",
    "****",
    "...",
    "\u{2022}",
    "dummy",
    "redacted",
    "notasecret",
    "not-a-secret",
    "not_a_secret",
    "fake",
    "<",
    ">",
    "todo",
    "fixme",
    // documentation values: AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
    "example",
    "####",
];

fn is_placeholder(v: &[u8]) -> bool {
    let lower = v.to_ascii_lowercase();
    if PLACEHOLDER_VALUES.iter().any(|p| lower == p.as_bytes()) {
        return true;
    }
    static PARTS: OnceLock<AhoCorasick> = OnceLock::new();
    if util::word_set(&PARTS, PLACEHOLDER_PARTS).is_match(&lower) {
        return true;
    }
    // one character is at least half of the value: `aaaaaaaa`, `0000000000`
    let mut counts = [0u32; 256];
    for &b in &lower {
        counts[b as usize] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0) as usize;
    // typed, not generated: `abcdefghijklmnopqrstuvwxyz123`
    max * 2 >= lower.len() || util::has_letter_run(v, 10)
}

fn is_reference(v: &[u8]) -> bool {
    let first = v[0];
    let second = v.get(1).copied().unwrap_or(0);
    if first == b'$' && (second.is_ascii_alphabetic() || matches!(second, b'_' | b'{' | b'(')) {
        return true;
    }
    if first == b'%' && (second.is_ascii_alphabetic() || second == b'(') {
        return true;
    }
    if first == b'!' && second.is_ascii_alphabetic() {
        // YAML tags such as CloudFormation `!Ref` / `!Sub`
        return true;
    }
    let lower = v.to_ascii_lowercase();
    const PARTS: &[&str] = &[
        "${",
        "{{",
        "{%",
        "<%",
        "#{",
        "@{",
        "process.env",
        "os.environ",
        "getenv",
        "env(",
        "env[",
        "env.",
        "env::",
        "import.meta",
        "environment.",
        "secrets.",
        "vault:",
        "ref+",
        "arn:aws",
        "op://",
        "keyvault",
        "secretsmanager",
        "ssm:",
        "sm://",
    ];
    static SET: OnceLock<AhoCorasick> = OnceLock::new();
    util::word_set(&SET, PARTS).is_match(&lower)
}

/// Unquoted values that are code: calls, member paths, casts, literals of other types.
fn looks_like_code(v: &[u8], ctx: Context) -> bool {
    if v.contains(&b'(')
        || v.contains(&b'[')
        || matches!(v[0], b'{' | b'&' | b'*' | b'!' | b'@' | b':')
        || util::contains(v, b"::")
        || util::contains(v, b"->")
    {
        return true;
    }
    let ident = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$');
    let is_path = v
        .split(|&b| b == b'.')
        .all(|seg| !seg.is_empty() && seg.iter().all(ident) && !seg[0].is_ascii_digit());
    // a member path, unless a segment is a generated token (`s.ZC9Ecf4M5g9o34Q6RkzGsj0z`, a
    // Vault token; a path's names are words)
    let generated = |seg: &[u8]| {
        seg.len() >= 16
            && seg.iter().any(u8::is_ascii_digit)
            && seg.iter().any(u8::is_ascii_uppercase)
            && seg.iter().any(u8::is_ascii_lowercase)
    };
    if is_path && v.contains(&b'.') && !v.split(|&b| b == b'.').any(generated) {
        return true;
    }
    let random_looking = v.len() >= 16
        && v.iter().any(u8::is_ascii_digit)
        && v.iter().any(u8::is_ascii_uppercase)
        && v.iter().any(u8::is_ascii_lowercase);
    if !ctx.literal_line && !random_looking && (v[0].is_ascii_digit() || v[0] == b'-') {
        return true; // a number literal such as `2150859095u32` or `0x80_u32`
    }
    if v.iter().all(ident) && !random_looking {
        if ctx.literal_line && !ctx.spaced_sep {
            return false; // KEY=value / key: value: a literal
        }
        let has_digit = v.iter().any(u8::is_ascii_digit);
        let has_underscore = v.contains(&b'_');
        if !has_digit || has_underscore {
            return true;
        }
        if !ctx.literal_line {
            // an identifier in code: `userPassword`, `PULONG64`; a mixed value such as
            // `Tr0ub4dor3x` inside a connection string is still judged
            let camel = v
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
            let upper = !v.iter().any(u8::is_ascii_lowercase);
            if camel || upper {
                return true;
            }
        }
    }
    const TYPES: &[&str] = &[
        "str",
        "string",
        "bool",
        "int",
        "number",
        "bytes",
        "secret",
        "secretstr",
    ];
    // the type names are lower-case: no lower-cased copy of the value needed
    TYPES.iter().any(|t| v.eq_ignore_ascii_case(t.as_bytes()))
}

fn is_path(v: &[u8]) -> bool {
    let starts = v.starts_with(b"/")
        || v.starts_with(b"./")
        || v.starts_with(b"../")
        || v.starts_with(b"~/")
        || (v.len() > 2
            && v[0].is_ascii_alphabetic()
            && v[1] == b':'
            && matches!(v[2], b'\\' | b'/'));
    // a path names things: a part of random letters and digits is a base64 value that starts
    // with `/` (`/8/Pztjv...`)
    let generated = v.split(|&b| b == b'/' || b == b'\\').any(|part| {
        part.len() >= 16
            && part.iter().any(u8::is_ascii_digit)
            && part.iter().any(u8::is_ascii_uppercase)
            && part.iter().any(u8::is_ascii_lowercase)
    });
    starts
        && !generated
        && v.iter().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'/' | b'\\' | b'.' | b'_' | b'-' | b':')
        })
        && v.iter().filter(|&&b| b == b'/' || b == b'\\').count() >= 2
}

fn judge(class: KeyClass, v: &[u8], ctx: Context) -> Option<KeyClass> {
    if v.is_empty() || v.len() > 1024 || util::contains_redaction_marker(v) {
        return None;
    }
    if v.iter().any(u8::is_ascii_whitespace) || util::contains(v, b"://") {
        return None;
    }
    // publishable / public keys by well-known prefixes
    if v.starts_with(b"pk_") || v.starts_with(b"pk.") {
        return None;
    }
    if is_reference(v) || is_placeholder(v) || is_path(v) {
        return None;
    }
    if !ctx.quoted && looks_like_code(v, ctx) {
        return None;
    }
    // other secrets are keys and tokens: ten characters or more (as Gitleaks' generic rule)
    let min_len = if class == KeyClass::Password { 6 } else { 10 };
    if v.len() < min_len {
        return None;
    }
    if v.iter().all(u8::is_ascii_digit) {
        return (class == KeyClass::Password).then_some(class);
    }
    // identifiers, paths of names, versions: the shape Gitleaks' generic rule refuses
    if class == KeyClass::Secret && reads_as_words(v) {
        return None;
    }
    let entropy = util::shannon_entropy(v);
    match class {
        KeyClass::Password => (entropy >= 2.0).then_some(class),
        KeyClass::Secret => {
            let wordy = v
                .iter()
                .all(|b| b.is_ascii_alphabetic() || matches!(b, b'-' | b'_' | b'.'));
            if wordy {
                let mixed =
                    v.iter().any(u8::is_ascii_lowercase) && v.iter().any(u8::is_ascii_uppercase);
                return (v.len() >= 20 && mixed && entropy >= 3.8).then_some(class);
            }
            // short values cannot reach a high entropy: scale the bar with the length
            let bar = (v.len() as f64).log2().mul_add(0.75, 0.0).min(3.0);
            (entropy >= bar).then_some(class)
        }
    }
}

fn is_lookup_call(key: &[u8]) -> bool {
    // the method name: the last segment of `user.verify_passwd`
    let name = key.rsplit(|&b| b == b'.').next().unwrap_or(key);
    let lower = name.to_ascii_lowercase();
    [
        "get", "read", "load", "fetch", "lookup", "find", "has", "is", "check", "validate",
        "verify", "remove", "delete", "require", "expect", "assert", "describe", "it", "test",
        "log", "print", "t",
    ]
    .iter()
    .any(|p| lower.starts_with(p.as_bytes()) && lower.len() > p.len())
}

#[cfg(test)]
mod tests {

    /// The anchors as an Aho-Corasick automaton finds them (the scan's first implementation).
    fn anchors_by_automaton(hay: &[u8]) -> Vec<(usize, usize)> {
        aho_corasick::AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(ANCHORS)
            .unwrap()
            .find_iter(hay)
            .map(|m| (m.start(), m.end()))
            .collect()
    }

    #[test]
    fn no_anchor_is_a_prefix_of_another() {
        // `anchor_matches` relies on it: at most one anchor starts at any byte
        assert!(ANCHORS.len() <= 16);
        for (i, a) in ANCHORS.iter().enumerate() {
            for (j, b) in ANCHORS.iter().enumerate() {
                let (a, b) = (a.as_bytes(), b.as_bytes());
                assert!(
                    i == j || b.len() < a.len() || !b[..a.len()].eq_ignore_ascii_case(a),
                    "{i} {j}"
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        #[test]
        fn anchors_are_found_as_the_automaton_finds_them(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "passw", "PASSW", "pass", "passphrase", "PassPhrase", "pwd", "pWd", "secret",
                    "SECRET", "secre", "token", "toke", "key", "KEY", "ke", "credential", "creds",
                    "cred", "conn", "CONN", "con", "p", "s", "t", "k", "c", "w", "d", "_", " ",
                    "=", "\n", "\u{e9}", "\u{ff}",
                ]),
                0..30,
            ),
            cut_start in 0usize..12,
            cut_end in 0usize..40,
        ) {
            let text = parts.concat();
            let bytes = text.as_bytes();
            let found: Vec<(usize, usize)> = anchor_matches(bytes, 0, bytes.len()).collect();
            proptest::prop_assert_eq!(found, anchors_by_automaton(bytes));
            // a slice inside the text, whose chunks read on past its end
            let (start, end) = (cut_start.min(bytes.len()), bytes.len().saturating_sub(cut_end));
            if start <= end {
                let found: Vec<(usize, usize)> = anchor_matches(bytes, start, end).collect();
                let expected: Vec<(usize, usize)> = anchors_by_automaton(&bytes[start..end])
                    .into_iter()
                    .map(|(s, e)| (s + start, e + start))
                    .collect();
                proptest::prop_assert_eq!(found, expected);
            }
        }
    }

    #[test]
    fn anchors_in_real_text_are_found_as_the_automaton_finds_them() {
        for text in [
            include_str!("scope.rs"),
            include_str!("rules.toml"),
            include_str!("lib.rs"),
        ] {
            let bytes = text.as_bytes();
            let found: Vec<(usize, usize)> = anchor_matches(bytes, 0, bytes.len()).collect();
            assert_eq!(found, anchors_by_automaton(bytes));
        }
    }
    use super::*;

    fn hits(s: &str) -> Vec<String> {
        let mut out = Vec::new();
        scan(s.as_bytes(), 0, s.len(), &[], &mut out);
        out.iter().map(|h| s[h.start..h.end].to_string()).collect()
    }

    #[test]
    fn config_forms() {
        assert_eq!(hits("DB_PASSWORD=s3cr3tP4ss"), ["s3cr3tP4ss"]);
        assert_eq!(
            hits("export API_TOKEN=Zk29fLq81mXa0Pq"),
            ["Zk29fLq81mXa0Pq"]
        );
        assert_eq!(hits("  password: hunter2abc"), ["hunter2abc"]);
        assert_eq!(
            hits(r#"{"client_secret": "q8Fz1LmN0pX7wK2e"}"#),
            ["q8Fz1LmN0pX7wK2e"]
        );
        assert_eq!(
            hits(r#"api_key = "q8Fz1LmN0pX7wK2e""#),
            ["q8Fz1LmN0pX7wK2e"]
        );
        assert_eq!(hits("<password>Tr0ub4dor&3</password>"), ["Tr0ub4dor&3"]);
        assert_eq!(
            hits(r#"<add key="DbPassword" value="Tr0ub4dor3x"/>"#),
            ["Tr0ub4dor3x"]
        );
        assert_eq!(
            hits(r#"let api_key: &str = "q8Fz1LmN0pX7wK2e";"#),
            ["q8Fz1LmN0pX7wK2e"]
        );
        assert_eq!(hits(r#"password := "Tr0ub4dor3x""#), ["Tr0ub4dor3x"]);
        assert_eq!(
            hits(r#"conn = "Server=db;User Id=app;Password=Tr0ub4dor3x;""#),
            ["Tr0ub4dor3x"]
        );
    }

    #[test]
    fn references_and_placeholders() {
        for s in [
            "PASSWORD=${DB_PASSWORD}",
            "token: ${{ secrets.GH_TOKEN }}",
            "const token = process.env.API_TOKEN;",
            "password = os.environ['DB_PASSWORD']",
            "api_key: <your-api-key>",
            "password: changeme",
            "secret: xxxxxxxxxxxx",
            "password: '***'",
            "let token = lexer.next_token();",
            "password: userPassword,",
            "token_type: bearer",
            "max_tokens: 4096",
            "secretName: my-app-secrets",
            "password_file: /run/secrets/db_password",
            "fn check(password: &str) -> bool {",
            "token = tokenizer",
        ] {
            assert!(hits(s).is_empty(), "{s}: {:?}", hits(s));
        }
    }
}

#[cfg(test)]
mod covered_tests {
    use super::*;

    #[test]
    fn a_value_inside_a_redacted_range_is_not_judged_again() {
        let line = "api_token = \"Zx81kQp2LmN0vB7cR4tY\"";
        let value = line.find('Z').unwrap();
        let mut out = Vec::new();
        scan(line.as_bytes(), 0, line.len(), &[], &mut out);
        assert_eq!(out.len(), 1, "judged when nothing covers it");
        out.clear();
        scan(
            line.as_bytes(),
            0,
            line.len(),
            &[(value, value + 20)],
            &mut out,
        );
        assert!(
            out.is_empty(),
            "skipped when a provider span covers the value"
        );
        out.clear();
        // a range that covers only part of the value does not count
        scan(
            line.as_bytes(),
            0,
            line.len(),
            &[(value, value + 5)],
            &mut out,
        );
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn covered_looks_back_over_nested_ranges() {
        let ranges = [(0, 100), (10, 20), (30, 40)];
        assert!(is_covered(&ranges, 50, 60));
        assert!(is_covered(&ranges, 12, 18));
        assert!(!is_covered(&ranges, 90, 101));
        assert!(!is_covered(&[], 0, 1));
    }
}
