(comment) @comment

; PHPDoc.
((comment) @keep (#match? @keep "^/\\*\\*[^*/]"))

; Text outside `<?php ... ?>` is output, blank lines included.
(text_interpolation) @verbatim
