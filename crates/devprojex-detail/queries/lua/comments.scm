(comment) @comment

; LuaDoc / EmmyLua annotations (`---`).
((comment) @keep (#match? @keep "^---([^-]|$)"))
; A blank line after a doc line separates it from the next doc block (LuaLS attaches a block only
; to the statement right below it): it stays, so a module's doc and the first function's do not
; merge into one.
((comment) @blank_lines_after (#match? @blank_lines_after "^---([^-]|$)"))
