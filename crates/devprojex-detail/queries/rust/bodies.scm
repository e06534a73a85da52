; Function and method bodies (free functions, impl and trait items), collapsed by `signatures`.
(function_item body: (block) @body)

; `#[cfg(test)]` modules are tests, not API: their body collapses too, whatever attributes and
; comments stand between. (The parent is named, not a wildcard, so the engine can run the query
; from the nodes where a pattern can start.)
(source_file
  (attribute_item (attribute (identifier) @_cfg arguments: (token_tree . (identifier) @_test .)))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (mod_item body: (declaration_list) @body)
  (#eq? @_cfg "cfg")
  (#eq? @_test "test"))
(declaration_list
  (attribute_item (attribute (identifier) @_cfg arguments: (token_tree . (identifier) @_test .)))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (mod_item body: (declaration_list) @body)
  (#eq? @_cfg "cfg")
  (#eq? @_test "test"))
