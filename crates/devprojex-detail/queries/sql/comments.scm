(comment) @comment
(marginalia) @comment

; Kept whole: MySQL's executable comments (`/*!50100 ENGINE=InnoDB */`) and optimizer hints
; (`/*+ INDEX(t i) */`) are statements' text to the server, and a comment holding `/*` is a nested
; comment in PostgreSQL, which the grammar ends at the first `*/`: removing it would turn the
; rest of the commented-out code into live code.
((marginalia) @directive (#match? @directive "^/\\*[!+]"))
((marginalia) @directive (#match? @directive "^/\\*(.|\\n)*/\\*"))
