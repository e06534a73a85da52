; The body goes, `def ... end` stays (with a `# ...` marker inside).
(method body: (body_statement) @body)
(singleton_method body: (body_statement) @body)
