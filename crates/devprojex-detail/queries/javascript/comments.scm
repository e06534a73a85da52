(comment) @comment
(html_comment) @comment

; JSDoc.
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))

; Not documentation but instructions to tools, kept whole: bundler annotations in both forms
; (`/*#__PURE__*/`, `// @__NO_SIDE_EFFECTS__`), triple-slash directives, source maps, TypeScript
; and Flow pragmas, JSX pragmas, webpack and Vite import hints.
((comment) @directive (#match? @directive "^/[*/]\\s*[#@]__[A-Z_]+__"))
((comment) @directive (#match? @directive "^///\\s*<"))
((comment) @directive (#match? @directive "^/[/*][#@]\\s*source(Mapping)?URL="))
((comment) @directive (#match? @directive "^/[/*]\\s*@(ts-nocheck|ts-check|ts-ignore|ts-expect-error|flow|noflow|jsx|jsxFrag|jsxImportSource|jsxRuntime|vite-ignore)\\b"))
((comment) @directive (#match? @directive "^/\\*\\s*webpack[A-Z][A-Za-z]*\\s*:"))
