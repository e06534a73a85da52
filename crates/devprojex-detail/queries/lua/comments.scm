(comment) @comment

; LuaDoc / EmmyLua annotations (`---`).
((comment) @keep (#match? @keep "^---"))
