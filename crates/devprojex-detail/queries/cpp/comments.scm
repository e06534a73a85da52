(comment) @comment

; Doxygen doc comments.
((comment) @keep (#match? @keep "^/\\*[*!][^*/]"))
((comment) @keep (#match? @keep "^//[/!]([^/]|$)"))
