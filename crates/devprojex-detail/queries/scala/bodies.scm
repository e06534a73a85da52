(function_definition body: (block) @body)
(function_definition body: (indented_block) @body)
