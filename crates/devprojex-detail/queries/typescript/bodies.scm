(function_declaration body: (statement_block) @body)
(generator_function_declaration body: (statement_block) @body)
(function_expression body: (statement_block) @body)
(generator_function body: (statement_block) @body)
(method_definition body: (statement_block) @body)
; An arrow function's body, block or expression: a multi-line expression body (a React
; component returning JSX, a selector returning an object) collapses to `{ /* ... */ }` as a
; block does; a one-line body stays like any other.
(arrow_function body: (_) @body)

; An immediately invoked function is a scope, not an API function: its body stays and what it
; declares is reduced (TypeScript's ES5 classes, UMD and IIFE bundles). The UMD factory passed to
; such a call is the library itself.
(call_expression function: (parenthesized_expression [(function_expression body: (statement_block) @open) (arrow_function body: (statement_block) @open)]))
(call_expression function: [(function_expression body: (statement_block) @open) (arrow_function body: (statement_block) @open)])
(call_expression function: [(function_expression) (parenthesized_expression (function_expression))] arguments: (arguments [(function_expression body: (statement_block) @open) (parenthesized_expression (function_expression body: (statement_block) @open))]))
