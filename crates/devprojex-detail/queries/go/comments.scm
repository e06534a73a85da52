(comment) @comment

; Compiler directives and build constraints are semantic, never documentation.
((comment) @directive (#match? @directive "^//(go:|line |export |extern |\\s*\\+build )"))
; Go reads build constraints only when a blank line separates them from the package clause.
((comment) @blank_lines_after (#match? @blank_lines_after "^//(go:build |\\s*\\+build )"))

; The cgo preamble (the comment group right above `import "C"`) is C code: it stays whole.
((import_declaration (import_spec path: (interpreted_string_literal) @_path)) @preambled (#eq? @_path "\"C\""))

; Go doc comments are the comment group right above (no blank line between) a top-level
; declaration, a field, an interface element or a spec of a top-level group; comments inside
; function bodies are not.
(source_file [(function_declaration) (method_declaration) (type_declaration) (const_declaration) (var_declaration) (package_clause) (import_declaration)] @documented)
(field_declaration_list (field_declaration) @documented)
(interface_type [(method_elem) (type_elem)] @documented)
(source_file [(const_declaration (const_spec) @documented) (var_declaration (var_spec) @documented) (type_declaration (type_spec) @documented)])

; `//sys` and `//sysnb` lines declare system calls that mksyscall generates code for.
((comment) @directive (#match? @directive "^//sys(nb)?\\s"))
; `go test` checks an example's output against its `// Output:` comment and the lines after it.
; (A quantified pattern, `(comment) . (comment)*`, costs quadratic time on a long comment run.)
((comment) @directive_block (#match? @directive_block "^//\\s*(Unordered output|Output):"))
