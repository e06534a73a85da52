(function_definition body: (compound_statement) @body)
(lambda_expression body: (compound_statement) @body)

; As in C: a block at file or namespace scope is the body of a function whose header a macro
; writes.
(translation_unit (compound_statement) @body)
(translation_unit (preproc_if (compound_statement) @body))
(translation_unit (preproc_ifdef (compound_statement) @body))
(translation_unit (preproc_if (preproc_else (compound_statement) @body)))
(translation_unit (preproc_ifdef (preproc_else (compound_statement) @body)))
(declaration_list (compound_statement) @body)

; g++ rejects a `constexpr` or `consteval` function without a `return` (even one never called):
; their bodies stay.
((function_definition (type_qualifier) @_qualifier body: (compound_statement) @keep)
  (#match? @_qualifier "^(constexpr|consteval)$"))

; A function whose result type is deduced from its body (`auto f()`, `decltype(auto) f()`, a
; lambda without `-> T`) would become `void` without it: such a body stays when a `return` in it
; gives a value.
(function_definition type: (placeholder_type_specifier) body: (compound_statement) @deduced)
(lambda_expression body: (compound_statement) @deduced)
(function_definition
  declarator: (function_declarator (trailing_return_type))
  body: (compound_statement) @declared)
(lambda_expression
  declarator: (abstract_function_declarator (trailing_return_type))
  body: (compound_statement) @declared)
(return_statement (_) @value_return)
