//go:build linux
// +build linux

// Package p is documented.
package p
/*
#include <stdio.h>
*/
import "C"
// The cgo preamble is C code, kept whole at every level:
//
// #include <math.h>
// static int twice(int x) { return 2 * x; }
import "C"
import (
	"fmt"
)
// Doc for T.
type T struct {
	// A is a field.
	A int
	B string
}
const raw = `// not a comment

/* nor this */`
// Add adds.
func Add(a, b int) int {
	return a + b
}
func (t *T) M() {
	f := func() {
		fmt.Println("/* x */")
	}
	f()
}
func one() int { return 1 }
// Documented is summarized.
// Still the summary.
//
// Details, dropped at signatures.
//
//go:noinline
func Documented() int {
	return 1 + 1
}
// RC is summarized like any doc.
type RC interface {
	// Stringer is embedded: its doc stays.
	fmt.Stringer
}
func local() int {
	var n = 1
	return n
}
//sys	getpid() (pid int)
func ExampleAdd() {
	fmt.Println(Add(1, 2))
	// Output:
	// 3
}
