(comment) @comment
(multiline_comment) @comment

; Swift documentation comments.
((comment) @keep (#match? @keep "^///([^/]|$)"))
((multiline_comment) @keep (#match? @keep "^/\\*\\*[^*/]"))

; A blank line after a line doc comment ends that doc block (unlike rustdoc, these tools attach
; only the block right above a declaration): it stays, so a file overview and the first type's
; doc do not merge into one summary.
((comment) @blank_lines_after (#match? @blank_lines_after "^///([^/]|$)"))

; Xcode's `// MARK:` lines structure the file (the jump bar): kept, and they end a doc block.
((comment) @directive (#match? @directive "^//\\s*MARK:"))
; SwiftPM reads the tools version from the first line of `Package.swift`.
((comment) @directive (#match? @directive "^//\\s*swift-tools-version:"))
