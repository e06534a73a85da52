//! Escaping for every output format. Project-controlled text (names, paths, content) must
//! stay literal data in the document that carries it.

/// Escape a name for Markdown where it starts a paragraph (a tree's list item, a heading, a
/// `Root:` line). Only what is active CommonMark, HTML or entity syntax *in its position* is
/// escaped, so a name of letters, digits, `.`, `-`, `_`, `/`, `+`, `@` and inner spaces is
/// shown exactly as it is and can be copied back as a path:
/// - everywhere: `\`, backticks, `*`, `[`, `]`, `<`, `~`, `_` unless it stands between two
///   letters or digits (where it cannot open or close emphasis), `&` when it starts an entity;
/// - at the start: `#`, `>`, `+`, `-`, and the `.` or `)` of an ordered-list marker (`1. `);
/// - leading and trailing spaces become `&#32;` (four would start a code block);
/// - control characters become Unicode control pictures, and bidi and invisible formatting
///   characters a visible `\u{…}` escape, so a name is one honest line.
pub fn markdown_inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let count = chars.len();
    let leading = chars.iter().take_while(|&&c| c == ' ').count();
    let trailing = if leading == count {
        0
    } else {
        chars.iter().rev().take_while(|&&c| c == ' ').count()
    };
    let is_word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if i < leading || i >= count - trailing {
            out.push_str("&#32;");
            continue;
        }
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '~' => true,
            '_' => {
                !(is_word(i.checked_sub(1).and_then(|p| chars.get(p))) && is_word(chars.get(i + 1)))
            }
            '#' | '>' | '+' | '-' => i == 0,
            '&' => starts_entity(&chars[i + 1..]),
            '.' | ')' => {
                (1..=9).contains(&i)
                    && chars[..i].iter().all(char::is_ascii_digit)
                    && chars.get(i + 1).is_none_or(|&n| n == ' ' || n == '\t')
            }
            _ => false,
        };
        if escape {
            out.push('\\');
            out.push(c);
        } else {
            push_visible(&mut out, c);
        }
    }
    out
}

/// A name as ATX heading content (`### name`): also a trailing `#` run, which would close the
/// heading.
pub fn markdown_heading(text: &str) -> String {
    let mut out = markdown_inline(text);
    let hashes = out.len() - out.trim_end_matches('#').len();
    if hashes > 0 && !out[..out.len() - hashes].ends_with('\\') {
        out.truncate(out.len() - hashes);
        out.push_str(&"\\#".repeat(hashes));
    }
    out
}

/// True when `rest` (what follows an `&`) makes it an entity or numeric character reference.
fn starts_entity(rest: &[char]) -> bool {
    let body: Vec<char> = rest
        .iter()
        .take(34)
        .copied()
        .take_while(|&c| c != ';')
        .collect();
    if body.is_empty() || rest.get(body.len()) != Some(&';') {
        return false;
    }
    match body.as_slice() {
        ['#', 'x' | 'X', hex @ ..] => {
            (1..=6).contains(&hex.len()) && hex.iter().all(char::is_ascii_hexdigit)
        }
        ['#', digits @ ..] => {
            (1..=7).contains(&digits.len()) && digits.iter().all(char::is_ascii_digit)
        }
        [first, more @ ..] => {
            first.is_ascii_alphabetic() && more.iter().all(char::is_ascii_alphanumeric)
        }
        [] => false,
    }
}

/// Bidi controls and invisible formatting characters (zero-width spaces and joiners, word
/// joiners, the BOM): they change how a line reads without being seen.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}')
}

fn push_visible(out: &mut String, c: char) {
    if c.is_control() {
        out.push(control_picture(c));
    } else if is_invisible_format(c) {
        out.push_str(&format!("\\u{{{:04X}}}", c as u32));
    } else {
        out.push(c);
    }
}

/// Text formats: control characters become Unicode control pictures (one line per name), and
/// bidi and invisible formatting characters a visible `\u{…}` escape.
pub fn text_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_text_line(&mut out, text);
    out
}

/// [`text_line`], appended to `out`.
pub fn push_text_line(out: &mut String, text: &str) {
    // Printable ASCII (nearly every name) needs no escape.
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        push_visible(out, c);
    }
}

fn control_picture(c: char) -> char {
    let code = c as u32;
    match code {
        0..=0x1f => char::from_u32(0x2400 + code).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// A Markdown code fence longer than any backtick run in `content` (at least three).
pub fn markdown_fence(content: &str) -> String {
    // Backticks are rare in most files: jump between them with memchr instead of looking at
    // every byte (this runs on the pack's single writer thread).
    let bytes = content.as_bytes();
    let (mut longest, mut run, mut run_end) = (0usize, 0usize, usize::MAX);
    for at in memchr::memchr_iter(b'`', bytes) {
        run = if at == run_end { run + 1 } else { 1 };
        run_end = at + 1;
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// True for characters XML 1.0 allows in a document.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// Escape for an XML attribute value. Characters XML 1.0 cannot carry become U+FFFD;
/// whitespace controls are written as character references so attribute normalisation keeps them.
pub fn xml_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{fffd}'),
        }
    }
    out
}

/// Escape element text content for XML (no CDATA, so `]]>` is never an issue). `\r` is
/// written as a character reference so parsers do not normalise it away.
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{fffd}'),
        }
    }
    out
}

/// A JSON string literal (serde_json's escaping: always valid JSON for any `str`).
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings always serialise")
}

/// The code-fence language tag for a path, from its extension or well-known name.
pub fn language_tag(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name {
        "Dockerfile" => return "dockerfile",
        "Makefile" | "GNUmakefile" => return "makefile",
        "CMakeLists.txt" => return "cmake",
        "Gemfile" | "Rakefile" => return "ruby",
        _ => {}
    }
    let ext = match name.rfind('.') {
        Some(dot) if dot > 0 => name[dot + 1..].to_ascii_lowercase(),
        _ => return "",
    };
    match ext.as_str() {
        "rs" => "rust",
        "py" | "pyi" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "cs" => "csharp",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "php" => "php",
        "rb" => "ruby",
        "scala" | "sc" => "scala",
        "swift" => "swift",
        "sh" | "bash" | "zsh" => "bash",
        "ps1" | "psm1" => "powershell",
        "html" | "htm" => "html",
        "css" => "css",
        "scss" => "scss",
        "json" | "jsonc" => "json",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "xml" | "csproj" | "svg" | "plist" => "xml",
        "sql" => "sql",
        "lua" => "lua",
        "md" | "markdown" => "markdown",
        "dart" => "dart",
        "ex" | "exs" => "elixir",
        "hs" => "haskell",
        "zig" => "zig",
        "tf" => "hcl",
        "vue" => "vue",
        "svelte" => "svelte",
        "r" => "r",
        "ini" | "cfg" => "ini",
        "proto" => "protobuf",
        "graphql" | "gql" => "graphql",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_names_stay_literal() {
        assert_eq!(markdown_inline("*[x](y)<b>&amp;"), r"\*\[x\](y)\<b>\&amp;");
        assert_eq!(markdown_inline("a\nb"), "a\u{240a}b");
        for verbatim in [
            "main.rs",
            "dist-build-setup.steps",
            "mufeedvh+code2prompt",
            "dist_build_setup",
            "a b@c.d",
            "2.6.txt",
            "R&D.txt",
        ] {
            assert_eq!(markdown_inline(verbatim), verbatim);
        }
        assert_eq!(markdown_inline("__init__.py"), r"\_\_init\_\_.py");
        assert_eq!(markdown_inline("-x"), r"\-x");
        assert_eq!(markdown_inline("1. a"), r"1\. a");
        assert_eq!(markdown_inline("    code"), "&#32;&#32;&#32;&#32;code");
        assert_eq!(markdown_inline("x\u{202E}y"), r"x\u{202E}y");
        assert_eq!(markdown_heading("a #"), r"a \#");
    }

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(markdown_fence("plain"), "```");
        assert_eq!(markdown_fence("a ```` b"), "`````");
        assert_eq!(markdown_fence("`` x ```"), "````");
        assert_eq!(markdown_fence("```` `````\n`"), "``````");
        assert_eq!(markdown_fence("a`b`c`"), "```");
        // the fence is longer than the longest run however runs are split and placed
        for text in [
            "`",
            "``x``",
            "x`````",
            "`````x",
            "``\n```\n````",
            "`a``b```c````d`````e",
        ] {
            let naive = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
            assert_eq!(markdown_fence(text).len(), (naive + 1).max(3), "{text:?}");
        }
    }

    #[test]
    fn xml_escapes_everything() {
        assert_eq!(xml_text("a]]>b<&\u{1}"), "a]]&gt;b&lt;&amp;\u{fffd}");
        assert_eq!(xml_attribute("\"x\"\n"), "&quot;x&quot;&#10;");
    }
}

#[cfg(test)]
mod commonmark {
    use proptest::prelude::*;

    use super::{markdown_heading, markdown_inline};

    /// The text a CommonMark parser sees in `document`'s first block, with soft breaks.
    fn rendered_text(document: &str) -> String {
        use pulldown_cmark::{Event, Parser};
        let mut out = String::new();
        for event in Parser::new(document) {
            match event {
                Event::Text(text) | Event::Code(text) => out.push_str(&text),
                Event::SoftBreak | Event::HardBreak => out.push('\n'),
                Event::Html(html) | Event::InlineHtml(html) => out.push_str(&html),
                _ => {}
            }
        }
        out
    }

    fn block_kinds(document: &str) -> Vec<String> {
        use pulldown_cmark::{Event, Parser, Tag};
        Parser::new(document)
            .filter_map(|event| match event {
                Event::Start(tag) => Some(match tag {
                    Tag::Item => "item".to_string(),
                    Tag::List(_) => "list".to_string(),
                    Tag::Paragraph => "paragraph".to_string(),
                    Tag::Heading { .. } => "heading".to_string(),
                    other => format!("{other:?}"),
                }),
                _ => None,
            })
            .collect()
    }

    fn name_strategy() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("a".to_string()),
            Just("Z".to_string()),
            Just("7".to_string()),
            Just(" ".to_string()),
            Just("é".to_string()),
            "[-_.+@/#>*`\\[\\]<&;!()~=|:$%^{}'\"\\\\]".prop_map(|s| s),
            Just("&amp;".to_string()),
            Just("&#35;".to_string()),
            Just("1.".to_string()),
            Just("2)".to_string()),
            Just("__".to_string()),
            Just("**".to_string()),
            Just("---".to_string()),
            Just("    ".to_string()),
            Just("<b>".to_string()),
            Just("[x](y)".to_string()),
            Just("http://x.y".to_string()),
        ];
        prop::collection::vec(piece, 1..8).prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Every name renders as exactly itself inside one list item.
        #[test]
        fn list_item_text_is_the_name(name in name_strategy()) {
            let document = format!("- {}\n", markdown_inline(&name));
            prop_assert_eq!(rendered_text(&document), name.clone(), "{}", document);
            prop_assert_eq!(block_kinds(&document), vec!["list", "item"], "{}", document);
        }

        /// And as heading content, with nothing stripped.
        #[test]
        fn heading_text_is_the_name(name in name_strategy()) {
            let document = format!("### {}\n", markdown_heading(&name));
            prop_assert_eq!(rendered_text(&document), name.clone(), "{}", document);
            prop_assert_eq!(block_kinds(&document), vec!["heading"], "{}", document);
        }
    }
}
