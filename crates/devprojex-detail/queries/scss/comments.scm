(comment) @comment
(js_comment) @comment

; Source-map comments are instructions to tools.
((comment) @directive (#match? @directive "^/\\*[#@]\\s*source(Mapping)?URL="))
; SassDoc (`///` above a mixin, function or variable) is the stylesheet's API documentation.
((js_comment) @keep (#match? @keep "^///([^/]|$)"))
