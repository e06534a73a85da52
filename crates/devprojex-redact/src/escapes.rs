//! Layers of escaping that hide a token: views of the text with the layers decoded, mapped back
//! byte by byte.
//!
//! A token right after `\n` in a JSON string (`"...\nAKIA..."`) is not where the rules expect
//! it: the `n` is a word character. Real files nest such layers: JSON inside a JSON string
//! writes that newline `\\n` or `\\\\n` (Terraform state, CloudFormation outputs, logged JSON),
//! a URL inside a URL writes `=` as `%253D`, CI logs colour a token with ANSI escape sequences,
//! and a token can be spelled entirely as `\u0067\u0068\u0070...`.
//!
//! So a region that holds such a layer is decoded into a *view*: every escape sequence becomes
//! the byte it stands for, round after round until nothing decodes (a layer of escaping per
//! round), and each byte of the view remembers the bytes of the region it came from. The
//! rules run on the view, and each span they find there is mapped back to the original bytes
//! it was decoded from: the redacted text is the original with only the secret's bytes
//! replaced (the escapes of a token spelled as escapes included), and the escapes around it
//! stay.
//!
//! Decoded, at any depth:
//! - backslash escapes `\n \r \t \" \' \/ \\`, `\uXXXX`, `\xXX` and `\0oo` of ASCII code
//!   points, one layer per round (`\\n` is `\n` after one round and a newline after two: JSON
//!   in a JSON string; `\\\\n`: three levels), so a run of any number of backslashes before
//!   `n`, `r`, `t` ends in a line break or a tab, and a continuation `\` of an escaped shell
//!   command stays one;
//! - percent-encoding of ASCII bytes, behind any number of `25` (`%3D`, `%253D`, `%25253D`);
//! - HTML character references of ASCII characters (`&quot;`, `&#34;`, `&#x2F;`, `&amp;quot;`);
//! - ANSI escape sequences (CSI such as the SGR colours `ESC[33m`, OSC, two-byte escapes),
//!   which become one blank inside a line (a terminal shows nothing there, and a blank keeps
//!   two words apart) and nothing at its start or end (a coloured line keeps the `\` that
//!   continues it).
//!
//! Not decoded: escapes of non-ASCII code points (no token is made of them; they stay as
//! written), and anything that is not an escape of text (encryption, compression, custom
//! encodings). Base64 payloads are read by `encoded.rs`.

/// The most rounds of decoding, a layer of escaping each: JSON in a JSON string in a JSON
/// string writes a newline `\\\\n`, one round per level; `\u0025` of `%3D` takes two. (A run
/// of `%25` is one round whatever its length.)
const MAX_ROUNDS: usize = 8;

/// A decoded copy of a region, and where each of its bytes came from.
pub(crate) struct View {
    /// The decoded bytes (UTF-8 whenever the region was: only ASCII escapes are decoded, each
    /// into one ASCII byte).
    pub(crate) bytes: Vec<u8>,
    /// For each byte of `bytes`: the range of region bytes it was decoded from.
    from: Vec<(u32, u32)>,
}

impl View {
    /// The region's bytes that the view's bytes `start..end` were decoded from (`end > start`).
    pub(crate) fn source(&self, start: usize, end: usize) -> (usize, usize) {
        (
            self.from[start].0 as usize,
            self.from[end.max(start + 1) - 1].1 as usize,
        )
    }
}

/// Decode every layer of `region`; `None` when it holds no escape.
pub(crate) fn view(region: &[u8]) -> Option<View> {
    // regions are segments of the keyword pass or lines: far below 4 GiB
    let _ = u32::try_from(region.len()).ok()?;
    let (mut bytes, mut from) = decode_round(region)?;
    for _ in 1..MAX_ROUNDS {
        let Some((next, local)) = decode_round(&bytes) else {
            break;
        };
        from = local
            .iter()
            .map(|&(s, e)| (from[s as usize].0, from[e as usize - 1].1))
            .collect();
        bytes = next;
    }
    Some(View { bytes, from })
}

/// Whether decoding `region` can change what the rules see, judged at `starts` (in order: the
/// offsets of its `\\`, `%`, `&` and ESC bytes): an ANSI escape sequence, an escape
/// that decodes to anything but white space (a quote, a delimiter, a letter of a token), or
/// white space decoded right before a word byte (`\nAKIA...`, `\\r\\nsk_live_...`). A
/// newline escape at the end of a string (`println!("done\n")`) changes nothing.
pub(crate) fn worth_a_view(region: &[u8], starts: impl Iterator<Item = usize>) -> bool {
    let mut skip_to = 0;
    for i in starts {
        if i < skip_to {
            continue;
        }
        if region[i] == 0x1b {
            return true;
        }
        // a run of backslashes is judged by the escape it ends in, which the rounds reach
        let at = match region[i] {
            b'\\' => i + region[i..].iter().take_while(|&&b| b == b'\\').count() - 1,
            _ => i,
        };
        skip_to = at + 1;
        if let Some((len, byte)) = escape_at(region, at)
            && (!byte.is_ascii_whitespace() || region.get(at + len).is_some_and(|&b| word(b)))
        {
            return true;
        }
    }
    false
}

fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Bytes that can start an escape.
const STARTS_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    table[b'\\' as usize] = true;
    table[b'%' as usize] = true;
    table[b'&' as usize] = true;
    table[0x1b] = true;
    table
};

/// Decoded bytes, and for each the range of input bytes it came from.
type Decoded = (Vec<u8>, Vec<(u32, u32)>);

/// One round: every escape of `input` decoded once (a run of backslashes or of `%25` counts
/// as one escape). The decoded bytes and, for each, the input range it came from; `None` when
/// nothing decodes.
fn decode_round(input: &[u8]) -> Option<Decoded> {
    let mut out: Option<Decoded> = None;
    let mut copied = 0; // input bytes before this are in `out`
    // the blanks of ANSI sequences at the end of the output so far: a line break after them
    // (written plainly, or an escape decoded in this round: `ESC[0m&#10;`, `ESC[0mESC[K\n`)
    // makes them the edge of a line, which is nothing
    let mut ansi_tail = 0;
    let mut i = 0;
    while i < input.len() {
        if !STARTS_ESCAPE[input[i] as usize] {
            i += 1;
            continue;
        }
        let Some((len, byte)) = escape_at(input, i) else {
            i += 1;
            continue;
        };
        let (bytes, from) = out.get_or_insert_with(|| {
            (
                Vec::with_capacity(input.len()),
                Vec::with_capacity(input.len()),
            )
        });
        if copied < i {
            drop_blanks_before_break(input[copied], &mut ansi_tail, bytes, from);
        }
        copy_plain(input, copied, i, bytes, from);
        if input[i] == 0x1b {
            // an ANSI sequence at the edge of a line is nothing (a coloured line still ends
            // in the `\` that continues it); inside a line it keeps two words apart
            if bytes.last().is_some_and(|&b| b != b'\n') {
                bytes.push(byte);
                from.push((i as u32, (i + len) as u32));
                ansi_tail += 1;
            }
        } else {
            drop_blanks_before_break(byte, &mut ansi_tail, bytes, from);
            bytes.push(byte);
            from.push((i as u32, (i + len) as u32));
        }
        i += len;
        copied = i;
    }
    let (mut bytes, mut from) = out?;
    let next = input.get(copied).copied().unwrap_or(b'\n');
    drop_blanks_before_break(next, &mut ansi_tail, &mut bytes, &mut from);
    copy_plain(input, copied, input.len(), &mut bytes, &mut from);
    Some((bytes, from))
}

/// Before `next` (not an ANSI blank) is written: the `ansi_tail` blanks at the end of `bytes`
/// are removed when `next` breaks the line, and none are at the end any more.
fn drop_blanks_before_break(
    next: u8,
    ansi_tail: &mut usize,
    bytes: &mut Vec<u8>,
    from: &mut Vec<(u32, u32)>,
) {
    if matches!(next, b'\n' | b'\r') {
        bytes.truncate(bytes.len() - *ansi_tail);
        from.truncate(from.len() - *ansi_tail);
    }
    *ansi_tail = 0;
}

/// Copy `input[start..end]` as it is, each byte from itself.
fn copy_plain(
    input: &[u8],
    start: usize,
    end: usize,
    bytes: &mut Vec<u8>,
    from: &mut Vec<(u32, u32)>,
) {
    bytes.extend_from_slice(&input[start..end]);
    from.extend((start..end).map(|at| (at as u32, at as u32 + 1)));
}

/// The escape at `input[i]`, if it is one we decode: (its length, the byte it stands for).
fn escape_at(input: &[u8], i: usize) -> Option<(usize, u8)> {
    match input[i] {
        0x1b => Some((ansi_len(input, i), b' ')),
        // one layer: `\\` is a backslash (`\\\\n` reads `\\n` after this round, a newline after
        // the next one), `\n` a newline
        b'\\' if input.get(i + 1) == Some(&b'\\') => Some((2, b'\\')),
        b'\\' => backslash_escape(input, i + 1).map(|(len, byte)| (len + 1, byte)),
        b'%' => {
            // `%25` encodes `%`: `%253D` is `%3D` encoded once more (read as one escape when
            // what follows `%25` is an escape itself)
            let mut j = i + 1;
            loop {
                let byte = ascii(hex_byte(input.get(j..j + 2)?)?)?;
                let deeper = byte == b'%'
                    && input
                        .get(j + 2..j + 4)
                        .and_then(hex_byte)
                        .and_then(ascii)
                        .is_some();
                if !deeper {
                    return Some((j + 2 - i, byte));
                }
                j += 2;
            }
        }
        b'&' => {
            // `&amp;` encodes `&`: `&amp;quot;` is `&quot;` encoded once more
            let mut j = i + 1;
            loop {
                let (len, byte) = entity(&input[j..])?;
                if byte == b'&' && entity(&input[j + len..]).is_some() {
                    j += len;
                    continue;
                }
                return Some((j + len - i, byte));
            }
        }
        _ => None,
    }
}

/// The escape whose letter is at `input[j]` (after its backslashes): (length from `j`, byte).
fn backslash_escape(input: &[u8], j: usize) -> Option<(usize, u8)> {
    Some(match *input.get(j)? {
        b'n' => (1, b'\n'),
        b'r' => (1, b'\r'),
        b't' => (1, b'\t'),
        b'"' => (1, b'"'),
        b'\'' => (1, b'\''),
        b'/' => (1, b'/'),
        b'u' => {
            let hex = input.get(j + 1..j + 5)?;
            if !hex.starts_with(b"00") {
                return None;
            }
            (5, ascii(hex_byte(&hex[2..])?)?)
        }
        b'x' => (3, ascii(hex_byte(input.get(j + 1..j + 3)?)?)?),
        b'0' => {
            // `\033`, `\012`: two octal digits after the zero
            let (a, b) = (*input.get(j + 1)?, *input.get(j + 2)?);
            if !(b'0'..=b'7').contains(&a) || !(b'0'..=b'7').contains(&b) {
                return None;
            }
            (3, ascii((a - b'0') * 8 + (b - b'0'))?)
        }
        _ => return None,
    })
}

/// Whether `rest` (after an `&`) can start a character reference that [`entity`] reads: up to
/// eight letters, digits or `#`, then `;`. `&mut self`, `&str)`, `a && b` cannot, and they are
/// nearly every `&` of source code.
pub(crate) fn may_be_reference(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take(9)
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'#')
        .count();
    name <= 8 && rest.get(name) == Some(&b';')
}

/// An HTML character reference of an ASCII character at the start of `rest` (after its `&`):
/// (its length, the byte). A reference ends in `;` within a few bytes, which `&mut`, `&str` and
/// `a && b` never do: those cost one short search.
fn entity(rest: &[u8]) -> Option<(usize, u8)> {
    let semi = rest.iter().take(9).position(|&b| b == b';')?;
    let byte = match &rest[..semi] {
        b"quot" => b'"',
        b"apos" => b'\'',
        b"amp" => b'&',
        b"lt" => b'<',
        b"gt" => b'>',
        b"sol" => b'/',
        b"colon" => b':',
        b"equals" => b'=',
        b"semi" => b';',
        b"comma" => b',',
        b"period" => b'.',
        b"lowbar" => b'_',
        b"hyphen" => b'-',
        b"nbsp" => b' ',
        b"Tab" => b'\t',
        b"NewLine" => b'\n',
        b"num" => b'#',
        [b'#', b'x' | b'X', hex @ ..] if !hex.is_empty() => ascii(
            u8::try_from(u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?).ok()?,
        )?,
        [b'#', dec @ ..] if !dec.is_empty() && dec.iter().all(u8::is_ascii_digit) => {
            ascii(u8::try_from(std::str::from_utf8(dec).ok()?.parse::<u32>().ok()?).ok()?)?
        }
        _ => return None,
    };
    Some((semi + 1, byte))
}

/// The length of the ANSI escape sequence at `input[i]` (an ESC byte): a CSI sequence
/// (`ESC [` parameters, intermediates, a final byte), an OSC string (`ESC ]` to BEL or
/// `ESC \`), a two-byte escape, or the ESC alone. An ESC before a redaction marker is alone:
/// read as `ESC [R`, it would leave `EDACTED:stripe-secret-key]` in the view, a key a second
/// pass reads where the first read none.
fn ansi_len(input: &[u8], i: usize) -> usize {
    match input.get(i + 1) {
        Some(b'[') if input[i + 1..].starts_with(b"[REDACTED:") => 1,
        Some(b'[') => {
            let mut j = i + 2;
            while j < input.len() && (0x30..=0x3f).contains(&input[j]) {
                j += 1;
            }
            while j < input.len() && (0x20..=0x2f).contains(&input[j]) {
                j += 1;
            }
            if j < input.len() && (0x40..=0x7e).contains(&input[j]) {
                j += 1;
            }
            j - i
        }
        Some(b']') => {
            let end = (i + 512).min(input.len());
            let body = &input[i + 2..end];
            match memchr::memchr2(0x07, 0x1b, body) {
                Some(k) if body[k] == 0x07 => k + 3,
                Some(k) if body.get(k + 1) == Some(&b'\\') => k + 4,
                _ => 2,
            }
        }
        Some(0x40..=0x5f) => 2,
        _ => 1,
    }
}

/// `byte` when it is ASCII and not NUL (a NUL is never text).
fn ascii(byte: u8) -> Option<u8> {
    (byte != 0 && byte < 0x80).then_some(byte)
}

fn hex_byte(h: &[u8]) -> Option<u8> {
    let digit = |c: u8| (c as char).to_digit(16);
    Some((digit(*h.first()?)? * 16 + digit(*h.get(1)?)?) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_passes_the_prefilter() {
        for rest in [
            "amp;",
            "quot;x",
            "#x41;",
            "#65;",
            "NewLine;",
            "equals;",
            "#x000041;",
            "mut self",
            "str)",
            "& b",
            "name).await?;",
            "amp",
            "#;",
            "verylongname;",
        ] {
            if entity(rest.as_bytes()).is_some() {
                assert!(may_be_reference(rest.as_bytes()), "{rest}");
            }
        }
        assert!(may_be_reference(b"amp;quot;"));
        assert!(!may_be_reference(b"name).await?;"));
        assert!(!may_be_reference(b"mut self"));
    }

    fn decoded(s: &str) -> String {
        match view(s.as_bytes()) {
            Some(v) => String::from_utf8(v.bytes).unwrap(),
            None => s.to_string(),
        }
    }

    #[test]
    fn every_layer_decodes_to_its_byte() {
        assert_eq!(decoded(r#""a\nAKIA""#), "\"a\nAKIA\"");
        assert_eq!(decoded(r#"{\"k\":\"v\"}"#), r#"{"k":"v"}"#);
        assert_eq!(
            decoded(r"x\\nA x\\\\nB x\\\\\\\\r\\\\\\\\nC"),
            "x\nA x\nB x\r\nC"
        );
        assert_eq!(decoded(r"\u005cnA \u002FB \x0aC \033[1mD"), "\nA /B \nC  D");
        assert_eq!(decoded("token%3Dx%253Dy%25253Dz%2F"), "token=x=y=z/");
        assert_eq!(
            decoded("a&quot;b&#34;c&#x2F;d&amp;quot;e&amp;amp;lt;"),
            "a\"b\"c/d\"e<"
        );
        assert_eq!(
            decoded("\u{1b}[33mghp\u{1b}[0m \u{1b}]8;;u\u{7}x"),
            "ghp   x"
        );
        assert_eq!(
            decoded("\u{1b}[33mcurl \\\u{1b}[0m\n\u{1b}[33m -u\u{1b}[0m"),
            "curl \\\n -u"
        );
        // a line break decoded in the same round, or after a run of sequences, still makes
        // the colour before it the edge of the line: the `\\` goes on continuing it
        assert_eq!(
            decoded("\u{1b}[33mcurl \\\u{1b}[0m&#10;\u{1b}[33m -u x\u{1b}[0m"),
            "curl \\\n -u x"
        );
        assert_eq!(
            decoded("curl \\\u{1b}[0m\u{1b}[K\r\n -u\u{1b}[0m\u{1b}[K"),
            "curl \\\r\n -u"
        );
        assert_eq!(decoded("a\u{1b}[0m\u{1b}[Kb"), "a  b");
        assert_eq!(
            decoded(r"\u0067\u0068\u0070\u005f"),
            "ghp_",
            "a token spelled as escapes"
        );
        // non-ASCII code points, NUL, and what is not an escape stay as written
        assert_eq!(
            decoded(r"\u00e9 \u4e00 %C3%A9 \x00 50% a&b \q"),
            r"\u00e9 \u4e00 %C3%A9 \x00 50% a&b \q"
        );
    }

    #[test]
    fn each_view_byte_maps_to_the_bytes_it_came_from() {
        let text = r"k=\\u0067h%253Dp";
        let v = view(text.as_bytes()).unwrap();
        assert_eq!(v.bytes, b"k=gh=p");
        // `g` came from `\\u0067`, `=` from `%253D`
        assert_eq!(v.source(2, 3), (2, 9));
        assert_eq!(v.source(4, 5), (10, 15));
        assert_eq!(&text[v.source(2, 6).0..v.source(2, 6).1], r"\\u0067h%253Dp");
    }

    #[test]
    fn only_escapes_that_move_a_boundary_ask_for_a_view() {
        let worth = |region: &[u8]| {
            let starts = region
                .iter()
                .enumerate()
                .filter(|(_, b)| matches!(b, b'\\' | b'%' | b'&' | 0x1b))
                .map(|(i, _)| i);
            worth_a_view(region, starts)
        };
        assert!(!worth(br#"println!("done\n");"#));
        assert!(!worth(b"50% off, 100%, a && b"));
        assert!(worth(br#""one\ntwo""#));
        assert!(worth(br#"{\"a\": 1}"#));
        assert!(worth(br"x\\\\nAKIA"));
        assert!(worth(b"x%253Dghp_"));
        assert!(worth(b"\x1b[33mghp_"));
    }
}
