//! The language table: grammar, query files and collapse style per language.
//!
//! Adding a language is one [`LangSpec`] entry here, a grammar crate, and the two query files
//! `queries/<lang>/comments.scm` and `queries/<lang>/bodies.scm`.

use std::sync::OnceLock;

use tree_sitter::{Language, Node, Query};

use crate::macros::{Macros, View};

/// How a captured `@body` is replaced by `signatures`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Collapse {
    /// The captured node includes its braces and becomes `{ /* ... */ }`.
    Braces,
    /// Python: the `block` becomes `...`, keeping a leading docstring.
    PythonBlock,
    /// Ruby: the `body_statement` becomes a `# ...` line; `def ... end` stays.
    RubyBody,
}

/// One supported language.
pub(crate) struct LangSpec {
    /// Stable lowercase name, returned by [`crate::language_name`].
    pub name: &'static str,
    /// The tree-sitter grammar.
    pub language: fn() -> Language,
    /// `queries/<lang>/comments.scm`: captures `@comment`, `@keep` (doc comments), `@documented`
    /// (a declaration whose comment group above is its doc), `@directive`, `@preambled` and
    /// `@directive_block` (kept whole), `@verbatim`, `@text` and `@blank_lines_after` (see
    /// `docs/detail-levels.md`, "Adding a language").
    pub comments: &'static str,
    /// `queries/<lang>/bodies.scm`: captures `@body`, `@keep`, `@open` (empty: no collapsing)
    /// and `@doc` (a docstring `signatures` cuts to its summary).
    pub bodies: &'static str,
    /// How bodies are collapsed.
    pub collapse: Collapse,
    /// Markup language: a removed comment never leaves a space behind (text nodes join).
    pub markup: bool,
    /// How parse errors limit the edits.
    pub tolerance: Tolerance,
    /// `queries/<lang>/macros.txt` lists (C, C++): macros read as what they expand to for the
    /// parse (`crate::macros`).
    pub macros: &'static [&'static str],
    /// C++: raw string literals (`R"x(...)x"`), which the macro scanner must skip.
    pub raw_strings: bool,
    /// Doxygen block commands (`@param`, `\return`) end a doc comment's summary (C, C++).
    pub doc_tags: bool,
    /// A one-line body collapses too when its code is longer than the placeholder (C, C++:
    /// a header's inline members, `{ return _M_impl._M_start; }`, are implementation). In the
    /// other languages one-line bodies stay.
    pub short_bodies: bool,
    /// C and C++ (`crate::c_family`): a function definition whose name is not qualified
    /// becomes its declaration (`T f() const;`), and long tables of constant `#define`s keep
    /// their first lines.
    pub c_family: bool,
    /// TypeScript: the parse reads type parameters' variance annotations as blanks
    /// (`crate::variance`).
    pub variance_annotations: bool,
}

/// What a parse error does to a file's edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tolerance {
    /// Any parse error leaves the file unchanged. Shell: after an error tree-sitter-bash can
    /// read a heredoc's text as commands and comments.
    None,
    /// A file with more than a few errors, or errors over a small share of its bytes, is left
    /// unchanged; below that, no edit touches an error's neighbourhood.
    File,
    /// No edit touches an error's neighbourhood, however many there are; errors the grammar
    /// makes on known macro idioms do not count (C and C++, whose grammars cannot see through
    /// macros: most real files have some).
    PerNode,
}

impl LangSpec {
    /// The comment text a collapsed body leaves behind; it is kept at every level, which makes
    /// the transforms idempotent.
    pub(crate) fn placeholder_comment(&self) -> &'static str {
        match self.collapse {
            Collapse::Braces => "/* ... */",
            Collapse::RubyBody => "# ...",
            Collapse::PythonBlock => "",
        }
    }
}

macro_rules! queries {
    ($dir:literal) => {
        (
            include_str!(concat!("../queries/", $dir, "/comments.scm")),
            include_str!(concat!("../queries/", $dir, "/bodies.scm")),
        )
    };
}

const fn spec(
    name: &'static str,
    language: fn() -> Language,
    q: (&'static str, &'static str),
    collapse: Collapse,
    markup: bool,
) -> LangSpec {
    LangSpec {
        name,
        language,
        comments: q.0,
        bodies: q.1,
        collapse,
        markup,
        tolerance: Tolerance::File,
        macros: &[],
        raw_strings: false,
        doc_tags: false,
        short_bodies: false,
        c_family: false,
        variance_annotations: false,
    }
}

/// `spec` for TypeScript: variance annotations read as blanks for the parse.
const fn with_variance_annotations(mut spec: LangSpec) -> LangSpec {
    spec.variance_annotations = true;
    spec
}

/// `spec` for a language whose files are left unchanged on any parse error.
const fn without_error_tolerance(mut spec: LangSpec) -> LangSpec {
    spec.tolerance = Tolerance::None;
    spec
}

/// `spec` for C and C++: tolerance per node, macros read as they expand, Doxygen doc comments,
/// one-line bodies collapsed.
const fn with_macros(
    mut spec: LangSpec,
    macros: &'static [&'static str],
    raw_strings: bool,
) -> LangSpec {
    spec.tolerance = Tolerance::PerNode;
    spec.macros = macros;
    spec.raw_strings = raw_strings;
    spec.doc_tags = true;
    spec.short_bodies = true;
    spec.c_family = true;
    spec
}

const C_MACROS: &str = include_str!("../queries/c/macros.txt");
const CPP_MACROS: &str = include_str!("../queries/cpp/macros.txt");

use Collapse::{Braces, PythonBlock, RubyBody};

/// Every supported language. Index = language id.
pub(crate) static LANGS: &[LangSpec] = &[
    spec(
        "rust",
        || tree_sitter_rust::LANGUAGE.into(),
        queries!("rust"),
        Braces,
        false,
    ),
    spec(
        "go",
        || tree_sitter_go::LANGUAGE.into(),
        queries!("go"),
        Braces,
        false,
    ),
    spec(
        "python",
        || tree_sitter_python::LANGUAGE.into(),
        queries!("python"),
        PythonBlock,
        false,
    ),
    spec(
        "javascript",
        || tree_sitter_javascript::LANGUAGE.into(),
        queries!("javascript"),
        Braces,
        false,
    ),
    with_variance_annotations(spec(
        "typescript",
        || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        // TypeScript's grammar extends JavaScript's: the same node names, the same queries.
        queries!("javascript"),
        Braces,
        false,
    )),
    with_variance_annotations(spec(
        "tsx",
        || tree_sitter_typescript::LANGUAGE_TSX.into(),
        queries!("javascript"),
        Braces,
        false,
    )),
    spec(
        "java",
        || tree_sitter_java::LANGUAGE.into(),
        queries!("java"),
        Braces,
        false,
    ),
    spec(
        "kotlin",
        || tree_sitter_kotlin_ng::LANGUAGE.into(),
        queries!("kotlin"),
        Braces,
        false,
    ),
    spec(
        "csharp",
        || tree_sitter_c_sharp::LANGUAGE.into(),
        queries!("csharp"),
        Braces,
        false,
    ),
    with_macros(
        spec(
            "c",
            || tree_sitter_c::LANGUAGE.into(),
            queries!("c"),
            Braces,
            false,
        ),
        &[C_MACROS],
        false,
    ),
    // `.h` files are C++ (below), and C headers use C's macros too.
    with_macros(
        spec(
            "cpp",
            || tree_sitter_cpp::LANGUAGE.into(),
            queries!("cpp"),
            Braces,
            false,
        ),
        &[C_MACROS, CPP_MACROS],
        true,
    ),
    spec(
        "php",
        || tree_sitter_php::LANGUAGE_PHP.into(),
        queries!("php"),
        Braces,
        false,
    ),
    spec(
        "ruby",
        || tree_sitter_ruby::LANGUAGE.into(),
        queries!("ruby"),
        RubyBody,
        false,
    ),
    spec(
        "scala",
        || tree_sitter_scala::LANGUAGE.into(),
        queries!("scala"),
        Braces,
        false,
    ),
    spec(
        "swift",
        || tree_sitter_swift::LANGUAGE.into(),
        queries!("swift"),
        Braces,
        false,
    ),
    without_error_tolerance(spec(
        "bash",
        || tree_sitter_bash::LANGUAGE.into(),
        queries!("bash"),
        Braces,
        false,
    )),
    spec(
        "html",
        || tree_sitter_html::LANGUAGE.into(),
        queries!("html"),
        Braces,
        true,
    ),
    spec(
        "css",
        || tree_sitter_css::LANGUAGE.into(),
        queries!("css"),
        Braces,
        false,
    ),
    spec(
        "scss",
        tree_sitter_scss::language,
        queries!("scss"),
        Braces,
        false,
    ),
    spec(
        "toml",
        || tree_sitter_toml_ng::LANGUAGE.into(),
        queries!("toml"),
        Braces,
        false,
    ),
    spec(
        "yaml",
        || tree_sitter_yaml::LANGUAGE.into(),
        queries!("yaml"),
        Braces,
        false,
    ),
    spec(
        "xml",
        || tree_sitter_xml::LANGUAGE_XML.into(),
        queries!("xml"),
        Braces,
        true,
    ),
    spec(
        "sql",
        || tree_sitter_sequel::LANGUAGE.into(),
        queries!("sql"),
        Braces,
        false,
    ),
    spec(
        "lua",
        || tree_sitter_lua::LANGUAGE.into(),
        queries!("lua"),
        Braces,
        false,
    ),
];

/// Language id for a project-relative path (`/`-separated), from its file name or extension.
pub(crate) fn lang_for_path(path: &str) -> Option<usize> {
    let file = path.rsplit('/').next().unwrap_or(path);
    if !file.contains('.') && in_cpp_include_dir(path) {
        // The C++ standard library's headers have no extension (`include/c++/12/vector`).
        return LANGS.iter().position(|l| l.name == "cpp");
    }
    let name = match file {
        "Rakefile" | "Gemfile" | "Guardfile" | "Podfile" | "Vagrantfile" | "Brewfile"
        | "Fastfile" => "ruby",
        "Cargo.lock" | "Pipfile" | "poetry.lock" | "uv.lock" => "toml",
        ".bashrc" | ".bash_profile" | ".bash_aliases" | ".profile" | "PKGBUILD" | "APKBUILD" => {
            "bash"
        }
        _ => {
            let ext = file.rsplit_once('.')?.1.to_ascii_lowercase();
            match ext.as_str() {
                "rs" => "rust",
                "go" => "go",
                "py" | "pyi" | "pyw" => "python",
                "js" | "mjs" | "cjs" | "jsx" => "javascript",
                "ts" | "mts" | "cts" => "typescript",
                "tsx" => "tsx",
                "java" => "java",
                "kt" | "kts" => "kotlin",
                "cs" => "csharp",
                "c" => "c",
                // `.h` goes to C++: its grammar also parses C headers, the C grammar not C++ ones.
                // `.tcc`: libstdc++'s template definitions.
                "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "ipp"
                | "inl" | "tpp" | "tcc" => "cpp",
                "php" | "phtml" => "php",
                "rb" | "rake" | "gemspec" | "ru" => "ruby",
                "scala" | "sc" | "sbt" => "scala",
                "swift" => "swift",
                "sh" | "bash" => "bash",
                "html" | "htm" | "xhtml" => "html",
                "css" => "css",
                "scss" => "scss",
                "toml" => "toml",
                "yaml" | "yml" => "yaml",
                "xml" | "xsd" | "xsl" | "xslt" | "svg" | "plist" | "csproj" | "vbproj"
                | "fsproj" | "props" | "targets" | "nuspec" | "resx" | "xaml" | "pom" => "xml",
                "sql" => "sql",
                "lua" => "lua",
                _ => return None,
            }
        }
    };
    LANGS.iter().position(|l| l.name == name)
}

/// Whether `path` lies under an `include/c++/` directory (GCC's and Clang's standard library
/// headers: `/usr/include/c++/12/`, `include/c++/v1/`).
fn in_cpp_include_dir(path: &str) -> bool {
    let mut segments = path.split('/');
    let mut previous = segments.next();
    for segment in segments {
        if segment == "c++" && previous == Some("include") {
            return true;
        }
        previous = Some(segment);
    }
    false
}

/// Language id for a file whose path names no language: a file name without extension whose
/// first line carries an Emacs mode line for C or C++ (`// <vector> -*- C++ -*-`, as every
/// extension-less header of libstdc++ does), so such headers are recognised wherever the
/// project root is.
pub(crate) fn lang_for_mode_line(path: &str, text: &str) -> Option<usize> {
    let file = path.rsplit('/').next().unwrap_or(path);
    if file.contains('.') {
        return None;
    }
    let line = text.lines().next()?;
    let (_, rest) = line.split_once("-*-")?;
    let (mode, _) = rest.split_once("-*-")?;
    // `-*- C++ -*-` or `-*- mode: c++; ... -*-`.
    let mode = mode
        .split(';')
        .map(str::trim)
        .find_map(|v| match v.split_once(':') {
            Some((key, value)) if key.trim().eq_ignore_ascii_case("mode") => Some(value.trim()),
            Some(_) => None,
            None => Some(v),
        })?;
    let name = if mode.eq_ignore_ascii_case("c++") {
        "cpp"
    } else if mode.eq_ignore_ascii_case("c") {
        "c"
    } else {
        return None;
    };
    LANGS.iter().position(|l| l.name == name)
}

/// A language's grammar and compiled queries, built once and shared by all threads.
pub(crate) struct Compiled {
    pub language: Language,
    pub comments: Query,
    pub bodies: Option<Query>,
    /// Per node kind id: a `bodies` pattern starts at such a node. `None` when a pattern's first
    /// node is not a named kind (a wildcard or a group of siblings): the query then runs over the
    /// whole tree.
    pub body_roots: Option<Vec<bool>>,
    /// The same for the `comments` query.
    pub comment_roots: Option<Vec<bool>>,
    /// Per node kind id: lines inside such a node are never dropped (strings, heredocs, comments).
    pub verbatim_kind: Vec<bool>,
    /// Per node kind id: string-like (a "comment" inside one is text, whatever the grammar says).
    pub string_kind: Vec<bool>,
    /// Per node kind id: a comment (`compact` removes it unless a query keeps it).
    pub comment_kind: Vec<bool>,
    /// Macros read as they expand for the parse (C, C++; empty elsewhere).
    pub macros: Macros,
    /// [`LangSpec::variance_annotations`].
    pub variance_annotations: bool,
}

impl Compiled {
    /// The text the grammar parses, byte for byte aligned with `text`: C's and C++'s macros
    /// read as they expand ([`Macros::view`]), TypeScript's variance annotations blanked
    /// (`crate::variance`).
    pub(crate) fn view<'a>(&self, text: &'a str) -> View<'a> {
        if self.variance_annotations {
            return View {
                text: crate::variance::view(text),
                groups: Vec::new(),
            };
        }
        self.macros.view(text)
    }

    /// Whether `node` is a comment (of any kind the grammar has).
    pub(crate) fn is_comment(&self, node: Node<'_>) -> bool {
        self.comment_kind
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// Builds the grammar and queries of one language. Errors name the query file.
pub(crate) fn compile(spec: &LangSpec) -> Result<Compiled, String> {
    let language = (spec.language)();
    let comments = Query::new(&language, spec.comments)
        .map_err(|e| format!("queries/{}/comments.scm: {e}", spec.name))?;
    let has_patterns = spec
        .bodies
        .lines()
        .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'));
    let bodies = if has_patterns {
        Some(
            Query::new(&language, spec.bodies)
                .map_err(|e| format!("queries/{}/bodies.scm: {e}", spec.name))?,
        )
    } else {
        None
    };
    let body_roots = bodies
        .as_ref()
        .and_then(|q| pattern_roots(&language, q, spec.bodies));
    let comment_roots = pattern_roots(&language, &comments, spec.comments);
    let count = language.node_kind_count();
    // Values whose line breaks are part of the value: a blank line inside a quoted or plain
    // YAML scalar is a newline of the string, and inside an XML or HTML attribute value it is
    // whitespace the attribute keeps.
    const STRINGS: [&str; 12] = [
        "string",
        "heredoc",
        "nowdoc",
        "text_block",
        "block_scalar",
        "cdsect",
        "chardata",
        "quote_scalar",
        "plain_scalar",
        "attvalue",
        "entityvalue",
        "attribute_value",
    ];
    let kinds: Vec<String> = (0..count)
        .map(|id| {
            language
                .node_kind_for_id(id as u16)
                .unwrap_or("")
                .to_ascii_lowercase()
        })
        .collect();
    let string_kind: Vec<bool> = kinds
        .iter()
        .map(|k| STRINGS.iter().any(|p| k.contains(p)))
        .collect();
    // `marginalia` is the SQL grammar's name for its comments
    let comment_kind: Vec<bool> = kinds
        .iter()
        .map(|k| k.contains("comment") || k == "marginalia")
        .collect();
    let verbatim_kind = string_kind
        .iter()
        .zip(&comment_kind)
        .map(|(&s, &c)| s || c)
        .collect();
    let macros = Macros::parse(spec.macros, spec.raw_strings)
        .map_err(|e| format!("queries/{}/macros.txt: {e}", spec.name))?;
    Ok(Compiled {
        macros,
        variance_annotations: spec.variance_annotations,
        language,
        comments,
        bodies,
        body_roots,
        comment_roots,
        verbatim_kind,
        string_kind,
        comment_kind,
    })
}

/// Per node kind id, whether some pattern of `query` starts with a node of that kind; `None`
/// when a pattern has no single root node (`((a) . (b))`, `(_ ...)`, `[...]`).
fn pattern_roots(language: &Language, query: &Query, source: &str) -> Option<Vec<bool>> {
    let mut roots = vec![false; language.node_kind_count()];
    for i in 0..query.pattern_count() {
        if !query.is_pattern_rooted(i) {
            return None;
        }
        // `(kind ...)`, or `((kind ...) predicates...)`.
        let rest = source[query.start_byte_for_pattern(i)..]
            .trim_start_matches(|c: char| c == '(' || c.is_whitespace());
        let name = &rest[..rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())];
        if name.is_empty() || name == "_" {
            return None;
        }
        let mut found = false;
        for (id, root) in roots.iter_mut().enumerate() {
            let id = id as u16;
            if language.node_kind_is_named(id) && language.node_kind_for_id(id) == Some(name) {
                *root = true;
                found = true;
            }
        }
        if !found {
            return None;
        }
    }
    Some(roots)
}

/// The compiled form of language `id`, or `None` if its queries do not compile (which a test
/// rules out for every shipped language).
pub(crate) fn compiled(id: usize) -> Option<&'static Compiled> {
    static CACHE: OnceLock<Vec<OnceLock<Option<Compiled>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| LANGS.iter().map(|_| OnceLock::new()).collect());
    cache[id].get_or_init(|| compile(&LANGS[id]).ok()).as_ref()
}
