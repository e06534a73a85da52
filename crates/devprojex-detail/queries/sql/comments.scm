(comment) @comment
(marginalia) @comment
