(Comment) @comment
