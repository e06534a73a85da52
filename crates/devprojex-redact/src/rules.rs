//! The secret rule set: parsed once from the embedded `rules.toml` and compiled into one
//! keyword automaton plus one regex per rule.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};
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
    #[serde(default)]
    secret_group: Option<i64>,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default = "default_true")]
    placeholder_check: bool,
    #[serde(default)]
    case_sensitive_keywords: bool,
    #[serde(default)]
    allowlist: RawAllowlist,
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
    pub(crate) regex: Option<Regex>,
    /// The shortest text the regex can match: a haystack shorter than this is not searched.
    pub(crate) min_len: usize,
    /// The capture group holding the secret; `None`: the first group that participated.
    pub(crate) secret_group: Option<usize>,
    pub(crate) entropy: Option<f64>,
    pub(crate) placeholder_check: bool,
    pub(crate) allow_regexes: Vec<Regex>,
    pub(crate) stopwords: Vec<String>,
    pub(crate) info: RuleInfo,
}

/// The compiled rule set.
pub(crate) struct RuleSet {
    pub(crate) rules: Vec<Rule>,
    pub(crate) keywords: KeywordAutomaton,
    /// For each automaton pattern (a lower-cased keyword): its case variants as written in rules.
    pub(crate) keyword_slots: Vec<Vec<Keyword>>,
    pub(crate) by_id: HashMap<String, u16>,
}

fn compile_regex(id: &str, pattern: &str) -> Result<Regex, RuleError> {
    RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(1 << 22)
        .dfa_size_limit(1 << 22)
        .build()
        .map_err(|e| RuleError::Regex {
            id: id.to_string(),
            source: Box::new(e),
        })
}

/// Parse and compile the embedded rule file.
pub(crate) fn compile(source: &str) -> Result<RuleSet, RuleError> {
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
        if raw.keywords.is_empty() || raw.keywords.iter().any(|k| k.len() < 2) {
            return Err(invalid("needs keywords of at least 2 bytes"));
        }
        if raw.examples.is_empty() {
            return Err(invalid("needs at least one positive example"));
        }
        let (regex, secret_group) = match (&raw.engine, &raw.regex) {
            (Engine::Regex, Some(p)) => {
                let re = compile_regex(&raw.id, p)?;
                let groups = re.captures_len();
                // `\b(...)\b` / `\b(...)`: the only group is the whole match, so a plain `find`
                // (no capture slots) is enough.
                let whole = groups == 2 && group_is_whole_match(p);
                let group = match raw.secret_group {
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
            (Engine::Regex, None) => return Err(invalid("regex engine needs a regex")),
            (_, Some(_)) => return Err(invalid("built-in engines take no regex")),
            (_, None) => (None, None),
        };
        let min_len = match &raw.regex {
            Some(p) => minimum_len(p).map_err(|e| RuleError::Invalid {
                id: raw.id.clone(),
                problem: format!("regex does not parse: {e}"),
            })?,
            None => 0,
        };
        let allow_regexes = raw
            .allowlist
            .regexes
            .iter()
            .map(|p| compile_regex(&raw.id, p))
            .collect::<Result<Vec<_>, _>>()?;
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
            regex: raw.regex,
            entropy: raw.entropy,
            examples: raw.examples,
            negatives: raw.negatives,
        };
        rules.push(Rule {
            id: raw.id,
            engine: raw.engine,
            regex,
            min_len,
            secret_group,
            entropy: raw.entropy,
            placeholder_check: raw.placeholder_check,
            allow_regexes,
            stopwords: raw
                .allowlist
                .stopwords
                .iter()
                .map(|s| s.to_ascii_lowercase())
                .collect(),
            info,
        });
    }
    let automaton =
        KeywordAutomaton::new(&patterns).map_err(|e| RuleError::Keywords(e.to_string()))?;
    Ok(RuleSet {
        rules,
        keywords: automaton,
        keyword_slots,
        by_id,
    })
}

/// The minimum length in bytes of any match of `pattern`, parsed as `compile_regex` compiles it
/// (Unicode off, byte-oriented).
fn minimum_len(pattern: &str) -> Result<usize, Box<regex_syntax::Error>> {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .map_err(Box::new)?;
    Ok(hir.properties().minimum_len().unwrap_or(0))
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
        compile(RULES_TOML).unwrap_or_else(|e| panic!("embedded rules.toml is invalid: {e}"))
    })
}

/// Parse and compile the embedded rule file, reporting the first problem. Returns the number of
/// rules. Used by tests and by `devprojex scan --check-rules`-style diagnostics.
pub fn validate_rules() -> Result<usize, RuleError> {
    compile(RULES_TOML).map(|set| set.rules.len())
}

/// Every secret rule, in file order.
pub fn rule_catalog() -> Vec<RuleInfo> {
    ruleset().rules.iter().map(|r| r.info.clone()).collect()
}

impl Rule {
    /// Whether a candidate secret passes this rule's filters (entropy, allowlists, placeholders).
    pub(crate) fn accepts(&self, secret: &[u8]) -> bool {
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
        let has_stopword = self.stopwords.iter().any(|w| {
            !w.is_empty()
                && secret
                    .windows(w.len())
                    .any(|window| window.eq_ignore_ascii_case(w.as_bytes()))
        });
        if has_stopword {
            return false;
        }
        !self.allow_regexes.iter().any(|re| re.is_match(secret))
    }
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
}
