//! Escaping for every output format. Project-controlled text (names, paths, content) must
//! stay literal data in the document that carries it.

/// Escape text for inline Markdown: every ASCII punctuation character that CommonMark can
/// treat as syntax gets a backslash (CommonMark allows escaping any ASCII punctuation), so
/// emphasis, links, HTML, entities, list and heading markers all stay literal. Control
/// characters (including newlines) are shown as Unicode control pictures so a name can never
/// start a new Markdown line.
pub fn markdown_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '<' | '>' | '(' | ')' | '#' | '+'
            | '-' | '.' | '!' | '|' | '&' | '~' | ':' | '$' | '@' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(control_picture(c)),
            c => out.push(c),
        }
    }
    out
}

/// Text formats: control characters become Unicode control pictures (one line per name).
pub fn text_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                control_picture(c)
            } else {
                c
            }
        })
        .collect()
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
        assert_eq!(
            markdown_inline("*[x](y)<b>&amp;"),
            r"\*\[x\]\(y\)\<b\>\&amp;"
        );
        assert_eq!(markdown_inline("a\nb"), "a\u{240a}b");
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
