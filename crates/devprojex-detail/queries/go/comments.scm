(comment) @comment

; Compiler directives and build constraints are semantic.
((comment) @keep (#match? @keep "^//(go:|line |export |extern |\\+build)"))

; Go doc comments are the comments directly above a declaration, with no blank line between (and the cgo preamble above `import "C"`).
((comment)+ @doc . [(function_declaration) (method_declaration) (type_declaration) (const_declaration) (var_declaration) (package_clause) (import_declaration)])
((comment)+ @doc . [(field_declaration) (method_elem) (const_spec) (var_spec) (type_spec)])
