(comment) @comment
(block_comment) @comment

; Scaladoc.
((block_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
