<?php
namespace App;
use Foo\Bar;
/** Doc for C. */
#[Attr]
class C {
    private string $s = "// not a comment";
    const X = 1;
    /** Method doc. */
    public function m(int $a): int { /* ... */ }
}
function f($x) { /* ... */ }
?>

<?php
echo 2;
?>


Text after the closing tag is output, with its blank lines.
