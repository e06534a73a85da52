//! Tool definitions in the stable order the spec fixes. Written by hand (not with rmcp's
//! router macros, which sort tools alphabetically and fix annotations at compile time).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use crate::tokens::Encoding;

/// The stable tool order (the spec's seven, then the task-directed lookups appended).
pub const TOOL_ORDER: [&str; 9] = [
    "list_projects",
    "get_tree",
    "analyze",
    "pack_context",
    "read_pack",
    "search_project",
    "get_file",
    "find_symbol",
    "related_files",
];

/// The argument names each tool accepts (unknown arguments are rejected).
pub fn allowed_arguments(tool: &str) -> &'static [&'static str] {
    match tool {
        "list_projects" => &[],
        "get_tree" => &[
            "project",
            "branch",
            "include_patterns",
            "exclude_patterns",
            "tracked_only",
            "git_scope",
            "max_file_bytes",
            "max_depth",
            "format",
        ],
        "analyze" => &[
            "project",
            "branch",
            "paths",
            "include_patterns",
            "exclude_patterns",
            "profile",
            "detail",
            "tracked_only",
            "git_scope",
            "top_files",
            "max_file_bytes",
        ],
        "pack_context" => &[
            "project",
            "branch",
            "paths",
            "include_patterns",
            "exclude_patterns",
            "profile",
            "detail",
            "tracked_only",
            "git_scope",
            "max_tokens",
            "max_file_bytes",
            "view",
            "format",
        ],
        "read_pack" => &["pack_id", "start_line", "end_line"],
        "search_project" => &[
            "project",
            "branch",
            "pattern",
            "include_patterns",
            "exclude_patterns",
            "tracked_only",
            "git_scope",
            "max_file_bytes",
            "context_lines",
            "ignore_case",
            "max_results",
        ],
        "get_file" => &["project", "branch", "path", "start_line", "end_line"],
        "find_symbol" => &[
            "project",
            "branch",
            "name",
            "kind",
            "match",
            "include_patterns",
            "exclude_patterns",
            "tracked_only",
            "git_scope",
            "max_results",
        ],
        "related_files" => &[
            "project",
            "branch",
            "path",
            "direction",
            "depth",
            "max_results",
        ],
        _ => &[],
    }
}

fn property(name: &str) -> Value {
    let patterns = |what: &str| {
        json!({"type": "array", "maxItems": 256, "items": {"type": "string", "minLength": 1, "maxLength": 512},
               "description": format!("Project-relative globs using '/' ({what}); at most 256 patterns of at most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow the selection.")})
    };
    match name {
        "project" => {
            json!({"type": "string", "maxLength": 4096, "description": "A root path or name from list_projects. Optional when the server has exactly one root. A Git URL is accepted only when the server runs with --allow-remote."})
        }
        "branch" => {
            json!({"type": "string", "maxLength": 255, "description": "Branch to check out; valid only when project is a Git URL."})
        }
        "paths" => {
            json!({"type": "array", "maxItems": 256, "items": {"type": "string", "minLength": 1, "maxLength": 4096}, "description": "Existing project-relative files or folders to narrow to; at most 256 entries."})
        }
        "include_patterns" => patterns("a file must match one"),
        "exclude_patterns" => patterns("matching files are removed"),
        "profile" => {
            json!({"type": "string", "maxLength": 4096, "description": "'standard' (default), 'local', or a portable profile JSON path inside the project."})
        }
        "detail" => {
            json!({"type": "string", "enum": ["full", "compact", "signatures"], "description": "Code reduction: full (default) changes nothing, compact removes comments and blank lines, signatures also collapses function bodies. Combine with max_tokens to fit more files."})
        }
        "tracked_only" => {
            json!({"type": "boolean", "description": "Select only files in the Git index (default false). Cannot weaken a tracked profile."})
        }
        "git_scope" => {
            json!({"type": "string", "maxLength": 4096, "description": "Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes from the working tree."})
        }
        "max_file_bytes" => {
            json!({"type": "integer", "minimum": 1, "description": "Remove files strictly larger than this many bytes."})
        }
        "max_depth" => {
            json!({"type": "integer", "minimum": 1, "description": "Show entries down to this depth (top level = 1)."})
        }
        "top_files" => {
            json!({"type": "integer", "minimum": 1, "maximum": 1000, "description": "How many of the largest files by tokens to list (default 10)."})
        }
        "max_tokens" => {
            json!({"type": "integer", "minimum": 1, "description": "Budget of estimated content tokens (one per four characters, rounded up per file). Default: unlimited."})
        }
        "view" => {
            json!({"type": "string", "enum": ["tree-content", "content", "tree"], "description": "What the pack contains (default tree-content)."})
        }
        "pack_id" => {
            json!({"type": "string", "maxLength": 128, "description": "The id from a stored pack_context result, valid until this server process exits."})
        }
        "start_line" => {
            json!({"type": "integer", "minimum": 1, "description": "First line, 1-based and inclusive (default 1)."})
        }
        "end_line" => {
            json!({"type": "integer", "minimum": 1, "description": "Last line, inclusive; at most 1,000 lines or 50,000 characters are returned per call."})
        }
        "pattern" => {
            json!({"type": "string", "minLength": 1, "maxLength": 4096, "description": "Regular expression (Rust regex syntax), at most 4,096 characters; searched over redacted content."})
        }
        "context_lines" => {
            json!({"type": "integer", "minimum": 0, "maximum": 50, "description": "Lines of context around each match (default 2)."})
        }
        "ignore_case" => {
            json!({"type": "boolean", "description": "Case-insensitive matching (default true)."})
        }
        "max_results" => {
            json!({"type": "integer", "minimum": 1, "maximum": 200, "description": "Maximum matching lines (default 50, at most 200)."})
        }
        "path" => {
            json!({"type": "string", "minLength": 1, "maxLength": 4096, "description": "Project-relative path of one file."})
        }
        other => unreachable!("no schema for {other}"),
    }
}

fn input_schema(
    tool: &str,
    required: &[&str],
    format_choices: Option<(&[&str], &str)>,
) -> Arc<JsonObject> {
    let mut properties = serde_json::Map::new();
    for name in allowed_arguments(tool) {
        let value = if *name == "format" {
            let (choices, default) = format_choices.expect("format choices");
            json!({"type": "string", "enum": choices, "description": format!("Output format (default {default}). markdown and text are for reading; json and xml have escaping guarantees for parsing.")})
        } else {
            super::symbols::property(tool, name).unwrap_or_else(|| property(name))
        };
        properties.insert((*name).to_string(), value);
    }
    let schema = json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false});
    Arc::new(schema.as_object().cloned().expect("schema is an object"))
}

fn annotations(title: &str, idempotent: bool, open_world: bool) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(idempotent)
        .open_world(open_world)
}

fn list_projects_output_schema() -> Arc<JsonObject> {
    let schema = json!({
        "type": "object",
        "properties": {"projects": {"type": "array", "items": {"type": "object", "properties": {
            "path": {"type": "string"}, "name": {"type": "string"}, "type": {"type": "string"},
            "git": {"type": "boolean"}, "profiles": {"type": "array", "items": {"type": "string"}}
        }, "required": ["path", "name", "type", "profiles"]}}},
        "required": ["projects"]
    });
    Arc::new(schema.as_object().cloned().expect("object"))
}

fn analyze_output_schema(exact: bool) -> Arc<JsonObject> {
    let int = json!({"type": "integer", "minimum": 0});
    let mut schema = json!({
        "type": "object",
        "properties": {
            "project": {"type": "string"}, "name": {"type": "string"}, "profile": {"type": "string"},
            "detail": {"type": "string", "enum": ["full", "compact", "signatures"]},
            "files": int, "textFiles": int, "binaryFiles": int, "withheldFiles": int, "unreadableFiles": int,
            "folders": int, "bytes": int, "characters": int, "tokens": int, "lines": int, "redactions": int,
            "metricsEstimated": {"type": "boolean"},
            "largestFiles": {"type": "array", "items": {"type": "object", "properties": {
                "path": {"type": "string"}, "bytes": int, "characters": int, "tokens": int, "lines": int, "estimated": {"type": "boolean"}
            }, "required": ["path", "tokens"]}},
            "extensions": {"type": "array", "items": {"type": "object", "properties": {
                "extension": {"type": "string"}, "files": int, "characters": int, "tokens": int, "lines": int
            }, "required": ["extension", "files", "tokens"]}},
            "warnings": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["project", "detail", "files", "characters", "tokens", "largestFiles"]
    });
    if exact {
        // --tokenizer: exact counts beside the estimate, which keeps its name and meaning
        let properties = &mut schema["properties"];
        properties["encoding"] = json!({"type": "string", "enum": ["o200k_base", "cl100k_base"]});
        properties["exactTokens"] = int.clone();
        properties["largestFiles"]["items"]["properties"]["exactTokens"] = int.clone();
        properties["extensions"]["items"]["properties"]["exactTokens"] = int.clone();
        for required in ["encoding", "exactTokens"] {
            schema["required"]
                .as_array_mut()
                .expect("array")
                .push(json!(required));
        }
    }
    Arc::new(schema.as_object().cloned().expect("object"))
}

/// `pack_context` arguments; with an exact encoding, `max_tokens` says what it counts.
fn pack_context_input_schema(formats: &[&str], encoding: Option<Encoding>) -> Arc<JsonObject> {
    let schema = input_schema("pack_context", &[], Some((formats, "markdown")));
    let Some(encoding) = encoding else {
        return schema;
    };
    let mut schema = (*schema).clone();
    schema["properties"]["max_tokens"]["description"] = json!(format!(
        "Budget of exact {} tokens for the complete document: tree, headings, markup and report included. Files are admitted in selection order while they fit. Default: unlimited.",
        encoding.name()
    ));
    Arc::new(schema)
}

/// All tools, in the stable order. `allow_remote` makes the seven project tools open-world;
/// `encoding` (`--tokenizer`) adds exact counts to analyze and makes pack budgets exact.
pub fn tool_list(allow_remote: bool, encoding: Option<Encoding>) -> Vec<Tool> {
    const FORMATS: &[&str] = &["markdown", "text", "json", "xml"];
    let remote = allow_remote;
    vec![
        Tool::new("list_projects", "List the project roots this server may read, with their path, name, type and available profiles. Start here; pass a path or name as `project` to the other tools.", input_schema("list_projects", &[], None))
            .with_title("List projects")
            .with_annotations(annotations("List projects", true, false))
            .with_raw_output_schema(list_projects_output_schema()),
        Tool::new("get_tree", "The effective file tree of a project (after .gitignore and built-in exclusions of build output, dependencies and VCS folders), at most 2,000 lines. Markdown (default) is the most token-efficient. Use it to find paths before search_project, get_file or pack_context.", input_schema("get_tree", &[], Some((FORMATS, "markdown"))))
            .with_title("Get project tree")
            .with_annotations(annotations("Get project tree", true, remote)),
        Tool::new("analyze", match encoding {
            None => "File, character and token metrics of a selection plus its largest files by tokens and a per-extension breakdown, at the requested detail level. Use it to plan a pack_context budget.".to_string(),
            Some(encoding) => format!("File, character and token metrics of a selection plus its largest files by tokens and a per-extension breakdown, at the requested detail level. tokens is the estimate (characters / 4); exactTokens counts {} tokens. Use it to plan a pack_context budget.", encoding.name()),
        }, input_schema("analyze", &[], None))
            .with_title("Analyze project size")
            .with_annotations(annotations("Analyze project size", true, remote))
            .with_raw_output_schema(analyze_output_schema(encoding.is_some())),
        Tool::new("pack_context", "Pack the tree and file contents of a selection into one context document (secrets always redacted), optionally within a max_tokens budget. Results up to 50,000 characters come inline; larger packs are stored and return a pack_id for read_pack, valid until this server exits.", pack_context_input_schema(FORMATS, encoding))
            .with_title("Pack context")
            .with_annotations(annotations("Pack context", false, remote)),
        Tool::new("read_pack", "Read a stored pack by pack_id: an inclusive 1-based line range, at most 1,000 lines or 50,000 characters per call. After a server restart, call pack_context again.", input_schema("read_pack", &["pack_id"], None))
            .with_title("Read stored pack")
            .with_annotations(annotations("Read stored pack", true, false)),
        Tool::new("search_project", "Grep-style regex search over redacted file contents with context lines, at most 200 matches and 2 seconds per call. Returns `path:line:text` matches and `path-line-text` context.", input_schema("search_project", &["pattern"], None))
            .with_title("Search project")
            .with_annotations(annotations("Search project", true, remote)),
        Tool::new("get_file", "Read one file of the effective selection (secrets redacted): an inclusive 1-based line range, at most 1,000 lines or 50,000 characters, with a trailer naming the next range.", input_schema("get_file", &["path"], None))
            .with_title("Get file")
            .with_annotations(annotations("Get file", true, remote)),
        Tool::new("find_symbol", "Where is a name defined: functions, methods, types, classes, structs, enums, traits and interfaces, constants, macros and modules in 15 languages (tree-sitter, no language server). Returns `path:line: kind name (in container)` with the redacted signature line, at most 200 definitions and 10 seconds per call. Qualified names such as `Parser.parse` or `net::Parser::parse` narrow by container.", input_schema("find_symbol", &["name"], None))
            .with_title("Find symbol definitions")
            .with_annotations(annotations("Find symbol definitions", true, remote)),
        Tool::new("related_files", "Project files linked to one file by static imports (Rust mod/use, Python, JS/TS with tsconfig paths, Go packages, Java/Kotlin/Scala, C/C++ includes, C#, Ruby, PHP): what it imports, what imports it, or both, up to depth 3. Each file comes with the redacted import line that links it; imports outside the project are counted, not listed.", input_schema("related_files", &["path"], None))
            .with_title("Related files")
            .with_annotations(annotations("Related files", true, remote)),
    ]
}
