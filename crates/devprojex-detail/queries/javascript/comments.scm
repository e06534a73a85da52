(comment) @comment
(html_comment) @comment

; JSDoc, bundler annotations (`/*#__PURE__*/`), triple-slash directives and source maps.
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))
((comment) @keep (#match? @keep "^/\\*\\s*[#@]__[A-Z_]+__"))
((comment) @keep (#match? @keep "^///\\s*<"))
((comment) @keep (#match? @keep "^//[#@]\\s*source(Mapping)?URL="))
