(comment) @comment

; XML documentation comments.
((comment) @keep (#match? @keep "^///([^/]|$)"))
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
