(function_definition body: (compound_statement) @body)
(lambda_expression body: (compound_statement) @body)
