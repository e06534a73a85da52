(comment) @comment
(js_comment) @comment

; Source-map comments are instructions to tools.
((comment) @directive (#match? @directive "^/\\*[#@]\\s*source(Mapping)?URL="))
; SassDoc (`///` above a mixin, function or variable) is the stylesheet's API documentation.
((js_comment) @keep (#match? @keep "^///([^/]|$)"))

; A blank line after a line doc comment ends that doc block (unlike rustdoc, these tools attach
; only the block right above a declaration): it stays, so a file overview and the first type's
; doc do not merge into one summary.
((js_comment) @blank_lines_after (#match? @blank_lines_after "^///([^/]|$)"))
