(function_declaration body: (block) @body)
(method_declaration body: (block) @body)
(func_literal body: (block) @body)
