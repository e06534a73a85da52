; Function and method bodies become `...`; a leading docstring is kept.
(function_definition
  name: (identifier) @_name
  body: (block) @body
  (#not-any-of? @_name "__init__" "__post_init__"))

; `__init__` and `__post_init__` declare the fields: kept whole.
(function_definition
  name: (identifier) @_name
  body: (block) @keep
  (#any-of? @_name "__init__" "__post_init__"))

; Docstrings: `signatures` keeps their summary (the first paragraph).
(module . (comment)* . (expression_statement (string) @doc))
(class_definition body: (block . (comment)* . (expression_statement (string) @doc)))
(function_definition body: (block . (comment)* . (expression_statement (string) @doc)))
