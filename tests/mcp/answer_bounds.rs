//! Every answer is bounded: `analyze` keeps its text block and `structuredContent` within
//! 50,000 characters however many extensions or how long the paths of its largest files,
//! cutting the lists (the totals stay whole) with the spec's trailer and how to narrow.

use serde_json::{Value, json};

use crate::common::{Fixture, Mcp, all_texts};

const LIMIT: usize = 50_000;

/// The answer's JSON text and structured object, both within the limit; its trailer.
fn bounded_analysis(result: &Value) -> (Value, String) {
    let texts = all_texts(result);
    let json_text = &texts[0];
    assert!(
        json_text.chars().count() <= LIMIT,
        "the JSON text block has {} characters",
        json_text.chars().count()
    );
    let structured = result["structuredContent"].clone();
    assert!(structured.to_string().chars().count() <= LIMIT);
    assert_eq!(
        serde_json::from_str::<Value>(json_text).unwrap(),
        structured,
        "the text block is the structured object"
    );
    let trailer = texts
        .iter()
        .find(|t| t.starts_with("[Analysis truncated at 50,000 characters"))
        .unwrap_or_else(|| panic!("no truncation trailer in {texts:?}"))
        .clone();
    assert!(
        trailer.contains(
            "Narrow with paths, include_patterns or exclude_patterns, or lower top_files"
        ),
        "{trailer}"
    );
    (structured, trailer)
}

#[test]
fn analyze_of_20000_numbered_log_files_stays_within_50000_characters() {
    let fx = Fixture::new();
    for n in 0..20_000 {
        fx.write(&format!("logs/app.log.{n}"), "line\n");
    }
    let mut mcp = Mcp::start(&fx.root);
    let result = mcp.call("analyze", json!({}));
    let (structured, trailer) = bounded_analysis(&result);
    assert_eq!(structured["files"], 20_000, "the totals count every file");
    let shown = structured["extensions"].as_array().unwrap().len();
    assert!(shown > 100 && shown < 20_000, "{shown} extensions shown");
    assert!(
        trailer.contains(&format!("extensions {shown} of 20000")),
        "{trailer}"
    );
}

#[test]
fn analyze_of_a_deep_tree_with_top_files_1000_stays_within_50000_characters() {
    let fx = Fixture::new();
    let deep: String = (0..12)
        .map(|level| format!("{}{level}/", "d".repeat(150)))
        .collect();
    for n in 0..1_000 {
        // Sizes differ, so the largest files come first and the cut takes the smallest.
        fx.write(&format!("{deep}file_{n:04}.txt"), "x".repeat(100 + 4 * n));
    }
    let mut mcp = Mcp::start(&fx.root);
    let result = mcp.call("analyze", json!({"top_files": 1000}));
    let (structured, trailer) = bounded_analysis(&result);
    let largest = structured["largestFiles"].as_array().unwrap();
    assert!(
        !largest.is_empty() && largest.len() < 1_000,
        "{}",
        largest.len()
    );
    assert!(
        largest[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("file_0999.txt")
    );
    assert!(
        trailer.contains(&format!("largestFiles shows {} of 1000", largest.len())),
        "{trailer}"
    );
    // Below the limit nothing is cut and no trailer is added.
    let small = mcp.call("analyze", json!({"top_files": 5}));
    assert!(
        all_texts(&small)
            .iter()
            .all(|t| !t.starts_with("[Analysis truncated")),
        "{small}"
    );
    assert_eq!(
        small["structuredContent"]["largestFiles"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
}
