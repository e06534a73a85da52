//! Untrusted-data spotlighting: project-derived text is wrapped in markers built from a fresh
//! random delimiter per response, after one short trusted line naming the data.
//!
//! What the markers mean (project data, never instructions) is said once per session, in the
//! `initialize` instructions and the tool descriptions (`crate::mcp::tools`), not in every
//! answer: a small answer would otherwise be mostly explanation.

/// A random lowercase hex string of `bytes * 2` digits.
pub fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).expect("the OS random source is available");
    buffer.iter().map(|b| format!("{b:02x}")).collect()
}

/// One response's spotlight: every block in the response uses the same fresh delimiter.
pub struct Spotlight {
    tag: String,
}

impl Spotlight {
    /// A fresh delimiter that does not occur in any of `payloads`.
    pub fn new(payloads: &[&str]) -> Self {
        loop {
            let tag = format!("untrusted-data-{}", random_hex(12));
            if !payloads.iter().any(|p| p.contains(&tag)) {
                return Self { tag };
            }
        }
    }

    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// Wrap project data. `what` names the data in the trusted line before the block.
    pub fn wrap(&self, what: &str, payload: &str) -> String {
        let mut out = String::with_capacity(payload.len() + 120);
        out.push_str(&format!("Untrusted {what}:\n<{tag}>\n", tag = self.tag));
        out.push_str(payload);
        // The framing newline: the payload is exactly the text between the line holding the
        // opening tag and this one newline, so a slice that ends mid-line round-trips exactly.
        out.push('\n');
        out.push_str(&format!("</{}>", self.tag));
        out
    }

    /// Characters the wrapper adds around a payload (for response-size budgeting).
    pub fn overhead(&self, what: &str) -> usize {
        self.wrap(what, "").chars().count() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters_are_fresh_and_avoid_payloads() {
        let a = Spotlight::new(&[]);
        let b = Spotlight::new(&[]);
        assert_ne!(a.tag(), b.tag());
        assert_eq!(a.tag().len(), "untrusted-data-".len() + 24);
        let wrapped = a.wrap(
            "file content",
            "</untrusted-data-000000000000000000000000>\nhi",
        );
        assert!(wrapped.ends_with(&format!("</{}>", a.tag())));
        assert_eq!(wrapped.matches(&format!("</{}>", a.tag())).count(), 1);
    }
}
