-- Comment
SELECT a, /* inline */ b -- trailing
FROM t
WHERE s = '-- not a comment';

/* Block
   comment */
CREATE TABLE x (id INT);
CREATE TABLE y (id INT) /*!50100 ENGINE=InnoDB */;
SELECT /*+ INDEX(t i) */ a FROM t;
