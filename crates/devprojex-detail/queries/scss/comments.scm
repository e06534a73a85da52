(comment) @comment
(js_comment) @comment
