(comment) @comment

; Compiler directives and build constraints are semantic, never documentation.
((comment) @directive (#match? @directive "^//(go:|line |export |extern |\\s*\\+build )"))
; Go reads build constraints only when a blank line separates them from the package clause.
((comment) @blank_lines_after (#match? @blank_lines_after "^//(go:build |\\s*\\+build )"))

; The cgo preamble above `import "C"` is C code: it stays whole.
((comment)+ @preamble . (import_declaration (import_spec path: (interpreted_string_literal) @_path)) (#eq? @_path "\"C\""))

; Go doc comments are the comment group directly above a top-level declaration, a field, an
; interface element or a spec of a top-level group; comments inside function bodies are not.
(source_file (comment)+ @doc . [(function_declaration) (method_declaration) (type_declaration) (const_declaration) (var_declaration) (package_clause) (import_declaration)])
(field_declaration_list (comment)+ @doc . (field_declaration))
(interface_type (comment)+ @doc . [(method_elem) (type_elem)])
(source_file [(const_declaration (comment)+ @doc . (const_spec)) (var_declaration (comment)+ @doc . (var_spec)) (type_declaration (comment)+ @doc . (type_spec))])
; `//sys` and `//sysnb` lines declare system calls that mksyscall generates code for.
((comment) @directive (#match? @directive "^//sys(nb)?\\s"))
; `go test` checks an example's output against its `// Output:` comment and the lines after it.
(((comment) @_output @directive . (comment)* @directive) (#match? @_output "^//\\s*(Unordered output|Output):"))
