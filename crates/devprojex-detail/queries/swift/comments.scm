(comment) @comment
(multiline_comment) @comment

; Swift documentation comments.
((comment) @keep (#match? @keep "^///([^/]|$)"))
((multiline_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
