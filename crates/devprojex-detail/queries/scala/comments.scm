(comment) @comment
(block_comment) @comment

; Scaladoc.
((block_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))

; Scala CLI directives (`//> using scala 3.3`, `//> using dep ...`) configure the build.
((comment) @directive (#match? @directive "^//>\\s*using\\b"))
