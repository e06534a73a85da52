(comment) @comment

; Magic comments are semantic.
((comment) @keep (#match? @keep "^#\\s*-?\\*?-?\\s*(frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value):"))

; RDoc/YARD documentation: the comments directly above a method, class or module.
((comment)+ @doc . [(method) (singleton_method) (class) (module)])
; The grammar puts comments above the first statement of a class or module body before the body.
((comment)+ @doc . (body_statement . [(method) (singleton_method) (class) (module)]))
