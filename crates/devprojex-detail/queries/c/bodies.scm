(function_definition body: (compound_statement) @body)

; A block at file scope is the body of a function whose header a macro writes
; (`SYSCALL_DEFINE3(read, unsigned int, fd, ...)` then `{ ... }`): the grammar reads the header
; as a statement without its `;`, which the engine counts as a macro idiom, not an error.
(translation_unit (compound_statement) @body)
(translation_unit (preproc_if (compound_statement) @body))
(translation_unit (preproc_ifdef (compound_statement) @body))
(translation_unit (preproc_if (preproc_else (compound_statement) @body)))
(translation_unit (preproc_if (preproc_elif (compound_statement) @body)))
(translation_unit (preproc_ifdef (preproc_else (compound_statement) @body)))
(translation_unit (preproc_ifdef (preproc_elif (compound_statement) @body)))
