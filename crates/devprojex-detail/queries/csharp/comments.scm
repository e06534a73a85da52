(comment) @comment

; XML documentation comments.
((comment) @keep (#match? @keep "^///([^/]|$)"))
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))

; A blank line after a line doc comment ends that doc block (unlike rustdoc, these tools attach
; only the block right above a declaration): it stays, so a file overview and the first type's
; doc do not merge into one summary.
((comment) @blank_lines_after (#match? @blank_lines_after "^///([^/]|$)"))
