(comment) @comment

; Source-map comments are instructions to tools.
((comment) @directive (#match? @directive "^/\\*[#@]\\s*source(Mapping)?URL="))
