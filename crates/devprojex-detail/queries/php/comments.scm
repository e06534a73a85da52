(comment) @comment

; PHPDoc.
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
