//! The tool list in the stable order the spec fixes, and the typed call each tool name parses
//! into. Written by hand (not with rmcp's router macros, which sort tools alphabetically and fix
//! annotations at compile time); each input schema is generated from the tool's argument struct
//! (`crate::args`).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use crate::args::{
    AnalyzeArgs, FindSymbolArgs, GetFileArgs, GetTreeArgs, ListProjectsArgs, PackContextArgs,
    ReadPackArgs, RelatedFilesArgs, RelevantFilesArgs, SearchProjectArgs, ToolArgs, input_schema,
};
use crate::error::Result;
use crate::tokens::Encoding;

/// The stable tool order (the spec's seven, then the task-directed lookups appended).
pub const TOOL_ORDER: [&str; 10] = [
    ListProjectsArgs::NAME,
    GetTreeArgs::NAME,
    AnalyzeArgs::NAME,
    PackContextArgs::NAME,
    ReadPackArgs::NAME,
    SearchProjectArgs::NAME,
    GetFileArgs::NAME,
    FindSymbolArgs::NAME,
    RelatedFilesArgs::NAME,
    RelevantFilesArgs::NAME,
];

/// One tool call with its arguments parsed and checked.
#[derive(Debug, Clone)]
pub enum Call {
    ListProjects(ListProjectsArgs),
    GetTree(GetTreeArgs),
    Analyze(AnalyzeArgs),
    PackContext(PackContextArgs),
    ReadPack(ReadPackArgs),
    SearchProject(SearchProjectArgs),
    GetFile(GetFileArgs),
    FindSymbol(FindSymbolArgs),
    RelatedFiles(RelatedFilesArgs),
    RelevantFiles(RelevantFilesArgs),
}

impl Call {
    /// The call of tool `name` (`None`: no such tool), its arguments checked against the
    /// tool's schema.
    pub fn parse(name: &str, arguments: Option<Map<String, Value>>) -> Option<Result<Self>> {
        use crate::args::parse;
        Some(match name {
            ListProjectsArgs::NAME => parse(arguments).map(Self::ListProjects),
            GetTreeArgs::NAME => parse(arguments).map(Self::GetTree),
            AnalyzeArgs::NAME => parse(arguments).map(Self::Analyze),
            PackContextArgs::NAME => parse(arguments).map(Self::PackContext),
            ReadPackArgs::NAME => parse(arguments).map(Self::ReadPack),
            SearchProjectArgs::NAME => parse(arguments).map(Self::SearchProject),
            GetFileArgs::NAME => parse(arguments).map(Self::GetFile),
            FindSymbolArgs::NAME => parse(arguments).map(Self::FindSymbol),
            RelatedFilesArgs::NAME => parse(arguments).map(Self::RelatedFiles),
            RelevantFilesArgs::NAME => parse(arguments).map(Self::RelevantFiles),
            _ => return None,
        })
    }

    /// Whether the call reports progress (when the client sent a progress token).
    pub fn reports_progress(&self) -> bool {
        matches!(self, Self::Analyze(_) | Self::PackContext(_))
    }
}

/// The argument names `tool` accepts, in the spec's order (`None`: no such tool).
pub fn argument_names(tool: &str) -> Option<&'static [&'static str]> {
    use crate::args::argument_names;
    Some(match tool {
        ListProjectsArgs::NAME => argument_names::<ListProjectsArgs>(),
        GetTreeArgs::NAME => argument_names::<GetTreeArgs>(),
        AnalyzeArgs::NAME => argument_names::<AnalyzeArgs>(),
        PackContextArgs::NAME => argument_names::<PackContextArgs>(),
        ReadPackArgs::NAME => argument_names::<ReadPackArgs>(),
        SearchProjectArgs::NAME => argument_names::<SearchProjectArgs>(),
        GetFileArgs::NAME => argument_names::<GetFileArgs>(),
        FindSymbolArgs::NAME => argument_names::<FindSymbolArgs>(),
        RelatedFilesArgs::NAME => argument_names::<RelatedFilesArgs>(),
        RelevantFilesArgs::NAME => argument_names::<RelevantFilesArgs>(),
        _ => return None,
    })
}

/// Tool `T` with its generated input schema.
fn tool<T: ToolArgs>(title: &'static str, description: impl Into<String>) -> Tool {
    Tool::new(T::NAME, description.into(), Arc::new(input_schema::<T>())).with_title(title)
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

/// `pack_context`'s input schema; with an exact encoding, `max_tokens` says what it counts.
fn pack_context_input_schema(encoding: Option<Encoding>) -> Arc<JsonObject> {
    let mut schema = input_schema::<PackContextArgs>();
    if let Some(encoding) = encoding {
        schema["properties"]["max_tokens"]["description"] = json!(format!(
            "Budget of exact {} tokens for the complete document: tree, headings, markup and report included. Files are admitted in selection order while they fit. Default: unlimited.",
            encoding.name()
        ));
    }
    Arc::new(schema)
}

/// All tools, in the stable order. `allow_remote` makes the seven project tools open-world;
/// `encoding` (`--tokenizer`) adds exact counts to analyze and makes pack budgets exact.
pub fn tool_list(allow_remote: bool, encoding: Option<Encoding>) -> Vec<Tool> {
    let remote = allow_remote;
    vec![
        tool::<ListProjectsArgs>("List projects", "List the project roots this server may read, with their path, name, type and available profiles. Start here; pass a path or name as `project` to the other tools.")
            .with_annotations(annotations("List projects", true, false))
            .with_raw_output_schema(list_projects_output_schema()),
        tool::<GetTreeArgs>("Get project tree", "The effective file tree of a project (after .gitignore and built-in exclusions of build output, dependencies and VCS folders), at most 2,000 lines. Markdown (default) is the most token-efficient. Use it to find paths before search_project, get_file or pack_context.")
            .with_annotations(annotations("Get project tree", true, remote)),
        tool::<AnalyzeArgs>("Analyze project size", match encoding {
            None => "File, character and token metrics of a selection plus its largest files by tokens and a per-extension breakdown, at the requested detail level. Use it to plan a pack_context budget.".to_string(),
            Some(encoding) => format!("File, character and token metrics of a selection plus its largest files by tokens and a per-extension breakdown, at the requested detail level. tokens is the estimate (characters / 4); exactTokens counts {} tokens. Use it to plan a pack_context budget.", encoding.name()),
        })
            .with_annotations(annotations("Analyze project size", true, remote))
            .with_raw_output_schema(analyze_output_schema(encoding.is_some())),
        Tool::new(PackContextArgs::NAME, "Pack the tree and file contents of a selection into one context document (secrets always redacted), optionally within a max_tokens budget. Results up to 50,000 characters come inline; larger packs are stored and return a pack_id for read_pack, valid until this server exits.", pack_context_input_schema(encoding))
            .with_title("Pack context")
            .with_annotations(annotations("Pack context", false, remote)),
        tool::<ReadPackArgs>("Read stored pack", "Read a stored pack by pack_id: an inclusive 1-based line range, at most 1,000 lines or 50,000 characters per call. After a server restart, call pack_context again.")
            .with_annotations(annotations("Read stored pack", true, false)),
        tool::<SearchProjectArgs>("Search project", "Grep-style regex search over redacted file contents with context lines, at most 200 matches and 2 seconds per call. Returns `path:line:text` matches and `path-line-text` context.")
            .with_annotations(annotations("Search project", true, remote)),
        tool::<GetFileArgs>("Get file", "Read one file of the effective selection (secrets redacted): an inclusive 1-based line range, at most 1,000 lines or 50,000 characters, with a trailer naming the next range.")
            .with_annotations(annotations("Get file", true, remote)),
        tool::<FindSymbolArgs>("Find symbol definitions", "Where is a name defined: functions, methods, types, classes, structs, enums, traits and interfaces, constants, macros and modules in 15 languages (tree-sitter, no language server). Returns `path:line: kind name (in container)` with the redacted signature line, at most 200 definitions and 10 seconds per call. Qualified names such as `Parser.parse` or `net::Parser::parse` narrow by container.")
            .with_annotations(annotations("Find symbol definitions", true, remote)),
        tool::<RelatedFilesArgs>("Related files", "Project files linked to one file by static imports (Rust mod/use, Python, JS/TS with tsconfig paths, Go packages, Java/Kotlin/Scala, C/C++ includes, C#, Ruby, PHP): what it imports, what imports it, or both, up to depth 3. Each file comes with the redacted import line that links it; imports outside the project are counted, not listed.")
            .with_annotations(annotations("Related files", true, remote)),
        tool::<RelevantFilesArgs>("Relevant files", "The files that matter for a task, ranked (identifiers, definitions, Git history; no model): each with its score, reasons and the line ranges to read with get_file.")
            .with_annotations(annotations("Relevant files", true, remote)),
    ]
}
