(line_comment) @comment
(block_comment) @comment

; Javadoc.
((block_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
; Markdown doc comments (Java 23, JEP 467).
((line_comment) @keep (#match? @keep "^///([^/]|$)"))

; A blank line after a line doc comment ends that doc block (unlike rustdoc, these tools attach
; only the block right above a declaration): it stays, so a file overview and the first type's
; doc do not merge into one summary.
((line_comment) @blank_lines_after (#match? @blank_lines_after "^///([^/]|$)"))
