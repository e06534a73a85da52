//! Kubernetes `Secret` manifests: the values under `data:` (base64) and `stringData:` (plain),
//! in YAML (block mappings, block scalars, quotes, `data:` before or after `kind:`, several
//! documents separated by `---`) and in JSON (`kubectl get secret -o json`).
//!
//! Only `kind: Secret` itself counts (not `ExternalSecret`, `SopsSecret`, `SealedSecret`, whose
//! `data` holds references or ciphertext). Empty values, Helm templates (`{{ ... }}`) and short
//! `data` values (under 10 base64 characters: `YmFyCg==` is "bar") are left alone. Each value is
//! redacted on its own line(s), so the manifest keeps its shape.

/// A value to redact.
pub(crate) struct KubeSpan {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) report: bool,
}

/// Shortest `data:` value redacted (base64 characters).
const MIN_DATA_CHARS: usize = 10;
/// Shortest `stringData:` value redacted.
const MIN_STRING_CHARS: usize = 6;
/// How far from `"kind": "Secret"` a JSON manifest's `data` object is looked for.
const JSON_REACH: usize = 16 * 1024;

/// The YAML document read last, so that each document is read once, however many
/// `kind: Secret` lines it holds (text without `---` separators is one document: reading it
/// again for each marker would cost the square of its length).
#[derive(Default)]
pub(crate) struct Seen {
    /// End of the document read last.
    end: usize,
    /// The deepest `kind:` indentation it was read for (`data:` up to this depth was found).
    indent: usize,
    /// Whether a document was read at all.
    any: bool,
}

/// Find the `kind: Secret` markers in `bytes[start..end]` and the values of their manifests.
/// Calls for the segments of one text share `seen` and come in text order.
pub(crate) fn scan(
    bytes: &[u8],
    start: usize,
    end: usize,
    seen: &mut Seen,
    out: &mut Vec<KubeSpan>,
) {
    let mut pos = start;
    while let Some(i) = find_ci(&bytes[pos..end], b"kind") {
        let at = pos + i;
        pos = at + 4;
        if let Some(indent) = yaml_kind_secret(bytes, at) {
            if seen.any && at <= seen.end && indent <= seen.indent {
                continue; // its document was read for this depth already
            }
            let read_to = yaml_manifest(bytes, at, indent, out);
            let same = seen.any && at <= seen.end;
            seen.indent = if same {
                seen.indent.max(indent)
            } else {
                indent
            };
            seen.end = read_to;
            seen.any = true;
        } else if json_kind_secret(bytes, at) {
            json_manifest(bytes, at, out);
        }
    }
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

fn line_bounds(bytes: &[u8], at: usize) -> (usize, usize) {
    (
        crate::util::line_start(bytes, at),
        crate::util::line_end(bytes, at),
    )
}

fn indent_of(line: &[u8]) -> usize {
    line.iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

fn unquote(v: &[u8]) -> &[u8] {
    match v {
        [q @ (b'"' | b'\''), inner @ .., last] if last == q => inner,
        _ => v,
    }
}

/// `kind: Secret` on a line of its own (quotes allowed): its indentation.
fn yaml_kind_secret(bytes: &[u8], at: usize) -> Option<usize> {
    let (ls, le) = line_bounds(bytes, at);
    let line = &bytes[ls..le];
    let indent = indent_of(line);
    if ls + indent != at {
        return None;
    }
    let rest = line[indent + 4..].strip_prefix(b":")?;
    let value = unquote(strip_comment(rest).trim_ascii());
    value.eq_ignore_ascii_case(b"secret").then_some(indent)
}

/// `"kind": "Secret"` (JSON).
fn json_kind_secret(bytes: &[u8], at: usize) -> bool {
    if at == 0 || bytes[at - 1] != b'"' || bytes.get(at + 4) != Some(&b'"') {
        return false;
    }
    let mut i = skip_ws(bytes, at + 5);
    if bytes.get(i) != Some(&b':') {
        return false;
    }
    i = skip_ws(bytes, i + 1);
    bytes
        .get(i..i + 8)
        .is_some_and(|v| v.eq_ignore_ascii_case(b"\"secret\""))
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn strip_comment(v: &[u8]) -> &[u8] {
    // ` #` starts a comment outside quotes
    let mut quote = None;
    for (i, &b) in v.iter().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            (None, b'#') if i == 0 || v[i - 1].is_ascii_whitespace() => return &v[..i],
            _ => {}
        }
    }
    v
}

/// Whether the `---` at `i` starts a document separator line (only blanks before it).
fn separator_at(bytes: &[u8], i: usize) -> bool {
    bytes[..i]
        .iter()
        .rev()
        .find(|b| !(b.is_ascii_whitespace() && **b != b'\n'))
        .is_none_or(|&b| b == b'\n')
}

/// Where the last `---` in `hay` starts (as `memmem::rfind`, whose reverse search has no vector
/// prefilter and walked whole texts byte by byte): from the last `-` backwards.
fn rfind_dashes(hay: &[u8]) -> Option<usize> {
    memchr::memrchr_iter(b'-', hay)
        .find(|&i| i >= 2 && hay[i - 2] == b'-' && hay[i - 1] == b'-')
        .map(|i| i - 2)
}

/// The lines of the YAML document around `at`: from after the previous `---` line to before
/// the next (substring searches: a document can be the whole text).
fn document(bytes: &[u8], at: usize) -> (usize, usize) {
    let mut s = 0;
    let mut before = crate::util::line_start(bytes, at);
    while let Some(i) = rfind_dashes(&bytes[..before]) {
        if separator_at(bytes, i) {
            s = crate::util::line_end(bytes, i) + 1;
            break;
        }
        before = i + 2; // an earlier `---` may overlap this one (`----`)
    }
    let mut e = bytes.len();
    let mut from = crate::util::line_end(bytes, at);
    while let Some(i) = memchr::memmem::find(&bytes[from..], b"---") {
        let i = from + i;
        if separator_at(bytes, i) {
            e = crate::util::line_start(bytes, i) - 1;
            break;
        }
        from = i + 1;
    }
    (s, e)
}

/// The `data:` / `stringData:` values of the document around `at`; returns the document's end.
/// Only the `data:` lines the document holds and the entries under them are read.
fn yaml_manifest(bytes: &[u8], at: usize, kind_indent: usize, out: &mut Vec<KubeSpan>) -> usize {
    let (ds, de) = document(bytes, at);
    let mut from = ds;
    while from < de {
        let Some(i) = memchr::memmem::find(&bytes[from..de], b"ata:") else {
            break;
        };
        let (ls, le) = line_bounds(bytes, from + i);
        let line = &bytes[ls..le];
        let indent = indent_of(line);
        let body = strip_comment(&line[indent..]).trim_ascii_end();
        let plain = match body {
            b"stringData:" => true,
            b"data:" => false,
            _ => {
                from = le.max(from + i + 4);
                continue;
            }
        };
        from = if indent > kind_indent {
            le
        } else {
            entries(bytes, le + 1, de, indent, plain, out).min(de)
        };
    }
    de
}

/// The entries of a `data:` map whose lines start at `cur`, indented deeper than `indent`, up
/// to `de`; returns the start of the line that ends the map.
fn entries(
    bytes: &[u8],
    mut cur: usize,
    de: usize,
    indent: usize,
    plain: bool,
    out: &mut Vec<KubeSpan>,
) -> usize {
    while cur <= de {
        let cs = cur;
        let ce = crate::util::line_end(bytes, cs).min(de);
        let child = &bytes[cs..ce];
        let ci = indent_of(child);
        let content = child[ci..].trim_ascii_end();
        cur = ce + 1;
        if content.is_empty() || content.starts_with(b"#") {
            continue;
        }
        if ci <= indent {
            return cs;
        }
        let Some(colon) = entry_colon(content) else {
            continue;
        };
        let raw = strip_comment(&content[colon + 1..]);
        let value = raw.trim_ascii();
        let vs = cs + ci + colon + 1 + (raw.len() - raw.trim_ascii_start().len());
        if value.is_empty() || matches!(value[0], b'|' | b'>') {
            // a block scalar: the deeper lines that follow are the value
            let mut first = true;
            while cur <= de {
                let bs = cur;
                let be = crate::util::line_end(bytes, bs).min(de);
                let b = &bytes[bs..be];
                let bi = indent_of(b);
                let text = b[bi..].trim_ascii_end();
                if !text.is_empty() && bi <= ci {
                    break;
                }
                if !text.is_empty() && !text.contains(&b'{') {
                    out.push(KubeSpan {
                        start: bs + bi,
                        end: bs + bi + text.len(),
                        report: first,
                    });
                    first = false;
                }
                cur = be + 1;
            }
            continue;
        }
        push_value(value, vs, plain, out);
    }
    cur
}

/// The `:` that ends an entry's key (`key: value`, `.dockercfg: |`), if this is one.
fn entry_colon(content: &[u8]) -> Option<usize> {
    if content.starts_with(b"-") {
        return None; // a list: not the map of a Secret
    }
    let colon = content.iter().enumerate().position(|(i, &b)| {
        b == b':' && content.get(i + 1).is_none_or(|n| n.is_ascii_whitespace())
    })?;
    let key = unquote(content[..colon].trim_ascii());
    (!key.is_empty()
        && key
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')))
    .then_some(colon)
}

/// Redact one inline value at `vs` (`value` as written, quotes included).
fn push_value(value: &[u8], vs: usize, plain: bool, out: &mut Vec<KubeSpan>) {
    let inner = unquote(value);
    let offset = if inner.len() < value.len() { 1 } else { 0 };
    if inner.is_empty() || crate::util::contains(inner, b"{{") || inner.starts_with(b"$") {
        return;
    }
    let ok = if plain {
        inner.len() >= MIN_STRING_CHARS
    } else {
        inner.len() >= MIN_DATA_CHARS
            && inner
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    };
    if ok && !crate::util::contains_redaction_marker(inner) {
        out.push(KubeSpan {
            start: vs + offset,
            end: vs + offset + inner.len(),
            report: true,
        });
    }
}

/// A JSON manifest: the `data` / `stringData` objects near `"kind": "Secret"`.
fn json_manifest(bytes: &[u8], at: usize, out: &mut Vec<KubeSpan>) {
    let lo = at.saturating_sub(JSON_REACH);
    let hi = (at + JSON_REACH).min(bytes.len());
    for (name, plain) in [(&b"\"data\""[..], false), (&b"\"stringData\""[..], true)] {
        let mut pos = lo;
        while let Some(i) = memchr::memmem::find(&bytes[pos..hi], name) {
            let key_end = pos + i + name.len();
            pos = key_end;
            let mut j = skip_ws(bytes, key_end);
            if bytes.get(j) != Some(&b':') {
                continue;
            }
            j = skip_ws(bytes, j + 1);
            if bytes.get(j) != Some(&b'{') {
                continue;
            }
            json_object(bytes, j + 1, plain, out);
        }
    }
}

/// The string values of a flat JSON object starting after its `{`.
fn json_object(bytes: &[u8], mut i: usize, plain: bool, out: &mut Vec<KubeSpan>) {
    let string_end = |mut k: usize| {
        while k < bytes.len() && bytes[k] != b'"' && bytes[k] != b'\n' {
            k += if bytes[k] == b'\\' { 2 } else { 1 };
        }
        (k < bytes.len() && bytes[k] == b'"').then_some(k)
    };
    loop {
        i = skip_ws(bytes, i);
        while bytes.get(i) == Some(&b',') {
            i = skip_ws(bytes, i + 1);
        }
        if bytes.get(i) != Some(&b'"') {
            return; // `}` or anything that is not a string key
        }
        let Some(ke) = string_end(i + 1) else { return };
        i = skip_ws(bytes, ke + 1);
        if bytes.get(i) != Some(&b':') {
            return;
        }
        i = skip_ws(bytes, i + 1);
        if bytes.get(i) != Some(&b'"') {
            return;
        }
        let Some(ve) = string_end(i + 1) else { return };
        push_value(&bytes[i..=ve], i, plain, out);
        i = ve + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn dashes_are_found_from_the_end_as_memmem_finds_them(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["-", "--", "---", "----", "a", " ", "\n", "-a-"]),
                0..24,
            ),
        ) {
            let text = parts.concat();
            let hay = text.as_bytes();
            for end in 0..=hay.len() {
                proptest::prop_assert_eq!(
                    rfind_dashes(&hay[..end]),
                    memchr::memmem::rfind(&hay[..end], b"---")
                );
            }
        }
    }

    fn values(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        scan(
            text.as_bytes(),
            0,
            text.len(),
            &mut Seen::default(),
            &mut out,
        );
        out.iter()
            .map(|k| text[k.start..k.end].to_string())
            .collect()
    }

    #[test]
    fn yaml_secrets() {
        let doc = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  # base64\n  password: UyFCXCpkJHpEc2I9\n  username: YWRtaW4=\n  cfg: |\n    eyJhdXRocyI6e30K\nstringData:\n  API_KEY: \"q8Fz1LmN0pX7\"\n";
        assert_eq!(
            values(doc),
            ["UyFCXCpkJHpEc2I9", "eyJhdXRocyI6e30K", "q8Fz1LmN0pX7"]
        );
        // data before kind, tabs, quotes
        let doc = "apiVersion: v1\ndata:\n\textra: 'YWRtaW46cGFzc3dvcmQ='\nkind: 'secret'\n";
        assert_eq!(values(doc), ["YWRtaW46cGFzc3dvcmQ="]);
    }

    #[test]
    fn not_secrets() {
        for doc in [
            "kind: ExternalSecret\nspec:\n  data:\n    - secretKey: api-key\n      remoteRef:\n        key: my-secret\n",
            "kind: Secret\ndata:\n  htpasswd: ''\n  csrf: \"\"\n  t: {{ .Values.token }}\n",
            "kind: Secret\nmetadata:\n  name: x\n---\nkind: ConfigMap\ndata:\n  key: c2VjcmV0L215c2VjcmV0\n",
            "kind: secret\ndata:\n\textra: YmFyCg==\n",
        ] {
            assert!(values(doc).is_empty(), "{doc}: {:?}", values(doc));
        }
    }

    #[test]
    fn a_document_is_read_once_for_all_its_markers() {
        // a List of Secrets, and Secrets concatenated without `---`: every value once
        let doc = "kind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  data:\n    a: UyFCXCpkJHpEc2I9\n- apiVersion: v1\n  kind: Secret\n  data:\n    b: eyJhdXRocyI6e30K\n";
        assert_eq!(values(doc), ["UyFCXCpkJHpEc2I9", "eyJhdXRocyI6e30K"]);
        let one = "kind: Secret\ndata:\n  password: UyFCXCpkJHpEc2I9\n";
        assert_eq!(values(&one.repeat(3)).len(), 3);
        // `---` inside a value does not end a document; a `----` line or an indented `---` does
        let doc = "kind: Secret\nmetadata:\n  note: one---two\ndata:\n  a: UyFCXCpkJHpEc2I9\n----\nkind: ConfigMap\ndata:\n  k: c2VjcmV0L215c2VjcmV0\n  --- # next\nkind: Secret\nstringData:\n  t: q8Fz1LmN0pX7\n";
        assert_eq!(values(doc), ["UyFCXCpkJHpEc2I9", "q8Fz1LmN0pX7"]);
        // a deeper marker after a shallower one in the same document adds its own values
        let doc = "kind: Secret\ndata:\n  a: UyFCXCpkJHpEc2I9\nitems:\n  - kind: x\n    kind: Secret\n    data:\n      b: eyJhdXRocyI6e30K\n";
        let mut found = values(doc);
        found.sort();
        found.dedup();
        assert_eq!(found, ["UyFCXCpkJHpEc2I9", "eyJhdXRocyI6e30K"]);
    }

    #[test]
    fn json_secrets() {
        let doc = r#"{"apiVersion": "v1", "data": {"password": "UyFCXCpkJHpEc2I9", "n": "YQ=="}, "kind": "Secret"}"#;
        assert_eq!(values(doc), ["UyFCXCpkJHpEc2I9"]);
    }
}
