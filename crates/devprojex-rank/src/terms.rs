//! Terms: identifiers split at `snake_case` and `camelCase` boundaries, lowercased, lightly
//! stemmed and hashed to a `u32`. A file is tokenized once into its term counts per field
//! ([`FileTerms`]); a query goes through the same function, so both sides agree.
//!
//! Hashes instead of an interned vocabulary let each file's terms be computed (and kept) on
//! their own, in parallel, with no shared table to lock.

/// A term: the hash of its normalized spelling.
pub type Term = u32;

/// Words that carry no information about where a change goes (a `match`: it runs once per
/// identifier part of every file).
fn is_stopword(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "and"
            | "are"
            | "as"
            | "at"
            | "be"
            | "been"
            | "but"
            | "by"
            | "can"
            | "could"
            | "do"
            | "does"
            | "for"
            | "from"
            | "has"
            | "have"
            | "how"
            | "if"
            | "in"
            | "into"
            | "is"
            | "it"
            | "its"
            | "not"
            | "of"
            | "on"
            | "or"
            | "so"
            | "than"
            | "that"
            | "the"
            | "then"
            | "there"
            | "these"
            | "this"
            | "to"
            | "too"
            | "was"
            | "we"
            | "were"
            | "when"
            | "which"
            | "while"
            | "will"
            | "with"
            | "would"
            | "you"
            | "up"
            | "your"
            | "our"
            | "also"
            | "all"
            | "any"
            | "some"
            | "should"
            | "must"
            | "may"
            | "only"
            | "now"
            | "no"
            | "yes"
            | "get"
            | "set"
            | "new"
            | "use"
            | "used"
            | "using"
            | "make"
            | "made"
            | "instead"
            | "after"
            | "before"
            | "other"
            | "more"
            | "less"
            | "just"
            | "like"
            | "what"
            | "where"
            | "why"
            | "who"
            | "them"
            | "they"
            | "their"
            | "i"
            | "me"
            | "my"
            | "he"
            | "she"
            | "his"
            | "her"
            | "one"
            | "two"
            | "way"
            | "via"
            | "per"
            | "etc"
            | "eg"
            | "ie"
            | "see"
    )
}

/// FNV-1a, folded to 32 bits: stable across runs and platforms (answers are deterministic).
pub fn hash(word: &str) -> Term {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in word.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

/// A plural or third-person `s` off: `handlers` and `handler` are one term.
pub fn stem(word: &str) -> &str {
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

/// The parts of an identifier: `parseHTTPRequest_v2` gives `parse`, `http`, `request`, `v2`.
/// Parts keep their original case; callers lowercase them.
pub fn split_identifier(ident: &str, mut part: impl FnMut(&str)) {
    for piece in ident.split(['_', '$', '-']) {
        let bytes = piece.as_bytes();
        let mut start = 0;
        for i in 1..bytes.len() {
            let (prev, cur) = (bytes[i - 1], bytes[i]);
            let next_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            let boundary = (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
                || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_lower)
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

/// The terms of one identifier: each part of two or more letters (stopwords dropped), and the
/// whole identifier joined when it has several parts (`execute_hook` and `executeHook` both
/// give `executehook`).
pub fn identifier_terms(ident: &str, mut term: impl FnMut(Term, &str)) {
    /// Longer identifiers are not joined (generated names, hashes).
    const MAX_JOINED: usize = 64;
    let mut parts = 0;
    let mut joined = [0u8; MAX_JOINED];
    let mut joined_len = 0usize;
    let mut lower = [0u8; MAX_JOINED];
    split_identifier(ident, |p| {
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
        if n >= 2 && !word.bytes().all(|b| b.is_ascii_digit()) && !is_stopword(word) {
            let stemmed = stem(word);
            term(hash(stemmed), stemmed);
        }
    });
    if parts > 1 && (4..=MAX_JOINED).contains(&joined_len) {
        let word = std::str::from_utf8(&joined[..joined_len]).unwrap_or("");
        let stemmed = stem(word);
        term(hash(stemmed), stemmed);
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

/// Keywords after which the next identifier is being defined.
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
pub fn defined_names(line: &str, mut found: impl FnMut(&str)) {
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

/// Terms are hashes already: the map uses them as they are.
#[derive(Default)]
struct TermHasher(u64);

impl std::hash::Hasher for TermHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u32(&mut self, n: u32) {
        // spread the bits over the word the table's top bits index with
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Counts = std::collections::HashMap<Term, Posting, std::hash::BuildHasherDefault<TermHasher>>;

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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTerms {
    pub postings: Vec<Posting>,
    /// Term occurrences in the text (the body field's length).
    pub length: u32,
}

impl FileTerms {
    /// Tokenize a file once: its path and its (redacted) text.
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
        let mut length = 0u32;
        for_path_terms(path, |term, _| {
            let p = slot(&mut counts, term);
            p.path = p.path.saturating_add(1);
        });
        identifiers(text, |_, ident| {
            identifier_terms(ident, |term, _| {
                length += 1;
                let p = slot(&mut counts, term);
                p.body = p.body.saturating_add(1);
            });
        });
        // prose and configuration define nothing (a changelog line `Fix x (#12)` is no function)
        let lines = if is_code_path(path) { text } else { "" };
        for line in lines.lines() {
            if line.len() > 400 {
                continue; // minified or generated lines define nothing a reader would name
            }
            defined_names(line, |name| {
                identifier_terms(name, |term, _| {
                    let p = slot(&mut counts, term);
                    p.defined = p.defined.saturating_add(1);
                });
            });
        }
        let mut postings: Vec<Posting> = counts.into_values().collect();
        postings.sort_unstable_by_key(|p| p.term);
        postings.shrink_to_fit();
        Self { postings, length }
    }

    /// The counts of `term`, if the file has it.
    pub fn get(&self, term: Term) -> Option<&Posting> {
        self.postings
            .binary_search_by_key(&term, |p| p.term)
            .ok()
            .map(|i| &self.postings[i])
    }

    /// Bytes held (for cache accounting).
    pub fn cost(&self) -> usize {
        std::mem::size_of::<Self>() + self.postings.capacity() * std::mem::size_of::<Posting>()
    }
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
}
