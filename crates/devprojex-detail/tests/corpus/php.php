<?php
// Comment.
# Hash comment.
namespace App;

use Foo\Bar; // trailing

/** Doc for C. */
#[Attr]
class C {
    private string $s = "// not a comment";
    const X = 1;

    /** Method doc. */
    public function m(int $a): int {
        /* block */
        $h = <<<EOT
# not a comment

// nor this
EOT;
        return $a;
    }
}

function f($x) {
    $y = 1;

    // The grammar ends a comment like this one with its newline: is the blank line gone?
    return function ($y) use ($x) {
        return $x + $y;
    };
}
?>

<?php
echo 2;
?>


Text after the closing tag is output, with its blank lines.
