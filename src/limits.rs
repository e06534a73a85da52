//! Every limit and default of a request, named once. Both doors use these: the tool argument
//! structs (`crate::args`) put them in the MCP schema and in the CLI's value parsers, and the
//! engine checks them again, so a caller that skips both doors meets the same bounds.

/// Entries of `paths`.
pub const MAX_PATHS: usize = 256;
/// Unicode scalar values of one path (`paths` entries, `path`, `project`, `profile`).
pub const MAX_PATH_CHARS: usize = 4096;
/// Patterns in `include_patterns` or `exclude_patterns`.
pub const MAX_GLOBS: usize = 256;
/// Unicode scalar values of one glob.
pub const MAX_GLOB_CHARS: usize = 512;
/// `pack_context` `detail_overrides`: globs at most (each at most [`MAX_GLOB_CHARS`]).
pub const MAX_DETAIL_OVERRIDES: usize = 32;
/// Unicode scalar values of a `git_scope` value.
pub const MAX_GIT_SCOPE_CHARS: usize = 4096;
/// Unicode scalar values of a branch name (Git's own limit is the file system's, 255 bytes).
pub const MAX_BRANCH_CHARS: usize = 255;
/// Unicode scalar values of a `pack_id`.
pub const MAX_PACK_ID_CHARS: usize = 128;
/// Unicode scalar values of a choice (`format`, `detail`, `view`, ...): longer is no choice.
pub const MAX_CHOICE_CHARS: usize = 64;

/// Unicode scalar values of a search pattern.
pub const MAX_REGEX_CHARS: usize = 4096;
pub const MAX_SEARCH_RESULTS: usize = 200;
pub const DEFAULT_SEARCH_RESULTS: usize = 50;
pub const MAX_CONTEXT_LINES: usize = 50;
pub const DEFAULT_CONTEXT_LINES: usize = 2;
/// A search's `offset`: matching lines (or files) skipped before the first shown. A page past
/// this is no page an agent reads; narrow the search instead.
pub const MAX_SEARCH_OFFSET: usize = 100_000;
/// The MCP search's time limit (the CLI runs to completion unless `--timeout` is given).
pub const SEARCH_DEADLINE_SECS: u64 = 2;

/// Lines of one `get_file` or `read_pack` answer.
pub const MAX_FILE_LINES: usize = 1000;
/// Characters of one text answer's useful payload (`get_file`, `read_pack`, inline packs).
pub const MAX_FILE_CHARS: usize = 50_000;

/// Definitions of one `find_symbol` answer, and files of one `related_files` answer.
pub const MAX_SYMBOL_RESULTS: usize = 200;
pub const DEFAULT_SYMBOL_RESULTS: usize = 50;
/// Lines of one definition's body `find_symbol` `include_body` shows (issue 39).
pub const MAX_SYMBOL_BODY_LINES: usize = 400;
/// Unicode scalar values of a symbol name (`find_symbol`'s `name`).
pub const MAX_SYMBOL_NAME_CHARS: usize = 256;
/// Import hops `related_files` follows at most.
pub const MAX_RELATED_DEPTH: usize = 3;
/// A symbol lookup or an index refresh stops here and answers with what it has (the index
/// keeps what it read, so the next call continues).
pub const SYMBOL_DEADLINE_SECS: u64 = 10;
/// Memory the MCP server gives to parsed definitions kept across lookups.
pub const SERVER_DEFINITION_CACHE_BYTES: usize = 32 * 1024 * 1024;

pub const MAX_TOP_FILES: usize = 1000;
pub const DEFAULT_TOP_FILES: usize = 10;

/// Memory the MCP server gives to `compact`/`signatures` results kept across requests. They
/// are held as pieces of their source, 1–5 % of its size, so this covers projects of a
/// gigabyte or more.
pub const SERVER_TRANSFORM_CACHE_BYTES: usize = 64 * 1024 * 1024;
/// Exact token counts the MCP server remembers by content hash (`--tokenizer`): about
/// 64 bytes each, so 32 MiB, for half a million files and pack sections.
pub const SERVER_TOKEN_COUNT_CACHE_ENTRIES: usize = 1 << 19;
/// Answers the MCP server owes or has queued for stdout before it stops reading requests (a
/// client that does not read its answers then finds its writes blocked, not the server's
/// memory growing).
pub const MAX_QUEUED_ANSWERS: usize = 64;
/// Bytes queued for stdout before the MCP server stops reading requests.
pub const MAX_QUEUED_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// `find_references`: references per page (with `offset` paging).
pub const MAX_REFERENCE_RESULTS: usize = 1000;
pub const DEFAULT_REFERENCE_RESULTS: usize = 100;
/// The largest `offset`: a project with more uses of one name is narrowed, not paged.
pub const MAX_REFERENCE_OFFSET: usize = 1_000_000;
/// Unicode scalar values of a `relevant_files` query (or `pack_context`'s `query`).
pub const MAX_QUERY_CHARS: usize = 8000;
pub const MAX_RELEVANT_RESULTS: usize = 200;
pub const DEFAULT_RELEVANT_RESULTS: usize = 20;
/// Line ranges shown per ranked file.
pub const MAX_RELEVANT_RANGES: usize = 3;
/// Commits of HEAD's first-parent history the ranker reads (newest first).
pub const RELEVANCE_HISTORY_COMMITS: usize = 3000;
/// Memory the MCP server gives to the ranker's per-file terms (5 bytes per distinct term:
/// a hash and a count; the kernel's files average 330 terms, under 2 KiB each).
pub const SERVER_RELEVANCE_CACHE_BYTES: usize = 256 * 1024 * 1024;

/// `pack_context` `view: "diff"`: unchanged lines around each change (as `git diff`).
pub const DIFF_CONTEXT_LINES: usize = 3;
/// Longest diff shown for one file, in lines; the rest is cut with a note.
pub const MAX_DIFF_LINES_PER_FILE: usize = 5_000;
/// Time one file's diff may take before the diff falls back to a coarser (still correct) one.
pub const DIFF_FILE_DEADLINE_MS: u64 = 1_000;
