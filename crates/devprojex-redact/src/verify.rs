//! Checks that narrow a regex candidate: a rule's `verify` field.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::rules::Verify;

/// The span to redact for a candidate `bytes[start..end]` that passed its rule's filters, or
/// `None` when the check rejects it.
pub(crate) fn check(
    verify: Option<Verify>,
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Option<(usize, usize)> {
    match verify {
        None => Some((start, end)),
        Some(Verify::JwtBase64) => is_base64_jwt(&bytes[start..end]).then_some((start, end)),
        Some(Verify::UserPass) => user_pass(bytes, start, end),
        Some(Verify::NetrcEntry) => netrc_entry(bytes, start).then_some((start, end)),
    }
}

/// Whether `at` is the password of a `.netrc` entry: its line starts the entry (`machine NAME`
/// or `default`), or is `password X` alone below such a line (within three lines).
fn netrc_entry(bytes: &[u8], at: usize) -> bool {
    let starts_entry = |line: &[u8]| {
        line.starts_with(b"machine ")
            || line.starts_with(b"machine\t")
            || line.starts_with(b"default")
    };
    let mut line_start = crate::util::line_start(bytes, at);
    let line = bytes[line_start..crate::util::line_end(bytes, line_start)].trim_ascii_start();
    if starts_entry(line) {
        return true;
    }
    if !line.starts_with(b"password") {
        return false;
    }
    for _ in 0..3 {
        if line_start == 0 {
            return false;
        }
        line_start = crate::util::line_start(bytes, line_start - 1);
        let line = bytes[line_start..crate::util::line_end(bytes, line_start)].trim_ascii_start();
        if starts_entry(line) {
            return true;
        }
    }
    false
}

fn lenient(alphabet: &base64::alphabet::Alphabet) -> GeneralPurpose {
    GeneralPurpose::new(
        alphabet,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    )
}

/// Decode base64 (standard or URL-safe alphabet, padding optional) of at most `limit`
/// characters from the start of `text`.
fn decode_prefix(text: &[u8], limit: usize) -> Option<Vec<u8>> {
    let body: Vec<u8> = text
        .iter()
        .copied()
        .take_while(|&b| b != b'=')
        .take(limit)
        .collect();
    // a prefix of whole quanta decodes on its own
    let whole = if body.len() == text.len() {
        body.len() - body.len() % 4 * usize::from(body.len() % 4 == 1)
    } else {
        body.len() - body.len() % 4
    };
    let body = &body[..whole];
    let url = body.iter().any(|&b| b == b'-' || b == b'_');
    let engine = if url {
        lenient(&base64::alphabet::URL_SAFE)
    } else {
        lenient(&base64::alphabet::STANDARD)
    };
    engine.decode(body).ok()
}

/// Whether `candidate` is base64 of a JSON Web Token: it decodes to `eyJ...` whose first
/// segment is base64url of a JSON object.
fn is_base64_jwt(candidate: &[u8]) -> bool {
    let Some(jwt) = decode_prefix(candidate, 1024) else {
        return false;
    };
    if !jwt.starts_with(b"eyJ") {
        return false;
    }
    let header_end = jwt
        .iter()
        .position(|&b| b == b'.')
        .unwrap_or(jwt.len().min(64));
    let header = &jwt[..header_end];
    if header.len() < 8
        || !header
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
    {
        return false;
    }
    match decode_prefix(header, 64) {
        Some(json) => {
            json.starts_with(b"{\"") && json.iter().all(|b| b.is_ascii_graphic() || *b == b' ')
        }
        None => false,
    }
}

/// `user:password` (parts may be quoted, as in `"user":"pw"` or `kevin:'pw'`): the password,
/// or the user when the password is empty (an API key given as the user, `-u sk_live_...:`).
fn user_pass(bytes: &[u8], mut start: usize, mut end: usize) -> Option<(usize, usize)> {
    // the whole credential in one pair of quotes: "user:pass"
    if end >= start + 2
        && matches!(bytes[start], b'"' | b'\'')
        && bytes[end - 1] == bytes[start]
        && !bytes[start + 1..end - 1].contains(&bytes[start])
    {
        start += 1;
        end -= 1;
    }
    let mut quote = None;
    let mut colon = None;
    for (i, &b) in bytes[start..end].iter().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b':') => {
                colon = Some(start + i);
                break;
            }
            _ => {}
        }
    }
    let colon = colon?;
    let unquote = |s: usize, e: usize| {
        if e >= s + 2 && matches!(bytes[s], b'"' | b'\'') && bytes[e - 1] == bytes[s] {
            (s + 1, e - 1)
        } else {
            (s, e)
        }
    };
    let (ps, pe) = unquote(colon + 1, end);
    let (us, ue) = unquote(start, colon);
    let (s, e) = if pe > ps { (ps, pe) } else { (us, ue) };
    (e >= s + 3).then_some((s, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_jwts() {
        // base64 of "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"
        let b64 = b"ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUl4SW4wLmMybG4=";
        assert!(is_base64_jwt(b64));
        assert!(is_base64_jwt(&b64[..b64.len() - 1]));
        // base64 of "eyJ is not a token" style text
        assert!(!is_base64_jwt(b"ZXlKIGlzIG5vdCBhIHRva2Vu"));
        assert!(!is_base64_jwt(b"SGVsbG8sIHdvcmxkIQ=="));
    }

    #[test]
    fn user_and_password() {
        let t = |s: &str| user_pass(s.as_bytes(), 0, s.len()).map(|(a, b)| s[a..b].to_string());
        assert_eq!(t("deploy:Zq81kPx0").as_deref(), Some("Zq81kPx0"));
        assert_eq!(t("\"j.smith:dB2y#4J\"").as_deref(), Some("dB2y#4J"));
        assert_eq!(t("kevin:'pRf7vG2h'").as_deref(), Some("pRf7vG2h"));
        assert_eq!(t("\"uid\":\"Zq81kPx0\"").as_deref(), Some("Zq81kPx0"));
        assert_eq!(t("sk_live_Zq81kPx0:").as_deref(), Some("sk_live_Zq81kPx0"));
        assert_eq!(t("myusername"), None);
        assert_eq!(t(":"), None);
    }
}
