(comment) @comment

; Doxygen doc comments.
((comment) @keep (#match? @keep "^/\\*[*!][^*/]"))
((comment) @keep (#match? @keep "^//[/!]([^/]|$)"))

; A blank line after a line doc comment ends that doc block (unlike rustdoc, these tools attach
; only the block right above a declaration): it stays, so a file overview and the first type's
; doc do not merge into one summary.
((comment) @blank_lines_after (#match? @blank_lines_after "^//[/!]([^/]|$)"))

; An Emacs mode line (`// <vector> -*- C++ -*-`): it names the language of a file without an
; extension, for editors and for devprojex.
((comment) @directive (#match? @directive "-\\*-.+-\\*-"))
