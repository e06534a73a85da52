//! Terms: identifiers split at `snake_case` and `camelCase` boundaries, lowercased, lightly
//! stemmed and hashed to a `u32`. A file is tokenized once into its term counts per field
//! ([`FileTerms`]); a query goes through the same function, so both sides agree.
//!
//! Hashes instead of an interned vocabulary let each file's terms be computed (and kept) on
//! their own, in parallel, with no shared table to lock.

/// A term: the hash of its normalized spelling.
pub type Term = u32;

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

/// Words that carry no information about where a change goes (a `match`: it runs once per
/// identifier part of every file).
fn is_stopword(word: &[u8]) -> bool {
    matches!(
        word,
        b"a" | b"an"
            | b"and"
            | b"are"
            | b"as"
            | b"at"
            | b"be"
            | b"been"
            | b"but"
            | b"by"
            | b"can"
            | b"could"
            | b"do"
            | b"does"
            | b"for"
            | b"from"
            | b"has"
            | b"have"
            | b"how"
            | b"if"
            | b"in"
            | b"into"
            | b"is"
            | b"it"
            | b"its"
            | b"not"
            | b"of"
            | b"on"
            | b"or"
            | b"so"
            | b"than"
            | b"that"
            | b"the"
            | b"then"
            | b"there"
            | b"these"
            | b"this"
            | b"to"
            | b"too"
            | b"was"
            | b"we"
            | b"were"
            | b"when"
            | b"which"
            | b"while"
            | b"will"
            | b"with"
            | b"would"
            | b"you"
            | b"up"
            | b"your"
            | b"our"
            | b"also"
            | b"all"
            | b"any"
            | b"some"
            | b"should"
            | b"must"
            | b"may"
            | b"only"
            | b"now"
            | b"no"
            | b"yes"
            | b"get"
            | b"set"
            | b"new"
            | b"use"
            | b"used"
            | b"using"
            | b"make"
            | b"made"
            | b"instead"
            | b"after"
            | b"before"
            | b"other"
            | b"more"
            | b"less"
            | b"just"
            | b"like"
            | b"what"
            | b"where"
            | b"why"
            | b"who"
            | b"them"
            | b"they"
            | b"their"
            | b"i"
            | b"me"
            | b"my"
            | b"he"
            | b"she"
            | b"his"
            | b"her"
            | b"one"
            | b"two"
            | b"way"
            | b"via"
            | b"per"
            | b"etc"
            | b"eg"
            | b"ie"
            | b"see"
    )
}

/// FNV-1a, folded to 32 bits: stable across runs and platforms (answers are deterministic).
pub fn hash(word: &str) -> Term {
    hash_bytes(word.as_bytes())
}

fn hash_bytes(word: &[u8]) -> Term {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in word {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

/// A plural or third-person `s` off: `handlers` and `handler` are one term.
pub fn stem(word: &str) -> &str {
    &word[..stemmed_len(word.as_bytes())]
}

/// The length of `word` once [`stem`]med.
fn stemmed_len(word: &[u8]) -> usize {
    let n = word.len();
    if n >= 4
        && word.ends_with(b"s")
        && !word.ends_with(b"ss")
        && !word.ends_with(b"us")
        && !word.ends_with(b"is")
    {
        if n >= 5 && word.ends_with(b"ies") {
            return n - 3;
        }
        return n - 1;
    }
    n
}

/// The parts of an identifier: `parseHTTPRequest_v2` gives `parse`, `http`, `request`, `v2`;
/// `Float64Flag` gives `float`, `64`, `flag`.
/// Parts keep their original case; callers lowercase them.
pub fn split_identifier(ident: &str, mut part: impl FnMut(&str)) {
    split_bytes(ident.as_bytes(), |start, end| part(&ident[start..end]));
}

/// [`split_identifier`] on bytes: each part's byte range (the separators and boundaries are
/// ASCII, so each range is a `str` slice of an identifier given as text).
fn split_bytes(ident: &[u8], mut part: impl FnMut(usize, usize)) {
    // one pass: `start` is where the current part begins
    let mut start = 0;
    for (i, &cur) in ident.iter().enumerate() {
        if matches!(cur, b'_' | b'$' | b'-') {
            if start < i {
                part(start, i);
            }
            start = i + 1;
            continue;
        }
        if i == start {
            continue;
        }
        let prev = ident[i - 1];
        // a separator after `cur` is no lowercase letter either
        let next_lower = ident.get(i + 1).is_some_and(u8::is_ascii_lowercase);
        // `Float64Flag` is `float`, `64`, `flag` (Go's `Int64Slice`, `Base64Encode`), while
        // `Vec3D` keeps its `3D`
        let boundary = (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
            || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_lower)
            || (prev.is_ascii_digit() && cur.is_ascii_uppercase() && next_lower)
            || (prev.is_ascii_alphabetic() && cur.is_ascii_digit() && i - start > 1);
        if boundary {
            part(start, i);
            start = i;
        }
    }
    if start < ident.len() {
        part(start, ident.len());
    }
}

/// The terms of one identifier: each part of two or more letters (stopwords dropped), and the
/// whole identifier joined when it has several parts (`execute_hook` and `executeHook` both
/// give `executehook`).
pub fn identifier_terms(ident: &str, mut term: impl FnMut(Term, &str)) {
    // the words given are whole lowercased parts of `ident`, or all of them joined: text
    terms_of_bytes(ident.as_bytes(), |t, word| {
        term(t, std::str::from_utf8(word).unwrap_or(""));
    });
}

/// [`identifier_terms`] on bytes, with each term's lowercased spelling.
fn terms_of_bytes(ident: &[u8], mut term: impl FnMut(Term, &[u8])) {
    /// Longer identifiers are not joined (generated names, hashes); longer parts are cut.
    const MAX_JOINED: usize = 64;
    let mut parts = 0;
    let mut joined = [0u8; MAX_JOINED];
    let mut joined_len = 0usize;
    let mut lower = [0u8; MAX_JOINED];
    split_bytes(ident, |start, end| {
        parts += 1;
        let part = &ident[start..end];
        let n = part.len().min(MAX_JOINED);
        // lowercase straight into the joined spelling while it fits
        let fits = joined_len + n <= MAX_JOINED;
        let word: &mut [u8] = if fits {
            &mut joined[joined_len..joined_len + n]
        } else {
            &mut lower[..n]
        };
        for (slot, b) in word.iter_mut().zip(part) {
            *slot = b.to_ascii_lowercase();
        }
        joined_len += n;
        // a part cut inside a character is no word
        let whole = n == part.len() || !(0x80..0xc0).contains(&part[n]);
        if whole && n >= 2 && !word.iter().all(u8::is_ascii_digit) && !is_stopword(word) {
            let stemmed = &word[..stemmed_len(word)];
            term(hash_bytes(stemmed), stemmed);
        }
    });
    if parts > 1 && (4..=MAX_JOINED).contains(&joined_len) {
        let word = &joined[..joined_len];
        let stemmed = &word[..stemmed_len(word)];
        term(hash_bytes(stemmed), stemmed);
    }
}

/// Each identifier of `text` (ASCII letters, digits, `_`, not starting with a digit) with its
/// byte offset.
pub fn identifiers<'t>(text: &'t str, mut found: impl FnMut(usize, &'t str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            found(start, &text[start..i]);
        } else if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
}

/// Keywords after which the next identifier is being defined (a `match`: it runs for every
/// identifier of a source file).
fn is_defining(ident: &str) -> bool {
    matches!(
        ident,
        "fn" | "def"
            | "class"
            | "struct"
            | "enum"
            | "trait"
            | "interface"
            | "type"
            | "func"
            | "function"
            | "module"
            | "union"
            | "define"
            | "fun"
            | "object"
            | "record"
            | "typedef"
            | "namespace"
            | "macro_rules"
            | "impl"
            | "mod"
            | "package"
    )
}

/// Modifiers that start a method declaration in Java-like languages.
const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "override",
    "suspend",
    "async",
    "export",
    "internal",
    "final",
    "abstract",
    "virtual",
];

/// Statements that look like `name(` at the start of a line but define nothing.
const NOT_DEFINING: &[&str] = &[
    "return", "if", "while", "for", "switch", "else", "case", "sizeof", "do", "goto", "new",
    "throw", "catch", "assert",
];

/// The defined names of one line, found lexically: the identifier after a defining keyword
/// (Go receivers skipped), and the name before the first `(` of an unindented line or of a
/// line that starts with a modifier (C functions, Java methods). A cheap stand-in for a
/// parse, good enough to weigh a field; the answer's reasons use real definitions.
pub fn defined_names<'l>(line: &'l str, found: impl FnMut(&'l str)) {
    let mut idents: Vec<(usize, usize)> = Vec::new();
    identifiers(line, |at, ident| idents.push((at, at + ident.len())));
    defined_names_among(line, &idents, found);
}

/// [`defined_names`] of a line whose identifiers were found already: their `(start, end)`
/// byte offsets, as [`identifiers`] gives them.
fn defined_names_among<'l>(
    line: &'l str,
    spans: &[(usize, usize)],
    mut found: impl FnMut(&'l str),
) {
    let trimmed = line.trim_start();
    // most lines (comments, braces, calls inside bodies that start with a symbol) define nothing
    if !trimmed
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'#')
    {
        return;
    }
    let unindented = trimmed.len() == line.len();
    let first = trimmed
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    let ident = |&(start, end): &(usize, usize)| &line[start..end];
    let bytes = line.as_bytes();
    let mut any = false;
    for (k, span) in spans.iter().enumerate() {
        let at = span.0;
        // `struct task *t` inside a parameter list defines nothing
        if !is_defining(ident(span)) || line[..at].contains('(') {
            continue;
        }
        let mut after = span.1;
        while after < bytes.len() && matches!(bytes[after], b' ' | b'\t' | b'*' | b'!') {
            after += 1;
        }
        if after < bytes.len() && bytes[after] == b'(' {
            // `func (r *T) Name(` : skip the receiver
            match line[after..].find(')') {
                Some(close) => after += close,
                None => continue,
            }
            if let Some(name) = spans[k + 1..].iter().find(|(p, _)| *p > after) {
                any = true;
                found(ident(name));
            }
            continue;
        }
        if let Some(name) = spans.get(k + 1)
            && name.0 == after
        {
            any = true;
            found(ident(name));
        }
    }
    if !any
        && (unindented || MODIFIERS.contains(&first))
        && !NOT_DEFINING.contains(&first)
        && !line.trim_end().ends_with(';')
        && let Some(paren) = line.find('(')
        && !line[..paren].contains('=')
        && let Some(name) = spans.iter().rev().find(|(_, end)| *end <= paren)
        && !NOT_DEFINING.contains(&ident(name))
        && !is_defining(ident(name))
    {
        found(ident(name));
    }
}

type Counts = FxHashMap<Term, Posting>;

/// Each distinct identifier of a file with a number: how often it occurs, or where its counts
/// are. Probed once per occurrence, so the hash must be cheap; only in memory, so not part of
/// any answer.
type IdentCounts<'t> = FxHashMap<&'t str, u32>;

/// One term's counts in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub term: Term,
    /// Occurrences in the text.
    pub body: u16,
    /// Occurrences as a defined name.
    pub defined: u8,
    /// Occurrences in the path.
    pub path: u8,
}

/// A file's terms, sorted by term for binary search: what the ranker knows of a file.
///
/// Kept compact, since a server holds one per file (26 million terms on the Linux kernel):
/// 5 bytes a term instead of a [`Posting`]'s 8. Most text counts are small, and most terms
/// are neither defined nor in the path; the rest is kept aside.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTerms {
    /// Sorted.
    terms: Box<[Term]>,
    /// Per term: its text count, or [`MANY`] when that is in `many`; [`HAS_FIELDS`] when its
    /// defined or path count is not zero (then it is in `fields`).
    counts: Box<[u8]>,
    /// `(index, text count)` of the terms with a count of [`MANY`] or more, by index.
    many: Box<[(u32, u16)]>,
    /// The terms flagged [`HAS_FIELDS`], by index: the index (`u32`, little-endian), then the
    /// defined and path counts. Six bytes, not a tuple's eight: the kernel has 8 million.
    fields: Box<[[u8; 6]]>,
    /// Term occurrences in the text (the body field's length).
    pub length: u32,
}

/// A text count kept aside in [`FileTerms::many`].
const MANY: u8 = 0x7f;
/// The flag of a term with fields in [`FileTerms::fields`].
const HAS_FIELDS: u8 = 0x80;

/// Whether [`defined_names`] can find anything in `line`, told whether the line holds a defining
/// keyword ([`is_defining`]): the same tests it starts with, so most lines of a body are passed over after
/// one scan.
fn may_define(line: &str, has_defining: bool) -> bool {
    let trimmed = line.trim_start();
    if !trimmed
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'#')
    {
        return false;
    }
    if has_defining || trimmed.len() == line.len() {
        return true;
    }
    let first = trimmed
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    MODIFIERS.contains(&first)
}

/// A distinct identifier of a file: its terms (a range of the file's split terms), how often
/// it occurs, and how often as a defined name.
struct Distinct {
    terms: std::ops::Range<u32>,
    count: u32,
    defined: u32,
}

/// A line of a source file, as [`FileTerms::of`]'s scan found it.
struct Line<'t, 's> {
    /// Up to its `\n`.
    text: &'t str,
    /// A `\n` ends it (the file's last line may have none).
    ended: bool,
    /// Its identifiers: byte offsets in the line.
    spans: &'s [(usize, usize)],
    /// One of them is a defining keyword.
    has_defining: bool,
}

impl Line<'_, '_> {
    /// Count the names the line defines into their distinct identifiers.
    fn count_defined(&self, seen: &IdentCounts<'_>, distinct: &mut [Distinct]) {
        // as `str::lines` gives it: without a `\r` before the `\n`
        let line = match self.ended {
            true => self.text.strip_suffix('\r').unwrap_or(self.text),
            false => self.text,
        };
        // minified or generated lines define nothing a reader would name
        if line.len() <= 400 && may_define(line, self.has_defining) {
            defined_names_among(line, self.spans, |name| {
                // a defined name is one of the line's identifiers, seen already
                if let Some(&at) = seen.get(name) {
                    distinct[at as usize].defined += 1;
                }
            });
        }
    }
}

/// Byte classes of [`FileTerms::of`]'s scan, as [`identifiers`] reads bytes.
const OTHER: u8 = 0;
const IDENT_START: u8 = 1;
const DIGIT: u8 = 2;
static CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if byte.is_ascii_alphabetic() || byte == b'_' {
            class[b] = IDENT_START;
        } else if byte.is_ascii_digit() {
            class[b] = DIGIT;
        }
        b += 1;
    }
    class
};

impl FileTerms {
    /// Tokenize a file once: its path and its (redacted) text.
    ///
    /// One scan of the bytes: each distinct identifier is counted, then split and hashed once
    /// with its number of occurrences (counts saturate as they would one by one), and a line
    /// is searched for definitions only when [`may_define`] says it can hold one.
    pub fn of(path: &str, text: &str) -> Self {
        let mut counts: Counts = Counts::default();
        fn slot(counts: &mut Counts, term: Term) -> &mut Posting {
            counts.entry(term).or_insert(Posting {
                term,
                body: 0,
                defined: 0,
                path: 0,
            })
        }
        fn clamp<T: TryFrom<u32> + Copy>(n: u32, max: T) -> T {
            T::try_from(n).unwrap_or(max)
        }
        for_path_terms(path, |term, _| {
            let p = slot(&mut counts, term);
            p.path = p.path.saturating_add(1);
        });
        // prose and configuration define nothing (a changelog line `Fix x (#12)` is no function)
        let code = is_code_path(path);
        let bytes = text.as_bytes();
        // each distinct identifier: its index in `distinct`, which holds where its terms are
        // in `split` and how often it occurs; its terms are found at its first occurrence,
        // while its bytes are in the cache
        let mut seen = IdentCounts::with_capacity_and_hasher(bytes.len() / 64, Default::default());
        let mut distinct: Vec<Distinct> = Vec::new();
        let mut split: Vec<Term> = Vec::new();
        // the current line: where it starts, its identifiers (offsets in the line)
        let mut line_start = 0;
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut has_defining = false;
        let mut i = 0;
        while i < bytes.len() {
            match CLASS[usize::from(bytes[i])] {
                IDENT_START => {
                    let start = i;
                    i += 1;
                    while i < bytes.len() && CLASS[usize::from(bytes[i])] != OTHER {
                        i += 1;
                    }
                    let ident = &text[start..i];
                    match seen.entry(ident) {
                        Entry::Occupied(known) => distinct[*known.get() as usize].count += 1,
                        Entry::Vacant(new) => {
                            new.insert(distinct.len() as u32);
                            let first = split.len() as u32;
                            terms_of_bytes(ident.as_bytes(), |term, _| split.push(term));
                            distinct.push(Distinct {
                                terms: first..split.len() as u32,
                                count: 1,
                                defined: 0,
                            });
                        }
                    }
                    if code {
                        has_defining |= is_defining(ident);
                        spans.push((start - line_start, i - line_start));
                    }
                }
                DIGIT => {
                    // a number (`0x1f`, `10ms`) is no identifier
                    i += 1;
                    while i < bytes.len() && CLASS[usize::from(bytes[i])] != OTHER {
                        i += 1;
                    }
                }
                _ => {
                    if bytes[i] == b'\n' {
                        if code {
                            let line = Line {
                                text: &text[line_start..i],
                                ended: true,
                                spans: &spans,
                                has_defining,
                            };
                            line.count_defined(&seen, &mut distinct);
                        }
                        line_start = i + 1;
                        spans.clear();
                        has_defining = false;
                    }
                    i += 1;
                }
            }
        }
        if code && line_start < bytes.len() {
            let line = Line {
                text: &text[line_start..],
                ended: false,
                spans: &spans,
                has_defining,
            };
            line.count_defined(&seen, &mut distinct);
        }
        drop(seen);
        let mut length = 0u32;
        for ident in distinct {
            for &term in &split[ident.terms.start as usize..ident.terms.end as usize] {
                length += ident.count;
                let p = slot(&mut counts, term);
                p.body = p.body.saturating_add(clamp(ident.count, u16::MAX));
                p.defined = p.defined.saturating_add(clamp(ident.defined, u8::MAX));
            }
        }
        let mut postings: Vec<Posting> = counts.into_values().collect();
        postings.sort_unstable_by_key(|p| p.term);
        Self::from_postings(&postings, length)
    }

    /// The compact form of `postings` (sorted by term).
    pub fn from_postings(postings: &[Posting], length: u32) -> Self {
        let mut many = Vec::new();
        let mut fields = Vec::new();
        let counts = postings
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut count = match u8::try_from(p.body) {
                    Ok(body) if body < MANY => body,
                    _ => {
                        many.push((i as u32, p.body));
                        MANY
                    }
                };
                if p.defined > 0 || p.path > 0 {
                    let [a, b, c, d] = (i as u32).to_le_bytes();
                    fields.push([a, b, c, d, p.defined, p.path]);
                    count |= HAS_FIELDS;
                }
                count
            })
            .collect();
        Self {
            terms: postings.iter().map(|p| p.term).collect(),
            counts,
            many: many.into_boxed_slice(),
            fields: fields.into_boxed_slice(),
            length,
        }
    }

    /// The counts of `term`, if the file has it.
    pub fn get(&self, term: Term) -> Option<Posting> {
        let i = self.terms.binary_search(&term).ok()?;
        Some(self.posting_at(i))
    }

    /// Each of `sorted` (ascending terms) the file has: its index in `sorted` and the file's
    /// counts, in order. A few terms are searched for; many (an 8,000-character issue's
    /// hundreds) are merged with the file's own, one pass over both.
    pub fn for_each_of(&self, sorted: &[Term], mut found: impl FnMut(usize, Posting)) {
        let searches = sorted.len() * (usize::BITS - self.terms.len().leading_zeros()) as usize;
        if searches <= sorted.len() + self.terms.len() {
            for (k, &term) in sorted.iter().enumerate() {
                if let Ok(i) = self.terms.binary_search(&term) {
                    found(k, self.posting_at(i));
                }
            }
            return;
        }
        let (mut k, mut i) = (0, 0);
        while k < sorted.len() && i < self.terms.len() {
            match sorted[k].cmp(&self.terms[i]) {
                std::cmp::Ordering::Less => k += 1,
                std::cmp::Ordering::Greater => i += 1,
                std::cmp::Ordering::Equal => {
                    found(k, self.posting_at(i));
                    k += 1;
                    i += 1;
                }
            }
        }
    }

    /// The counts of the file's `i`th term.
    fn posting_at(&self, i: usize) -> Posting {
        let term = self.terms[i];
        let count = self.counts[i];
        let body = match count & !HAS_FIELDS {
            MANY => aside(&self.many, i).unwrap_or(0),
            small => u16::from(small),
        };
        let (defined, path) = match count & HAS_FIELDS {
            0 => (0, 0),
            _ => self
                .fields
                .binary_search_by_key(&(i as u32), |e| {
                    u32::from_le_bytes([e[0], e[1], e[2], e[3]])
                })
                .map_or((0, 0), |at| (self.fields[at][4], self.fields[at][5])),
        };
        Posting {
            term,
            body,
            defined,
            path,
        }
    }

    /// Each term's counts, by term.
    pub fn iter(&self) -> impl Iterator<Item = Posting> + '_ {
        // the lists kept aside are in term order too: each flagged term takes the next entry
        let mut many = self.many.iter();
        let mut fields = self.fields.iter();
        self.terms
            .iter()
            .zip(self.counts.iter())
            .map(move |(&term, &count)| {
                let body = match count & !HAS_FIELDS {
                    MANY => many.next().map_or(0, |m| m.1),
                    small => u16::from(small),
                };
                let (defined, path) = match count & HAS_FIELDS {
                    0 => (0, 0),
                    _ => fields.next().map_or((0, 0), |f| (f[4], f[5])),
                };
                Posting {
                    term,
                    body,
                    defined,
                    path,
                }
            })
    }

    /// Its number of distinct terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Bytes held (for cache accounting).
    pub fn cost(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.terms.len() * std::mem::size_of::<Term>()
            + self.counts.len()
            + self.many.len() * std::mem::size_of::<(u32, u16)>()
            + self.fields.len() * std::mem::size_of::<[u8; 6]>()
    }
}

/// The entry of the `i`th term in [`FileTerms`]' `many`.
fn aside<T: Copy>(list: &[(u32, T)], i: usize) -> Option<T> {
    let at = list.binary_search_by_key(&(i as u32), |e| e.0).ok()?;
    Some(list[at].1)
}

/// Extensions of programming languages: only their files define names.
pub const CODE_EXTENSIONS: &[&str] = &[
    "rs", "py", "pyi", "go", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "c", "h", "cc",
    "cpp", "cxx", "hpp", "hh", "hxx", "java", "kt", "kts", "scala", "rb", "php", "cs", "swift",
    "m", "mm", "lua", "ex", "exs", "erl", "hs", "ml", "fs", "dart", "zig", "vue", "svelte", "sh",
    "bash", "pl", "r", "jl", "clj", "groovy", "sql", "proto", "s", "S",
];

/// Whether `path` is a source file of a programming language.
pub fn is_code_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && CODE_EXTENSIONS.contains(&ext))
}

/// The terms of a path: each folder and the file name (extension dropped), split like
/// identifiers.
pub fn for_path_terms(path: &str, mut term: impl FnMut(Term, &str)) {
    for segment in path.split('/') {
        let name = match segment.rfind('.') {
            Some(dot) if dot > 0 => &segment[..dot],
            _ => segment,
        };
        identifiers(name, |_, ident| identifier_terms(ident, &mut term));
    }
}

/// A fixed linear congruential sequence for tests: `next(n)` in `0..n`, the same on every run.
#[cfg(test)]
pub(crate) fn sequence(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(ident: &str) -> Vec<String> {
        let mut out = Vec::new();
        split_identifier(ident, |p| out.push(p.to_string()));
        out
    }

    fn words(ident: &str) -> Vec<String> {
        let mut out = Vec::new();
        identifier_terms(ident, |_, w| out.push(w.to_string()));
        out
    }

    #[test]
    fn identifiers_split_at_case_and_underscores() {
        assert_eq!(
            parts("parseHTTPRequest_v2"),
            ["parse", "HTTP", "Request", "v2"]
        );
        assert_eq!(parts("copy_process"), ["copy", "process"]);
        assert_eq!(parts("XMLParser"), ["XML", "Parser"]);
        assert_eq!(parts("Float64Flag"), ["Float", "64", "Flag"]);
        assert_eq!(words("Float64Flag"), ["float", "flag", "float64flag"]);
        assert_eq!(parts("Vec3D"), ["Vec", "3D"]);
        assert_eq!(words("executeHooks"), ["execute", "hook", "executehook"]);
        assert_eq!(words("execute_hooks"), words("executeHooks"));
        assert_eq!(words("the"), Vec::<String>::new());
    }

    #[test]
    fn defined_names_of_common_languages() {
        let names = |line: &str| {
            let mut out = Vec::new();
            defined_names(line, |n| out.push(n.to_string()));
            out
        };
        assert_eq!(names("pub fn run_hooks(x: u8) {"), ["run_hooks"]);
        assert_eq!(names("func (c *Command) Find(args []string) {"), ["Find"]);
        assert_eq!(
            names("static int copy_process(struct task *t)"),
            ["copy_process"]
        );
        assert_eq!(names("    def handle(self):"), ["handle"]);
        assert_eq!(names("    public void onClick(View v) {"), ["onClick"]);
        assert_eq!(names("    return foo(bar);"), Vec::<String>::new());
        assert_eq!(names("class Parser:"), ["Parser"]);
    }

    #[test]
    fn file_terms_count_fields() {
        let terms = FileTerms::of("src/hooks/runner.rs", "fn run_hooks() { run_hooks(); }\n");
        let hook = terms.get(hash("hook")).unwrap();
        assert_eq!((hook.body, hook.defined, hook.path), (2, 1, 1));
        assert!(
            terms
                .get(hash("runner"))
                .is_some_and(|p| p.path == 1 && p.body == 0)
        );
    }

    /// [`identifier_terms`] as first written, for the checks below.
    fn identifier_terms_first_written(ident: &str, mut term: impl FnMut(Term, &str)) {
        /// Longer identifiers are not joined (generated names, hashes).
        const MAX_JOINED: usize = 64;
        let mut parts = 0;
        let mut joined = [0u8; MAX_JOINED];
        let mut joined_len = 0usize;
        let mut lower = [0u8; MAX_JOINED];
        split_identifier_first_written(ident, |p| {
            parts += 1;
            let n = p.len().min(MAX_JOINED);
            for (slot, b) in lower.iter_mut().zip(p.bytes()) {
                *slot = b.to_ascii_lowercase();
            }
            if joined_len + n <= MAX_JOINED {
                joined[joined_len..joined_len + n].copy_from_slice(&lower[..n]);
            }
            joined_len += n;
            // identifiers are ASCII (see `identifiers`), so these bytes are UTF-8
            let word = std::str::from_utf8(&lower[..n]).unwrap_or("");
            if n >= 2 && !word.bytes().all(|b| b.is_ascii_digit()) && !is_stopword(word.as_bytes())
            {
                let stemmed = stem_first_written(word);
                term(hash(stemmed), stemmed);
            }
        });
        if parts > 1 && (4..=MAX_JOINED).contains(&joined_len) {
            let word = std::str::from_utf8(&joined[..joined_len]).unwrap_or("");
            let stemmed = stem_first_written(word);
            term(hash(stemmed), stemmed);
        }
    }

    fn stem_first_written(word: &str) -> &str {
        let n = word.len();
        if n >= 4
            && word.ends_with('s')
            && !word.ends_with("ss")
            && !word.ends_with("us")
            && !word.ends_with("is")
        {
            if n >= 5 && word.ends_with("ies") {
                return &word[..n - 3];
            }
            return &word[..n - 1];
        }
        word
    }

    fn split_identifier_first_written(ident: &str, mut part: impl FnMut(&str)) {
        for piece in ident.split(['_', '$', '-']) {
            let bytes = piece.as_bytes();
            let mut start = 0;
            for i in 1..bytes.len() {
                let (prev, cur) = (bytes[i - 1], bytes[i]);
                let next_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
                let boundary = (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
                    || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_lower)
                    || (prev.is_ascii_digit() && cur.is_ascii_uppercase() && next_lower)
                    || (prev.is_ascii_alphabetic() && cur.is_ascii_digit() && i - start > 1);
                if boundary {
                    part(&piece[start..i]);
                    start = i;
                }
            }
            if start < piece.len() {
                part(&piece[start..]);
            }
        }
    }

    /// [`defined_names`] as first written (with its keyword list), for the check below.
    const DEFINING: &[&str] = &[
        "fn",
        "def",
        "class",
        "struct",
        "enum",
        "trait",
        "interface",
        "type",
        "func",
        "function",
        "module",
        "union",
        "define",
        "fun",
        "object",
        "record",
        "typedef",
        "namespace",
        "macro_rules",
        "impl",
        "mod",
        "package",
    ];

    fn defined_names_first_written(line: &str, mut found: impl FnMut(&str)) {
        let trimmed = line.trim_start();
        // most lines (comments, braces, calls inside bodies that start with a symbol) define nothing
        if !trimmed
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'#')
        {
            return;
        }
        let unindented = trimmed.len() == line.len();
        let first = trimmed
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        let mut idents: Vec<(usize, &str)> = Vec::new();
        identifiers(line, |at, ident| idents.push((at, ident)));
        let bytes = line.as_bytes();
        let mut names: Vec<&str> = Vec::new();
        for (k, &(at, ident)) in idents.iter().enumerate() {
            // `struct task *t` inside a parameter list defines nothing
            if !DEFINING.contains(&ident) || line[..at].contains('(') {
                continue;
            }
            let mut after = at + ident.len();
            while after < bytes.len() && matches!(bytes[after], b' ' | b'\t' | b'*' | b'!') {
                after += 1;
            }
            if after < bytes.len() && bytes[after] == b'(' {
                // `func (r *T) Name(` : skip the receiver
                match line[after..].find(')') {
                    Some(close) => after += close,
                    None => continue,
                }
                if let Some(&(_, name)) = idents.iter().skip(k + 1).find(|(p, _)| *p > after) {
                    names.push(name);
                }
                continue;
            }
            if let Some(&(p, name)) = idents.get(k + 1)
                && p == after
            {
                names.push(name);
            }
        }
        if names.is_empty()
            && (unindented || MODIFIERS.contains(&first))
            && !NOT_DEFINING.contains(&first)
            && !line.trim_end().ends_with(';')
            && let Some(paren) = line.find('(')
            && !line[..paren].contains('=')
            && let Some(&(_, name)) = idents.iter().rev().find(|(p, i)| p + i.len() <= paren)
            && !NOT_DEFINING.contains(&name)
            && !DEFINING.contains(&name)
        {
            names.push(name);
        }
        for name in names {
            found(name);
        }
    }

    /// The tokenizer as first written: each occurrence split and counted on its own, every
    /// line of a source file searched for definitions. [`FileTerms::of`] must agree with it.
    fn one_by_one(path: &str, text: &str) -> FileTerms {
        let mut counts: Counts = Counts::default();
        fn slot(counts: &mut Counts, term: Term) -> &mut Posting {
            counts.entry(term).or_insert(Posting {
                term,
                body: 0,
                defined: 0,
                path: 0,
            })
        }
        let mut length = 0u32;
        path.split('/').for_each(|segment| {
            let name = match segment.rfind('.') {
                Some(dot) if dot > 0 => &segment[..dot],
                _ => segment,
            };
            identifiers(name, |_, ident| {
                identifier_terms_first_written(ident, |term, _| {
                    let p = slot(&mut counts, term);
                    p.path = p.path.saturating_add(1);
                });
            });
        });
        identifiers(text, |_, ident| {
            identifier_terms_first_written(ident, |term, _| {
                length += 1;
                let p = slot(&mut counts, term);
                p.body = p.body.saturating_add(1);
            });
        });
        let lines = if is_code_path(path) { text } else { "" };
        for line in lines.lines().filter(|line| line.len() <= 400) {
            defined_names_first_written(line, |name| {
                identifier_terms_first_written(name, |term, _| {
                    let p = slot(&mut counts, term);
                    p.defined = p.defined.saturating_add(1);
                });
            });
        }
        let mut postings: Vec<Posting> = counts.into_values().collect();
        postings.sort_unstable_by_key(|p| p.term);
        FileTerms::from_postings(&postings, length)
    }

    #[test]
    fn compact_terms_give_back_their_postings() {
        let postings: Vec<Posting> = (0..400u32)
            .map(|i| Posting {
                term: i * 7 + 3,
                body: [1, 2, 126, 127, 128, 255, 256, u16::MAX][i as usize % 8],
                defined: if i % 5 == 0 { (i % 256) as u8 } else { 0 },
                path: u8::from(i % 3 == 0),
            })
            .collect();
        let terms = FileTerms::from_postings(&postings, 9);
        assert_eq!(terms.iter().collect::<Vec<_>>(), postings);
        assert_eq!(terms.len(), postings.len());
        for p in &postings {
            assert_eq!(terms.get(p.term), Some(*p));
            assert_eq!(terms.get(p.term + 1), None);
        }
    }

    #[test]
    fn identifier_terms_agree_with_the_first_version() {
        const PIECES: &[&str] = &[
            "a", "the", "HTTP", "Request", "parse", "v2", "9", "_", "$", "-", "ies", "Handlers",
            "status", "é", "ÉtéX", "x", "ss", "IS", "s",
        ];
        let mut next = sequence(0x9e37_79b9_7f4a_7c15u64);
        type Tokenizer = fn(&str, &mut dyn FnMut(Term, &str));
        let terms = |ident: &str, of: Tokenizer| {
            let mut out = Vec::new();
            of(ident, &mut |t, w| out.push((t, w.to_string())));
            out
        };
        let mut idents: Vec<String> = vec![
            "é".repeat(40),
            format!("x{}", "é".repeat(40)),
            format!("a_x{}", "é".repeat(40)),
        ];
        for _ in 0..3000 {
            idents.push((0..next(12)).map(|_| PIECES[next(PIECES.len())]).collect());
        }
        for ident in &idents {
            assert_eq!(
                terms(ident, |i, f| identifier_terms(i, f)),
                terms(ident, |i, f| identifier_terms_first_written(i, f)),
                "{ident:?}"
            );
        }
    }

    #[test]
    fn file_terms_agree_with_counting_one_by_one() {
        const PIECES: &[&str] = &[
            "fn",
            "struct",
            "class",
            "def",
            "func",
            "#define",
            "static",
            "public",
            "return",
            "if",
            "copy_process",
            "copyProcess",
            "HTTPServer",
            "the",
            "handlers",
            "x",
            "v2",
            "9lives",
            "_",
            "$el",
            "a-b",
            "(",
            ")",
            "{",
            "}",
            ";",
            "=",
            "*",
            "!",
            " ",
            " ",
            "\t",
            "\n",
            "\n",
            "\r\n",
            "\n    ",
            "\n\t",
            "é",
            "//",
            "#",
            ".",
            ",",
        ];
        let mut next = sequence(0x2545_f491_4f6c_dd1du64);
        for case in 0..400 {
            let mut text = String::new();
            for _ in 0..next(300) {
                text.push_str(PIECES[next(PIECES.len())]);
            }
            if case % 7 == 0 {
                // a line over the 400-byte bound, and counts past a u8
                text.push_str(&"static int f(x) ".repeat(40));
                text.push('\n');
                text.push_str(&"struct s;\n".repeat(300));
            }
            for path in ["src/copy_process.c", "docs/Notes.md"] {
                assert_eq!(
                    FileTerms::of(path, &text),
                    one_by_one(path, &text),
                    "{text:?}"
                );
            }
        }
        // a body count past a u16
        let many = "copy_process(x);\n".repeat(70_000);
        assert_eq!(
            FileTerms::of("kernel/fork.c", &many),
            one_by_one("kernel/fork.c", &many)
        );
    }
}
