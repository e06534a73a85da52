(comment) @comment

; Comments that are instructions, kept whole: IE conditional comments, server-side includes,
; Knockout's containerless bindings.
((comment) @directive (#match? @directive "^<!--(\\[if |<!\\[endif\\]|#[a-z]|\\s*/?ko\\b)"))

; Text shown as written: lines in `<pre>` and the like stay, and inside `<textarea>` and
; `<title>` a "comment" is text.
((element (start_tag (tag_name) @_tag)) @text (#match? @_tag "^(?i:pre|textarea|title|listing|xmp|plaintext)$"))
