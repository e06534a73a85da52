(function_definition body: (compound_statement) @body)
(method_declaration body: (compound_statement) @body)
(anonymous_function body: (compound_statement) @body)
