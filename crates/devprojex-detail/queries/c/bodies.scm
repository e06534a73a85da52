(function_definition body: (compound_statement) @body)
