//! The secret rule set: parsed once from the embedded `rules.toml` and compiled into one
//! keyword automaton plus one regex per rule, each compiled on its first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::bytes::RegexBuilder;
use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;
use serde::Deserialize;

use crate::keywords::KeywordAutomaton;
use crate::util;

/// The rule file compiled into the binary.
pub(crate) const RULES_TOML: &str = include_str!("rules.toml");

/// An error in the embedded rule file. The file is part of the binary and covered by tests, so
/// this only surfaces while editing `rules.toml`.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// `rules.toml` is not valid TOML or does not match the rule schema.
    #[error("rules.toml does not parse: {0}")]
    Parse(#[from] toml::de::Error),
    /// A rule's regex (or an allowlist regex) does not compile.
    #[error("rule `{id}`: regex does not compile: {source}")]
    Regex {
        /// The rule id.
        id: String,
        /// The regex compiler's error.
        #[source]
        source: Box<regex::Error>,
    },
    /// Two rules share one id.
    #[error("rule id `{0}` is used twice")]
    DuplicateId(String),
    /// A rule is structurally incomplete (no keyword, no regex, bad capture group, ...).
    #[error("rule `{id}`: {problem}")]
    Invalid {
        /// The rule id.
        id: String,
        /// What is wrong.
        problem: String,
    },
    /// The keyword automaton could not be built.
    #[error("keyword automaton: {0}")]
    Keywords(String),
}

/// How a rule finds its secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// A regex with a secret capture group, run on the lines where a keyword occurs.
    #[default]
    Regex,
    /// PEM / PGP private key blocks, redacted line by line (multi-line aware).
    PrivateKey,
    /// Scope-aware detection: a value assigned to a secret-looking key, judged by its shape.
    Scope,
    /// The `data:` / `stringData:` values of a Kubernetes `Secret` manifest (YAML or JSON).
    KubeSecret,
    /// A file whose whole content is one key (Rails `config/master.key`: 32 hex characters).
    KeyFile,
}

/// A check a candidate must pass after the regex matched (the regex alone is too loose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Verify {
    /// The candidate is base64 of a JSON Web Token (`eyJ...` with a JSON header).
    JwtBase64,
    /// `user:password` (quotes allowed): the password is the secret, or the user when the
    /// password is empty (an API key given as the user name, as `curl -u sk_...:` does).
    UserPass,
    /// A `.netrc` entry: `machine` (or `default`) on the line or on one of the three before.
    NetrcEntry,
}

/// What an allowlist regex is matched against (as Gitleaks' `regexTarget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Target {
    /// The secret (the capture group).
    #[default]
    Secret,
    /// The whole regex match.
    Match,
    /// The line the secret is on.
    Line,
}

/// How the checks of one allowlist combine (as Gitleaks' `condition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Condition {
    /// Any regex or any stop word allows the candidate.
    #[default]
    Or,
    /// A regex and a stop word must both match (each kind that is given).
    And,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    rule: Vec<RawRule>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawAllowlist {
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    target: Target,
    #[serde(default)]
    condition: Condition,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: String,
    description: String,
    #[serde(default)]
    provider: Option<String>,
    #[serde(default)]
    engine: Engine,
    keywords: Vec<String>,
    #[serde(default)]
    regex: Option<String>,
    /// With `value`: the provider word(s) in the key of an assignment; the regex is built from
    /// the shared assignment grammar (see [`assignment_regex`]).
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    verify: Option<Verify>,
    #[serde(default)]
    secret_group: Option<i64>,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default = "default_true")]
    placeholder_check: bool,
    #[serde(default)]
    case_sensitive_keywords: bool,
    #[serde(default)]
    allowlist: Option<RawAllowlist>,
    #[serde(default)]
    allowlists: Vec<RawAllowlist>,
    #[serde(default)]
    examples: Vec<String>,
    #[serde(default)]
    negatives: Vec<String>,
}

fn default_true() -> bool {
    true
}

/// Public, read-only description of one secret rule (for `scan --list-rules`, docs and tests).
#[derive(Debug, Clone, PartialEq)]
pub struct RuleInfo {
    /// Stable rule id, used in `[REDACTED:<id>]` and in findings.
    pub id: String,
    /// One-line human description.
    pub description: String,
    /// The provider or family the rule belongs to (e.g. `GitHub`, `AWS`, `generic`).
    pub provider: String,
    /// Keywords of the prefilter (matched ASCII case-insensitively).
    pub keywords: Vec<String>,
    /// The rule's regex (`None` for the built-in engines: private keys and scope-aware detection).
    pub regex: Option<String>,
    /// Minimum Shannon entropy (bits per byte) of the secret, when the rule has one.
    pub entropy: Option<f64>,
    /// Positive examples as generator templates (see [`crate::testgen`]); each must be caught.
    pub examples: Vec<String>,
    /// Negative examples as generator templates; none may be caught by this rule.
    pub negatives: Vec<String>,
    /// The rule judges a whole file, not a span in it (a key file holds nothing but the key):
    /// its examples are caught as whole files only, never inside other text.
    pub whole_file: bool,
}

/// A keyword behind an automaton pattern (the automaton holds each keyword whole, lower-cased;
/// whole keywords rather than short prefixes make eight times fewer hits on real code, and a
/// hit is what costs: see `docs/benchmarks.md`).
pub(crate) struct Keyword {
    /// The keyword bytes (lower-case unless `exact`).
    pub(crate) bytes: Vec<u8>,
    /// Compare case-sensitively.
    pub(crate) exact: bool,
    /// The rules it triggers.
    pub(crate) rules: Vec<u16>,
}

impl Keyword {
    /// Whether the keyword occurs at `at` in `hay`.
    #[inline]
    pub(crate) fn matches_at(&self, hay: &[u8], at: usize) -> bool {
        let Some(window) = hay.get(at..at + self.bytes.len()) else {
            return false;
        };
        if self.exact {
            window == self.bytes.as_slice()
        } else {
            window.eq_ignore_ascii_case(&self.bytes)
        }
    }
}

/// One compiled rule.
pub(crate) struct Rule {
    pub(crate) id: String,
    pub(crate) engine: Engine,
    pub(crate) regex: Option<LazyRegex>,
    /// The shortest text the regex can match: a haystack shorter than this is not searched.
    pub(crate) min_len: usize,
    /// The capture group holding the secret; `None`: the first group that participated.
    pub(crate) secret_group: Option<usize>,
    pub(crate) entropy: Option<f64>,
    pub(crate) placeholder_check: bool,
    pub(crate) verify: Option<Verify>,
    /// The regex ends in `\b`; a match must also end a token (see [`token_ends_at`]).
    pub(crate) token_end: bool,
    /// An assignment rule (`key` + `value`) whose value always has this length: the secret is
    /// found from the match's end (see [`assignment_value_end`]) instead of a capture search.
    pub(crate) value_len: Option<usize>,
    /// Every match of the regex has this length (its shortest and longest matches agree).
    pub(crate) match_len: Option<usize>,
    /// An allowlist of the rule reads the whole match (`target = "match"`), so the engine needs
    /// the match's start, not only its end.
    pub(crate) reads_match: bool,
    pub(crate) allowlists: Vec<Allowlist>,
    pub(crate) info: RuleInfo,
}

/// One compiled allowlist of a rule.
pub(crate) struct Allowlist {
    target: Target,
    condition: Condition,
    regexes: Vec<LazyRegex>,
    /// Lower-case; matched ASCII case-insensitively inside the secret.
    stopwords: Vec<Vec<u8>>,
}

impl Allowlist {
    fn allows(&self, secret: &[u8], whole: &[u8], line: &[u8]) -> bool {
        let hay = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        let regex = (!self.regexes.is_empty())
            .then(|| self.regexes.iter().any(|re| re.get().is_match(hay)));
        let stopword = (!self.stopwords.is_empty()).then(|| {
            self.stopwords.iter().any(|w| {
                secret
                    .windows(w.len())
                    .any(|window| window.eq_ignore_ascii_case(w))
            })
        });
        match self.condition {
            Condition::Or => regex == Some(true) || stopword == Some(true),
            Condition::And => {
                regex != Some(false)
                    && stopword != Some(false)
                    && (regex.is_some() || stopword.is_some())
            }
        }
    }
}

/// The compiled rule set.
pub(crate) struct RuleSet {
    pub(crate) rules: Vec<Rule>,
    pub(crate) keywords: KeywordAutomaton,
    /// For each automaton pattern (a lower-cased keyword): its case variants as written in rules.
    pub(crate) keyword_slots: Vec<Vec<Keyword>>,
    pub(crate) by_id: HashMap<String, u16>,
    /// Each rule's place in the order the engine runs rules: file order, the scope-aware rules
    /// last (they skip what the others redact).
    pub(crate) run_rank: Vec<u16>,
    /// For each rule: the id a base64 blob gets when the rule finds a secret in its text
    /// (`base64:<id>`).
    pub(crate) encoded_ids: Vec<String>,
}

/// Keywords that trigger no rule but mark a region for a decoded view (`escapes.rs`), where a
/// layer of escaping can hide the keywords of the rules themselves: a token spelled entirely
/// as `\u00XX` escapes, a key between escaped quotes (`{\"auths\": ...}`), percent-encoded
/// (`postgres%3A%2F%2F...`, `docker%20login`) or HTML-escaped text (`{&quot;auth&quot;: ...`).
/// (`u00`, not `\u00`, and the percent-encodings of delimiters by their first digit: each
/// byte a keyword adds is a byte class of the keyword table, whose 16-bit transitions leave
/// room for few.)
const LAYER_KEYWORDS: &[&str] = &["u00", "\\\"", "%0", "%2", "%3", "%5", "&quot", "&#", "&amp"];

/// The prefix of a base64 blob's rule id.
pub(crate) const ENCODED_PREFIX: &str = "base64:";

/// A regex compiled on its first use. Compiling the rules' regexes is three quarters of building
/// the rule set (some 320 million instructions, 70 ms here); a process that redacts a few files
/// compiles only the rules their keywords trigger.
pub(crate) struct LazyRegex {
    pattern: String,
    compiled: OnceLock<Regex>,
}

impl LazyRegex {
    /// Compile `pattern` now (`eager`) or on first use.
    fn new(id: &str, pattern: &str, eager: bool) -> Result<Self, RuleError> {
        let compiled = OnceLock::new();
        if eager {
            let _ = compiled.set(compile_regex(id, pattern)?);
        }
        Ok(Self {
            pattern: pattern.to_string(),
            compiled,
        })
    }

    /// The compiled regex.
    pub(crate) fn get(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            // `validate_rules` compiles every regex of the embedded file and the tests call it:
            // a failure here is a build defect, as in `ruleset`
            compile_regex("", &self.pattern)
                .unwrap_or_else(|e| panic!("embedded rules.toml is invalid: {e}"))
        })
    }
}

/// Compile `pattern` as `regex::bytes::RegexBuilder` with Unicode off and 4 MiB size limits
/// would: the same `regex-automata` engine the `regex` crate wraps, with the same settings, used
/// directly for its half searches (a match's end without its start, see `run_work`).
fn compile_regex(id: &str, pattern: &str) -> Result<Regex, RuleError> {
    let config = meta::Config::new()
        .match_kind(regex_automata::MatchKind::LeftmostFirst)
        .utf8_empty(false)
        .nfa_size_limit(Some(1 << 22))
        .hybrid_cache_capacity(1 << 22);
    meta::Builder::new()
        .configure(config)
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .build(pattern)
        .map_err(|meta_error| {
            // the error as `regex` words it (the same engine fails the same way)
            match RegexBuilder::new(pattern)
                .unicode(false)
                .size_limit(1 << 22)
                .dfa_size_limit(1 << 22)
                .build()
            {
                Err(e) => RuleError::Regex {
                    id: id.to_string(),
                    source: Box::new(e),
                },
                Ok(_) => RuleError::Invalid {
                    id: id.to_string(),
                    problem: format!("regex does not compile: {meta_error}"),
                },
            }
        })
}

/// Parse and compile the embedded rule file; with `eager`, every regex now (which reports a regex
/// that does not compile), else each on its first use.
pub(crate) fn compile(source: &str, eager: bool) -> Result<RuleSet, RuleError> {
    let file: RuleFile = toml::from_str(source)?;
    let mut rules = Vec::with_capacity(file.rule.len());
    let mut by_id = HashMap::new();
    let mut pattern_index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    let mut keyword_slots: Vec<Vec<Keyword>> = Vec::new();
    for raw in file.rule {
        let invalid = |problem: &str| RuleError::Invalid {
            id: raw.id.clone(),
            problem: problem.to_string(),
        };
        if raw.id.is_empty()
            || !raw
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(invalid("id must be lowercase kebab-case"));
        }
        let index = u16::try_from(rules.len()).map_err(|_| invalid("too many rules"))?;
        if by_id.insert(raw.id.clone(), index).is_some() {
            return Err(RuleError::DuplicateId(raw.id));
        }
        let keywordless = raw.engine == Engine::KeyFile;
        if (raw.keywords.is_empty() && !keywordless) || raw.keywords.iter().any(|k| k.len() < 2) {
            return Err(invalid("needs keywords of at least 2 bytes"));
        }
        if raw.examples.is_empty() {
            return Err(invalid("needs at least one positive example"));
        }
        // `key` + `value`: an assignment; with a `regex` too, either form (the first group
        // that matched is the secret)
        // a token rule `\b(...)\b` keeps its plain `find`; the stricter end is checked in code
        let token_end = raw.key.is_none()
            && raw
                .regex
                .as_deref()
                .is_some_and(|p| ends_with_word_boundary(p) && group_is_whole_match(p));
        let (pattern, combined) = match (&raw.regex, &raw.key, &raw.value) {
            (Some(regex), None, None) if token_end => (Some(regex.clone()), false),
            (regex, None, None) => (regex.as_deref().map(with_token_end), false),
            (None, Some(key), Some(value)) => (Some(assignment_regex(key, value)), false),
            (Some(regex), Some(key), Some(value)) => (
                Some(format!(
                    "(?:{})|{}",
                    with_token_end(regex),
                    assignment_regex(key, value)
                )),
                true,
            ),
            _ => return Err(invalid("`key` and `value` go together")),
        };
        let secret_group = match raw.secret_group {
            None if combined => Some(-1),
            g => g,
        };
        // compiled first when eager, so that a regex error is reported as one
        let regex = match (&raw.engine, &pattern) {
            (Engine::Regex, Some(p)) => Some(LazyRegex::new(&raw.id, p, eager)?),
            _ => None,
        };
        let hir = match &pattern {
            Some(p) => Some(parse_pattern(p).map_err(|e| RuleError::Invalid {
                id: raw.id.clone(),
                problem: format!("regex does not parse: {e}"),
            })?),
            None => None,
        };
        let (regex, secret_group) = match (&raw.engine, &pattern, &hir, regex) {
            (Engine::Regex, Some(p), Some(hir), Some(re)) => {
                // the groups of the regex: group 0 and those the pattern writes
                let groups = hir.properties().explicit_captures_len() + 1;
                debug_assert!(re.compiled.get().is_none_or(|c| c.captures_len() == groups));
                // `\b(...)\b` / `\b(...)`: the only group is the whole match, so a plain `find`
                // (no capture slots) is enough.
                let whole = groups == 2 && group_is_whole_match(p);
                let group = match secret_group {
                    None if whole => Some(0),
                    None => Some(if groups > 1 { 1 } else { 0 }),
                    Some(-1) if groups > 2 => None,
                    Some(g) => usize::try_from(g)
                        .ok()
                        .filter(|&g| g < groups)
                        .map(Some)
                        .ok_or_else(|| invalid("secret_group does not exist in the regex"))?,
                };
                (Some(re), group)
            }
            (Engine::Regex, ..) => return Err(invalid("regex engine needs a regex")),
            (_, Some(_), ..) => return Err(invalid("built-in engines take no regex")),
            (_, None, ..) => (None, None),
        };
        let value_len = match (&raw.engine, &raw.regex, &raw.key, &raw.value) {
            (Engine::Regex, None, Some(key), Some(value)) if secret_group == Some(1) => {
                fixed_value_len(key, value).map_err(|e| RuleError::Invalid {
                    id: raw.id.clone(),
                    problem: format!("key or value does not parse: {e}"),
                })?
            }
            _ => None,
        };
        let min_len = hir
            .as_ref()
            .map_or(0, |h| h.properties().minimum_len().unwrap_or(0));
        let match_len = hir.as_ref().and_then(|h| {
            let props = h.properties();
            props
                .minimum_len()
                .filter(|&min| min > 0 && props.maximum_len() == Some(min))
        });
        let allowlists = raw
            .allowlist
            .iter()
            .chain(&raw.allowlists)
            .map(|a| {
                Ok(Allowlist {
                    target: a.target,
                    condition: a.condition,
                    regexes: a
                        .regexes
                        .iter()
                        .map(|p| LazyRegex::new(&raw.id, p, eager))
                        .collect::<Result<Vec<_>, _>>()?,
                    stopwords: a
                        .stopwords
                        .iter()
                        .filter(|w| !w.is_empty())
                        .map(|w| w.to_ascii_lowercase().into_bytes())
                        .collect(),
                })
            })
            .collect::<Result<Vec<_>, RuleError>>()?;
        for kw in &raw.keywords {
            let exact = raw.case_sensitive_keywords || kw.bytes().any(|b| b.is_ascii_uppercase());
            let bytes = if exact {
                kw.as_bytes().to_vec()
            } else {
                kw.to_ascii_lowercase().into_bytes()
            };
            let pattern = bytes.to_ascii_lowercase();
            let slot = *pattern_index.entry(pattern.clone()).or_insert_with(|| {
                patterns.push(pattern);
                keyword_slots.push(Vec::new());
                patterns.len() - 1
            });
            let entries = &mut keyword_slots[slot];
            match entries
                .iter_mut()
                .find(|k| k.bytes == bytes && k.exact == exact)
            {
                Some(k) if !k.rules.contains(&index) => k.rules.push(index),
                Some(_) => {}
                None => entries.push(Keyword {
                    bytes,
                    exact,
                    rules: vec![index],
                }),
            }
        }
        let info = RuleInfo {
            id: raw.id.clone(),
            description: raw.description,
            provider: raw.provider.unwrap_or_else(|| "generic".to_string()),
            keywords: raw.keywords,
            regex: pattern,
            entropy: raw.entropy,
            examples: raw.examples,
            negatives: raw.negatives,
            whole_file: raw.engine == Engine::KeyFile,
        };
        rules.push(Rule {
            id: raw.id,
            engine: raw.engine,
            regex,
            min_len,
            secret_group,
            entropy: raw.entropy,
            placeholder_check: raw.placeholder_check,
            verify: raw.verify,
            token_end,
            value_len,
            match_len,
            reads_match: allowlists.iter().any(|a| a.target == Target::Match),
            allowlists,
            info,
        });
    }
    for kw in LAYER_KEYWORDS {
        let pattern = kw.to_ascii_lowercase().into_bytes();
        let slot = *pattern_index.entry(pattern.clone()).or_insert_with(|| {
            patterns.push(pattern.clone());
            keyword_slots.push(Vec::new());
            patterns.len() - 1
        });
        keyword_slots[slot].push(Keyword {
            bytes: pattern,
            exact: false,
            rules: Vec::new(),
        });
    }
    let encoded_ids = rules
        .iter()
        .map(|r| format!("{ENCODED_PREFIX}{}", r.id))
        .collect();
    let automaton =
        KeywordAutomaton::new(&patterns).map_err(|e| RuleError::Keywords(e.to_string()))?;
    let mut order: Vec<usize> = (0..rules.len()).collect();
    order.sort_by_key(|&i| (rules[i].engine == Engine::Scope, i));
    let mut run_rank = vec![0u16; rules.len()];
    for (rank, &i) in order.iter().enumerate() {
        run_rank[i] = u16::try_from(rank).expect("fewer than 2^16 rules");
    }
    Ok(RuleSet {
        rules,
        keywords: automaton,
        keyword_slots,
        by_id,
        run_rank,
        encoded_ids,
    })
}

/// `pattern` parsed as `compile_regex` compiles it (Unicode off, byte-oriented).
fn parse_pattern(pattern: &str) -> Result<regex_syntax::hir::Hir, Box<regex_syntax::Error>> {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .map_err(Box::new)
}

impl RuleSet {
    /// The id of a base64 blob in whose text the rule `inner` found a secret: `base64:<inner>`
    /// (a blob inside a blob keeps the innermost rule's name).
    pub(crate) fn encoded_id(&'static self, inner: &'static str) -> &'static str {
        match self.by_id.get(inner) {
            Some(&index) => self.encoded_ids[index as usize].as_str(),
            None => inner,
        }
    }

    /// Every id a marker can carry: the rules' ids and their `base64:` forms.
    pub(crate) fn marker_ids(&self) -> impl Iterator<Item = &str> {
        self.rules
            .iter()
            .map(|r| r.id.as_str())
            .chain(self.encoded_ids.iter().map(String::as_str))
    }

    /// Compile every regex that is compiled on first use.
    pub(crate) fn compile_all(&self) {
        for rule in &self.rules {
            let allowlisted = rule.allowlists.iter().flat_map(|a| &a.regexes);
            for regex in rule.regex.iter().chain(allowlisted) {
                regex.get();
            }
        }
    }
}

/// The minimum length in bytes of any match of `pattern`.
#[cfg(test)]
fn minimum_len(pattern: &str) -> Result<usize, Box<regex_syntax::Error>> {
    Ok(parse_pattern(pattern)?
        .properties()
        .minimum_len()
        .unwrap_or(0))
}

/// The length every match of an assignment rule's `value` has, when it has one and the value
/// is the regex's group 1 (the key holds no group).
fn fixed_value_len(key: &str, value: &str) -> Result<Option<usize>, Box<regex_syntax::Error>> {
    let (key, value) = (parse_pattern(key)?, parse_pattern(value)?);
    let props = value.properties();
    Ok(match (props.minimum_len(), props.maximum_len()) {
        (Some(min), Some(max)) if min == max && min > 0 => {
            (key.properties().explicit_captures_len() == 0).then_some(min)
        }
        _ => None,
    })
}

/// Whether the pattern is `(...)`, `\\b(...)`, `(...)\\b` or `\\b(...)\\b` with one capture group.
fn group_is_whole_match(p: &str) -> bool {
    let body = p.strip_prefix("\\b").unwrap_or(p);
    let b = body.as_bytes();
    if b.first() != Some(&b'(') || b.get(1) == Some(&b'?') {
        return false;
    }
    let (mut depth, mut i, mut in_class) = (0usize, 0usize, false);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'(' if !in_class => depth += 1,
            b')' if !in_class => {
                depth -= 1;
                if depth == 0 {
                    let rest = &body[i + 1..];
                    return rest.is_empty() || rest == "\\b";
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The compiled rule set, built on first use and shared by every `Redactor`.
pub(crate) fn ruleset() -> &'static RuleSet {
    static RULES: OnceLock<RuleSet> = OnceLock::new();
    RULES.get_or_init(|| {
        // The rule file is compiled into the binary and every rule is exercised by tests, so a
        // failure here is a build defect, not a runtime condition.
        compile(RULES_TOML, false).unwrap_or_else(|e| panic!("embedded rules.toml is invalid: {e}"))
    })
}

/// Parse and compile the embedded rule file, reporting the first problem. Returns the number of
/// rules. Used by tests and by `devprojex scan --check-rules`-style diagnostics.
pub fn validate_rules() -> Result<usize, RuleError> {
    compile(RULES_TOML, true).map(|set| set.rules.len())
}

/// Every secret rule, in file order.
pub fn rule_catalog() -> Vec<RuleInfo> {
    ruleset().rules.iter().map(|r| r.info.clone()).collect()
}

impl Rule {
    /// Whether a candidate secret passes this rule's filters (entropy, the placeholder
    /// allowlist, the rule's own allowlists). `whole` is the regex match, `line` its line.
    pub(crate) fn accepts(&self, secret: &[u8], whole: &[u8], line: &[u8]) -> bool {
        if secret.is_empty() || util::contains_redaction_marker(secret) {
            return false;
        }
        let counts = util::ByteCounts::of(secret);
        if let Some(min) = self.entropy
            && counts.entropy() < min
        {
            return false;
        }
        if self.placeholder_check && util::is_provider_placeholder(secret, &counts) {
            return false;
        }
        !self
            .allowlists
            .iter()
            .any(|a| a.allows(secret, whole, line))
    }
}

/// Where the value of an assignment may end: not inside a longer token (a following letter,
/// digit, `_ - + / = ~`, or a `.` that continues a word, as in `key.png`).
const TOKEN_END: &str = r"(?:[^\w\-+/=~.]|\.(?:[^\w]|$)|$)";

fn ends_with_word_boundary(pattern: &str) -> bool {
    pattern
        .strip_suffix(r"\b")
        .is_some_and(|head| !head.ends_with('\\'))
}

/// A rule regex ending in `\b`: the token may not continue with `- + / = ~` or `.word` either
/// (`video.ico-<hex>.png` is a file name, `AKIA...+/x` is inside a base64 blob).
fn with_token_end(pattern: &str) -> String {
    match pattern.strip_suffix(r"\b") {
        Some(head) if ends_with_word_boundary(pattern) => format!("{head}{TOKEN_END}"),
        _ => pattern.to_string(),
    }
}

/// Whether a token that ends at `end` (a word boundary) really ends there: what follows is not
/// `- + / = ~`, nor a `.` that continues a word. The same condition as [`TOKEN_END`].
#[inline]
pub(crate) fn token_ends_at(bytes: &[u8], end: usize) -> bool {
    match bytes.get(end) {
        Some(b'-' | b'+' | b'/' | b'=' | b'~') => false,
        Some(b'.') => !bytes
            .get(end + 1)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_'),
        _ => true,
    }
}

/// Where the value of an assignment match `hay[start..end]` ends, read from the bytes that
/// [`TOKEN_END`] matched at its end; `None` when they can be read in more than one way.
///
/// The value is directly followed by `TOKEN_END`, which matches one of: a byte outside
/// `[\w\-+/=~.]`; `.` and a non-word byte; `.` at the end of the haystack; the end of the
/// haystack. Every way the regex can match `hay[start..end]` therefore ends its value at one
/// of the positions these allow. When the bytes allow only one, it is where the value of the
/// match that a capture search would report ends; with a value of fixed length, that gives
/// the whole capture group without running one.
#[inline]
pub(crate) fn assignment_value_end(hay: &[u8], start: usize, end: usize) -> Option<usize> {
    if end <= start || end > hay.len() {
        return None;
    }
    value_end_before(hay, end, end - start >= 2)
}

/// [`assignment_value_end`] for a match ending at `end` whose start is not known, only whether
/// it is at least two bytes long (`long`; an assignment match always is).
#[inline]
pub(crate) fn value_end_before(hay: &[u8], end: usize, long: bool) -> Option<usize> {
    if end == 0 || end > hay.len() {
        return None;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let at_hay_end = end == hay.len();
    let last = hay[end - 1];
    let mut ends = [0usize; 3];
    let mut count = 0;
    // `[^\w\-+/=~.]` and `\.$` both end the value one byte earlier (never both: `.`)
    if (!word(last) && !matches!(last, b'-' | b'+' | b'/' | b'=' | b'~' | b'.'))
        || (at_hay_end && last == b'.')
    {
        ends[count] = end - 1;
        count += 1;
    }
    // `\.[^\w]`
    if long && hay[end - 2] == b'.' && !word(last) {
        ends[count] = end - 2;
        count += 1;
    }
    // `$`
    if at_hay_end {
        ends[count] = end;
        count += 1;
    }
    (count == 1).then_some(ends[0])
}

/// The assignment grammar shared by the provider rules whose signal is the provider's name in
/// a key: `key` (ASCII case-insensitive) anywhere in the key, then the rest of the key, an
/// optional word or two and type annotation (`var herokuToken string =`,
/// `val x: String =`), closing quotes, one of the operators configuration and code use
/// (`=`, `:=`, `::=`, `:::=`, `?=`, `??=`, `||=`, `.=`, `+=`, `=>`, `<-`, `:`, `,` as in
/// `setProperty("KEY", "v")`, `>` as in `<key>v</key>`, `||`), quotes, backticks, blanks (also
/// a line break, for `<key>` and `key: |` on the line before the value), then `value` (the
/// secret, group 1) and the end of the token.
pub(crate) fn assignment_regex(key: &str, value: &str) -> String {
    format!(
        concat!(
            r"(?i:{key})[\w.\-]{{0,40}}(?:[ \t]+[\w.\-]{{1,20}}){{0,2}}",
            r"(?:[ \t]*:[ \t]*[\w<>\[\]&'?]{{1,24}})?[\s'\x22\x60\]]{{0,4}}",
            r"(?:=|:=|::=|:::=|\?=|\?\?=|\|\|=|\.=|\+=|=>|<-|:|,|>|\|\|)",
            r"(?:[\s'\x22\x60=(]|[|>][\-+]?){{0,16}}({value}){end}"
        ),
        key = key,
        value = value,
        end = TOKEN_END
    )
}

#[cfg(test)]
mod tests {
    use super::group_is_whole_match;

    #[test]
    fn minimum_lengths() {
        use super::minimum_len;
        assert_eq!(minimum_len(r"\b(ghp_[A-Za-z0-9]{36})\b").unwrap(), 40);
        assert_eq!(
            minimum_len(r"(?i)AccountKey\s*=\s*([A-Za-z0-9+/]{86}==)").unwrap(),
            99
        );
        assert_eq!(minimum_len(r"x(?:[^a]|$)").unwrap(), 1);
        // a byte class outside ASCII parses as it compiles (Unicode off)
        assert_eq!(minimum_len(r"(?-u:\xff)+").unwrap(), 1);
    }

    #[test]
    fn whole_match_groups() {
        assert!(group_is_whole_match(r"\b(ghp_[A-Za-z0-9]{36})\b"));
        assert!(group_is_whole_match(
            r"(hooks\.slack\.com/[A-Za-z0-9+/_\-]{40,})"
        ));
        assert!(!group_is_whole_match(
            r"\b(AIza[0-9A-Za-z_\-]{35})(?:[^0-9A-Za-z_\-]|$)"
        ));
        assert!(!group_is_whole_match(
            r"(?i)AccountKey\s*=\s*([A-Za-z0-9+/]{86}==)"
        ));
        assert!(!group_is_whole_match(r"\b([(])x"));
    }

    #[test]
    fn prepare_compiles_every_regex() {
        crate::Redactor::prepare();
        for rule in &ruleset().rules {
            let allowlisted = rule.allowlists.iter().flat_map(|a| &a.regexes);
            for regex in rule.regex.iter().chain(allowlisted) {
                assert!(regex.compiled.get().is_some(), "rule {}", rule.id);
            }
        }
    }

    use super::{Rule, assignment_value_end, ruleset, value_end_before};
    use crate::testgen;

    type Span = (usize, usize);

    /// The value of every match of `rule` in `hay`, as the engine reads it from the match end
    /// (`None` where it falls back to a capture search) and as a capture search reports it.
    fn value_spans(rule: &Rule, hay: &[u8]) -> Vec<(Option<Span>, Span)> {
        let (re, len) = (rule.regex.as_ref().unwrap().get(), rule.value_len.unwrap());
        let mut caps = re.create_captures();
        let mut out = Vec::new();
        let mut pos = 0;
        let input = |pos: usize| regex_automata::Input::new(hay).span(pos..hay.len());
        while let Some(m) = re.search(&input(pos)) {
            re.search_captures(&input(pos), &mut caps);
            let whole = caps.get_match().unwrap();
            assert_eq!((whole.start(), whole.end()), (m.start(), m.end()));
            // the engine's half search: the end alone
            let half = re.search_half(&input(pos)).unwrap();
            assert_eq!(half.offset(), m.end());
            let from_end = assignment_value_end(hay, m.start(), m.end())
                .map(|end| (end - len, end))
                .filter(|&(start, _)| start >= m.start());
            assert!(m.end() - m.start() >= 2);
            assert_eq!(
                assignment_value_end(hay, m.start(), m.end()),
                value_end_before(hay, half.offset(), true)
            );
            let group = caps.get_group(1).unwrap();
            out.push((from_end, (group.start, group.end)));
            pos = m.end().max(m.start() + 1);
        }
        out
    }

    /// What a capture search would report, wherever the match end gives an answer.
    fn assert_same_values(rule: &Rule, hay: &[u8]) {
        for (from_end, captured) in value_spans(rule, hay) {
            if let Some(from_end) = from_end {
                assert_eq!(
                    from_end,
                    captured,
                    "rule {} on {:?}",
                    rule.id,
                    String::from_utf8_lossy(hay)
                );
            }
        }
    }

    /// Endings that `TOKEN_END` can read more than one way, and near-misses of them.
    const ENDINGS: &[&str] = &[
        "", ".", ".=", ".-", "..", ".\"", "=", "-", "+", "/", "~", "\"", "'", " ", ";", ".x", "\n",
        ".\n", "==", "=.", "-.", "_", "a", "\u{e9}",
    ];

    #[test]
    fn assignment_rules_with_fixed_values_are_read_from_the_match_end() {
        let set = ruleset();
        let fast: Vec<&Rule> = set.rules.iter().filter(|r| r.value_len.is_some()).collect();
        // most keyword-scoped provider rules have values of one length
        assert!(fast.len() >= 80, "{} rules", fast.len());
        let mut read = 0;
        for rule in fast {
            for (n, example) in rule.info.examples.iter().enumerate() {
                let text = testgen::expand(example, n as u64);
                for ending in ENDINGS {
                    let hay = format!("{text}{ending}");
                    // also cut short: `$` and `\.$` match at the end of the searched bytes
                    for cut in [hay.len(), hay.len().saturating_sub(1)] {
                        let hay = &hay.as_bytes()[..cut];
                        assert_same_values(rule, hay);
                        read += value_spans(rule, hay)
                            .iter()
                            .filter(|(f, _)| f.is_some())
                            .count();
                    }
                }
            }
        }
        assert!(read > 1000, "only {read} values read from the match end");
    }

    #[test]
    fn a_half_search_ends_where_the_match_does() {
        // the engine takes a match's end from a half search (no reverse scan) for rules whose
        // matches all have one length, and for fixed-length assignment values
        let set = ruleset();
        let mut fixed = 0;
        for rule in set.rules.iter().filter(|r| r.regex.is_some()) {
            let re = rule.regex.as_ref().unwrap().get();
            for (n, example) in rule.info.examples.iter().enumerate() {
                let text = testgen::expand(example, n as u64);
                for ending in ENDINGS {
                    let hay = format!("x {text}{ending}");
                    let hay = hay.as_bytes();
                    let input = |pos: usize| regex_automata::Input::new(hay).span(pos..hay.len());
                    let mut pos = 0;
                    while let Some(m) = re.search(&input(pos)) {
                        let half = re.search_half(&input(pos)).unwrap();
                        assert_eq!(half.offset(), m.end(), "rule {}", rule.id);
                        if let Some(len) = rule.match_len {
                            assert_eq!(m.end() - m.start(), len, "rule {}", rule.id);
                            fixed += 1;
                        }
                        pos = m.end().max(m.start() + 1);
                    }
                    assert!(re.search_half(&input(pos.min(hay.len()))).is_none());
                }
            }
        }
        assert!(fixed > 1000, "only {fixed} fixed-length matches");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Near-miss text around a rule's example: bytes of the value and of its surroundings
        /// replaced by the ones the assignment grammar and `TOKEN_END` treat specially.
        #[test]
        fn the_value_read_from_the_match_end_is_the_captured_group(
            rule in proptest::sample::select(
                ruleset().rules.iter().enumerate()
                    .filter(|(_, r)| r.value_len.is_some())
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>()
            ),
            seed in 0u64..1000,
            before in "[ =:'`\".a-z]{0,3}",
            after in r#"[ =:'`".\-+/~_a-zA-Z0-9\n]{0,4}"#,
            edits in proptest::collection::vec(
                (proptest::prelude::any::<proptest::sample::Index>(),
                 proptest::sample::select(b" =:'`\".-+/~_aZ9|>(\n\t".to_vec())),
                0..4,
            ),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            let rule = &ruleset().rules[rule];
            let example = &rule.info.examples[seed as usize % rule.info.examples.len()];
            let mut hay = format!("{before}{}{after}", testgen::expand(example, seed)).into_bytes();
            for (at, byte) in edits {
                let at = at.index(hay.len());
                hay[at] = byte;
            }
            let cut = hay.len() - cut.index(4.min(hay.len() + 1));
            assert_same_values(rule, &hay[..cut]);
        }
    }
}
