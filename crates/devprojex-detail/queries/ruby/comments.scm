(comment) @comment

; Magic comments are semantic.
((comment) @directive (#match? @directive "^#\\s*-?\\*?-?\\s*(frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value):"))

; RDoc/YARD documentation: the comments directly above a method, class or module.
((comment)+ @doc . [(method) (singleton_method) (class) (module)])
; The grammar puts comments above the first statement of a class or module body before the body.
((comment)+ @doc . (body_statement . [(method) (singleton_method) (class) (module)]))
; The first method of an `if`/`unless` branch, a method passed to `private`, `memoize` and the
; like, and constants and attributes, which RDoc and YARD document too.
((comment)+ @doc . (then . [(method) (singleton_method) (class) (module)]))
((comment)+ @doc . (call arguments: (argument_list . [(method) (singleton_method)])))
((comment)+ @doc . (assignment left: (constant)))
((comment)+ @doc . (body_statement . (assignment left: (constant))))
(((comment)+ @doc . (call method: (identifier) @_attr)) (#match? @_attr "^(attr_reader|attr_writer|attr_accessor|attr)$"))
(((comment)+ @doc . (body_statement . (call method: (identifier) @_attr))) (#match? @_attr "^(attr_reader|attr_writer|attr_accessor|attr)$"))
