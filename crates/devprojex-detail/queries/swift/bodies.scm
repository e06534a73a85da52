(function_declaration body: (function_body) @body)
(init_declaration body: (function_body) @body)
(deinit_declaration body: (function_body) @body)
