//! `find_symbol` is no oracle on what redaction hides (issue 35): it screened raw bytes for
//! the name, so a file holding `sk_live_…` answered "1 file that contains the name is larger
//! than 4 MiB and not parsed" for every right prefix of the key, and a smaller one took 400
//! times longer to answer when the next character was right. Now every prefix gets the same
//! answer, and the time does not depend on whether the raw bytes hold the name.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Fixture, Mcp};

const KEY: &str = "sk_live_4eC39HqLyjWDarjtT1zdp7dcQx8vN2Kb";

/// A bundle of `functions` one-line functions holding the key on its first line.
fn bundle(functions: usize) -> String {
    let mut text = format!("const STRIPE = \"{KEY}\";\n");
    for i in 0..functions {
        text.push_str(&format!("function f{i}(a){{return a+{i}}}\n"));
    }
    text
}

/// The answer to `name`, with the name itself written as `NAME`.
fn answer(mcp: &mut Mcp, name: &str) -> String {
    let result: Value = mcp.call("find_symbol", json!({"name": name}));
    result.to_string().replace(name, "NAME")
}

/// A character that does not come next in the key after `prefix`.
fn wrong_next(prefix_len: usize) -> char {
    let right = KEY.as_bytes()[prefix_len] as char;
    if right == 'Z' { 'Y' } else { 'Z' }
}

#[test]
fn every_prefix_of_a_redacted_key_gets_the_same_answer() {
    let fx = Fixture::new();
    // over 4 MiB: the size notice was the oracle
    let big = bundle(170_000);
    assert!(big.len() > 4 * 1024 * 1024);
    fx.write("dist/bundle.js", &big)
        .write("src/app.js", "function start() {}\n");
    let mut mcp = Mcp::start(&fx.root);
    let shown = mcp.call_ok(
        "search_project",
        json!({"pattern": "STRIPE = ", "include_patterns": ["dist/**"]}),
    );
    assert!(shown.contains("[REDACTED:"), "{shown}");
    let reference = answer(&mut mcp, "sk_live_Z");
    for prefix_len in [8, 9, 12, 20, KEY.len() - 1] {
        let prefix = &KEY[..prefix_len];
        let right = format!("{prefix}{}", &KEY[prefix_len..prefix_len + 1]);
        let wrong = format!("{prefix}{}", wrong_next(prefix_len));
        assert_eq!(answer(&mut mcp, &right), reference, "{right}");
        assert_eq!(answer(&mut mcp, &wrong), reference, "{wrong}");
    }
    assert_eq!(answer(&mut mcp, KEY), reference);
    assert!(!reference.contains("4 MiB"), "{reference}");
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[test]
fn the_time_of_an_answer_does_not_tell_a_right_next_character() {
    let fx = Fixture::new();
    // parsing this bundle is what a right prefix used to cost (redaction is paid either way)
    fx.write("dist/bundle.js", bundle(20_000))
        .write("src/app.js", "function start() {}\n");
    let mut mcp = Mcp::start(&fx.root);
    let prefix_len = 12;
    let right = &KEY[..prefix_len + 1];
    let wrong = format!("{}{}", &KEY[..prefix_len], wrong_next(prefix_len));
    let timed = |mcp: &mut Mcp, name: &str| {
        let started = Instant::now();
        mcp.call("find_symbol", json!({"name": name}));
        started.elapsed()
    };
    // warm both paths, then interleave (alternating which goes first) so that load on the
    // machine falls on both alike; medians ignore the odd slow call
    for _ in 0..2 {
        timed(&mut mcp, right);
        timed(&mut mcp, &wrong);
    }
    let (mut rights, mut wrongs) = (Vec::new(), Vec::new());
    for round in 0..25 {
        if round % 2 == 0 {
            rights.push(timed(&mut mcp, right));
            wrongs.push(timed(&mut mcp, &wrong));
        } else {
            wrongs.push(timed(&mut mcp, &wrong));
            rights.push(timed(&mut mcp, right));
        }
    }
    let (right, wrong) = (median(rights), median(wrongs));
    let (low, high) = if right < wrong {
        (right, wrong)
    } else {
        (wrong, right)
    };
    assert!(
        high.as_secs_f64() <= low.as_secs_f64() * 1.2,
        "median time with the right next character {right:?}, with a wrong one {wrong:?}: more than 20 % apart"
    );
}
