<?php
namespace App;
use Foo\Bar;
/** Doc for C. */
#[Attr]
class C {
    private string $s = "// not a comment";
    const X = 1;
    /** Method doc. */
    public function m(int $a): int {
        $h = <<<EOT
# not a comment

// nor this
EOT;
        return $a;
    }
}
function f($x) {
    $y = 1;
    return function ($y) use ($x) {
        return $x + $y;
    };
}
?>

<?php
echo 2;
?>


Text after the closing tag is output, with its blank lines.
