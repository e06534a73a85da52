//! Deterministic generator for fake credentials, used by the rule examples in `rules.toml`, the
//! labelled corpus under `tests/redaction/` and the benchmarks.
//!
//! Samples are stored as templates so that no credential-shaped literal is ever committed: a
//! placeholder `{{kind:N}}` expands to `N` pseudo-random characters of a class, `{{uuid}}` to a
//! random lowercase UUID. Everything else is copied as is. Kinds:
//!
//! | kind | characters |
//! | --- | --- |
//! | `an` | `A-Za-z0-9` |
//! | `AN` | `A-Z0-9` |
//! | `ln` | `a-z0-9` |
//! | `hex` / `HEX` | `0-9a-f` / `0-9A-F` |
//! | `b64` | `A-Za-z0-9+/` |
//! | `b64u` | `A-Za-z0-9_-` |
//! | `b32` | `A-Z2-7` |
//! | `bech32` | the upper-case bech32 alphabet |
//! | `d` | `0-9` |
//! | `a` / `lo` / `up` | `A-Za-z` / `a-z` / `A-Z` |
//! | `lnx` / `lne` / `lnl` | `a-z0-9_-` / `a-z0-9=_-` / `a-z0-9/=_+-` |
//! | `w` | `A-Za-z0-9_` |
//! | `fill` | filler that looks like minified JavaScript and holds no credential (for long lines) |
//! | `jwt64` / `jwt64u` | base64 (standard, padded / URL-safe, unpadded) of a JWT whose payload holds `N` random characters |
//!
//! `N` is at most 1,048,576. The output depends only on the template and the seed.

/// Expand a template with a seeded pseudo-random generator.
pub fn expand(template: &str, seed: u64) -> String {
    expand_tracked(template, seed).0
}

/// Expand a template and also return every generated piece (the parts a redactor must hide;
/// `fill` filler is not one).
pub fn expand_tracked(template: &str, seed: u64) -> (String, Vec<String>) {
    let mut rng = SplitMix(seed ^ fnv(template.as_bytes()));
    let mut out = String::with_capacity(template.len() + 32);
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        let spec = &after[..close];
        if let Some(piece) = generate(spec, &mut rng) {
            out.push_str(&rest[..open]);
            out.push_str(&piece);
            // filler is the text around a secret, not a secret
            if !spec.starts_with("fill:") {
                pieces.push(piece);
            }
            rest = &after[close + 2..];
        } else {
            out.push_str(&rest[..open + 2]);
            rest = after;
        }
    }
    out.push_str(rest);
    (out, pieces)
}

fn generate(spec: &str, rng: &mut SplitMix) -> Option<String> {
    if spec == "uuid" {
        let h = |rng: &mut SplitMix, n: usize| pick(rng, b"0123456789abcdef", n);
        return Some(format!(
            "{}-{}-4{}-a{}-{}",
            h(rng, 8),
            h(rng, 4),
            h(rng, 3),
            h(rng, 3),
            h(rng, 12)
        ));
    }
    let (kind, n) = spec.split_once(':')?;
    let n: usize = n.parse().ok().filter(|&n| n > 0 && n <= MAX_PIECE)?;
    if kind == "fill" {
        return Some(filler(n));
    }
    if kind == "jwt64" || kind == "jwt64u" {
        return Some(base64_jwt(rng, n, kind == "jwt64u"));
    }
    let alphabet: &[u8] = match kind {
        "an" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "AN" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        "ln" => b"abcdefghijklmnopqrstuvwxyz0123456789",
        "hex" => b"0123456789abcdef",
        "HEX" => b"0123456789ABCDEF",
        "b64" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        "b64u" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
        "b32" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
        "bech32" => b"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
        "d" => b"0123456789",
        "a" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        "lo" => b"abcdefghijklmnopqrstuvwxyz",
        "up" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "lnx" => b"abcdefghijklmnopqrstuvwxyz0123456789_-",
        "lne" => b"abcdefghijklmnopqrstuvwxyz0123456789=_-",
        "lnl" => b"abcdefghijklmnopqrstuvwxyz0123456789/=_+-",
        "w" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_",
        _ => return None,
    };
    Some(pick(rng, alphabet, n))
}

/// The largest `N` of a placeholder.
const MAX_PIECE: usize = 1 << 20;

/// `n` bytes of code-like filler without any rule keyword: what a minified bundle looks like
/// between the interesting parts.
fn filler(n: usize) -> String {
    const CHUNK: &str = "function(e,t){return e+t*2},n.prototype.map=function(o){return o?o.x:0};";
    let mut out = String::with_capacity(n + CHUNK.len());
    while out.len() < n {
        out.push_str(CHUNK);
    }
    out.truncate(n);
    out
}

/// Base64 of a JSON Web Token with a random header parameter and `n` random payload characters.
fn base64_jwt(rng: &mut SplitMix, n: usize, url: bool) -> String {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    const HEADERS: [&str; 6] = ["alg", "typ", "kid", "iss", "enc", "x5t"];
    let an = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let param = HEADERS[(rng.next() % HEADERS.len() as u64) as usize];
    let header = format!("{{\"{param}\":\"{}\",\"typ\":\"JWT\"}}", pick(rng, an, 8));
    let payload = format!("{{\"sub\":\"{}\"}}", pick(rng, an, n));
    let sig = pick(
        rng,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
        43,
    );
    let jwt = format!(
        "{}.{}.{sig}",
        URL_SAFE_NO_PAD.encode(header),
        URL_SAFE_NO_PAD.encode(payload)
    );
    if url {
        URL_SAFE_NO_PAD.encode(jwt)
    } else {
        STANDARD.encode(jwt)
    }
}

fn pick(rng: &mut SplitMix, alphabet: &[u8], n: usize) -> String {
    // Avoid runs and ascending sequences that the placeholder allowlists would (rightly) skip.
    let mut out: Vec<u8> = Vec::with_capacity(n);
    while out.len() < n {
        let c = alphabet[(rng.next() % alphabet.len() as u64) as usize];
        let len = out.len();
        if len >= 1 && (out[len - 1] == c || out[len - 1].wrapping_add(1) == c) {
            continue;
        }
        out.push(c);
    }
    String::from_utf8(out).expect("ASCII alphabet")
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_shaped() {
        let a = expand("ghp_{{an:36}}", 1);
        assert_eq!(a, expand("ghp_{{an:36}}", 1));
        assert_eq!(a.len(), 40);
        assert!(a.starts_with("ghp_"));
        assert_eq!(expand("${{ secrets.X }}", 1), "${{ secrets.X }}");
        assert_eq!(expand("{{uuid}}", 3).len(), 36);
        assert!(expand("{{jwt64:40}}", 1).starts_with("ZXlK"));
        let long = expand("x{{fill:70000}}y", 1);
        assert_eq!(long.len(), 70002);
        assert!(!long.contains('\n'));
        assert!(
            expand("{{lnx:500}}", 2)
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
        );
    }
}
