SELECT a,  b
FROM t
WHERE s = '-- not a comment';
CREATE TABLE x (id INT);
CREATE TABLE y (id INT) /*!50100 ENGINE=InnoDB */;
SELECT /*+ INDEX(t i) */ a FROM t;
