(line_comment) @comment
(block_comment) @comment

; KDoc.
((block_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
