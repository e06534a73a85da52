; Ordinary comments: removed by `compact` and `signatures`.
(line_comment) @comment
(block_comment) @comment

; Doc comments (`///`, `//!`, `/** */`, `/*! */`) are the API contract: kept at every level.
(line_comment (outer_doc_comment_marker)) @keep
(line_comment (inner_doc_comment_marker)) @keep
(block_comment (outer_doc_comment_marker)) @keep
(block_comment (inner_doc_comment_marker)) @keep
