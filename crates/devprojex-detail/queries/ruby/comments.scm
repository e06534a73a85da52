(comment) @comment

; Magic comments are semantic.
((comment) @directive (#match? @directive "^#\\s*-?\\*?-?\\s*(frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value):"))

; RDoc/YARD documentation: the comment group right above (no blank line between) a method,
; class or module, the first method of an `if`/`unless` branch, a method passed to `private`,
; `memoize` and the like, and constants and attributes, which RDoc and YARD document too. The
; grammar puts the comments above the first statement of a body before the body node.
(method) @documented
(singleton_method) @documented
(class) @documented
(module) @documented
(body_statement . [(method) (singleton_method) (class) (module)]) @documented
(then . [(method) (singleton_method) (class) (module)]) @documented
(call arguments: (argument_list . [(method) (singleton_method)])) @documented
(assignment left: (constant)) @documented
(body_statement . (assignment left: (constant))) @documented
((call method: (identifier) @_attr) @documented (#match? @_attr "^(attr_reader|attr_writer|attr_accessor|attr)$"))
((body_statement . (call method: (identifier) @_attr)) @documented (#match? @_attr "^(attr_reader|attr_writer|attr_accessor|attr)$"))
