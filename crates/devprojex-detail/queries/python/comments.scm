(comment) @comment

; PEP 263 encoding declarations are semantic. (A `#!` line at the start of a file is always kept.)
((comment) @directive (#match? @directive "^#.*coding[:=]"))
