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

; A trait implementation's methods are the trait's (rustdoc, too, folds them): the whole body
; collapses, and `impl Trait for Type { /* ... */ }` says what the type implements. One that
; sets an associated type or constant (`type Item = u8;`) stays open: those items say what the
; implementation chose, and its methods' bodies collapse as any function's.
(impl_item trait: (_) body: (declaration_list) @body)
(impl_item trait: (_) body: (declaration_list (type_item)) @open)
(impl_item trait: (_) body: (declaration_list (const_item)) @open)

; A `macro_rules!` arm's transcriber is its body: the matcher (`($name:ident, $($arg:tt)*)`)
; is what a caller writes, and stays.
(macro_rule right: (token_tree) @body)
