; Lambdas are not collapsed: Kotlin DSLs (Gradle scripts, builders) are lambdas.
(function_declaration (function_body (block) @body))
(secondary_constructor (block) @body)
(anonymous_initializer (block) @body)
(getter (function_body (block) @body))
(setter (function_body (block) @body))
