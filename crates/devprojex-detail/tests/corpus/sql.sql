-- Comment
SELECT a, /* inline */ b -- trailing
FROM t
WHERE s = '-- not a comment';

/* Block
   comment */
CREATE TABLE x (id INT);
