; Function and method bodies (free functions, impl and trait items), collapsed by `signatures`.
(function_item body: (block) @body)
