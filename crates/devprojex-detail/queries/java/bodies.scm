(method_declaration body: (block) @body)
(constructor_declaration body: (constructor_body) @body)
(compact_constructor_declaration body: (block) @body)
(lambda_expression body: (block) @body)
; Static and instance initializers (often large tables).
(static_initializer (block) @body)
(class_body (block) @body)
