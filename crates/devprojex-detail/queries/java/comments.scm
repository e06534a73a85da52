(line_comment) @comment
(block_comment) @comment

; Javadoc.
((block_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
