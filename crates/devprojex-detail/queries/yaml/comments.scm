(comment) @comment

; A block scalar with the keep indicator (`|+`, `>+`, `|2+`) holds the blank lines after its text.
((block_scalar) @blank_lines_after (#match? @blank_lines_after "^[|>]([1-9]?\\+|\\+[1-9])"))
